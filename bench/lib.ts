/**
 * Benchmark helpers: start servers in child processes (so the load generator does not share their
 * event loop), run autocannon against them, and print/write result tables.
 */
import autocannon from "autocannon";
import { createRequire } from "node:module";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";

/**
 * autocannon 9 appends every response body to a string (`req.body += chunk`, decoding the bytes as
 * UTF-8) even when nothing reads it; only `onResponse`, `expectBody` and `verifyBody` do, and this
 * harness uses none of them. On the 118 KB enterprise pages that decoding was most of the load
 * generator's core (480 MB/s), so the figures measured autocannon, not the server. Counting bytes and
 * latency is unaffected: `addByteCount` and the parser's timing stay as they are.
 */
const PipelinedRequestsQueue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js") as { prototype: { addBody: (data: unknown) => void } };
PipelinedRequestsQueue.prototype.addBody = () => {};

export type LoadResult = { name: string; connections: number; requestsPerSec: number; p50: number; p99: number; errors: number; non2xx: number; bytesPerRequest: number };

/** Start `node <args>` with `env`, resolve when `readyUrl` answers 2xx/3xx (within `timeoutMs`, else kill it and throw). */
export async function startProcess(args: string[], env: Record<string, string>, readyUrl: string, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  // Keep the last 64 KB of output for error messages: the server logs a line per request.
  const keep = (d: Buffer) => {
    log = (log + d).slice(-65_536);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(readyUrl);
      if (res.status < 400) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`server not ready at ${readyUrl}:\n${log}`);
}

/** Stop a child process and wait for it. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** Picks the index of the next URL of a scenario's list (round-robin when absent). */
export type Sampler = (count: number) => number;

/**
 * A Zipf-like popularity sampler: index k (0-based, most popular first) is drawn with probability
 * proportional to 1 / (k + 1)^alpha. Web and shop page requests follow such a law, with alpha between
 * 0.64 and 0.83 in Breslau et al., "Web Caching and Zipf-like Distributions" (INFOCOM 1999).
 * Seeded (mulberry32), so a run is reproducible; the state carries on across calls (warm-up, then the
 * measured run keeps drawing new requests rather than replaying the warm-up).
 */
export function zipfSampler(alpha: number, seed = 42): Sampler {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let cdf: Float64Array | null = null;
  return (count) => {
    if (!cdf || cdf.length !== count) {
      cdf = new Float64Array(count);
      let sum = 0;
      for (let k = 0; k < count; k++) cdf[k] = sum += 1 / (k + 1) ** alpha;
      for (let k = 0; k < count; k++) cdf[k] /= sum;
    }
    const u = random();
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Run autocannon: each connection's next request is `paths[sampler(n)]`, or the paths round-robin
 * when no sampler is given (one path = a hot URL).
 * @param seconds duration in s
 */
export async function load(
  name: string,
  baseUrl: string,
  paths: string[],
  connections: number,
  seconds: number,
  headers?: Record<string, string>,
  requests?: { path: string; headers?: Record<string, string> }[],
  sampler?: Sampler,
): Promise<LoadResult> {
  let i = 0;
  const list = requests?.length ? requests : paths.map((path) => ({ path, headers: undefined }));
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    headers,
    requests: [
      {
        setupRequest: (req) => {
          const next = list[sampler ? sampler(list.length) : i++ % list.length];
          return { ...req, path: next.path, headers: { ...req.headers, ...next.headers } };
        },
      },
    ],
  });
  return {
    name,
    connections,
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerRequest: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

/**
 * `load` (after an unmeasured warm-up of `warmupSeconds`) in a fresh child process (bench/load-child.ts),
 * so one scenario's client-side garbage never slows the next. `zipfAlpha` draws the paths by popularity.
 */
export async function loadInChild(job: {
  name: string;
  baseUrl: string;
  paths: string[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  requests?: { path: string; headers?: Record<string, string> }[];
  zipfAlpha?: number;
}): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "chorus-load-"));
  const file = join(dir, "job.json");
  writeFileSync(file, JSON.stringify(job));
  try {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, "bench/load-child.ts"), file], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`load child for "${job.name}" exited with ${code}`);
    return JSON.parse(out.trim().split("\n").pop()!) as LoadResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Send JSON POSTs to `baseUrl` at `perSecond` (each from `next()`) until `stop()` is called: a steady
 * trickle of writes beside a read load (votes on a busy shop). Runs in this process; ~10 fetches/s cost
 * it next to nothing. @returns `stop`, which resolves to the counts once every POST sent has answered.
 */
export function writeLoad(baseUrl: string, perSecond: number, next: () => { path: string; body: unknown }): { stop(): Promise<{ accepted: number; failed: number }> } {
  let accepted = 0;
  let failed = 0;
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
    for (; sent < due; sent++) {
      const { path, body } = next();
      const p = fetch(baseUrl + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        .then(
          async (res) => {
            await res.arrayBuffer();
            if (res.ok) accepted++;
            else failed++;
          },
          () => void failed++,
        )
        .finally(() => pending.delete(p));
      pending.add(p);
    }
  }, 10);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return { accepted, failed };
    },
  };
}

/** Print rows as an aligned table. */
export function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width[i])).join("  ");
  console.log(line(cols));
  console.log(line(width.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

/** Write results as JSON under bench/results/<name>-<timestamp>.json; returns the path. */
export function writeResults(name: string, data: unknown): string {
  const dir = join(PROJECT_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/**
 * Varnish front figures for docs/performance.md ("Varnish front"): storefront reads through Varnish
 * (deploy/varnish/chorus.vcl) against the same reads sent to Chorus directly and a bare node:http
 * server, and the time from a write to the first fresh answer through the front (purge by content scope).
 *
 *   node bench/varnish.bench.ts        # BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 10,50)
 *
 * Chorus runs as `npm start` would (server/http/main.ts, demo store, CACHE_PURGE_URLS at the Varnish) on a
 * temp database; Varnish and the load generator (bench/lib.ts, autocannon in a fresh child per run) run
 * beside it on the same machine. Needs varnishd (apt-get install varnish varnish-modules) and `npm run build`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadInChild, printTable, startProcess, stopProcess, type LoadResult } from "./lib.ts";
import { DEMO_STORE_ID } from "../server/demo/demo.ts";
import { createServices } from "../server/services.ts";
import { freePort } from "../test/ports.ts";
import { findVarnishd, startVarnish } from "../test/varnish.ts";

if (!findVarnishd()) {
  console.error("varnishd is not installed: apt-get install -y varnish varnish-modules");
  process.exit(1);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 2;
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? "10,50").split(",").map(Number);
const HEADERS = { "accept-encoding": "gzip, deflate, br, zstd" };
const PURGE_SAMPLES = 30;

const dir = mkdtempSync(join(tmpdir(), "chorus-varnish-bench-"));
const [chorusPort, varnishPort, barePort] = [await freePort(3600, 3699), 0, 0];
let vPort = varnishPort;
while (vPort === 0 || vPort === chorusPort) vPort = await freePort(3600, 3699);
let bPort = barePort;
while (bPort === 0 || bPort === chorusPort || bPort === vPort) bPort = await freePort(3600, 3699);

const varnish = await startVarnish({ port: vPort, backends: [`127.0.0.1:${chorusPort}`] });
const databasePath = join(dir, "chorus.sqlite");
const direct = `http://127.0.0.1:${chorusPort}`;
const prefix = `/v1/stores/${DEMO_STORE_ID}`;
const chorus = await startProcess(
  ["server/http/main.ts"],
  {
    PORT: String(chorusPort),
    HOST: "127.0.0.1",
    DATABASE_PATH: databasePath,
    MEDIA_PATH: join(dir, "media"),
    CHORUS_DEMO: "1",
    DEMO_IMPORT: "before-listen",
    CHORUS_AI_WORKER: "0",
    CACHE_PURGE_URLS: `${varnish.url}/`,
    VOTES_PER_IP_PER_HOUR: "1000000",
  },
  `${direct}${prefix}/review_aggregate`,
);
const bare = await startProcess(["bench/bare-server.ts"], { PORT: String(bPort) }, `http://127.0.0.1:${bPort}/`);
await varnish.healthy();

const services = await createServices({ databasePath, mediaPath: join(dir, "media") });
const products = (await services.stores.topProducts(DEMO_STORE_ID, 10_000)).map((p) => p.productId);
await services.close();
const hot = [`${prefix}/products/shopify-${products[0]}/reviews`];
const spread = products.map((p) => `${prefix}/products/shopify-${p}/reviews`);

/** varnishstat counters of hits and misses (cache lookups). */
const counters = () => {
  const out = JSON.parse(execFileSync("varnishstat", ["-n", join(varnish.dir, "work"), "-1", "-j", "-f", "MAIN.cache_hit", "-f", "MAIN.cache_miss"], { encoding: "utf8" })) as {
    counters?: Record<string, { value: number }>;
  } & Record<string, { value: number }>;
  const c = out.counters ?? out;
  return { hit: c["MAIN.cache_hit"]!.value, miss: c["MAIN.cache_miss"]!.value };
};

type Row = LoadResult & { target: string; hitRatio?: string; vsBare: string };
const rows: Row[] = [];
for (const connections of CONNECTIONS) {
  const b = await loadInChild({ name: "bare node:http JSON", baseUrl: `http://127.0.0.1:${bPort}`, paths: ["/"], connections, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, headers: HEADERS });
  rows.push({ ...b, target: "bare", vsBare: "100%" });
  for (const [name, paths, zipf] of [
    ["product reviews (hot)", hot, false],
    [`product reviews (Zipf spread, ${spread.length} products)`, spread, true],
  ] as const) {
    for (const [target, baseUrl] of [
      ["direct", direct],
      ["varnish", varnish.url],
    ] as const) {
      const before = target === "varnish" ? counters() : null;
      const r = await loadInChild({ name, baseUrl, paths: [...paths], connections, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, headers: HEADERS, ...(zipf ? { zipfAlpha: 0.8 } : {}) });
      const after = before ? counters() : null;
      const hitRatio = before && after ? `${(((after.hit - before.hit) / Math.max(1, after.hit - before.hit + after.miss - before.miss)) * 100).toFixed(2)}%` : undefined;
      rows.push({ ...r, target, hitRatio, vsBare: `${Math.round((r.requestsPerSec / b.requestsPerSec) * 100)}%` });
    }
  }
}
printTable(
  rows.map((r) => ({
    scenario: r.name,
    target: r.target,
    conns: r.connections,
    "req/s": r.requestsPerSec,
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    "vs bare": r.vsBare,
    "hit ratio": r.hitRatio ?? "-",
    errors: r.errors,
    non2xx: r.non2xx,
  })),
);

// Purge to fresh: a helpful vote through the front on a cached product page, then read it through the
// front every 5 ms until the new count shows. Measured from the vote's answer (the commit) to the first fresh read.
const latencies: number[] = [];
for (let i = 0; i < PURGE_SAMPLES; i++) {
  const path = `${prefix}/products/shopify-${products[i % products.length]}/reviews`;
  const read = async () => (await (await fetch(varnish.url + path)).json()) as { reviews: { reviewId: string; helpfulCount: number }[] };
  const page = await read();
  await read(); // cached now
  const target = page.reviews[0]!;
  const vote = await fetch(`${varnish.url}${prefix}/reviews/${target.reviewId}/votes`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ vote: "helpful" }) });
  if (vote.status !== 200) throw new Error(`vote answered ${vote.status}: ${await vote.text()}`);
  const committed = performance.now();
  for (;;) {
    const now = await read();
    if (now.reviews.find((r) => r.reviewId === target.reviewId)!.helpfulCount > target.helpfulCount) break;
    if (performance.now() - committed > 5_000) throw new Error(`not fresh after 5 s: ${path}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  latencies.push(performance.now() - committed);
  await new Promise((r) => setTimeout(r, 50 + Math.random() * 200)); // votes at random phases of the 200 ms poll
}
latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(0);
console.log(`\nPurge to fresh through the front (${PURGE_SAMPLES} votes): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms`);

await stopProcess(bare);
await stopProcess(chorus);
await varnish.stop();
rmSync(dir, { recursive: true, force: true });

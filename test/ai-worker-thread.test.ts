/**
 * The AI worker thread (issue 8): the real server (`node server/http/main.ts`, the production entry) over a
 * temp SQLite file (a PostgreSQL database with CHORUS_TEST_POSTGRES_URL: test/test-databases.ts) seeded with real reviews. Proves that a queued job is completed by the thread and served,
 * that HTTP requests are answered quickly while the thread analyses reviews, that SIGTERM during a job exits
 * cleanly without losing the job, and that a crashing thread is restarted with backoff.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Piscina } from "piscina";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/config.ts";
import { openDatabase, sql, value, type Db } from "../server/db/database.ts";
import { aiRepo } from "../server/ai/ai.repo.ts";
import { startAiWorkerThread } from "../server/ai/worker-host.ts";
import { createServices, type Services } from "../server/services.ts";
import { adminPost, signInAgent } from "./admin-http.ts";
import { realReviews, seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import type { TestServer } from "./server.ts";
import { testDatabases } from "./test-databases.ts";

const dbs = testDatabases("chorus-ai-thread-");
const dir = dbs.dir;
/** PostgreSQL: one reading connection per database for the whole file (each connection is a thread of its own). */
const readers = new Map<string, Db>();
afterAll(async () => {
  for (const db of readers.values()) await db.close();
  await dbs.removeAll();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run `fn` with services over `databasePath` (embedded AI engine only), closing them afterwards. */
async function withServices<T>(databasePath: string, fn: (services: Services) => T | Promise<T>): Promise<T> {
  const services = await createServices({ databasePath, ai: { llm: null, translation: null } });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** Seed a fresh database with real reviews (AI auto-publish on) and queue jobs for `queue` products. */
async function seed(name: string, options: { productIds?: string[]; queue?: string[] }): Promise<string> {
  const databasePath = await dbs.location(`${name}.sqlite`);
  await withServices(databasePath, async (services) => {
    await seedRealReviews(services, { productIds: options.productIds });
    await services.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: true });
    for (const id of options.queue ?? []) await services.ai.enqueue(TEST_STORE_ID, { type: "product", id }, "test");
  });
  return databasePath;
}

/** SIGTERM a server from `startServer`; it must exit with code 0. */
async function stopServer(server: { child: ChildProcess; exited: Promise<number | null> }): Promise<void> {
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
}

/** Start `node server/http/main.ts` on a free port; resolves once it listens. */
async function startServer(databasePath: string, env: Record<string, string> = {}) {
  // the embedded engine only: no language model or translation service from the caller's environment
  const { CHORUS_LLM_BASE_URL: _llm, CHORUS_TRANSLATE_URL: _translate, ...parentEnv } = process.env;
  const child = spawn(process.execPath, ["server/http/main.ts"], {
    cwd: PROJECT_ROOT,
    env: {
      ...parentEnv,
      ...(dbs.postgres ? { DATABASE_URL: databasePath } : { DATABASE_PATH: databasePath }),
      MEDIA_PATH: join(dir, "media"),
      PORT: "0",
      HOST: "127.0.0.1",
      CHORUS_DEMO: "0",
      RESPONSE_CACHE: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  let port = 0;
  let gone = false;
  void exited.then(() => (gone = true));
  while (!port && !gone && Date.now() < deadline) {
    port = Number(/listening on http:\/\/localhost:(\d+)/.exec(out)?.[1] ?? 0);
    if (!port) await sleep(50);
  }
  if (!port) throw new Error(`server did not start:\n${out}`);
  const base = `http://127.0.0.1:${port}`;
  return { child, exited, output: () => out, base, url: (path: string) => `${base}/v1/stores/${TEST_STORE_ID}${path}` };
}

/** Run `fn` on a separate read-only connection (as a second process would): a new one per call on SQLite, one kept per database on PostgreSQL. */
async function reading<T>(databasePath: string, fn: (db: Db) => Promise<T>): Promise<T> {
  if (dbs.postgres) {
    let db = readers.get(databasePath);
    if (!db) readers.set(databasePath, (db = await openDatabase(databasePath, { readonly: true, poolSize: 1 })));
    return fn(db);
  }
  const db = await openDatabase(databasePath, { readonly: true });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** Queue counts, read on a separate read-only connection. */
const jobCounts = (databasePath: string) => reading(databasePath, (db) => aiRepo(db).jobCounts());

/** Real products with at least 30 reviews, most reviewed first, until `reviews` reviews are covered. */
function busyProducts(reviews: number): string[] {
  const counts = new Map<string, number>();
  for (const r of realReviews()) if (r.productId) counts.set(r.productId, (counts.get(r.productId) ?? 0) + 1);
  const out: string[] = [];
  let total = 0;
  for (const [id, n] of [...counts].filter(([, n]) => n >= 30).sort((a, b) => b[1] - a[1])) {
    if (total >= reviews) break;
    out.push(id);
    total += n;
  }
  return out;
}

describe("AI worker thread in the HTTP server", () => {
  it("a job the HTTP process queues (merchant Regenerate) is completed by the thread; the endpoint serves it and the log shows it", async () => {
    const databasePath = await seed("queued", { productIds: ["1088"] }); // 30 real reviews, nothing queued
    await withServices(databasePath, (services) => services.admin.createUser({ email: "merchant@shop.test", password: "merchant password", storeIds: [TEST_STORE_ID] }));
    const server = await startServer(databasePath, { CHORUS_AI_SWEEP_INTERVAL_MS: "0" }); // no sweep: only the merchant's job
    try {
      // the admin helpers need only url(): the spawned server stands in for a TestServer
      const t = { baseUrl: server.base, url: (path: string) => server.base + path } as TestServer;
      const agent = await signInAgent(t, "merchant@shop.test", "merchant password", TEST_STORE_ID);
      await sleep(300); // the thread is up and idle
      const res = await adminPost(t, agent, `/admin/stores/${TEST_STORE_ID}/ai`, { intent: "regenerate", scopeType: "product", scopeId: "1088" });
      expect(await res.text()).toContain("Regeneration queued");
      await expect
        .poll(async () => await (await fetch(server.url("/products/shopify-1088/reviews_summary"))).json(), { timeout: 30_000, interval: 200 })
        .toHaveProperty("reviewsSummary.contributingReviewCount", 30);
      expect(await jobCounts(databasePath)).toMatchObject({ queued: 0, running: 0, done: 1 });
      await expect.poll(server.output).toMatch(/AI content generated for 1 scope in \d+ s \(latest: product 1088, 30 reviews, embedded\)/);
    } finally {
      await stopServer(server);
    }
  }, 60_000);

  it(
    "answers each of 20 sequential GETs in < 250 ms while the thread sweeps thousands of real reviews",
    async () => {
      const databasePath = await seed("sweep", { productIds: busyProducts(5000) });
      // the first sweep runs at once and queues every product with 30+ reviews
      // AIW_MODE=inline runs the worker on the HTTP event loop instead: this test then fails (checked, docs/ai.md)
      const server = await startServer(databasePath, { CHORUS_AI_WORKER: process.env.AIW_MODE ?? "1" });
      try {
        await expect.poll(server.output, { timeout: 30_000 }).toMatch(/AI: \d+ products or groups queued/);
        await expect.poll(async () => (await jobCounts(databasePath)).running, { timeout: 30_000, interval: 20 }).toBe(1);
        const get = async () => {
          const t0 = performance.now();
          const res = await fetch(server.url("/reviews"));
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          return performance.now() - t0;
        };
        for (let i = 0; i < 3; i++) await get(); // warm-up: the first requests of a fresh process compile the route
        const times: number[] = [];
        for (let i = 0; i < 20; i++) times.push(await get());
        const after = await jobCounts(databasePath);
        // the sweep was still in progress for the whole window
        expect(after.queued + after.running).toBeGreaterThan(0);
        const report = `latencies: ${times.map((t) => t.toFixed(0)).join(", ")} ms`;
        expect(Math.max(...times), report).toBeLessThan(250);
        // on the HTTP event loop, each analysis batch (~100 reviews of NLP) delays whatever request arrives
        // during it: the sum is several times higher there (see docs/ai.md)
        expect(
          times.reduce((a, b) => a + b, 0),
          report,
        ).toBeLessThan(1000);
      } finally {
        await stopServer(server);
      }
    },
    dbs.postgres ? 240_000 : 90_000,
  ); // PostgreSQL: seeding 5,000 reviews through the write path takes longer

  it("SIGTERM while a job runs: exits cleanly (0) and the job is finished or queued again, never lost", async () => {
    const databasePath = await seed("sigterm", { productIds: busyProducts(2000) });
    const server = await startServer(databasePath);
    await expect.poll(async () => (await jobCounts(databasePath)).running, { timeout: 30_000, interval: 20 }).toBe(1);
    const running = await reading(databasePath, (db) => value<number>(db, sql`SELECT job_id FROM ai_jobs WHERE status = 'running'`));
    await stopServer(server);
    expect(server.output()).toMatch(/Stopped\./);

    await withServices(databasePath, async (services) => {
      const job = (await services.aiData.listJobs(TEST_STORE_ID)).find((j) => j.job_id === running)!;
      const versions = await services.ai.versions(TEST_STORE_ID, { type: job.scope_type, id: job.scope_id });
      if (job.status === "done")
        expect(versions).toHaveLength(1); // finished: its whole version is there
      else {
        expect(versions).toHaveLength(0); // interrupted: no half version, and the next start queues it again
        await services.aiData.requeueRunning();
        expect((await services.aiData.listJobs(TEST_STORE_ID)).find((j) => j.job_id === running)?.status).toBe("queued");
      }
      // every finished job has exactly one version, every other job none
      for (const j of await services.aiData.listJobs(TEST_STORE_ID)) {
        expect(await services.ai.versions(TEST_STORE_ID, { type: j.scope_type, id: j.scope_id })).toHaveLength(j.status === "done" ? 1 : 0);
      }
    });
  }, 90_000);
});

describe("AI worker thread host (the AI loop as a task of the worker pool)", () => {
  it("logs a loop that cannot start and starts it again with growing backoff, and stop() ends it", async () => {
    const blocker = join(dir, "not-a-directory");
    writeFileSync(blocker, "");
    const lines: string[] = [];
    // the database path lies under a file: opening it throws in the thread at start-up
    const thread = startAiWorkerThread({ databasePath: join(blocker, "chorus.sqlite"), log: (l) => lines.push(l), backoffMs: 50, maxBackoffMs: 200 });
    await expect.poll(() => thread.restarts, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await thread.stop();
    const delays = lines
      .map((l) => /restarting in (\d+) ms/.exec(l)?.[1])
      .filter(Boolean)
      .map(Number);
    expect(delays.slice(0, 4)).toEqual([50, 100, 200, 200].slice(0, Math.min(4, delays.length)));
    expect(lines.some((l) => /AI worker loop failed: .*(ENOTDIR|EEXIST)/.test(l))).toBe(true);
    const restartsAtStop = thread.restarts;
    await sleep(400);
    expect(thread.restarts).toBe(restartsAtStop); // stopped: no more restarts
  }, 30_000);

  it("stop() terminates a thread still busy after the timeout: the job stays running, no half version, and it is queued again", async () => {
    const databasePath = await seed("terminate", { productIds: ["1078"], queue: ["1078"] }); // 1,024 real reviews
    const lines: string[] = [];
    const thread = startAiWorkerThread({ databasePath, log: (l) => lines.push(l), ai: { llm: null, translation: null, sweepIntervalMs: 0 } });
    await expect.poll(async () => (await jobCounts(databasePath)).running, { timeout: 20_000, interval: 10 }).toBe(1);
    await thread.stop(20);
    expect(lines.some((l) => /did not stop within 20 ms; terminated/.test(l))).toBe(true);
    // the terminated thread's connection is gone: this connection can write at once
    await withServices(databasePath, async (services) => {
      services.db.sqlite?.pragma("busy_timeout = 0");
      expect(await services.aiData.jobCounts()).toMatchObject({ running: 1, done: 0 });
      expect(await services.ai.versions(TEST_STORE_ID, { type: "product", id: "1078" })).toHaveLength(0);
      expect(await services.aiData.requeueRunning()).toBe(1);
      expect(await services.aiData.jobCounts()).toMatchObject({ queued: 1, running: 0 });
    });
  }, 30_000);

  it("threads that die during a job leave the pool working: the loop starts again on a new thread and finishes that job", async () => {
    const databasePath = await seed("thread-dies", { productIds: ["1078"], queue: ["1078"] }); // 1,024 real reviews
    const lines: string[] = [];
    // The pool the server shares with read misses: two threads, no read module (as with READ_WORKERS=1, minus the reads).
    const pool = new Piscina({ minThreads: 2, maxThreads: 2, idleTimeout: Infinity, atomics: "disabled" });
    const thread = startAiWorkerThread({ pool, databasePath, log: (l) => lines.push(l), backoffMs: 50, ai: { llm: null, translation: null, sweepIntervalMs: 0 } });
    try {
      await expect.poll(async () => (await jobCounts(databasePath)).running, { timeout: 20_000, interval: 10 }).toBe(1);
      // End the pool's threads, the loop's among them, in the middle of the job (as a native crash or an OOM would).
      expect(pool.threads).toHaveLength(2);
      await Promise.all(pool.threads.map((worker) => worker.terminate()));
      await expect.poll(() => thread.restarts, { timeout: 10_000 }).toBe(1);
      expect(lines.some((l) => /AI worker loop failed: .*exited/.test(l))).toBe(true);
      // The loop started again queues the interrupted job again and completes it: one version, nothing lost.
      await expect.poll(() => jobCounts(databasePath), { timeout: 60_000, interval: 100 }).toMatchObject({ queued: 0, running: 0, done: 1 });
      await withServices(databasePath, async (services) => expect(await services.ai.versions(TEST_STORE_ID, { type: "product", id: "1078" })).toHaveLength(1));
      expect(lines.some((l) => /1 interrupted jobs queued again/.test(l))).toBe(true);
      expect(pool.threads).toHaveLength(2); // piscina replaced the dead threads
    } finally {
      await thread.stop();
      await pool.destroy();
    }
  }, 90_000);
});

/**
 * The sliding windows behind the submission and survey-response limits (submission-limits.ts `WindowCounter`):
 * the same rules in memory (SQLite, one process) and in PostgreSQL's `rate_limit_hits` (every node), and on
 * PostgreSQL (`npm run test:postgres`, env CHORUS_TEST_POSTGRES_URL) two nodes sharing one window, and four threads
 * with their own pools racing for the last places of one window: together they count exactly `max`.
 */
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/test-databases.ts";
import { one, openDatabase, sql, type Db } from "../db/database.ts";
import { memoryWindowCounter, sharedWindowCounter, submissionLimiter, type WindowCounter } from "./submission-limits.ts";

const dbs = testDatabases("chorus-windows-");
let location: string;
const opened: Db[] = [];
const open = async (): Promise<Db> => {
  const db = await openDatabase(location);
  opened.push(db);
  return db;
};

beforeAll(async () => {
  location = await dbs.location("windows.sqlite");
});
afterAll(async () => {
  for (const db of opened) await db.close();
  await dbs.removeAll();
});

const HOUR = 3_600_000;
const rule = { max: 3, windowMs: HOUR };

/** The counters under test: memory always; the shared table on PostgreSQL. */
const counters = (): [string, () => Promise<WindowCounter>][] => [
  ["memory", () => Promise.resolve(memoryWindowCounter())],
  ...(dbs.postgres ? [["rate_limit_hits", async () => sharedWindowCounter(await open(), `test-${crypto.randomUUID()}`)] as [string, () => Promise<WindowCounter>]] : []),
];

describe.each(counters())("%s windows", (_, make) => {
  it("count up to max, then refuse with the oldest hit; keys are apart", async () => {
    const c = await make();
    const t0 = 1_800_000_000_000;
    expect([await c.take("a", rule, t0), await c.take("a", rule, t0 + 1), await c.take("a", rule, t0 + 2)]).toEqual([{ counted: true }, { counted: true }, { counted: true }]);
    expect(await c.take("a", rule, t0 + 3)).toEqual({ counted: false, oldestMs: t0 });
    expect(await c.take("b", rule, t0 + 3)).toEqual({ counted: true });
  });

  it("slide: a hit older than the window frees its place; a refund frees the hit it names", async () => {
    const c = await make();
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 3; i++) expect((await c.take("k", rule, t0 + 10 * i)).counted).toBe(true);
    expect((await c.take("k", rule, t0 + HOUR - 1)).counted).toBe(false);
    expect(await c.take("k", rule, t0 + HOUR)).toEqual({ counted: true }); // t0 left the window
    expect(await c.take("k", rule, t0 + HOUR + 1)).toEqual({ counted: false, oldestMs: t0 + 10 });
    await c.refund("k", t0 + HOUR);
    expect(await c.take("k", rule, t0 + HOUR + 2)).toEqual({ counted: true });
    await c.reset();
    expect(await c.take("k", rule, t0 + HOUR + 3)).toEqual({ counted: true });
  });

  it("a submission refused by its e-mail window uses none of its address's quota", async () => {
    const limiter = submissionLimiter({ perIp: { max: 2, windowMs: HOUR }, perEmail: { max: 1, windowMs: HOUR } }, await make());
    await limiter.consume("203.0.113.5", "a@example.com");
    await expect(limiter.consume("203.0.113.5", "A@example.com ")).rejects.toThrow(/with this e-mail/);
    await limiter.consume("203.0.113.5", "b@example.com");
    await expect(limiter.consume("203.0.113.5", "c@example.com")).rejects.toThrow(/from this network/);
  });
});

describe.runIf(dbs.postgres)("PostgreSQL: one window for every node", () => {
  it("two nodes' limiters (two pools) share each address's window", async () => {
    const name = `nodes-${crypto.randomUUID()}`;
    const [a, b] = [submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(await open(), name)),
      submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(await open(), name))];
    const results: number[] = [];
    for (const [i, node] of [a, b, a, b, a].entries()) {
      try {
        await node.consume("198.51.100.9", `s${i}@example.com`);
        results.push(201);
      } catch {
        results.push(429);
      }
    }
    expect(results).toEqual([201, 201, 201, 429, 429]);
  });

  it("one pool, 60 hits at once on one key with max 25 (concurrent statements on 10 connections): exactly 25 counted", async () => {
    const counter = sharedWindowCounter(await open(), `burst-${crypto.randomUUID()}`);
    const now = Date.now();
    const hits = await Promise.all(Array.from({ length: 60 }, (_, i) => counter.take("k", { max: 25, windowMs: HOUR }, now + i)));
    expect(hits.filter((h) => h.counted)).toHaveLength(25);
  });

  it("four threads with their own connections, 40 hits each at once on one key with max 25: exactly 25 counted", async () => {
    const name = `race-${crypto.randomUUID()}`;
    const source = `
      import { workerData, parentPort } from "node:worker_threads";
      const { openDatabase } = await import(workerData.database);
      const { sharedWindowCounter } = await import(workerData.limits);
      const db = await openDatabase(workerData.location);
      const counter = sharedWindowCounter(db, workerData.name);
      const go = new Promise((resolve) => parentPort.once("message", resolve));
      parentPort.postMessage("ready");
      await go;
      let counted = 0;
      for (let i = 0; i < 40; i++) if ((await counter.take("k", { max: 25, windowMs: 3600000 }, Date.now())).counted) counted++;
      await db.close();
      parentPort.postMessage(counted);
    `;
    const data = {
      database: new URL("../db/database.ts", import.meta.url).href, limits: new URL("./submission-limits.ts", import.meta.url).href,
      location, name,
    };
    const workers = Array.from({ length: 4 }, () => new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: data }));
    // Each thread says "ready" once connected, then its count.
    const messages = workers.map((w) => {
      const queue: unknown[] = [];
      const waiting: ((m: unknown) => void)[] = [];
      w.on("message", (m) => (waiting.length ? waiting.shift()!(m) : queue.push(m)));
      return () => new Promise<unknown>((resolve, reject) => { if (queue.length) resolve(queue.shift()); else waiting.push(resolve); w.once("error", reject); });
    });
    expect(await Promise.all(messages.map((next) => next()))).toEqual(["ready", "ready", "ready", "ready"]);
    for (const w of workers) w.postMessage("go");
    const total = ((await Promise.all(messages.map((next) => next()))) as number[]).reduce((s, n) => s + n, 0);
    expect(total).toBe(25);
    const row = await one<{ n: number }>(await open(), sql`SELECT cardinality(hits_ms) AS n FROM rate_limit_hits WHERE limit_key = ${`${name}:k`}`);
    expect(row!.n).toBe(25);
  }, 120_000);
});

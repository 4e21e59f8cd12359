/**
 * The shared sliding window on PostgreSQL (submission-limits.ts `sharedWindowCounter`; PostgreSQL only:
 * vitest.postgres.config.ts through test/engine-suites.ts): two nodes sharing one window, and four threads with
 * their own pools racing for the last places of one window: together they count exactly `max`.
 */
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/test-databases.ts";
import { one, openDatabase, sql, type Db } from "../db/database.ts";
import { sharedWindowCounter, submissionLimiter } from "./submission-limits.ts";

if (!process.env.CHORUS_TEST_POSTGRES_URL) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
const dbs = testDatabases("chorus-windows-pg-");
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

describe("PostgreSQL: one window for every node", () => {
  it("two nodes' limiters (two pools) share each address's window", async () => {
    const name = `nodes-${crypto.randomUUID()}`;
    const [a, b] = [
      submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(await open(), name)),
      submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(await open(), name)),
    ];
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
      database: new URL("../db/database.ts", import.meta.url).href,
      limits: new URL("./submission-limits.ts", import.meta.url).href,
      location,
      name,
    };
    const workers = Array.from({ length: 4 }, () => new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: data }));
    // Each thread says "ready" once connected, then its count.
    const messages = workers.map((w) => {
      const queue: unknown[] = [];
      const waiting: ((m: unknown) => void)[] = [];
      w.on("message", (m) => (waiting.length ? waiting.shift()!(m) : queue.push(m)));
      return () =>
        new Promise<unknown>((resolve, reject) => {
          if (queue.length) resolve(queue.shift());
          else waiting.push(resolve);
          w.once("error", reject);
        });
    });
    expect(await Promise.all(messages.map((next) => next()))).toEqual(["ready", "ready", "ready", "ready"]);
    for (const w of workers) w.postMessage("go");
    const total = ((await Promise.all(messages.map((next) => next()))) as number[]).reduce((s, n) => s + n, 0);
    expect(total).toBe(25);
    const row = await one<{ n: number }>(await open(), sql`SELECT cardinality(hits_ms) AS n FROM rate_limit_hits WHERE limit_key = ${`${name}:k`}`);
    expect(row!.n).toBe(25);
  }, 120_000);
});

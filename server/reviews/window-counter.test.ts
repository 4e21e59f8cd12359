/**
 * The sliding windows behind the submission and survey-response limits (submission-limits.ts `WindowCounter`):
 * the same rules in memory (SQLite, one process) and in PostgreSQL's `rate_limit_hits` (every node), and on
 * PostgreSQL (`npm run test:postgres`, env CHORUS_TEST_POSTGRES_URL) two nodes sharing one window, and four threads
 * with their own connections racing for the last places of one window: together they count exactly `max`.
 */
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/test-databases.ts";
import { openDatabase, type Db } from "../db/database.ts";
import { memoryWindowCounter, sharedWindowCounter, submissionLimiter, type WindowCounter } from "./submission-limits.ts";

const dbs = testDatabases("chorus-windows-");
let location: string;
const opened: Db[] = [];
const open = (): Db => {
  const db = openDatabase(location);
  opened.push(db);
  return db;
};

beforeAll(async () => {
  location = await dbs.location("windows.sqlite");
});
afterAll(async () => {
  for (const db of opened) db.close();
  await dbs.removeAll();
});

const HOUR = 3_600_000;
const rule = { max: 3, windowMs: HOUR };

/** The counters under test: memory always; the shared table on PostgreSQL. */
const counters = (): [string, () => WindowCounter][] => [
  ["memory", () => memoryWindowCounter()],
  ...(dbs.postgres ? [["rate_limit_hits", () => sharedWindowCounter(open(), `test-${crypto.randomUUID()}`)] as [string, () => WindowCounter]] : []),
];

describe.each(counters())("%s windows", (_, make) => {
  it("count up to max, then refuse with the oldest hit; keys are apart", () => {
    const c = make();
    const t0 = 1_800_000_000_000;
    expect([c.take("a", rule, t0), c.take("a", rule, t0 + 1), c.take("a", rule, t0 + 2)]).toEqual([{ counted: true }, { counted: true }, { counted: true }]);
    expect(c.take("a", rule, t0 + 3)).toEqual({ counted: false, oldestMs: t0 });
    expect(c.take("b", rule, t0 + 3)).toEqual({ counted: true });
  });

  it("slide: a hit older than the window frees its place; a refund frees the hit it names", () => {
    const c = make();
    const t0 = 1_800_000_000_000;
    for (let i = 0; i < 3; i++) expect(c.take("k", rule, t0 + 10 * i).counted).toBe(true);
    expect(c.take("k", rule, t0 + HOUR - 1).counted).toBe(false);
    expect(c.take("k", rule, t0 + HOUR)).toEqual({ counted: true }); // t0 left the window
    expect(c.take("k", rule, t0 + HOUR + 1)).toEqual({ counted: false, oldestMs: t0 + 10 });
    c.refund("k", t0 + HOUR);
    expect(c.take("k", rule, t0 + HOUR + 2)).toEqual({ counted: true });
    c.reset();
    expect(c.take("k", rule, t0 + HOUR + 3)).toEqual({ counted: true });
  });

  it("a submission refused by its e-mail window uses none of its address's quota", () => {
    const limiter = submissionLimiter({ perIp: { max: 2, windowMs: HOUR }, perEmail: { max: 1, windowMs: HOUR } }, make());
    limiter.consume("203.0.113.5", "a@example.com");
    expect(() => limiter.consume("203.0.113.5", "A@example.com ")).toThrow(/with this e-mail/);
    limiter.consume("203.0.113.5", "b@example.com");
    expect(() => limiter.consume("203.0.113.5", "c@example.com")).toThrow(/from this network/);
  });
});

describe.runIf(dbs.postgres)("PostgreSQL: one window for every node", () => {
  it("two nodes' limiters (two connections) share each address's window", () => {
    const name = `nodes-${crypto.randomUUID()}`;
    const [a, b] = [submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(open(), name)),
      submissionLimiter({ perIp: { max: 3, windowMs: HOUR }, perEmail: { max: 100, windowMs: HOUR } }, sharedWindowCounter(open(), name))];
    const results = [a, b, a, b, a].map((node, i) => {
      try {
        node.consume("198.51.100.9", `s${i}@example.com`);
        return 201;
      } catch {
        return 429;
      }
    });
    expect(results).toEqual([201, 201, 201, 429, 429]);
  });

  it("four threads with their own connections, 40 hits each at once on one key with max 25: exactly 25 counted", async () => {
    const name = `race-${crypto.randomUUID()}`;
    const source = `
      import { workerData, parentPort } from "node:worker_threads";
      const { openDatabase } = await import(workerData.database);
      const { sharedWindowCounter } = await import(workerData.limits);
      const db = openDatabase(workerData.location);
      const counter = sharedWindowCounter(db, workerData.name);
      const start = new Int32Array(workerData.start);
      parentPort.postMessage("ready");
      Atomics.wait(start, 0, 0);
      let counted = 0;
      for (let i = 0; i < 40; i++) if (counter.take("k", { max: 25, windowMs: 3600000 }, Date.now()).counted) counted++;
      db.close();
      parentPort.postMessage(counted);
    `;
    const start = new SharedArrayBuffer(4);
    const data = {
      database: new URL("../db/database.ts", import.meta.url).href, limits: new URL("./submission-limits.ts", import.meta.url).href,
      location, name, start,
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
    Atomics.store(new Int32Array(start), 0, 1);
    Atomics.notify(new Int32Array(start), 0);
    const total = ((await Promise.all(messages.map((next) => next()))) as number[]).reduce((s, n) => s + n, 0);
    expect(total).toBe(25);
    const row = open().prepare("SELECT cardinality(hits_ms) AS n FROM rate_limit_hits WHERE limit_key = ?").get(`${name}:k`) as { n: number };
    expect(row.n).toBe(25);
  }, 120_000);
});

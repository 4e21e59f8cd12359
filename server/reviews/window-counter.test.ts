/**
 * The sliding windows behind the submission and survey-response limits (submission-limits.ts `WindowCounter`):
 * the same rules in memory (SQLite, one process) and in PostgreSQL's `rate_limit_hits` (every node). Two nodes sharing
 * one window on PostgreSQL: window-counter.postgres.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/test-databases.ts";
import { openDatabase, type Db } from "../db/database.ts";
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

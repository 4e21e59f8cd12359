import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { all, exec, one, openDatabase, readSnapshot, run, sql, value } from "./database.ts";

describe("openDatabase: prepared statement cache", () => {
  it("returns the same statement for the same SQL text", async () => {
    const db = await openDatabase(":memory:");
    const sqlite = db.sqlite!;
    expect(sqlite.prepare("SELECT 1 AS one")).toBe(sqlite.prepare("SELECT 1 AS one"));
    expect(sqlite.prepare("SELECT 2 AS two")).not.toBe(sqlite.prepare("SELECT 1 AS one"));
    await db.close();
  });

  it("never carries one call site's pluck() or raw() into another's", async () => {
    const db = await openDatabase(":memory:");
    const sqlite = db.sqlite!;
    expect(sqlite.prepare("SELECT 1 AS one").pluck().get()).toBe(1);
    expect(sqlite.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 });
    expect(sqlite.prepare("SELECT 1 AS one").raw().get()).toEqual([1]);
    expect(sqlite.prepare("SELECT 1 AS one").all()).toEqual([{ one: 1 }]);
    // The query helpers (Kysely's driver prepares through the same cache) read rows as rows after a pluck().
    expect(await one(db, sql<{ one: number }>`SELECT 1 AS one`)).toEqual({ one: 1 });
    expect(await all(db, sql<{ one: number }>`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    await db.close();
  });

  it("still prepares write statements and reports their changes", async () => {
    const db = await openDatabase(":memory:");
    await exec(db, "CREATE TABLE t (x INTEGER)");
    expect((await run(db, sql`INSERT INTO t (x) VALUES (${1})`)).changes).toBe(1);
    expect((await run(db, sql`INSERT INTO t (x) VALUES (${2})`)).changes).toBe(1);
    expect(await value(db, sql<{ count: number }>`SELECT count(*) AS count FROM t`)).toBe(2);
    await db.close();
  });
});

describe("openDatabase: memory-mapped reads", () => {
  const dir = mkdtempSync(join(tmpdir(), "chorus-mmap-"));
  afterEach(() => vi.unstubAllEnvs());

  it("reads a file database without a memory map by default (commits by other connections unmap it)", async () => {
    const db = await openDatabase(join(dir, "a.sqlite"));
    expect(db.sqlite!.pragma("mmap_size", { simple: true })).toBe(0);
    await db.close();
  });

  it("SQLITE_MMAP_BYTES maps that many bytes for reads", async () => {
    vi.stubEnv("SQLITE_MMAP_BYTES", String(2 ** 30));
    const db = await openDatabase(join(dir, "b.sqlite"));
    expect(db.sqlite!.pragma("mmap_size", { simple: true })).toBe(2 ** 30);
    await db.close();
  });

  it("a malformed SQLITE_MMAP_BYTES is refused with a message naming it", async () => {
    vi.stubEnv("SQLITE_MMAP_BYTES", "lots");
    await expect(openDatabase(join(dir, "c.sqlite"))).rejects.toThrow(/SQLITE_MMAP_BYTES/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("readSnapshot", () => {
  it("its reads all see one snapshot while another connection commits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-snapshot-"));
    const a = await openDatabase(join(dir, "s.sqlite"));
    const b = await openDatabase(join(dir, "s.sqlite"));
    await exec(a, "CREATE TABLE t (x INTEGER)");
    const count = () => value<number>(a, sql<{ n: number }>`SELECT count(*) AS n FROM t`);
    const [before, after] = await readSnapshot(a, async () => {
      const first = await count();
      await run(b, sql`INSERT INTO t (x) VALUES (1)`);
      return [first, await count()];
    });
    expect(after).toBe(before);
    expect(await count()).toBe(1); // outside it, the commit is seen
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, readSnapshot } from "./database.ts";

describe("openDatabase: prepared statement cache", () => {
  it("returns the same statement for the same SQL text", () => {
    const db = openDatabase(":memory:");
    expect(db.prepare("SELECT 1 AS one")).toBe(db.prepare("SELECT 1 AS one"));
    expect(db.prepare("SELECT 2 AS two")).not.toBe(db.prepare("SELECT 1 AS one"));
    db.close();
  });

  it("never carries one call site's pluck() or raw() into another's", () => {
    const db = openDatabase(":memory:");
    expect(db.prepare("SELECT 1 AS one").pluck().get()).toBe(1);
    expect(db.prepare("SELECT 1 AS one").get()).toEqual({ one: 1 });
    expect(db.prepare("SELECT 1 AS one").raw().get()).toEqual([1]);
    expect(db.prepare("SELECT 1 AS one").all()).toEqual([{ one: 1 }]);
    db.close();
  });

  it("still prepares write statements and reports their changes", () => {
    const db = openDatabase(":memory:");
    db.exec("CREATE TABLE t (x INTEGER)");
    expect(db.prepare("INSERT INTO t (x) VALUES (?)").run(1).changes).toBe(1);
    expect(db.prepare("INSERT INTO t (x) VALUES (?)").run(2).changes).toBe(1);
    expect(db.prepare("SELECT count(*) FROM t").pluck().get()).toBe(2);
    db.close();
  });
});

describe("openDatabase: memory-mapped reads", () => {
  const dir = mkdtempSync(join(tmpdir(), "chorus-mmap-"));
  afterEach(() => vi.unstubAllEnvs());

  it("reads a file database without a memory map by default (commits by other connections unmap it)", () => {
    const db = openDatabase(join(dir, "a.sqlite"));
    expect(db.pragma("mmap_size", { simple: true })).toBe(0);
    db.close();
  });

  it("SQLITE_MMAP_BYTES maps that many bytes for reads", () => {
    vi.stubEnv("SQLITE_MMAP_BYTES", String(2 ** 30));
    const db = openDatabase(join(dir, "b.sqlite"));
    expect(db.pragma("mmap_size", { simple: true })).toBe(2 ** 30);
    db.close();
  });

  it("a malformed SQLITE_MMAP_BYTES is refused with a message naming it", () => {
    vi.stubEnv("SQLITE_MMAP_BYTES", "lots");
    expect(() => openDatabase(join(dir, "c.sqlite"))).toThrow(/SQLITE_MMAP_BYTES/);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("readSnapshot", () => {
  it("its reads all see one snapshot while another connection commits", () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-snapshot-"));
    const a = openDatabase(join(dir, "s.sqlite"));
    const b = openDatabase(join(dir, "s.sqlite"));
    a.exec("CREATE TABLE t (x INTEGER)");
    const count = () => a.prepare("SELECT count(*) FROM t").pluck().get();
    const [before, after] = readSnapshot(a, () => {
      const first = count();
      b.prepare("INSERT INTO t (x) VALUES (1)").run();
      return [first, count()];
    });
    expect(after).toBe(before);
    expect(count()).toBe(1); // outside it, the commit is seen
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

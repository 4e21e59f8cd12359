import { describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";

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

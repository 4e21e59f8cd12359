import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { all, exec, openDatabase, run, sql, values } from "./database.ts";
import { stableParameters } from "./stable-parameters.ts";

describe("stableParameters", () => {
  it("writes every positional and named parameter with a unary plus", () => {
    expect(stableParameters("SELECT * FROM t WHERE a = ? AND b = ?2 AND c = @c AND d = :d AND e = $e LIMIT ?")).toBe(
      "SELECT * FROM t WHERE a = +? AND b = +?2 AND c = +@c AND d = +:d AND e = +$e LIMIT +?",
    );
    expect(stableParameters("INSERT INTO t (a, b) VALUES (?,?)")).toBe("INSERT INTO t (a, b) VALUES (+?,+?)");
  });

  it("leaves string literals, quoted identifiers and comments alone", () => {
    const sql = `SELECT 'it''s ?', "col?", [a?b], \`c?\`, json_extract(x, '$.a') -- why?
      /* :not @a param? */ FROM t WHERE a = ? AND b LIKE ? ESCAPE '\\'`;
    expect(stableParameters(sql)).toBe(sql.replace("a = ?", "a = +?").replace("LIKE ?", "LIKE +?"));
  });

  it("does not take a $ inside an identifier for a parameter", () => {
    expect(stableParameters("SELECT a$b FROM t WHERE c = ?")).toBe("SELECT a$b FROM t WHERE c = +?");
  });

  it("changes nothing but the inserted plus signs (any text)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("?", "'", '"', "-", "/", "*", "\n", "a", " ", "=", "@", "1", "[", "]", "`", "$", ":") }), (sql) => {
        const out = stableParameters(sql);
        // Removing the plus signs gives back the input (the input has none of its own here).
        expect(out.replaceAll("+", "")).toBe(sql);
      }),
    );
  });

  it("a statement keeps its answers and its index through openDatabase", async () => {
    const db = await openDatabase(":memory:");
    await exec(db, "CREATE TABLE t (s TEXT, p TEXT, n INTEGER, status TEXT); CREATE INDEX t_sp ON t (s, p, n) WHERE status = 'ok'");
    for (const [s, p, n, status] of [
      ["a", "x", 1, "ok"],
      ["a", "x", 2, "ok"],
      ["a", "y", 3, "ok"],
      ["a", "x", 4, "no"],
      ["b", "x", 5, "ok"],
    ] as const) {
      await run(db, sql`INSERT INTO t VALUES (${s}, ${p}, ${n}, ${status})`);
    }
    const page = (s: string, p: string, n: number | string, limit: number | string) =>
      values<number>(db, sql`SELECT n FROM t WHERE s = ${s} AND status = 'ok' AND p = ${p} AND n < ${n} ORDER BY n DESC LIMIT ${limit}`);
    expect(await page("a", "x", 10, 5)).toEqual([2, 1]);
    expect(await page("a", "y", 10, 5)).toEqual([3]);
    expect(await page("b", "x", 10, 5)).toEqual([5]);
    expect(await page("a", "x", 2, 5)).toEqual([1]);
    expect(await page("a", "x", "10", "1")).toEqual([2]); // affinity: text bound to an integer column compares as before
    const plan = await all<{ detail: string }>(db, sql`EXPLAIN QUERY PLAN SELECT n FROM t WHERE s = ${"a"} AND status = 'ok' AND p = ${"x"} AND n < ${10} ORDER BY n DESC LIMIT ${5}`);
    expect(plan.map((r) => r.detail).join()).toContain("USING COVERING INDEX t_sp (s=? AND p=? AND n<?)");
    await db.close();
  });
});

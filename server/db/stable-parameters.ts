/**
 * Bound parameters that never make SQLite re-prepare a statement.
 *
 * SQLite records, while it plans a statement, which bound parameters the plan looked at (the
 * statement's "expmask"); binding a new value to one of them marks the statement expired, and the
 * next step compiles it again. The planner of the SQLite in better-sqlite3 13 looks at the `?` of
 * `col = ?` in statements with an ORDER BY (and a few other places), and better-sqlite3 binds every
 * parameter on every run, so such a statement was compiled on every run: a 25-row reviews page
 * 114 -> 59 µs, a media page 61 -> 5 µs, the earning rules 52 -> 19 µs (docs/performance.md).
 * Written `+?`, a parameter is an expression the planner does not look into: same value (unary
 * plus is a no-op in SQLite, and neither form has an affinity), same index use, no re-prepare.
 * (SQLite's SQLITE_DBCONFIG_ENABLE_QPSG would do the same, but better-sqlite3 does not expose it.)
 */

/**
 * `sql` with a unary plus before every bound parameter (`?`, `?NNN`, `@name`, `:name`, `$name`)
 * that is not inside a string literal, a quoted identifier or a comment (`a + ?` becomes `a + +?`, still valid).
 * @returns the rewritten SQL text (unchanged when it has no parameter).
 */
export function stableParameters(sql: string): string {
  let out = "";
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`") {
      const end = quotedEnd(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === "[") {
      const end = sql.indexOf("]", i + 1);
      const stop = end === -1 ? n : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (isParameterStart(sql, i)) {
      const end = parameterEnd(sql, i);
      out += `+${sql.slice(i, end)}`;
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the literal or identifier quoted with `quote` that starts at `start` (a doubled quote escapes it). */
function quotedEnd(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;

function isParameterStart(sql: string, i: number): boolean {
  const c = sql[i];
  if (c === "?") return true;
  if (c !== "@" && c !== ":" && c !== "$") return false;
  // A named parameter: the prefix is not inside an identifier (e.g. `a$b`) and a name follows.
  return (i === 0 || !IDENTIFIER_CHAR.test(sql[i - 1])) && /[A-Za-z_]/.test(sql[i + 1] ?? "");
}

function parameterEnd(sql: string, i: number): number {
  let j = i + 1;
  const pattern = sql[i] === "?" ? /[0-9]/ : /[A-Za-z0-9_$]/;
  while (j < sql.length && pattern.test(sql[j])) j++;
  return j;
}

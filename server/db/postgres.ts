/**
 * PostgreSQL behind the synchronous data layer (issue #26 item 2, ADR 0015): a connection object with the part
 * of better-sqlite3's `Database` API the data modules use, so every repo, service and transaction runs
 * unchanged on either engine.
 *
 * - `prepare(sql)` → statement with `get`, `all`, `run` (`{ changes, lastInsertRowid }`), `iterate`, `pluck`,
 *   `raw`, `expand`; `transaction(fn)` (with `.deferred`/`.immediate`/`.exclusive`, nested calls are savepoints);
 *   `exec(sql)`; `close()`; `inTransaction`.
 * - Queries go to one `pg` connection in a worker thread (server/db/postgres-worker.ts) and the caller waits for
 *   the answer (synckit, Atomics), as it waits for SQLite's file reads. About 0.1 ms per statement on loopback.
 * - SQL is written for SQLite: `?` and named parameters (`@name`, `:name`, `$name`) become `$1..$n`; `x IS ?`
 *   becomes `x IS NOT DISTINCT FROM $n`; `IFNULL(` becomes `COALESCE(`; a negative `LIMIT ?` (SQLite's "no
 *   limit") is bound as NULL. Result columns PostgreSQL folded to lower
 *   case (an unquoted `AS reviewCount`) get the spelling the SQL text gives them back. Anything else that differs
 *   is written per engine in the repos (`dialect(db)`).
 * - Values read back as better-sqlite3 gives them: bigint and numeric as numbers, booleans as 1/0, json as text.
 * - Errors: PostgreSQL's constraint errors carry better-sqlite3's codes (`SQLITE_CONSTRAINT_UNIQUE`, `_FOREIGNKEY`,
 *   `_CHECK`, `_NOTNULL`, and `_TRIGGER` for a trigger's `RAISE EXCEPTION`), with `pgCode` the SQLSTATE.
 * - A statement that fails inside a transaction undoes only itself (a savepoint around each of a transaction's
 *   first 32 writes), as in SQLite; in longer (bulk) transactions a failed write aborts the transaction.
 * - Write transactions (`transaction(db, fn)`, i.e. `.immediate()`, and plain `db.transaction(fn)()`) and every
 *   write statement outside a transaction (run as its own transaction) first take one database-wide advisory lock, so writers from every node are serialized as SQLite serializes writers:
 *   read-then-write code stays correct across nodes, and numbers drawn in a transaction grow in commit order.
 *   `.deferred()` (read snapshots) takes no lock and runs at REPEATABLE READ (one snapshot for all its reads).
 */
import { startWorkerThread } from "synckit";
import type { WorkerMessage, WorkerResult } from "./postgres-worker.ts";

const WORKER_PATH = new URL("./postgres-worker.ts", import.meta.url).pathname;
/** Longest wait for one statement before the caller gets an error (ms); PostgreSQL's own timeouts are shorter. */
const QUERY_TIMEOUT_MS = 60_000;

/** Writes per transaction that get their own savepoint (see `takeStatementSavepoint`). */
const STATEMENT_SAVEPOINTS = 32;

/** The advisory lock every write transaction takes first (an arbitrary constant: "chorus" in ASCII). */
export const WRITE_LOCK_KEY = 0x63686f727573;

/** Best-effort SQLite error codes for PostgreSQL SQLSTATEs (better-sqlite3's `SqliteError.code`). */
const SQLITE_CODES: Record<string, string> = {
  "23505": "SQLITE_CONSTRAINT_UNIQUE",
  "23503": "SQLITE_CONSTRAINT_FOREIGNKEY",
  "23514": "SQLITE_CONSTRAINT_CHECK",
  "23502": "SQLITE_CONSTRAINT_NOTNULL",
  P0001: "SQLITE_CONSTRAINT_TRIGGER",
};

/** An error from PostgreSQL: `code` as better-sqlite3 would name it (or `PG_<SQLSTATE>`), `pgCode` the SQLSTATE. */
export class PostgresError extends Error {
  readonly code: string;
  readonly pgCode: string | undefined;
  readonly constraint: string | undefined;
  constructor(error: { message: string; code?: string; constraint?: string; detail?: string }, sql?: string) {
    super(error.message);
    this.name = "PostgresError";
    this.pgCode = error.code;
    this.code = (error.code && SQLITE_CODES[error.code]) ?? `PG_${error.code ?? "ERROR"}`;
    this.constraint = error.constraint;
    if (sql !== undefined) Object.defineProperty(this, "sql", { value: sql, enumerable: false });
  }
}

/** How a statement's `?`/named parameters map to `$n`: positional index or name, in `$n` order. */
type ParameterPlan = (({ kind: "positional"; index: number } | { kind: "named"; name: string }) & { limit?: boolean })[];

/**
 * Rewrite SQLite-style SQL for PostgreSQL: parameters to `$n`, `IS ?` to `IS NOT DISTINCT FROM $n`,
 * `IFNULL(` to `COALESCE(`. Strings, quoted identifiers and comments are left alone; `::` casts and `$1`
 * placeholders written for PostgreSQL pass through.
 * @returns the PostgreSQL text, its parameter plan, and the mixed-case identifiers the text names (for result columns).
 */
export function translateSql(sql: string): { text: string; plan: ParameterPlan; identifiers: Map<string, string> } {
  const plan: ParameterPlan = [];
  const named = new Map<string, number>();
  const identifiers = new Map<string, string>();
  let out = "";
  let positional = 0;
  let i = 0;
  const n = sql.length;
  const placeholder = (entry: ParameterPlan[number], key?: string): string => {
    if (key !== undefined) {
      const seen = named.get(key);
      if (seen !== undefined) return `$${seen}`;
    }
    plan.push(entry);
    if (key !== undefined) named.set(key, plan.length);
    return `$${plan.length}`;
  };
  /** Rewrites before a parameter; true when it is a LIMIT (SQLite's `LIMIT -1` means none: bound as NULL). */
  const beforeParameter = (): boolean => {
    const m = /\bIS(\s+NOT)?\s*$/i.exec(out);
    if (m) out = out.slice(0, m.index) + (m[1] ? "IS DISTINCT FROM " : "IS NOT DISTINCT FROM ");
    return /\bLIMIT\s*$/i.test(out);
  };
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) { j += 2; continue; }
          break;
        }
        j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const j = sql.indexOf("\n", i);
      const end = j === -1 ? n : j;
      out += sql.slice(i, end);
      i = end;
    } else if (c === "/" && sql[i + 1] === "*") {
      const j = sql.indexOf("*/", i + 2);
      const end = j === -1 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === "?") {
      let j = i + 1;
      while (j < n && sql[j]! >= "0" && sql[j]! <= "9") j++;
      const limit = beforeParameter();
      if (j > i + 1) {
        const index = Number(sql.slice(i + 1, j)) - 1;
        out += placeholder({ kind: "positional", index, limit }, `?${index}`);
      } else {
        out += placeholder({ kind: "positional", index: positional++, limit });
      }
      i = j;
    } else if (c === ":" && sql[i + 1] === ":") {
      out += "::";
      i += 2;
    } else if ((c === "@" || c === ":" || c === "$") && /[A-Za-z_]/.test(sql[i + 1] ?? "")) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      const name = sql.slice(i + 1, j);
      const limit = beforeParameter();
      out += placeholder({ kind: "named", name, limit }, `:${name}`);
      i = j;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j);
      if (/[A-Z]/.test(word) && /[a-z]/.test(word)) identifiers.set(word.toLowerCase(), word);
      if (word.toUpperCase() === "IFNULL" && /^\s*\(/.test(sql.slice(j))) out += "COALESCE";
      else out += word;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out, plan, identifiers };
}

/** Is this a plain object of named parameters (not a Buffer, array or Date)? */
function isNamedBag(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value) && !(value instanceof Uint8Array) && !(value instanceof Date);
}

function toParameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") throw new TypeError("SQLite3 can only bind numbers, strings, bigints, buffers, and null");
  return value;
}

/** The part of better-sqlite3's `Statement` the data modules use, over PostgreSQL. */
class PostgresStatement {
  readonly source: string;
  readonly reader: boolean;
  #db: PostgresDatabase;
  #text: string;
  #plan: ParameterPlan;
  #identifiers: Map<string, string>;
  #write: boolean;
  #pluck = false;
  #raw = false;
  /** The server-side prepared statement's name: parsed and planned once per connection, like SQLite's prepare. */
  #name: string;

  constructor(db: PostgresDatabase, sql: string) {
    this.#db = db;
    this.#name = `chorus_${db.nextStatementId()}`;
    this.source = sql;
    const t = translateSql(sql);
    this.#text = t.text;
    this.#plan = t.plan;
    this.#identifiers = t.identifiers;
    const head = sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "").slice(0, 12).toUpperCase();
    this.reader = /^(SELECT|WITH|VALUES|SHOW|EXPLAIN)\b/.test(head) || /\bRETURNING\b/i.test(sql);
    this.#write = /^(INSERT|UPDATE|DELETE|REPLACE)\b/.test(head) || (/^WITH\b/.test(head) && /\b(INSERT|UPDATE|DELETE)\b/i.test(sql));
  }

  /** Return only the first column of each row (`on` default true). */
  pluck(on = true): this { this.#pluck = on; if (on) this.#raw = false; return this; }
  /** Return rows as arrays of values (`on` default true). */
  raw(on = true): this { this.#raw = on; if (on) this.#pluck = false; return this; }
  /** Accepted for API compatibility; rows are never expanded per table here. */
  expand(): this { return this; }
  /** Reset the result modes (the statement cache hands statements out fresh). */
  reset(): this { this.#pluck = false; this.#raw = false; return this; }

  #values(args: unknown[]): unknown[] {
    const positional: unknown[] = [];
    let bag: Record<string, unknown> | null = null;
    for (const a of args) {
      if (Array.isArray(a)) positional.push(...a);
      else if (isNamedBag(a)) bag = bag ? Object.assign({}, bag, a) : a;
      else positional.push(a);
    }
    return this.#plan.map((p) => {
      let value: unknown;
      if (p.kind === "positional") {
        if (p.index >= positional.length) throw new RangeError("Too few parameter values were provided");
        value = positional[p.index];
      } else {
        if (!bag || !(p.name in bag)) throw new RangeError(`Missing named parameter "${p.name}"`);
        value = bag[p.name];
      }
      if (p.limit && typeof value === "number" && value < 0) return null; // SQLite's LIMIT -1: no limit
      return toParameter(value);
    });
  }

  #query(args: unknown[]): { rows: unknown[]; rowCount: number; fields: string[]; bytea?: number[] } {
    const arrays = this.#pluck || this.#raw;
    const inTransaction = this.#db.inTransaction;
    const result = this.#db.call({
      op: "query", text: this.#text, values: this.#values(args), rowMode: arrays ? "array" : "object", name: this.#name,
      savepoint: this.#write && inTransaction && this.#db.takeStatementSavepoint(),
      lock: this.#write && !inTransaction ? String(WRITE_LOCK_KEY) : undefined,
    }, this.source);
    if (this.#write && !inTransaction) this.#db.commits++;
    if (result.bytea) {
      // Buffers cross the thread boundary as Uint8Arrays; better-sqlite3 gives Buffers.
      for (const row of result.rows as (Record<string, unknown> | unknown[])[]) {
        for (const i of result.bytea) {
          const key = Array.isArray(row) ? i : result.fields[i]!;
          const v = (row as Record<string | number, unknown>)[key];
          if (v instanceof Uint8Array) (row as Record<string | number, unknown>)[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
        }
      }
    }
    if (!arrays) {
      const rename = result.fields.filter((f) => this.#identifiers.has(f));
      if (rename.length > 0) {
        for (const row of result.rows as Record<string, unknown>[]) {
          for (const f of rename) {
            const to = this.#identifiers.get(f)!;
            if (!(to in row)) { row[to] = row[f]; delete row[f]; }
          }
        }
      }
    }
    return result;
  }

  #shape(row: unknown): unknown {
    return this.#pluck ? (row as unknown[])[0] : row;
  }

  get(...args: unknown[]): unknown {
    const r = this.#query(args);
    return r.rows.length === 0 ? undefined : this.#shape(r.rows[0]);
  }

  all(...args: unknown[]): unknown[] {
    const r = this.#query(args);
    return this.#pluck ? r.rows.map((row) => (row as unknown[])[0]) : r.rows;
  }

  iterate(...args: unknown[]): IterableIterator<unknown> {
    return this.all(...args)[Symbol.iterator]();
  }

  run(...args: unknown[]): { changes: number; lastInsertRowid: number } {
    const r = this.#query(args);
    let lastInsertRowid = 0;
    const first = r.rows[r.rows.length - 1];
    if (first !== undefined && r.fields.length === 1) {
      const v = Array.isArray(first) ? first[0] : (first as Record<string, unknown>)[Object.keys(first as object)[0]!];
      if (typeof v === "number") lastInsertRowid = v;
    }
    return { changes: r.rowCount, lastInsertRowid };
  }
}

type TransactionFn<F extends (...args: never[]) => unknown> = F & { deferred: F; immediate: F; exclusive: F };

/** A PostgreSQL connection with better-sqlite3's synchronous API subset (see the module doc). */
export class PostgresDatabase {
  readonly dialect = "postgres" as const;
  readonly name: string;
  readonly memory = false;
  readonly readonly = false;
  #call: (message: WorkerMessage) => WorkerResult;
  #depth = 0;
  #open = true;
  #statements = new Map<string, PostgresStatement>();
  /**
   * Write commits made through this connection so far (outermost write transactions and writes outside any):
   * the content-scope watcher compares it to know, without a turn of the event loop, that this node committed.
   */
  commits = 0;

  constructor(url: string) {
    this.name = url.replace(/\/\/[^@/]*@/, "//");
    // One worker (one connection) per database object: synckit's createSyncFn would share one per file.
    this.#call = startWorkerThread<(m: WorkerMessage) => Promise<WorkerResult>>(WORKER_PATH, { tsRunner: "node", timeout: QUERY_TIMEOUT_MS });
    this.call({ op: "connect", url });
  }

  #statementIds = 0;
  #savepointsLeft = 0;

  /**
   * Whether the next write in this transaction gets its own savepoint. Only the first STATEMENT_SAVEPOINTS do:
   * request-sized transactions (where code catches a constraint error and goes on) keep SQLite's statement-level
   * undo, and bulk transactions do not pay for thousands of subtransactions (PostgreSQL's multixact cost grows
   * with their square when they touch the same rows, e.g. the content-scope sequence: seeding 1,000 reviews took
   * minutes).
   */
  takeStatementSavepoint(): boolean {
    if (this.#savepointsLeft <= 0) return false;
    this.#savepointsLeft--;
    return true;
  }
  /** A fresh number for a server-side prepared statement's name. */
  nextStatementId(): number { return ++this.#statementIds; }

  get open(): boolean { return this.#open; }
  get inTransaction(): boolean { return this.#depth > 0; }

  /** Send one message to the worker and wait for its answer. @throws PostgresError for a database error. */
  call(message: WorkerMessage, sql?: string): { rows: unknown[]; rowCount: number; fields: string[]; bytea?: number[] } {
    if (!this.#open && message.op !== "close") throw new TypeError("The database connection is not open");
    const result = this.#call(message);
    if ("error" in result) throw new PostgresError(result.error, sql);
    return result;
  }

  /** A statement for `sql` (cached by text; result modes reset on every hand-out). */
  prepare(sql: string): PostgresStatement {
    let stmt = this.#statements.get(sql);
    if (stmt) return stmt.reset();
    stmt = new PostgresStatement(this, sql);
    if (this.#statements.size >= 2000) this.#statements.delete(this.#statements.keys().next().value as string);
    this.#statements.set(sql, stmt);
    return stmt;
  }

  /** Run several statements (simple query protocol; no parameters). */
  exec(sql: string): this {
    this.call({ op: "exec", text: sql }, sql);
    return this;
  }

  /** SQLite pragmas have no PostgreSQL meaning; reading one returns no rows. */
  pragma(_source: string, _options?: { simple?: boolean }): unknown {
    return _options?.simple ? undefined : [];
  }

  /**
   * Wrap `fn` in a transaction (better-sqlite3's `db.transaction`): the returned function runs it between
   * BEGIN and COMMIT (ROLLBACK when it throws); inside another transaction it uses a savepoint.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): TransactionFn<F> {
    const wrap = (mode: "deferred" | "immediate") => ((...args: Parameters<F>) => {
      if (this.#depth > 0) {
        const name = `chorus_tx_${this.#depth}`;
        this.exec(`SAVEPOINT ${name}`);
        this.#depth++;
        try {
          const result = fn(...args);
          this.#depth--;
          this.exec(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          this.#depth--;
          this.exec(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`);
          throw error;
        }
      }
      this.exec(mode === "deferred" ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
      this.#depth = 1;
      this.#savepointsLeft = STATEMENT_SAVEPOINTS;
      try {
        const result = fn(...args);
        this.#depth = 0;
        this.exec("COMMIT");
        if (mode !== "deferred") this.commits++;
        return result;
      } catch (error) {
        if (this.#depth > 0) {
          this.#depth = 0;
          try { this.exec("ROLLBACK"); } catch { /* the connection's error is the one to report */ }
        }
        throw error;
      }
    }) as F;
    const tx = wrap("immediate") as TransactionFn<F>;
    tx.deferred = wrap("deferred");
    tx.immediate = wrap("immediate");
    tx.exclusive = wrap("immediate");
    return tx;
  }

  /** Close the connection and stop its worker's connection (the worker thread ends with the process). */
  close(): this {
    if (!this.#open) return this;
    try { this.call({ op: "close" }); } finally { this.#open = false; }
    return this;
  }
}

/** Is `location` a PostgreSQL connection URL (`postgres://` or `postgresql://`)? */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

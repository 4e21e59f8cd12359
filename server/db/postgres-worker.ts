/**
 * The worker thread behind server/db/postgres.ts: one `pg` client (one PostgreSQL connection) that runs the
 * queries the main thread sends through synckit and answers each with its rows or its error. The main thread
 * waits (Atomics) while a query runs, so the data modules above stay synchronous, as over better-sqlite3.
 *
 * Messages: `{ op: "connect", url }`, `{ op: "query", text, values, rowMode, name?, savepoint? }` (one
 * statement, extended protocol; `savepoint` wraps it so a failure undoes only that statement, as SQLite's
 * statement-level atomicity does inside a transaction; `lock` runs it in its own transaction that first takes
 * that advisory lock, for a write outside any transaction), `{ op: "exec", text }` (several statements, simple
 * protocol), `{ op: "close" }`. Errors come back as values (`{ error }`), never thrown across threads.
 */
import pg from "pg";
import { runAsWorker } from "synckit";

// Values as better-sqlite3 returns them: int8 and numeric as numbers, booleans as 1/0, json as its text.
pg.types.setTypeParser(20, (v) => Number(v)); // int8
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric
pg.types.setTypeParser(16, (v) => (v === "t" ? 1 : 0)); // bool
pg.types.setTypeParser(114, (v) => v); // json
pg.types.setTypeParser(3802, (v) => v); // jsonb

/** A query's answer: rows (objects, or arrays in "array" row mode), affected rows, column names. */
export type WorkerResult =
  | { rows: unknown[]; rowCount: number; fields: string[]; bytea?: number[] }
  | { error: { message: string; code?: string; constraint?: string; detail?: string } };

export type WorkerMessage =
  | { op: "connect"; url: string }
  | { op: "query"; text: string; values: unknown[]; rowMode: "object" | "array"; name?: string; savepoint?: boolean; lock?: string }
  | { op: "exec"; text: string }
  | { op: "close" };

let client: pg.Client | null = null;

/** A query's rows, with the positions of its bytea columns (Buffers arrive as Uint8Arrays across threads). */
function answer(r: pg.QueryResult): WorkerResult {
  const bytea = r.fields.flatMap((f, i) => (f.dataTypeID === 17 ? [i] : []));
  return { rows: r.rows, rowCount: r.rowCount ?? 0, fields: r.fields.map((f) => f.name), ...(bytea.length > 0 ? { bytea } : {}) };
}

function failure(error: unknown): WorkerResult {
  const e = error as { message?: string; code?: string; constraint?: string; detail?: string };
  return { error: { message: String(e?.message ?? error), code: e?.code, constraint: e?.constraint, detail: e?.detail } };
}

runAsWorker(async (message: WorkerMessage): Promise<WorkerResult> => {
  try {
    switch (message.op) {
      case "connect": {
        client = new pg.Client({ connectionString: message.url, application_name: "chorus" });
        client.on("error", () => { client = null; });
        await client.connect();
        return { rows: [], rowCount: 0, fields: [] };
      }
      case "close": {
        const c = client;
        client = null;
        await c?.end();
        // The thread has nothing left to do: end it once this answer is posted.
        setTimeout(() => process.exit(0), 20);
        return { rows: [], rowCount: 0, fields: [] };
      }
      case "exec": {
        if (!client) throw new Error("PostgreSQL connection is closed");
        await client.query(message.text);
        return { rows: [], rowCount: 0, fields: [] };
      }
      case "query": {
        if (!client) throw new Error("PostgreSQL connection is closed");
        const config = { text: message.text, values: message.values, rowMode: message.rowMode === "array" ? "array" : undefined, name: message.name };
        if (message.lock) {
          await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${message.lock})`);
          try {
            const r = await client.query(config as pg.QueryConfig);
            await client.query("COMMIT");
            return answer(r);
          } catch (error) {
            await client.query("ROLLBACK").catch(() => undefined);
            return failure(error);
          }
        }
        if (!message.savepoint) {
          const r = await client.query(config as pg.QueryConfig);
          return answer(r);
        }
        await client.query("SAVEPOINT chorus_statement");
        try {
          const r = await client.query(config as pg.QueryConfig);
          await client.query("RELEASE SAVEPOINT chorus_statement");
          return answer(r);
        } catch (error) {
          await client.query("ROLLBACK TO SAVEPOINT chorus_statement");
          await client.query("RELEASE SAVEPOINT chorus_statement");
          return failure(error);
        }
      }
    }
  } catch (error) {
    return failure(error);
  }
});

/**
 * How PostgreSQL values read back (the pool's `types`): as better-sqlite3 reads SQLite's, so a row has one shape
 * on both engines. `bigint` (int8, the schema's INTEGER; also count(*)) and `numeric` become numbers (the
 * schema's integers are epoch milliseconds, points and counts, far below 2^53); `boolean` becomes 1/0; `json`
 * and `jsonb` stay text (repos parse what they read, as on SQLite). Everything else as `pg` reads it.
 */
import pg from "pg";

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;
const JSON_OID = 114;
const JSONB = 3802;

const parsers: Record<number, (value: string) => unknown> = {
  [INT8]: (value) => Number(value),
  [NUMERIC]: (value) => Number(value),
  [BOOL]: (value) => (value === "t" ? 1 : 0),
  [JSON_OID]: (value) => value,
  [JSONB]: (value) => value,
};

/** The `types` option of the pool (`pg` docs, "Types"). */
export const postgresTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    const parser = parsers[oid];
    if (parser && format !== "binary") return parser;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

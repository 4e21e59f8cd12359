/**
 * The PostgreSQL schema (server/db/postgres/*.sql) against the SQLite schema (server/db/migrations/*.sql):
 * every SQLite table, column and named index exists on PostgreSQL, with the mapped type (INTEGER → bigint,
 * TEXT → text, REAL → double precision, BLOB → bytea), the same nullability and the same default; SQLite's
 * full-text tables are PostgreSQL's search tables (003-search.sql). Catches a SQLite migration added without
 * its PostgreSQL counterpart. Runs when CHORUS_TEST_POSTGRES_URL names a cluster (`npm run test:postgres`).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestDatabase } from "../../test/postgres.ts";
import { openDatabase, type Db } from "./database.ts";

const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
const TYPES: Record<string, string> = { INTEGER: "bigint", TEXT: "text", REAL: "double precision", BLOB: "bytea" };
/** SQLite's FTS5 tables (and their shadow tables) and what stands for them on PostgreSQL. */
const SEARCH_TABLES: Record<string, string> = { review_search: "review_search", survey_responses_fts: "survey_responses_fts" };

type Column = { table: string; name: string; type: string; notNull: boolean; default: string | null; identity: boolean };

describe.skipIf(!adminUrl)("PostgreSQL schema", () => {
  let sqlite: Db;
  let pg: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase(adminUrl!);
    drop = database.drop;
    pg = openDatabase(database.url);
    sqlite = openDatabase(":memory:");
  });
  afterAll(async () => {
    sqlite?.close();
    pg?.close();
    await drop?.();
  });

  /** SQLite's tables with their columns, without its own, the FTS5 virtual tables and their shadow tables. */
  function sqliteColumns(): Column[] {
    const tables = sqlite.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[];
    const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
    return tables
      .filter((t) => !t.name.startsWith("sqlite_") && !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)))
      .flatMap((t) =>
        (sqlite.prepare("SELECT name, type, \"notnull\" AS nn, pk, dflt_value FROM pragma_table_xinfo(?)").all(t.name) as { name: string; type: string; nn: number; pk: number; dflt_value: string | null }[])
          .map((c) => ({ table: t.name, name: c.name, type: c.type, notNull: c.nn === 1 || c.pk > 0, default: c.dflt_value, identity: false })),
      );
  }

  function postgresColumns(): Map<string, Column> {
    const rows = pg.prepare(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity FROM information_schema.columns
       WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    ).all() as { table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null; is_identity: string }[];
    return new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, {
      table: r.table_name, name: r.column_name, type: r.data_type, notNull: r.is_nullable === "NO",
      default: r.column_default, identity: r.is_identity === "YES",
    }]));
  }

  test("every SQLite column exists on PostgreSQL with the mapped type, nullability and default", () => {
    const pgColumns = postgresColumns();
    const problems: string[] = [];
    const columns = sqliteColumns();
    expect(columns.length).toBeGreaterThan(400);
    for (const c of columns) {
      const key = `${c.table}.${c.name}`;
      const p = pgColumns.get(key);
      if (!p) { problems.push(`${key}: missing`); continue; }
      if (TYPES[c.type] !== p.type) problems.push(`${key}: ${c.type} is ${p.type}`);
      if (c.notNull !== p.notNull) problems.push(`${key}: ${c.notNull ? "NOT NULL" : "nullable"} in SQLite`);
      // PostgreSQL writes a literal default with its type (0, 'queued'::text); an identity column has none.
      const pgDefault = p.default?.replace(/::(text|bigint|double precision)$/, "") ?? null;
      if (c.default !== pgDefault && !(c.default === null && p.identity)) problems.push(`${key}: default ${c.default} is ${p.default}`);
    }
    expect(problems).toEqual([]);
  });

  test("every named SQLite index exists on PostgreSQL", () => {
    const names = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
    const pgNames = new Set(pg.prepare("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()").pluck().all() as string[]);
    expect(names.filter((n) => !pgNames.has(n))).toEqual([]);
  });

  test("SQLite's full-text tables are search tables with a GIN index on PostgreSQL", () => {
    const fts = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").pluck().all() as string[];
    expect(fts).toEqual(Object.keys(SEARCH_TABLES));
    for (const table of Object.values(SEARCH_TABLES)) {
      expect(pg.prepare("SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = 'document'").pluck().get(table)).toBe("tsvector");
      expect(pg.prepare("SELECT count(*) FROM pg_indexes WHERE tablename = ? AND indexdef LIKE '%USING gin (document)%'").pluck().get(table)).toBe(1);
    }
  });
});

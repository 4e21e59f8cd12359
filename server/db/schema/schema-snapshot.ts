/**
 * A normalised description of a database's schema, to compare a database built by the baseline with one built
 * by the legacy files (server/db/schema/schema.test.ts, server/db/postgres-schema.test.ts). Tests only.
 *
 * SQLite: per table its columns (`pragma table_xinfo`: name, type upper-cased, not null, default, primary-key
 * position, hidden = generated), its CHECK constraints (expression text, whitespace collapsed), foreign keys
 * (`pragma foreign_key_list`), indexes (`pragma index_list` + `index_xinfo`, a partial index's WHERE text) and
 * WITHOUT ROWID; the triggers and FTS5 tables by their SQL text. PostgreSQL: `information_schema.columns`,
 * `pg_indexes.indexdef`, `pg_get_constraintdef` of every constraint by name, `pg_get_functiondef` of every
 * function, `pg_get_triggerdef` of every trigger, text search configurations and extensions (all canonical
 * text PostgreSQL prints itself).
 */
import { all, sql, type Db } from "../query.ts";

const collapse = (text: string): string =>
  text
    .replace(/--[^\n]*/g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([(),])\s*/g, "$1")
    .trim();

/** The CHECK constraints of a CREATE TABLE text (column and table level), normalised, sorted. */
function checksOf(createTable: string): string[] {
  const text = createTable.replace(/--[^\n]*/g, "");
  const found: string[] = [];
  const re = /\bCHECK\s*\(/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    let depth = 0;
    let quote = false;
    for (let i = m.index + m[0].length - 1; i < text.length; i++) {
      const c = text[i];
      if (c === "'") quote = !quote;
      if (quote) continue;
      if (c === "(") depth++;
      if (c === ")" && --depth === 0) {
        found.push(collapse(text.slice(m.index + m[0].length, i)));
        break;
      }
    }
  }
  return found.sort();
}

export async function sqliteSchema(db: Db): Promise<Record<string, unknown>> {
  const objects = await all<{ type: string; name: string; tbl_name: string; sql: string | null }>(db, sql`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`);
  const virtual = objects.filter((o) => o.type === "table" && /^CREATE VIRTUAL/i.test(o.sql ?? "")).map((o) => o.name);
  const out: Record<string, unknown> = {};
  for (const o of objects) {
    if (o.type === "table" && !virtual.includes(o.name) && !virtual.some((v) => o.name.startsWith(`${v}_`)) && o.name !== "sqlite_sequence") {
      const columns = (await all<Record<string, unknown>>(db, sql`SELECT cid, name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(${o.name})`)).map((c) => ({
        ...c,
        type: String(c.type).toUpperCase(),
      }));
      const foreignKeys = await all<Record<string, unknown>>(db, sql`SELECT id, seq, "table", "from", "to", on_update, on_delete, "match" FROM pragma_foreign_key_list(${o.name}) ORDER BY id, seq`);
      const indexes = [];
      for (const index of await all<{ name: string; unique: number; origin: string; partial: number }>(
        db,
        sql`SELECT name, "unique", origin, partial FROM pragma_index_list(${o.name}) ORDER BY name`,
      )) {
        const keys = await all<Record<string, unknown>>(db, sql`SELECT seqno, cid, name, "desc", coll, "key" FROM pragma_index_xinfo(${index.name})`);
        const text = objects.find((x) => x.type === "index" && x.name === index.name)?.sql ?? null;
        const where = text && /\bWHERE\b([\s\S]*)$/i.exec(text)?.[1];
        indexes.push({ ...index, keys, where: where ? collapse(where) : null });
      }
      out[`table ${o.name}`] = { columns, checks: checksOf(o.sql ?? ""), foreignKeys, indexes, withoutRowid: /\)\s*WITHOUT ROWID\s*$/i.test(o.sql ?? "") };
    } else if (o.type === "trigger" || virtual.includes(o.name)) {
      out[`${o.type} ${o.name}`] = collapse(o.sql ?? "");
    }
  }
  return out;
}

export async function postgresSchema(db: Db): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  out.columns = await all(
    db,
    sql`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity, identity_generation, is_generated, generation_expression
    FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  out.indexes = await all(db, sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`);
  out.constraints = await all(
    db,
    sql`SELECT conrelid::regclass::text AS "table", conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
    JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema() ORDER BY 1, 2`,
  );
  out.functions = await all(
    db,
    sql`SELECT p.proname, pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() ORDER BY 1, 2`,
  );
  out.triggers = await all(db, sql`SELECT tgrelid::regclass::text AS "table", tgname, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t WHERE NOT tgisinternal ORDER BY 1, 2`);
  out.textSearch = await all(db, sql`SELECT cfgname FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace WHERE n.nspname = current_schema() ORDER BY 1`);
  out.dictionaries = await all(db, sql`SELECT dictname, dictinitoption FROM pg_ts_dict d JOIN pg_namespace n ON n.oid = d.dictnamespace WHERE n.nspname = current_schema() ORDER BY 1`);
  out.mappings = await all(
    db,
    sql`SELECT c.cfgname, m.maptokentype, m.mapseqno, d.dictname FROM pg_ts_config_map m JOIN pg_ts_config c ON c.oid = m.mapcfg JOIN pg_ts_dict d ON d.oid = m.mapdict
    JOIN pg_namespace n ON n.oid = c.cfgnamespace WHERE n.nspname = current_schema() ORDER BY 1, 2, 3`,
  );
  out.extensions = await all(db, sql`SELECT extname FROM pg_extension ORDER BY 1`);
  out.sequences = await all(db, sql`SELECT sequencename, data_type, start_value, increment_by FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1`);
  return out;
}

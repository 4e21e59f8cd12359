/**
 * The shape of a migration (server/db/migrate.ts `MIGRATIONS`; ADR 0017): `version` (101, 102, … after the baseline
 * 100), `name` as recorded in `schema_migrations`, and `up`, run once inside a transaction on `db` (queries through the
 * helpers of server/db/query.ts, tables through Kysely's schema builder with `columnTypes`).
 */
import type { Db } from "../query.ts";

export type Migration = { version: number; name: string; up: (db: Db) => Promise<void> };

/**
 * One schema, one migration history (issue #34 item 2), on PostgreSQL: the baseline migration builds the same
 * schema as the legacy files (server/db/legacy/postgres/001-008), compared as PostgreSQL prints it
 * (information_schema.columns, pg_indexes, pg_get_constraintdef, pg_get_functiondef, pg_get_triggerdef, text
 * search configurations); a database of those files upgrades in place on openDatabase with every row kept; two
 * openDatabase calls at once on an empty database migrate it once. SQLite: server/db/schema/schema.test.ts.
 * Runs when CHORUS_TEST_POSTGRES_URL names a cluster (`npm run test:postgres`).
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, test } from "vitest";
import { createDatabase, dropDatabase } from "../../test/postgres.ts";
import { BASELINE_VERSION, LEGACY_LAST_VERSION, MIGRATIONS, applyLegacy, migrate } from "./migrate.ts";
import { connect, openDatabase, sql, values } from "./database.ts";
import { postgresSchema } from "./schema/schema-snapshot.ts";
import { DEMO_TABLES, dumpRows, insertDemoRows, upgradedRows } from "./schema/upgrade-fixture.ts";

const adminUrl = process.env.CHORUS_TEST_POSTGRES_URL;
// Selected by vitest.postgres.config.ts only (test/engine-suites.ts): without PostgreSQL it fails, never skips.
if (!adminUrl) throw new Error("PostgreSQL only: run it with `npm run test:postgres -- <file>` (env CHORUS_TEST_POSTGRES_URL)");
/** Every version a fresh database records: the baseline, then the migrations after it (101, 102, …). */
const ALL = MIGRATIONS.map((m) => m.version);
/** Every version ascending, as `ORDER BY version` reads them (migrations are appended in merge order: 113 before 112). */
const ASCENDING = [...ALL].sort((a, b) => a - b);
const LATER = ALL.filter((v) => v > BASELINE_VERSION);

describe("PostgreSQL schema", () => {
  const created: string[] = [];
  async function emptyDatabase(): Promise<string> {
    const name = `chorus_schema_${randomBytes(6).toString("hex")}`;
    created.push(name);
    return createDatabase(adminUrl!, name);
  }
  afterAll(async () => {
    for (const name of created) await dropDatabase(adminUrl!, name);
  });

  test("the baseline builds the schema the legacy files built: columns, indexes, constraints, functions, triggers, search", async () => {
    const legacy = connect(await emptyDatabase());
    const fresh = connect(await emptyDatabase());
    expect(await applyLegacy(legacy)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await migrate(fresh)).toEqual(ALL);
    expect(await migrate(legacy)).toEqual(ALL); // the baseline recorded, not run; then the later migrations
    const [a, b] = [await postgresSchema(legacy), await postgresSchema(fresh)];
    expect((a.columns as unknown[]).length).toBeGreaterThan(400);
    expect((a.triggers as unknown[]).length).toBeGreaterThan(20);
    expect(b).toEqual(a);
    await legacy.close();
    await fresh.close();
  });

  test("a legacy database (version 8) upgrades on openDatabase: every row kept, the baseline recorded, not run; twice is a no-op", async () => {
    const url = await emptyDatabase();
    const legacy = connect(url);
    await applyLegacy(legacy);
    await insertDemoRows(legacy);
    const before = await dumpRows(legacy, DEMO_TABLES);
    expect(before.review_aggregates!.length).toBeGreaterThan(0);
    await legacy.close();

    const db = await openDatabase(url);
    expect(await dumpRows(db, DEMO_TABLES)).toEqual(upgradedRows(before));
    const versions = await values<number>(db, sql`SELECT version FROM schema_migrations ORDER BY version`);
    expect(versions.at(-2 - LATER.length)).toBe(LEGACY_LAST_VERSION.postgres);
    expect(versions.at(-1)).toBe(Math.max(...MIGRATIONS.map((m) => m.version))); // appended in merge order, applied all
    expect(versions).toContain(BASELINE_VERSION);
    expect(await migrate(db)).toEqual([]);
    await db.close();
    const again = await openDatabase(url);
    expect(await values<number>(again, sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(versions);
    expect(await dumpRows(again, DEMO_TABLES)).toEqual(upgradedRows(before));
    await again.close();
  });

  test("two openDatabase calls at once on an empty database migrate it once", async () => {
    const url = await emptyDatabase();
    const [a, b] = [connect(url), connect(url)];
    const done = await Promise.all([migrate(a), migrate(b)]);
    expect(done.map((d) => d.length).sort()).toEqual([0, ALL.length]);
    expect(await values<number>(a, sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(ASCENDING);
    await Promise.all([a.close(), b.close()]);
    // And through openDatabase (migrations and content-scope triggers under the lock).
    const url2 = await emptyDatabase();
    const [c, d] = await Promise.all([openDatabase(url2), openDatabase(url2)]);
    expect(await values<number>(c, sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(ASCENDING);
    await Promise.all([c.close(), d.close()]);
  });
});

/**
 * One schema, one migration history (issue #34 item 2), on SQLite: the baseline migration builds the same schema
 * as the legacy migration files (server/db/legacy/sqlite/001-088), and a database of those files upgrades in place
 * on openDatabase with every row kept. PostgreSQL: server/db/postgres-schema.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASELINE_VERSION, LEGACY_LAST_VERSION, MIGRATIONS, applyLegacy, migrate } from "../migrate.ts";
import { connect, openDatabase, sql, values } from "../database.ts";
import { sqliteSchema } from "./schema-snapshot.ts";
import { DEMO_TABLES, dumpRows, insertDemoRows, upgradedRows } from "./upgrade-fixture.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-schema-"));
/** The migrations after the baseline (101, 102, …): both paths apply them after the baseline, so both schemas include them. */
const LATER = MIGRATIONS.map((m) => m.version).filter((v) => v > BASELINE_VERSION);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite schema", () => {
  it("the baseline builds the schema the legacy files built: tables, columns, checks, keys, indexes, triggers, FTS5", async () => {
    const legacy = connect(":memory:");
    const fresh = connect(":memory:");
    expect(await applyLegacy(legacy)).toHaveLength(27);
    expect(await migrate(fresh)).toEqual([BASELINE_VERSION, ...LATER]);
    expect(await migrate(legacy)).toEqual([BASELINE_VERSION, ...LATER]); // recorded, not run; then the later ones
    const [a, b] = [await sqliteSchema(legacy), await sqliteSchema(fresh)];
    expect(Object.keys(a).filter((k) => k.startsWith("table ")).length).toBeGreaterThan(50);
    expect(Object.keys(a).filter((k) => k.startsWith("trigger ")).length).toBeGreaterThan(25);
    expect(b).toEqual(a);
    await legacy.close();
    await fresh.close();
  });

  it("a legacy database (version 88) upgrades on openDatabase: every row kept, the baseline recorded, not run", async () => {
    const path = join(dir, "legacy.sqlite");
    const legacy = connect(path);
    await applyLegacy(legacy);
    await insertDemoRows(legacy);
    const before = await dumpRows(legacy, DEMO_TABLES);
    expect(before.review_aggregates!.length).toBeGreaterThan(0);
    await legacy.close();

    const db = await openDatabase(path);
    expect(await dumpRows(db, DEMO_TABLES)).toEqual(upgradedRows(before));
    const versions = await values<number>(db, sql`SELECT version FROM schema_migrations ORDER BY version`);
    expect(versions.at(-2 - LATER.length)).toBe(LEGACY_LAST_VERSION.sqlite);
    expect(versions.at(-1)).toBe(Math.max(...MIGRATIONS.map((m) => m.version))); // appended in merge order, applied all
    expect(versions).toContain(BASELINE_VERSION);
    // Opening again finds nothing to do.
    expect(await migrate(db)).toEqual([]);
    await db.close();
    const again = await openDatabase(path);
    expect(await values<number>(again, sql`SELECT version FROM schema_migrations ORDER BY version`)).toEqual(versions);
    expect(await dumpRows(again, DEMO_TABLES)).toEqual(upgradedRows(before));
    await again.close();
  });

  it("a legacy database at an older version gets the legacy files it lacks first, then the baseline recorded", async () => {
    const legacy = connect(":memory:");
    const all = await applyLegacy(legacy);
    const fresh = connect(":memory:");
    await applyLegacy(fresh, new Set(all.filter((v) => v > 84))); // stop before 085
    await insertDemoRows(fresh);
    expect(await migrate(fresh)).toEqual([85, 86, 87, 88, BASELINE_VERSION, ...LATER]);
    await migrate(legacy);
    expect(await sqliteSchema(fresh)).toEqual(await sqliteSchema(legacy));
    await legacy.close();
    await fresh.close();
  });
});

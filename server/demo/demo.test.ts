/**
 * The demo store on a first run anywhere (issue #21 item 5): the CC0 clothing reviews ship with Chorus
 * (gzip), so an empty DEMO_DATA_DIR still gives the full review demo; a seeder whose data file is missing
 * is not marked done, and imports it on a later start once the file is there.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { DATA_DIR } from "../../test/fixtures.ts";
import { loadConfig } from "../config.ts";
import { createServices } from "../services.ts";
import { one, sql } from "../db/database.ts";
import { DEMO_SEEDERS, DEMO_STORE_ID, ensureDemoStore } from "./demo.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-demo-"));
let database: FreshDatabase | undefined;
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("demo store on a first run anywhere", () => {
  it(
    "imports the shipped clothing reviews when DEMO_DATA_DIR has none; the Q&A seeder waits for its file",
    async () => {
      database = await freshDatabase(dir, "first-run.sqlite");
      const services = await createServices({ databasePath: database.location, mediaPath: join(dir, "media") });
      try {
        const lines: string[] = [];
        const log = (line: string) => lines.push(line);
        const seeders = DEMO_SEEDERS.filter((s) => s.name === "reviews" || s.name === "questions");
        const empty = loadConfig({ ...process.env, ...database.env, DEMO_DATA_DIR: join(dir, "empty") });
        await ensureDemoStore({ services, config: empty, log }, seeders);
        expect((await services.reviews.getAggregate({ storeId: DEMO_STORE_ID })).reviewAggregate.reviewCount).toBe(23_486);
        expect(lines.join("\n")).toContain("womens_clothing_ecommerce_reviews.csv.gz");
        const questionsDone = async () => (await one(services.db, sql`SELECT 1 AS done FROM app_settings WHERE key = 'demo_seeded:questions'`)) !== undefined;
        expect(await questionsDone()).toBe(false);

        // A later start with the data folder: the Q&A is imported then; the reviews are not imported twice.
        const withData = loadConfig({ ...process.env, ...database.env, DEMO_DATA_DIR: DATA_DIR });
        await ensureDemoStore({ services, config: withData, log }, seeders);
        expect(await questionsDone()).toBe(true);
        expect((await services.reviews.getAggregate({ storeId: DEMO_STORE_ID })).reviewAggregate.reviewCount).toBe(23_486);
      } finally {
        await services.close();
      }
    },
    process.env.CHORUS_TEST_POSTGRES_URL ? 600_000 : 300_000,
  ); // 23,486 reviews: minutes on PostgreSQL, over 120 s on SQLite on a loaded machine (as before the async layer)
});

/**
 * Demo seeders whose data file is missing (issue #21 item 5): such a seeder is not marked done, and imports its file
 * on a later start once the file is there. The other half of that item, the shipped CC0 clothing reviews (gzip)
 * imported when DEMO_DATA_DIR has none, is what a first `npm start` does: test/first-start.test.ts (23,486 reviews,
 * not imported again on the second start).
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

describe("a demo seeder without its data file", () => {
  it("is not marked done, says where the file goes, and imports it on a later start once the file is there", async () => {
    database = await freshDatabase(dir, "first-run.sqlite");
    const services = await createServices({ databasePath: database.location, mediaPath: join(dir, "media") });
    try {
      const lines: string[] = [];
      const log = (line: string) => lines.push(line);
      const seeders = DEMO_SEEDERS.filter((s) => s.name === "questions");
      const questionsDone = async () => (await one(services.db, sql`SELECT 1 AS done FROM app_settings WHERE key = 'demo_seeded:questions'`)) !== undefined;
      const answered = async () => (await services.questions.productsWithMostQuestions(DEMO_STORE_ID, 5)).length;

      const empty = loadConfig({ ...process.env, ...database.env, DEMO_DATA_DIR: join(dir, "empty") });
      await ensureDemoStore({ services, config: empty, log }, seeders);
      expect(await questionsDone()).toBe(false);
      expect(lines.join("\n")).toContain(`Demo Q&A file not found at ${join(dir, "empty", "amazon_qa_appliances.json")}`);
      expect(await answered()).toBe(0);

      // A later start with the data folder: the Q&A is imported then, and marked done.
      const withData = loadConfig({ ...process.env, ...database.env, DEMO_DATA_DIR: DATA_DIR });
      await ensureDemoStore({ services, config: withData, log }, seeders);
      expect(await questionsDone()).toBe(true);
      expect(await answered()).toBeGreaterThan(0);
    } finally {
      await services.close();
    }
  }, 120_000);
});

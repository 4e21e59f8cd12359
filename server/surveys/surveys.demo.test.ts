import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { DEMO_STORE_ID } from "../demo/demo.ts";
import { DATA_DIR } from "../../test/fixtures.ts";
import { createServices, type Services } from "../services.ts";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { demoApiKeySeeder, demoSurveysSeeder, DEMO_SURVEY_IDS, DEMO_NPS_FILE, readNpsRows } from "./surveys.demo.ts";
import type { SurveyResponse } from "../contract/surveys.ts";

const DEMO_KEY = "demo-key-for-the-surveys-test-0123456789";
let dir: string;
let database: FreshDatabase;
let s: Services;
const logs: string[] = [];
let all: SurveyResponse[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-surveys-demo-"));
  // A SQLite file, or a fresh PostgreSQL database with CHORUS_TEST_POSTGRES_URL (test/database-location.ts).
  database = await freshDatabase(dir);
  s = await createServices({ databasePath: database.location });
  await s.stores.create({ storeId: DEMO_STORE_ID, name: "Demo", platform: "shopify" });
  const config = loadConfig({ ...process.env, DEMO_DATA_DIR: DATA_DIR, DEMO_API_KEY: DEMO_KEY });
  const seeder = demoSurveysSeeder(DEMO_STORE_ID);
  await seeder.run({ services: s, config, log: (l) => logs.push(l) });
  await seeder.run({ services: s, config, log: (l) => logs.push(l) }); // idempotent
  const keySeeder = demoApiKeySeeder(DEMO_STORE_ID); // its own seeder, run before the server listens (server/demo/demo.ts)
  await keySeeder.run({ services: s, config, log: (l) => logs.push(l) });
  await keySeeder.run({ services: s, config, log: (l) => logs.push(l) }); // idempotent
  all = [];
  for await (const r of s.surveys.iterateResponses(DEMO_STORE_ID, {})) all.push(r);
});
afterAll(async () => {
  await s.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("demo surveys seeder", () => {
  it("stores at least 2,000 responses once: every real NPS row plus 1,200 generated ones", () => {
    const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE));
    expect(all.filter((r) => r.surveyId === DEMO_SURVEY_IDS.nps)).toHaveLength(rows.length);
    expect(all.filter((r) => r.surveyId === DEMO_SURVEY_IDS.attribution)).toHaveLength(1200);
    expect(all.length).toBeGreaterThanOrEqual(2000);
  });

  it("uses all eight question types and all four profile variants", () => {
    const kinds = new Set(all.flatMap((r) => r.answeredQuestions.map((a) => (a.type === "profile" ? `profile:${a.answer.type}` : a.type))));
    for (const k of ["text", "single-select", "multi-select", "five-point", "star", "nps", "email", "profile:date-components", "profile:location", "profile:multi-value", "profile:single-value"]) {
      expect(kinds.has(k), k).toBe(true);
    }
  });

  it("NPS scores, categories, comments and dates are the real rows; rows without a score carry no NPS answer", () => {
    const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE));
    const nps = all.filter((r) => r.surveyId === DEMO_SURVEY_IDS.nps);
    const scored = nps.flatMap((r) => r.answeredQuestions.filter((a) => a.type === "nps"));
    expect(scored).toHaveLength(rows.filter((r) => r.NPS_SCORE !== "").length);
    const count = (cat: string) => scored.filter((a) => a.type === "nps" && a.answerNpsCategory === cat).length;
    expect(count("detractor")).toBe(rows.filter((r) => r.NPS_RATING === "Detractor").length);
    expect(count("promoter")).toBe(rows.filter((r) => r.NPS_RATING === "Promoter").length);
    expect(nps.filter((r) => !r.answeredQuestions.some((a) => a.type === "nps"))).toHaveLength(32);
    const first = nps.find((r) => r.answeredQuestions.some((a) => a.type === "text" && a.answer === rows[0].text))!;
    expect(first.dateCreated).toBe("2018-04-11T20:09:00.000Z");
  });

  it("creates the demo API key from DEMO_API_KEY once and prints it", async () => {
    const header = `Basic ${Buffer.from(`${DEMO_STORE_ID}:${DEMO_KEY}`).toString("base64")}`;
    expect(await s.apiKeys.authenticateBasic(header)).toBe(DEMO_STORE_ID);
    expect(await s.apiKeys.list(DEMO_STORE_ID)).toHaveLength(1);
    expect(logs.filter((l) => l.includes(DEMO_KEY))).toHaveLength(1);
  });

  it("adds nothing generated to the real NPS rows, and marks the generated attribution survey as sample data", async () => {
    const nps = all.filter((r) => r.surveyId === DEMO_SURVEY_IDS.nps);
    const asked = new Set(["nps", "text", "profile"]);
    for (const r of nps) {
      expect(r.customer).toBeUndefined();
      for (const a of r.answeredQuestions) expect(asked.has(a.type), a.type).toBe(true);
      expect(r.answeredQuestions.some((a) => a.type === "profile" && a.answer.type === "multi-value")).toBe(false);
    }
    expect([...(await s.surveys.sampleDataSurveyIds(DEMO_STORE_ID))]).toEqual([DEMO_SURVEY_IDS.attribution]);
    // No free text in the sample answers: every choice is one of the survey's own options.
    const attr = all.filter((r) => r.surveyId === DEMO_SURVEY_IDS.attribution);
    expect(attr.flatMap((r) => r.answeredQuestions).some((a) => "customAnswer" in a)).toBe(false);
  });
});

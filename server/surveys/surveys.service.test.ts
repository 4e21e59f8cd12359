import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR, OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices, type Services } from "../services.ts";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { ATTRIBUTION_SURVEY, attributionResponses, DEMO_CHANNEL_IDS, DEMO_NPS_FILE, DEMO_SURVEY_IDS, NPS_SURVEY, npsResponses, readNpsRows, type NpsRow } from "./surveys.demo.ts";

let dir: string;
let database: FreshDatabase;
let s: Services;
let rows: NpsRow[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-surveys-"));
  // A SQLite file, or a fresh PostgreSQL database with CHORUS_TEST_POSTGRES_URL (test/database-location.ts).
  database = await freshDatabase(dir);
  s = await createServices({ databasePath: database.location });
  await s.stores.create({ storeId: TEST_STORE_ID, name: "Test", platform: "shopify" });
  await s.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "shopify" });
  await s.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await s.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE)).slice(0, 300);
  await s.surveys.importResponses(
    TEST_STORE_ID,
    npsResponses(rows).map((r) => ({ ...r, isArchived: false })),
  );
  await s.surveys.importResponses(
    TEST_STORE_ID,
    attributionResponses(80, 7, Date.UTC(2018, 0, 1), Date.UTC(2018, 1, 1)).map((r) => ({ ...r, isArchived: false })),
  );
});
afterAll(async () => {
  await s.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const all = async (filter: Parameters<Services["surveys"]["iterateResponses"]>[1], order?: "date asc" | "date desc") => {
  const out = [];
  for await (const r of s.surveys.iterateResponses(TEST_STORE_ID, filter, { order, batchSize: 37 })) out.push(r);
  return out;
};

describe("admin functions over survey responses", () => {
  it("iterateResponses streams every matching response once, in order, across batches", async () => {
    const list = await all({ surveyId: DEMO_SURVEY_IDS.nps }, "date asc");
    expect(list).toHaveLength(300);
    expect(new Set(list.map((r) => r.surveyResponseId)).size).toBe(300);
    const dates = list.map((r) => Date.parse(r.dateCreated));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
  });

  it("filters by NPS category using the real labels", async () => {
    const detractors = await all({ npsCategory: "detractor" });
    expect(detractors).toHaveLength(rows.filter((r) => r.NPS_RATING === "Detractor").length);
    expect(detractors.every((r) => r.answeredQuestions.some((a) => a.type === "nps" && a.answer <= 6))).toBe(true);
  });

  it("filters by channel, channel survey and date range (from inclusive, to exclusive)", async () => {
    const checkout = await all({ channel: "post-checkout", surveyId: DEMO_SURVEY_IDS.nps });
    expect(checkout).toHaveLength(rows.filter((r) => r.SURVEY_SUB_TYPE === "Order").length);
    expect(await all({ channelSurveyId: DEMO_CHANNEL_IDS.npsCheckout })).toHaveLength(checkout.length);
    const from = Date.UTC(2018, 3, 1);
    const to = Date.UTC(2018, 4, 1);
    const april = await all({ surveyId: DEMO_SURVEY_IDS.nps, fromMs: from, toMs: to });
    const expected = rows.filter((r) => /^\d{2}\/04\/2018/.test(r.CUSTOMER_RESPONSE_DATE)).length;
    expect(april).toHaveLength(expected);
  });

  it("full-text search finds responses by words of their text answers (prefix, all words, case-insensitive)", async () => {
    const expected = rows.filter((r) => /\bengineer/i.test(r.text) && /\bday/i.test(r.text)).length;
    expect(expected).toBeGreaterThan(0);
    const found = await all({ search: "Engineer DAY" });
    expect(found).toHaveLength(expected);
    expect(await all({ search: '"); DROP TABLE survey_responses; --' })).toEqual([]);
    expect(await all({ search: "   " })).toEqual([]);
  });

  it("archive and unarchive change isArchived, are counted once and filterable; another store's IDs are ignored", async () => {
    const ids = (await all({ surveyId: DEMO_SURVEY_IDS.attribution })).slice(0, 3).map((r) => r.surveyResponseId);
    expect(await s.surveys.archiveResponses(OTHER_STORE_ID, ids)).toBe(0);
    expect(await s.surveys.archiveResponses(TEST_STORE_ID, ids)).toBe(3);
    expect(await s.surveys.archiveResponses(TEST_STORE_ID, ids)).toBe(0);
    expect((await all({ archived: true })).map((r) => r.surveyResponseId).sort()).toEqual([...ids].sort());
    expect((await all({ archived: true })).every((r) => r.isArchived === true)).toBe(true);
    expect(await s.surveys.unarchiveResponses(TEST_STORE_ID, ids.slice(0, 1))).toBe(1);
    expect(await all({ archived: true })).toHaveLength(2);
  });

  it("searchResponses pages with a cursor bound to its filter", async () => {
    const first = await s.surveys.searchResponses(TEST_STORE_ID, { surveyId: DEMO_SURVEY_IDS.nps }, { limit: 100 });
    expect(first.surveyResponses).toHaveLength(100);
    const second = await s.surveys.searchResponses(TEST_STORE_ID, { surveyId: DEMO_SURVEY_IDS.nps }, { limit: 100, cursor: first.nextCursor });
    expect(second.surveyResponses[0].surveyResponseId).not.toBe(first.surveyResponses[99].surveyResponseId);
    let error: unknown;
    try {
      await s.surveys.searchResponses(TEST_STORE_ID, { surveyId: DEMO_SURVEY_IDS.attribution }, { limit: 100, cursor: first.nextCursor });
    } catch (e) {
      error = e;
    }
    expect(isApiError(error) && error.status === 400).toBe(true);
  });

  it("importResponses stores nothing when one item is invalid", async () => {
    const before = await s.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.nps);
    let error: unknown;
    try {
      await s.surveys.importResponses(TEST_STORE_ID, [
        { channelSurveyId: DEMO_CHANNEL_IDS.npsEmail, createdMs: Date.now(), answeredQuestions: [{ id: NPS_SURVEY.questions[0].id, type: "nps", answer: 3 }] },
        { channelSurveyId: DEMO_CHANNEL_IDS.npsEmail, createdMs: Date.now(), answeredQuestions: [{ id: NPS_SURVEY.questions[0].id, type: "nps", answer: 12 }] },
      ]);
    } catch (e) {
      error = e;
    }
    expect(isApiError(error) && error.status === 400).toBe(true);
    expect(await s.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.nps)).toBe(before);
  });

  it("createSurvey rejects a select question without options", async () => {
    await expect(s.surveys.createSurvey(TEST_STORE_ID, { name: "Bad", questions: [{ type: "single-select", text: "Pick" }], channelSurveys: [{ channel: "on-site" }] })).rejects.toThrow(/options/);
  });
});

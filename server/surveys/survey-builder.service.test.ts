/**
 * The admin survey builder's service on a real database (a SQLite file, or PostgreSQL with the postgres config):
 * reorder (move up/down, ends, renumbering after a delete, two concurrent moves), the snapshot rule (editing or
 * deleting a question of a live survey leaves stored responses as answered), per-field validation with the API's
 * rules, channel surveys with their reward, and the per-option counts of the reports.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices, type Services } from "../services.ts";
import { checkChannel, checkQuestion } from "./survey-builder.service.ts";

let dir: string;
let database: FreshDatabase;
let s: Services;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-survey-builder-"));
  database = await freshDatabase(dir);
  s = await createServices({ databasePath: database.location });
  await s.stores.create({ storeId: TEST_STORE_ID, name: "Test", platform: "shopify" });
  await s.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "shopify" });
});
afterAll(async () => {
  await s.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function newSurvey(texts: string[]) {
  const survey = await s.surveys.createSurvey(TEST_STORE_ID, {
    name: "Builder",
    questions: texts.map((text) => ({ type: "text" as const, text })),
    channelSurveys: [{ channel: "shareable-link" }],
  });
  return survey;
}
const texts = async (surveyId: string) => (await s.surveys.getSurvey(TEST_STORE_ID, surveyId)).questions.map((q) => q.text);
const rejects = async (p: Promise<unknown>, status: number) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isApiError(error) && error.status).toBe(status);
  return error as Error;
};

describe("reorder", () => {
  it("moves a question up and down, stays put at either end, and closes up after a delete", async () => {
    const survey = await newSurvey(["A", "B", "C", "D"]);
    const [a, b, c, d] = survey.questions.map((q) => q.id);
    expect(await s.surveyBuilder.moveQuestion(TEST_STORE_ID, c, "up")).toBe(1);
    expect(await texts(survey.surveyId)).toEqual(["A", "C", "B", "D"]);
    expect(await s.surveyBuilder.moveQuestion(TEST_STORE_ID, a, "up")).toBe(0);
    expect(await s.surveyBuilder.moveQuestion(TEST_STORE_ID, d, "down")).toBe(3);
    expect(await s.surveyBuilder.moveQuestion(TEST_STORE_ID, a, "down")).toBe(1);
    expect(await texts(survey.surveyId)).toEqual(["C", "A", "B", "D"]);
    await s.surveyBuilder.deleteQuestion(TEST_STORE_ID, b);
    expect(await texts(survey.surveyId)).toEqual(["C", "A", "D"]);
    const added = await s.surveyBuilder.addQuestion(TEST_STORE_ID, survey.surveyId, { type: "star", text: "E" });
    expect(await texts(survey.surveyId)).toEqual(["C", "A", "D", "E"]);
    expect(await s.surveyBuilder.moveQuestion(TEST_STORE_ID, added, "up")).toBe(2);
    // The storefront read follows the new order.
    const read = await s.surveys.getStorefrontSurvey(TEST_STORE_ID, survey.channelSurveys[0].channelSurveyId);
    expect(read.questions.map((q) => q.text)).toEqual(["C", "A", "E", "D"]);
  });

  it("two concurrent moves of one survey both land, positions stay 0..n-1 without gaps or repeats", async () => {
    const survey = await newSurvey(["A", "B", "C", "D", "E"]);
    const ids = survey.questions.map((q) => q.id);
    await Promise.all([s.surveyBuilder.moveQuestion(TEST_STORE_ID, ids[4], "up"), s.surveyBuilder.moveQuestion(TEST_STORE_ID, ids[0], "down")]);
    expect(await texts(survey.surveyId)).toEqual(["B", "A", "C", "E", "D"]);
    const rows = await s.surveysData.questionsOf(TEST_STORE_ID, survey.surveyId);
    expect(rows.map((r) => Number(r.position))).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuses to delete the last question, and another store's question is not found", async () => {
    const survey = await newSurvey(["Only"]);
    await rejects(s.surveyBuilder.deleteQuestion(TEST_STORE_ID, survey.questions[0].id), 400);
    await rejects(s.surveyBuilder.moveQuestion(OTHER_STORE_ID, survey.questions[0].id, "up"), 404);
    await rejects(s.surveyBuilder.updateQuestion(OTHER_STORE_ID, survey.questions[0].id, { type: "text", text: "Hijacked" }), 404);
    expect(await texts(survey.surveyId)).toEqual(["Only"]);
  });
});

describe("the snapshot rule", () => {
  it("editing or deleting a question of a live survey leaves stored responses with the text they were answered with", async () => {
    const survey = await s.surveys.createSurvey(TEST_STORE_ID, {
      name: "Live",
      channelSurveys: [{ channel: "shareable-link" }],
      questions: [
        { type: "single-select", text: "Which colour?", options: ["Red", "Blue"], allowCustomAnswer: true, customAnswerOptionText: "Other" },
        { type: "nps", text: "Recommend us?" },
      ],
    });
    const [colour, nps] = survey.questions;
    const channelSurveyId = survey.channelSurveys[0].channelSurveyId;
    const { body } = await s.surveys.submitResponse(TEST_STORE_ID, channelSurveyId, {
      answeredQuestions: [
        { id: colour.id, type: "single-select", answer: "Other", customAnswer: "Teal" },
        { id: nps.id, type: "nps", answer: 9 },
      ],
    });
    await s.surveyBuilder.updateQuestion(TEST_STORE_ID, colour.id, { type: "single-select", text: "Which colour do you like best?", options: ["Red", "Green"] });
    await s.surveyBuilder.deleteQuestion(TEST_STORE_ID, nps.id);
    await s.surveyBuilder.renameSurvey(TEST_STORE_ID, survey.surveyId, "Live (edited)");
    const stored = await s.surveys.getResponse(TEST_STORE_ID, body.surveyResponse.surveyResponseId);
    expect(stored.answeredQuestions).toEqual([
      { id: colour.id, type: "single-select", text: "Which colour?", answer: "Other", customAnswer: "Teal", customAnswerOptionText: "Other" },
      { id: nps.id, type: "nps", text: "Recommend us?", answer: 9, answerNpsCategory: "promoter" },
    ]);
    // The live definition did change, and a new response is answered against it.
    expect((await s.surveys.getSurvey(TEST_STORE_ID, survey.surveyId)).questions).toEqual([
      { id: colour.id, type: "single-select", text: "Which colour do you like best?", options: ["Red", "Green"] },
    ]);
    const listed = await s.surveys.listResponses(TEST_STORE_ID, survey.surveyId, { limit: 10, orderBy: "date asc" });
    expect(listed.surveyResponses[0].answeredQuestions[0].text).toBe("Which colour?");
  });
});

describe("validation with the API's rules, per field", () => {
  it("names each refused field and drops what the type does not use", () => {
    expect(checkQuestion({ type: "single-select", text: " ", options: [] }).errors).toEqual({ text: "Write the question.", options: "a single-select question needs options" });
    expect(checkQuestion({ type: "multi-select", text: "Q", options: ["A"], allowCustomAnswer: true, customAnswerOptionText: "" }).errors).toEqual({
      customAnswerOptionText: "allowCustomAnswer needs customAnswerOptionText",
    });
    expect(checkQuestion({ type: "profile", text: "Q" }).errors).toEqual({ profileAnswerType: "a profile question needs profileAnswerType" });
    expect(checkQuestion({ type: "single-select", text: "Q", options: ["A", "A"] }).errors).toEqual({ options: "Each option once." });
    expect(checkQuestion({ type: "nps", text: " Q ", options: ["stale"], allowCustomAnswer: true, customAnswerOptionText: "x", profileAnswerType: "location" })).toEqual({
      question: { type: "nps", text: "Q" },
    });
    expect(checkChannel({ channel: "on-site", reward: { type: "coupon", description: "10% off", value: "" } }).errors).toEqual({ "reward.value": expect.any(String) });
  });

  it("the service refuses what the check refuses (400) and writes nothing", async () => {
    const survey = await newSurvey(["Keep"]);
    const error = await rejects(s.surveyBuilder.updateQuestion(TEST_STORE_ID, survey.questions[0].id, { type: "multi-select", text: "Pick", options: [] }), 400);
    expect(error.message).toContain("options");
    expect(await texts(survey.surveyId)).toEqual(["Keep"]);
  });
});

describe("channel surveys", () => {
  it("adds and edits a channel survey with a coupon reward; turning the survey off closes every channel survey", async () => {
    const survey = await newSurvey(["Q"]);
    const id = await s.surveyBuilder.addChannelSurvey(TEST_STORE_ID, survey.surveyId, {
      channel: "on-site",
      description: "Pop-up",
      reward: { type: "coupon", description: "10% off", value: "HELLO10" },
    });
    await s.surveyBuilder.updateChannelSurvey(TEST_STORE_ID, id, {
      channel: "post-checkout",
      description: "Thank-you page",
      reward: { type: "coupon", description: "15% off", value: "THANKS15" },
      enabled: true,
    });
    const read = await s.surveys.getSurvey(TEST_STORE_ID, survey.surveyId);
    expect(read.channelSurveys[1]).toEqual({ channelSurveyId: id, channel: "post-checkout", description: "Thank-you page", reward: { type: "coupon", description: "15% off", value: "THANKS15" } });
    expect(await s.surveyBuilder.setSurveyEnabled(TEST_STORE_ID, survey.surveyId, false)).toBe(2);
    expect((await s.surveys.getSurvey(TEST_STORE_ID, survey.surveyId)).channelSurveys.map((c) => c.enabled)).toEqual([false, false]);
    await rejects(s.surveys.getStorefrontSurvey(TEST_STORE_ID, id), 404);
    await s.surveyBuilder.setSurveyEnabled(TEST_STORE_ID, survey.surveyId, true);
    expect((await s.surveys.getStorefrontSurvey(TEST_STORE_ID, id)).rewardDescription).toBe("15% off");
  });
});

describe("reports: counts per option", () => {
  it("counts each option of select and valued profile questions, the custom option under its text, zeros included", async () => {
    const survey = await s.surveys.createSurvey(TEST_STORE_ID, {
      name: "Counts",
      channelSurveys: [{ channel: "shareable-link" }],
      questions: [
        { type: "single-select", text: "Heard?", options: ["Ads", "Friend", "Search"], allowCustomAnswer: true, customAnswerOptionText: "Other" },
        { type: "multi-select", text: "Why?", options: ["Price", "Quality"] },
        { type: "profile", text: "Stage", profileAnswerType: "single-value", options: ["New", "Returning"] },
      ],
    });
    const [heard, why, stage] = survey.questions;
    const ch = survey.channelSurveys[0].channelSurveyId;
    const answer = (h: string, w: string[], st: string, custom?: string) =>
      s.surveys.submitResponse(TEST_STORE_ID, ch, {
        answeredQuestions: [
          { id: heard.id, type: "single-select", answer: h, ...(custom ? { customAnswer: custom } : {}) },
          { id: why.id, type: "multi-select", answer: w },
          { id: stage.id, type: "profile", answer: { type: "single-value", value: st } },
        ],
      });
    await answer("Ads", ["Price", "Quality"], "New");
    await answer("Ads", ["Price"], "Returning");
    await answer("Other", ["Quality"], "New", "A podcast");
    const counts = await s.surveyBuilder.optionCounts(TEST_STORE_ID, survey.surveyId, { archived: false });
    expect(counts).toEqual([
      {
        questionId: heard.id,
        text: "Heard?",
        counts: [
          { option: "Ads", count: 2 },
          { option: "Friend", count: 0 },
          { option: "Search", count: 0 },
          { option: "Other", count: 1 },
        ],
      },
      {
        questionId: why.id,
        text: "Why?",
        counts: [
          { option: "Price", count: 2 },
          { option: "Quality", count: 2 },
        ],
      },
      {
        questionId: stage.id,
        text: "Stage",
        counts: [
          { option: "New", count: 2 },
          { option: "Returning", count: 1 },
        ],
      },
    ]);
  });
});

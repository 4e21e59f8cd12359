/**
 * The storefront side of surveys (docs/surveys.md, Storefront read; Shareable link): the public read of a channel
 * survey, required questions, disabled channel surveys, and each channel's response landing in the enterprise
 * listing with its channel, customer, order and opt-in. Real server, real database (both engines).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import type { StorefrontSurveyResponse, SurveyResponse } from "../contract/surveys.ts";
import { sql, value } from "../db/database.ts";
import { ATTRIBUTION_SURVEY, DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS as Q, DEMO_SURVEY_IDS } from "./surveys.demo.ts";

let t: TestServer;
let key: string;
let requiredChannel: string;
let requiredQuestion: string;
let disabledChannel: string;
let otherChannel: string;

beforeAll(async () => {
  t = await startTestServer({ webhooks: { allowInsecure: true, delivery: "manual" } });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  key = (await t.services.apiKeys.create(TEST_STORE_ID, "test")).key;
  await t.services.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  const s = await t.services.surveys.createSurvey(TEST_STORE_ID, {
    name: "Quick check",
    questions: [{ type: "text", text: "Anything to add?" }, { type: "star", text: "Rate us", required: true }],
    channelSurveys: [{ channel: "shareable-link", description: "Two questions" }, { channel: "on-site", enabled: false }],
  });
  requiredChannel = s.channelSurveys[0].channelSurveyId;
  requiredQuestion = s.questions[1].id;
  disabledChannel = s.channelSurveys[1].channelSurveyId;
  otherChannel = (await t.services.surveys.createSurvey(OTHER_STORE_ID, { name: "Other", questions: [{ type: "star", text: "Rate" }], channelSurveys: [{ channel: "on-site" }] })).channelSurveys[0].channelSurveyId;
});
afterAll(() => t.close());

const read = (channelSurveyId: string, store = TEST_STORE_ID) => fetch(t.url(`/v1/stores/${store}/surveys/${channelSurveyId}`));
const submit = (channelSurveyId: string, body: unknown) =>
  fetch(t.url(`/v1/stores/${TEST_STORE_ID}/surveys/${channelSurveyId}/responses`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const listed = async (surveyId: string): Promise<SurveyResponse[]> => {
  const res = await fetch(t.url(`/enterprise/surveys/${surveyId}/responses?limit=100`), { headers: { authorization: `Basic ${Buffer.from(`${TEST_STORE_ID}:${key}`).toString("base64")}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { surveyResponses: SurveyResponse[] }).surveyResponses;
};

describe("GET /v1/stores/{store}/surveys/{channelSurveyId} (docs/surveys.md, Storefront read)", () => {
  it("answers the name, the questions in order, the description and the reward's description, never its code", async () => {
    const res = await read(DEMO_CHANNEL_IDS.attrCheckout);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public/);
    const text = await res.text();
    expect(text).not.toContain("THANKYOU10");
    const { channelSurvey } = JSON.parse(text) as StorefrontSurveyResponse;
    expect(channelSurvey).toMatchObject({
      channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout, channel: "post-checkout", surveyId: DEMO_SURVEY_IDS.attribution, surveyName: ATTRIBUTION_SURVEY.name,
      description: "Thank-you page survey", rewardDescription: "10% off your next order",
    });
    expect(channelSurvey.questions.map((q) => q.id)).toEqual(ATTRIBUTION_SURVEY.questions.map((q) => q.id));
    const heard = channelSurvey.questions.find((q) => q.id === Q.heard)!;
    expect(heard).toMatchObject({ type: "single-select", allowCustomAnswer: true, customAnswerOptionText: "Other" });
    expect(heard.options!.length).toBeGreaterThan(1);
    const birthday = channelSurvey.questions.find((q) => q.id === Q.birthday)!;
    expect(birthday).toMatchObject({ type: "profile", profileAnswerType: "date-components" });
    expect(birthday.profileQuestionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("marks required questions", async () => {
    const { channelSurvey } = (await (await read(requiredChannel)).json()) as StorefrontSurveyResponse;
    expect(channelSurvey.questions.map((q) => q.required ?? false)).toEqual([false, true]);
    expect(channelSurvey.description).toBe("Two questions");
    expect(channelSurvey.rewardDescription).toBeUndefined();
  });

  it.each([
    ["an unknown channel survey", () => "00000000-0000-4000-8000-000000000000", TEST_STORE_ID],
    ["a channel survey ID that is not a UUID", () => "nope", TEST_STORE_ID],
    ["a disabled channel survey", () => disabledChannel, TEST_STORE_ID],
    ["another store's channel survey", () => otherChannel, TEST_STORE_ID],
    ["an unknown store", () => DEMO_CHANNEL_IDS.attrCheckout, "00000000-0000-4000-8000-00000000dead"],
  ])("%s answers 404 JSON", async (_name, id, store) => {
    const res = await read(id(), store);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { description: string } }).error.description).toMatch(/not found/i);
  });

  it("a channel survey turned off answers 404 at once, though its answer was cached, and takes no responses", async () => {
    const s = await t.services.surveys.createSurvey(TEST_STORE_ID, { name: "Soon off", questions: [{ type: "star", text: "Rate" }], channelSurveys: [{ channel: "on-site" }] });
    const id = s.channelSurveys[0].channelSurveyId;
    expect((await read(id)).status).toBe(200);
    expect((await read(id)).status).toBe(200); // now from the response cache
    expect(await t.services.surveys.setChannelSurveyEnabled(TEST_STORE_ID, id, false)).toBe(true);
    expect((await read(id)).status).toBe(404);
    expect((await submit(id, { answeredQuestions: [{ id: s.questions[0].id, type: "star", answer: 5 }] })).status).toBe(404);
  });

  it("is declared in the storefront OpenAPI document", async () => {
    const doc = (await (await fetch(t.url("/v1/openapi.json"))).json()) as { paths: Record<string, Record<string, unknown>> };
    const path = Object.keys(doc.paths).find((p) => /\/surveys\/\{channelSurveyId\}$/.test(p));
    expect(path).toBeDefined();
    expect(doc.paths[path!]!.get).toBeDefined();
  });
});

describe("required questions (docs/surveys.md, Answer validation)", () => {
  it("a submission without a required question answers 400 naming it; with it, 201", async () => {
    const missing = await submit(requiredChannel, { answeredQuestions: [{ id: (await t.services.surveys.getSurvey(TEST_STORE_ID, (await (await read(requiredChannel)).json() as StorefrontSurveyResponse).channelSurvey.surveyId)).questions[0].id, type: "text", answer: "Hi" }] });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { description: string } }).error.description).toBe(`answeredQuestions (question ${requiredQuestion} "Rate us"): the question is required`);
    expect((await submit(requiredChannel, { answeredQuestions: [{ id: requiredQuestion, type: "star", answer: 4 }] })).status).toBe(201);
  });
});

describe("a response lands with its channel, customer, order and opt-in, and fires survey_response.created", () => {
  it("post-checkout with the order and the customer", async () => {
    const events = async () => Number(await value<number>(t.services.db, sql`SELECT count(*) AS n FROM webhook_events WHERE event_type = 'survey_response.created'`));
    await t.services.webhooks.create(TEST_STORE_ID, { url: "http://127.0.0.1:9/hook", eventTypes: ["survey_response.created"] });
    const before = await events();
    const res = await submit(DEMO_CHANNEL_IDS.attrCheckout, {
      answeredQuestions: [{ id: Q.stars, type: "star", answer: 5 }, { id: Q.email, type: "email", answer: "ann@example.com", marketingOptIn: true }],
      customer: { customerId: "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b", email: "ann@example.com" }, order: { remoteOrderId: "10045" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { surveyResponse: { surveyResponseId: string; reward?: { value: string } } };
    expect(body.surveyResponse.reward?.value).toBe("THANKYOU10");
    const r = (await listed(DEMO_SURVEY_IDS.attribution)).find((x) => x.surveyResponseId === body.surveyResponse.surveyResponseId)!;
    expect(r).toMatchObject({
      channel: "post-checkout", channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout, order: { remoteOrderId: "10045" }, emailMarketingOptIn: true,
      customer: { customerId: "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b", email: "ann@example.com" },
    });
    expect(r.answeredQuestions.map((a) => a.type)).toEqual(["star", "email"]);
    expect(await events()).toBe(before + 1);
  });
});

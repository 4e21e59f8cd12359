/**
 * The storefront side of surveys (docs/surveys.md, Storefront read; Shareable link): the public read of a channel
 * survey, required questions, disabled channel surveys, and each channel's response landing in the enterprise
 * listing with its channel, customer, order and opt-in. Real server, real database (both engines).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import type { StorefrontSurveyResponse, Survey, SurveyDefinition, SurveyResponse } from "../contract/surveys.ts";
import { surveyField } from "../contract/survey-form.ts";
import { sql, value } from "../db/database.ts";
import { ATTRIBUTION_SURVEY, DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS as Q, DEMO_SURVEY_IDS } from "./surveys.demo.ts";

let t: TestServer;
let key: string;
let requiredChannel: string;
let requiredQuestion: string;
let disabledChannel: string;
let otherChannel: string;
let full: Survey;
let linkChannel: string;

/** A survey with all eight question types and the four profile variants (the shareable link carries a coupon). */
const FULL_SURVEY: SurveyDefinition = {
  name: "Everything survey",
  questions: [
    { type: "nps", text: "How likely are you to recommend us?", required: true },
    { type: "star", text: "Rate your order" },
    { type: "five-point", text: "How easy was checkout?" },
    { type: "single-select", text: "Where did you hear of us?", options: ["Friend", "Search"], allowCustomAnswer: true, customAnswerOptionText: "Other" },
    { type: "multi-select", text: "What did you buy?", options: ["Shoes", "Bags", "Hats"], allowCustomAnswer: true, customAnswerOptionText: "Something else" },
    { type: "text", text: "Anything else?" },
    { type: "email", text: "Your e-mail" },
    { type: "profile", text: "When is your birthday?", profileAnswerType: "date-components" },
    { type: "profile", text: "Where do you live?", profileAnswerType: "location" },
    { type: "profile", text: "Your style", profileAnswerType: "single-value", options: ["Classic", "Sporty"] },
    { type: "profile", text: "Your sizes", profileAnswerType: "multi-value", options: ["S", "M", "L"] },
  ],
  channelSurveys: [{ channel: "shareable-link", description: "Tell us", reward: { type: "coupon", description: "5% off", value: "LINK5" } }],
};

beforeAll(async () => {
  t = await startTestServer({ webhooks: { allowInsecure: true, delivery: "manual" } });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  key = (await t.services.apiKeys.create(TEST_STORE_ID, "test")).key;
  await t.services.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  const s = await t.services.surveys.createSurvey(TEST_STORE_ID, {
    name: "Quick check",
    questions: [
      { type: "text", text: "Anything to add?" },
      { type: "star", text: "Rate us", required: true },
    ],
    channelSurveys: [
      { channel: "shareable-link", description: "Two questions" },
      { channel: "on-site", enabled: false },
    ],
  });
  requiredChannel = s.channelSurveys[0].channelSurveyId;
  requiredQuestion = s.questions[1].id;
  disabledChannel = s.channelSurveys[1].channelSurveyId;
  full = await t.services.surveys.createSurvey(TEST_STORE_ID, FULL_SURVEY);
  linkChannel = full.channelSurveys[0].channelSurveyId;
  otherChannel = (await t.services.surveys.createSurvey(OTHER_STORE_ID, { name: "Other", questions: [{ type: "star", text: "Rate" }], channelSurveys: [{ channel: "on-site" }] })).channelSurveys[0]
    .channelSurveyId;
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
      channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout,
      channel: "post-checkout",
      surveyId: DEMO_SURVEY_IDS.attribution,
      surveyName: ATTRIBUTION_SURVEY.name,
      description: "Thank-you page survey",
      rewardDescription: "10% off your next order",
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
    const missing = await submit(requiredChannel, {
      answeredQuestions: [
        {
          id: (await t.services.surveys.getSurvey(TEST_STORE_ID, ((await (await read(requiredChannel)).json()) as StorefrontSurveyResponse).channelSurvey.surveyId)).questions[0].id,
          type: "text",
          answer: "Hi",
        },
      ],
    });
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
      answeredQuestions: [
        { id: Q.stars, type: "star", answer: 5 },
        { id: Q.email, type: "email", answer: "ann@example.com", marketingOptIn: true },
      ],
      customer: { customerId: "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b", email: "ann@example.com" },
      order: { remoteOrderId: "10045" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { surveyResponse: { surveyResponseId: string; reward?: { value: string } } };
    expect(body.surveyResponse.reward?.value).toBe("THANKYOU10");
    const r = (await listed(DEMO_SURVEY_IDS.attribution)).find((x) => x.surveyResponseId === body.surveyResponse.surveyResponseId)!;
    expect(r).toMatchObject({
      channel: "post-checkout",
      channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout,
      order: { remoteOrderId: "10045" },
      emailMarketingOptIn: true,
      customer: { customerId: "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b", email: "ann@example.com" },
    });
    expect(r.answeredQuestions.map((a) => a.type)).toEqual(["star", "email"]);
    expect(await events()).toBe(before + 1);
  });
});

describe("the hosted survey page /s/{channelSurveyId} without JavaScript (docs/surveys.md, Shareable link)", () => {
  const page = (path: string) => fetch(t.url(path), { redirect: "manual" });
  const post = (path: string, form: [string, string][]) =>
    fetch(t.url(path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
  const q = (i: number) => full.questions[i]!.id;

  it("shows every question as plain form controls inside the progressive <chorus-survey>", async () => {
    const res = await page(`/s/${linkChannel}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Everything survey");
    expect(html).toMatch(/For your answers: (<!-- -->)?5% off/);
    expect(html).not.toContain("LINK5");
    expect(html).toContain(`<chorus-survey channel-survey-id="${linkChannel}"`);
    for (const question of full.questions) expect(html).toContain(question.text);
    expect(html).toContain(`name="${surveyField(q(8), "country")}"`);
    expect(html).toContain(">United Kingdom</option>");
  });

  it("an unknown, disabled or other-channel survey answers 404", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", disabledChannel, DEMO_CHANNEL_IDS.attrCheckout, "x"]) expect((await page(`/s/${id}`)).status).toBe(404);
  });

  it("problems are shown at their question, the answers kept; nothing is stored", async () => {
    const before = (await listed(full.surveyId)).length;
    const res = await post(`/s/${linkChannel}`, [
      [surveyField(q(3)), "Other"],
      [surveyField(q(6)), "not-an-address"],
      [surveyField(q(7), "day"), "31"],
      [surveyField(q(7), "month"), "4"],
      [surveyField(q(7), "year"), "1990"],
    ]);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The answers were not sent: please see the marked questions below.");
    expect(html).toMatch(new RegExp(`id="e-${q(0)}"[^>]*>Answer this question.<`));
    expect(html).toMatch(new RegExp(`id="e-${q(3)}"[^>]*>Describe your answer in the field below.<`));
    expect(html).toMatch(new RegExp(`id="e-${q(6)}"[^>]*>Enter a valid e-mail address`));
    expect(html).toMatch(new RegExp(`id="e-${q(7)}"[^>]*>Enter a real date`));
    expect(html).toContain('value="not-an-address"');
    expect((await listed(full.surveyId)).length).toBe(before);
  });

  it("a full form post stores every answer with the link's customer and order, and the thank-you state shows the code", async () => {
    const res = await post(`/s/${linkChannel}?x=1`, [
      [surveyField(q(0)), "9"],
      [surveyField(q(1)), "4"],
      [surveyField(q(2)), "5"],
      [surveyField(q(3)), "Other"],
      [surveyField(q(3), "other"), "A podcast"],
      [surveyField(q(4)), "Shoes"],
      [surveyField(q(4)), "Hats"],
      [surveyField(q(5)), "Lovely shop"],
      [surveyField(q(6)), "bea@example.com"],
      [surveyField(q(6), "optin"), "on"],
      [surveyField(q(7), "day"), "29"],
      [surveyField(q(7), "month"), "2"],
      [surveyField(q(7), "year"), "1992"],
      [surveyField(q(8), "country"), "CA"],
      [surveyField(q(8), "zone"), "qc"],
      [surveyField(q(9)), "Sporty"],
      [surveyField(q(10)), "S"],
      [surveyField(q(10)), "L"],
      ["customerId", "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b"],
      ["email", "bea@example.com"],
      ["orderId", "2001"],
    ]);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/s/${linkChannel}\\?done=`));
    const thanks = await (await page(location)).text();
    expect(thanks).toContain("Thank you for your answers!");
    expect(thanks).toContain("LINK5");
    const id = new URL(location, "http://x").searchParams.get("done")!;
    const r = (await listed(full.surveyId)).find((x) => x.surveyResponseId === id)!;
    expect(r).toMatchObject({
      channel: "shareable-link",
      emailMarketingOptIn: true,
      order: { remoteOrderId: "2001" },
      customer: { customerId: "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b", email: "bea@example.com" },
      reward: { type: "coupon", value: "LINK5" },
    });
    expect(r.answeredQuestions).toEqual([
      { id: q(0), text: full.questions[0]!.text, type: "nps", answer: 9, answerNpsCategory: "promoter" },
      { id: q(1), text: full.questions[1]!.text, type: "star", answer: 4 },
      { id: q(2), text: full.questions[2]!.text, type: "five-point", answer: 5 },
      { id: q(3), text: full.questions[3]!.text, type: "single-select", answer: "Other", customAnswer: "A podcast", customAnswerOptionText: "Other" },
      { id: q(4), text: full.questions[4]!.text, type: "multi-select", answer: ["Shoes", "Hats"] },
      { id: q(5), text: full.questions[5]!.text, type: "text", answer: "Lovely shop" },
      { id: q(6), text: full.questions[6]!.text, type: "email", answer: "bea@example.com", marketingOptIn: true },
      {
        id: q(7),
        text: full.questions[7]!.text,
        type: "profile",
        profileQuestionId: full.questions[7]!.profileQuestionId,
        answer: { type: "date-components", value: { day: 29, month: 2, year: 1992 } },
      },
      { id: q(8), text: full.questions[8]!.text, type: "profile", profileQuestionId: full.questions[8]!.profileQuestionId, answer: { type: "location", value: { countryCode: "CA", zoneCode: "QC" } } },
      { id: q(9), text: full.questions[9]!.text, type: "profile", profileQuestionId: full.questions[9]!.profileQuestionId, answer: { type: "single-value", value: "Sporty" } },
      { id: q(10), text: full.questions[10]!.text, type: "profile", profileQuestionId: full.questions[10]!.profileQuestionId, answer: { type: "multi-value", value: ["S", "L"] } },
    ]);
  });

  it("a refused answer the server names is shown at its question", async () => {
    const res = await post(`/s/${linkChannel}`, [
      [surveyField(q(0)), "9"],
      [surveyField(q(9)), "Punk"],
    ]);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(new RegExp(`id="e-${q(9)}"[^>]*>answer.value &quot;Punk&quot; is not an option`));
  });
});

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DATA_DIR, OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import type { ListSurveyResponsesResponse, ListSurveysResponse, SurveyResponse } from "../contract/surveys.ts";
import { ATTRIBUTION_SURVEY, attributionResponses, DEMO_CHANNEL_IDS, DEMO_NPS_FILE, DEMO_QUESTION_IDS as Q, DEMO_SURVEY_IDS, NPS_SURVEY, npsResponses, readNpsRows } from "./surveys.demo.ts";

let t: TestServer;
let key: string;
let otherKey: string;
let otherSurveyId: string;
let otherChannelId: string;
const NPS_COUNT = 140;
const ATTR_COUNT = 60;

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  key = (await t.services.apiKeys.create(TEST_STORE_ID, "test")).key;
  otherKey = (await t.services.apiKeys.create(OTHER_STORE_ID, "other")).key;
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  // Real NPS rows (with their real dates, which include equal timestamps) and generated attribution answers.
  const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE)).slice(0, NPS_COUNT);
  await t.services.surveys.importResponses(TEST_STORE_ID, npsResponses(rows));
  const attr = attributionResponses(ATTR_COUNT, 7, Date.UTC(2018, 0, 1), Date.UTC(2018, 0, 2));
  // Force ties on dateCreated so the survey_response_id tie-break is exercised.
  for (const r of attr.slice(0, 15)) r.createdMs = Date.UTC(2018, 0, 1, 12);
  await t.services.surveys.importResponses(TEST_STORE_ID, attr);
  const other = await t.services.surveys.createSurvey(OTHER_STORE_ID, {
    name: "Other store survey",
    questions: [{ type: "star", text: "How would you rate us?" }],
    channelSurveys: [{ channel: "on-site" }],
  });
  otherSurveyId = other.surveyId;
  otherChannelId = other.channelSurveys[0].channelSurveyId;
});
afterAll(() => t.close());

const get = async (path: string, auth: string | null = basic(TEST_STORE_ID, key)) => {
  const res = await fetch(t.url(path), { headers: auth === null ? {} : { authorization: auth } });
  const text = await res.text();
  return { res, text, body: text ? JSON.parse(text) : undefined };
};
const responsesPath = (surveyId: string, query = "") => `/enterprise/surveys/${surveyId}/responses${query}`;

async function allPages(first: string): Promise<{ items: SurveyResponse[]; pages: number }> {
  const items: SurveyResponse[] = [];
  let next: string | undefined = first;
  let pages = 0;
  while (next) {
    const { res, body } = await get(next);
    expect(res.status).toBe(200);
    const page = body as ListSurveyResponsesResponse;
    items.push(...page.surveyResponses);
    pages++;
    next = page.nextUrl;
    if (next) expect(next.startsWith("/enterprise/surveys/")).toBe(true);
  }
  return { items, pages };
}

describe("enterprise authentication (docs/api.md, Authentication; docs/surveys.md, Enterprise API)", () => {
  const cases: [string, () => string | null][] = [
    ["a missing Authorization header", () => null],
    ["a wrong password", () => basic(TEST_STORE_ID, `${key}x`)],
    ["an unknown user", () => basic("00000000-0000-4000-8000-000000000000", key)],
    ["another store's key", () => basic(TEST_STORE_ID, otherKey)],
    ["a Basic header that is not base64", () => "Basic !!!not-base64!!!"],
    ["a Basic header without a colon", () => `Basic ${Buffer.from(TEST_STORE_ID).toString("base64")}`],
    ["a Bearer header", () => `Bearer ${key}`],
    ["an empty password", () => basic(TEST_STORE_ID, "")],
  ];
  it.each(cases)("%s answers 401 with an empty body and WWW-Authenticate", async (_name, auth) => {
    for (const path of [responsesPath(DEMO_SURVEY_IDS.nps), "/enterprise/surveys", responsesPath(DEMO_SURVEY_IDS.nps, "?limit=0"), "/enterprise/nope"]) {
      const { res, text } = await get(path, auth());
      expect(res.status, path).toBe(401);
      expect(text).toBe("");
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="enterprise"');
    }
  });

  it("a listing another request fetched with valid credentials still answers 401 to a wrong password or another store's key", async () => {
    const path = responsesPath(DEMO_SURVEY_IDS.nps, "?limit=2");
    expect((await get(path)).res.status).toBe(200);
    expect((await get(path)).res.status).toBe(200);
    expect((await get(path, basic(TEST_STORE_ID, `${key}x`))).res.status).toBe(401);
    expect((await get(path, basic(OTHER_STORE_ID, otherKey))).res.status).toBe(404);
    expect((await get(path, null)).res.status).toBe(401);
  });

  it("a revoked key answers 401", async () => {
    const { key: k, info } = await t.services.apiKeys.create(TEST_STORE_ID, "to revoke");
    expect((await get(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=1"), basic(TEST_STORE_ID, k))).res.status).toBe(200);
    await t.services.apiKeys.revoke(TEST_STORE_ID, info.apiKeyId);
    expect((await get(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=1"), basic(TEST_STORE_ID, k))).res.status).toBe(401);
  });

  const lastUsed = async (apiKeyId: string) => (await t.services.apiKeys.list(TEST_STORE_ID)).find((k) => k.apiKeyId === apiKeyId)!.dateLastUsed;

  it("a key's last-used date also counts requests answered from the response cache", async () => {
    const { key: k, info } = await t.services.apiKeys.create(TEST_STORE_ID, "last used");
    const path = responsesPath(DEMO_SURVEY_IDS.nps, "?limit=3");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const start = Date.now();
      // The first use writes the date (a commit), the second computes and caches the answer, the third is a cache hit.
      for (let i = 0; i < 3; i++) expect((await get(path, basic(TEST_STORE_ID, k))).res.status).toBe(200);
      const first = Date.parse((await lastUsed(info.apiKeyId))!);
      expect(first - start).toBeLessThan(1_000);
      vi.setSystemTime(start + 61_000);
      expect((await get(path, basic(TEST_STORE_ID, k))).res.status).toBe(200);
      expect(Date.parse((await lastUsed(info.apiKeyId))!)).toBeGreaterThanOrEqual(start + 61_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a header that never passed authentication records no use of any key", async () => {
    const { info } = await t.services.apiKeys.create(TEST_STORE_ID, "never used");
    await t.services.apiKeys.noteCachedUse(basic(TEST_STORE_ID, "not-a-key"));
    await t.services.apiKeys.noteCachedUse("Basic !!!");
    expect(await lastUsed(info.apiKeyId)).toBeUndefined();
  });
});

describe("GET /enterprise/surveys/{surveyId}/responses: paging (docs/surveys.md, Enterprise API; docs/api.md, Paging)", () => {
  it.each([
    ["date desc", 1],
    ["date desc", 7],
    ["date desc", 100],
    ["date asc", 1],
    ["date asc", 13],
    ["date asc", 100],
  ] as const)("orderBy=%s limit=%i returns every response exactly once, in order", async (order, limit) => {
    for (const [surveyId, count] of [
      [DEMO_SURVEY_IDS.nps, NPS_COUNT],
      [DEMO_SURVEY_IDS.attribution, ATTR_COUNT],
    ] as const) {
      const { items, pages } = await allPages(responsesPath(surveyId, `?limit=${limit}&orderBy=${encodeURIComponent(order)}`));
      expect(items).toHaveLength(count);
      expect(pages).toBe(Math.ceil(count / limit));
      expect(new Set(items.map((r) => r.surveyResponseId)).size).toBe(count);
      expect(items.every((r) => r.surveyId === surveyId)).toBe(true);
      const keys = items.map((r) => [Date.parse(r.dateCreated), r.surveyResponseId] as const);
      for (let i = 1; i < keys.length; i++) {
        const [a, b] = order === "date asc" ? [keys[i - 1], keys[i]] : [keys[i], keys[i - 1]];
        expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `position ${i}`).toBe(true);
      }
    }
  });

  it("defaults to limit 25 and date desc; nextUrl is relative, includes /enterprise and carries the parameters", async () => {
    const { body } = await get(responsesPath(DEMO_SURVEY_IDS.nps));
    expect(body.surveyResponses).toHaveLength(25);
    const dates = body.surveyResponses.map((r: SurveyResponse) => Date.parse(r.dateCreated));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(body.nextUrl).toMatch(new RegExp(`^/enterprise/surveys/${DEMO_SURVEY_IDS.nps}/responses\\?limit=25&orderBy=date%20desc&lastEvaluated=%7B`));
  });

  it("the last page has no nextUrl, also when it is exactly full", async () => {
    const { body } = await get(responsesPath(DEMO_SURVEY_IDS.attribution, `?limit=${ATTR_COUNT}`));
    expect(body.surveyResponses).toHaveLength(ATTR_COUNT);
    expect(body).not.toHaveProperty("nextUrl");
  });

  it.each(["0", "101", "abc", "-1", "2.5", "", "1e2"])("limit=%j answers 400 with a JSON error naming limit", async (limit) => {
    const { res, body } = await get(responsesPath(DEMO_SURVEY_IDS.nps, `?limit=${encodeURIComponent(limit)}`));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(body.error.description).toMatch(/limit/);
  });

  it.each(["date", "rating desc", "DATE DESC", "date  desc", "date descending", "desc"])("orderBy=%j answers 400 naming the format", async (orderBy) => {
    const { res, body } = await get(responsesPath(DEMO_SURVEY_IDS.nps, `?orderBy=${encodeURIComponent(orderBy)}`));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/orderBy.*date asc.*date desc/);
  });

  it("orderBy accepts + as the space (form encoding)", async () => {
    expect((await get(responsesPath(DEMO_SURVEY_IDS.nps, "?orderBy=date+asc&limit=1"))).res.status).toBe(200);
  });

  it("a cursor from one survey used on another answers 400", async () => {
    const { body } = await get(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=5"));
    const cursor = new URL(body.nextUrl, t.baseUrl).searchParams.get("lastEvaluated")!;
    const { res, body: err } = await get(responsesPath(DEMO_SURVEY_IDS.attribution, `?limit=5&lastEvaluated=${encodeURIComponent(cursor)}`));
    expect(res.status).toBe(400);
    expect(err.error.description).toMatch(/lastEvaluated/);
  });

  it("a cursor used with the other order, a tampered cursor and a non-JSON cursor answer 400", async () => {
    const { body } = await get(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=5"));
    const cursor = new URL(body.nextUrl, t.baseUrl).searchParams.get("lastEvaluated")!;
    const parsed = JSON.parse(cursor);
    const tampered = JSON.stringify({ ...parsed, k: [parsed.k[0] - 1, parsed.k[1]] });
    for (const q of [`?orderBy=date%20asc&lastEvaluated=${encodeURIComponent(cursor)}`, `?lastEvaluated=${encodeURIComponent(tampered)}`, "?lastEvaluated=abc", "?lastEvaluated=%5B1%5D"]) {
      const { res, body: err } = await get(responsesPath(DEMO_SURVEY_IDS.nps, q));
      expect(res.status, q).toBe(400);
      expect(err.error.description).toMatch(/lastEvaluated/);
    }
  });

  it("a cursor of another store's listing answers 400 (signed for the store)", async () => {
    const { body } = await get(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=5"));
    const cursor = new URL(body.nextUrl, t.baseUrl).searchParams.get("lastEvaluated")!;
    const { res } = await get(responsesPath(otherSurveyId, `?lastEvaluated=${encodeURIComponent(cursor)}`), basic(OTHER_STORE_ID, otherKey));
    expect(res.status).toBe(400);
  });
});

describe("GET /enterprise/surveys/{surveyId}/responses: 404 and fields (docs/surveys.md, Survey response fields; docs/surveys.md, Enterprise API)", () => {
  it.each([
    ["an unknown survey ID", () => "6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11"],
    ["a survey of another store", () => otherSurveyId],
    ["a survey ID that is not a UUID", () => "not-a-uuid"],
  ])("%s answers 404 JSON", async (_name, id) => {
    const { res, body } = await get(responsesPath(id()));
    expect(res.status).toBe(404);
    expect(body.error.description).toBe("Survey not found");
  });

  it("an unknown /enterprise path answers a JSON 404 to valid credentials", async () => {
    const { res, body } = await get("/enterprise/surveys/x/y/z");
    expect(res.status).toBe(404);
    expect(body.error.description).toMatch(/endpoint/);
  });

  it("optional fields are absent, never null; archived responses are listed with isArchived true", async () => {
    const { items } = await allPages(responsesPath(DEMO_SURVEY_IDS.attribution, "?limit=100"));
    const json = JSON.stringify(items);
    expect(json).not.toContain("null");
    expect(items.some((r) => r.isArchived === true)).toBe(true);
    expect(items.filter((r) => r.channelSurveyId === DEMO_CHANNEL_IDS.attrCheckout).every((r) => r.reward?.value === "THANKYOU10")).toBe(true);
    expect(items.filter((r) => r.channelSurveyId !== DEMO_CHANNEL_IDS.attrCheckout).every((r) => !("reward" in r))).toBe(true);
    const r = items[0];
    expect(r).toMatchObject({ subscriberId: TEST_STORE_ID, surveyName: "Post-purchase attribution" });
  });

  it("NPS answers carry the real score with its category; a row without a score has no NPS answer", async () => {
    const { items } = await allPages(responsesPath(DEMO_SURVEY_IDS.nps, "?limit=100"));
    const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE)).slice(0, NPS_COUNT);
    const scores = items.flatMap((r) => r.answeredQuestions.filter((a) => a.type === "nps"));
    expect(scores).toHaveLength(rows.filter((r) => r.NPS_SCORE !== "").length);
    for (const a of scores) if (a.type === "nps") expect(a.answerNpsCategory).toBe(a.answer >= 9 ? "promoter" : a.answer >= 7 ? "passive" : "detractor");
    const texts = new Set(items.flatMap((r) => r.answeredQuestions.filter((a) => a.type === "text").map((a) => a.answer)));
    expect(texts.has(rows[0].text)).toBe(true);
  });
});

describe("GET /enterprise/surveys (discovery)", () => {
  it("lists only the store's surveys with channel surveys and questions, paged", async () => {
    const first = await get("/enterprise/surveys?limit=1&orderBy=date%20asc");
    expect(first.res.status).toBe(200);
    const page1 = first.body as ListSurveysResponse;
    expect(page1.surveys.map((s) => s.surveyId)).toEqual([DEMO_SURVEY_IDS.nps]);
    expect(page1.surveys[0].questions.map((q) => q.id)).toEqual([Q.nps, Q.reason, Q.stage, Q.services]);
    const page2 = (await get(page1.nextUrl!)).body as ListSurveysResponse;
    expect(page2.surveys.map((s) => s.surveyId)).toEqual([DEMO_SURVEY_IDS.attribution]);
    expect(page2).not.toHaveProperty("nextUrl");
    const other = (await get("/enterprise/surveys", basic(OTHER_STORE_ID, otherKey))).body as ListSurveysResponse;
    expect(other.surveys.map((s) => s.surveyId)).toEqual([otherSurveyId]);
  });

  it("limit=101 answers 400", async () => {
    expect((await get("/enterprise/surveys?limit=101")).res.status).toBe(400);
  });
});

// ---- Storefront submission (docs/surveys.md, Storefront submission) ----

const submitPath = (channelSurveyId: string, storeId = TEST_STORE_ID) => `/v1/stores/${storeId}/surveys/${channelSurveyId}/responses`;
async function submit(body: unknown, options: { channelSurveyId?: string; storeId?: string; key?: string } = {}) {
  const res = await fetch(t.url(submitPath(options.channelSurveyId ?? DEMO_CHANNEL_IDS.attrCheckout, options.storeId)), {
    method: "POST",
    headers: { "content-type": "application/json", ...(options.key ? { "idempotency-key": options.key } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { res, body: text ? JSON.parse(text) : undefined };
}
async function findResponse(surveyId: string, id: string): Promise<SurveyResponse> {
  const { items } = await allPages(responsesPath(surveyId, "?limit=100"));
  const found = items.find((r) => r.surveyResponseId === id);
  if (!found) throw new Error(`response ${id} not listed`);
  return found;
}

describe("POST /v1/stores/{store_id}/surveys/{channelSurveyId}/responses", () => {
  const roundTrips: [string, string, string, Record<string, unknown>, Record<string, unknown>][] = [
    ["text", NPS_SURVEY.surveyId!, DEMO_CHANNEL_IDS.npsEmail, { id: Q.reason, type: "text", answer: "Fast install, friendly engineer." }, { text: "What is the main reason for your score?" }],
    ["nps (category filled in by the server)", NPS_SURVEY.surveyId!, DEMO_CHANNEL_IDS.npsEmail, { id: Q.nps, type: "nps", answer: 8 }, { answerNpsCategory: "passive" }],
    [
      "profile single-value",
      NPS_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.npsEmail,
      { id: Q.stage, type: "profile", answer: { type: "single-value", value: "Order" } },
      { profileQuestionId: "c0000000-0000-4000-8000-000000000001" },
    ],
    ["profile multi-value", NPS_SURVEY.surveyId!, DEMO_CHANNEL_IDS.npsEmail, { id: Q.services, type: "profile", answer: { type: "multi-value", value: ["TV", "Mobile"] } }, {}],
    ["single-select", ATTRIBUTION_SURVEY.surveyId!, DEMO_CHANNEL_IDS.attrCheckout, { id: Q.heard, type: "single-select", answer: "Podcast" }, {}],
    [
      "single-select with a custom answer",
      ATTRIBUTION_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.attrCheckout,
      { id: Q.heard, type: "single-select", answer: "Other", customAnswer: "A market stall" },
      { customAnswerOptionText: "Other" },
    ],
    [
      "multi-select with a custom answer",
      ATTRIBUTION_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.attrCheckout,
      { id: Q.why, type: "multi-select", answer: ["Free shipping", "Something else"], customAnswer: "Gift wrap" },
      { customAnswerOptionText: "Something else" },
    ],
    ["five-point", ATTRIBUTION_SURVEY.surveyId!, DEMO_CHANNEL_IDS.attrCheckout, { id: Q.ease, type: "five-point", answer: 5 }, {}],
    ["star", ATTRIBUTION_SURVEY.surveyId!, DEMO_CHANNEL_IDS.attrCheckout, { id: Q.stars, type: "star", answer: 1 }, {}],
    ["email", ATTRIBUTION_SURVEY.surveyId!, DEMO_CHANNEL_IDS.attrCheckout, { id: Q.email, type: "email", answer: "shopper@example.com", marketingOptIn: true }, {}],
    [
      "profile date-components",
      ATTRIBUTION_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.attrCheckout,
      { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 29, month: 2, year: 2000 } } },
      {},
    ],
    [
      "profile location",
      ATTRIBUTION_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.attrCheckout,
      { id: Q.location, type: "profile", answer: { type: "location", value: { countryCode: "GB", countryName: "United Kingdom", zoneCode: "SCT" } } },
      {},
    ],
    [
      "profile location with the country code only",
      ATTRIBUTION_SURVEY.surveyId!,
      DEMO_CHANNEL_IDS.attrCheckout,
      { id: Q.location, type: "profile", answer: { type: "location", value: { countryCode: "IE" } } },
      {},
    ],
  ];
  it.each(roundTrips)("%s round-trips through submission and the enterprise listing", async (_name, surveyId, channelSurveyId, answer, added) => {
    const { res, body } = await submit({ answeredQuestions: [answer] }, { channelSurveyId });
    expect(res.status).toBe(201);
    const listed = await findResponse(surveyId, body.surveyResponse.surveyResponseId);
    const question = [...NPS_SURVEY.questions, ...ATTRIBUTION_SURVEY.questions].find((q) => q.id === answer.id)!;
    const profile = question.type === "profile" ? { profileQuestionId: question.profileQuestionId } : {};
    expect(listed.answeredQuestions).toEqual([{ ...answer, text: question.text, ...profile, ...added }]);
    expect(listed.channelSurveyId).toBe(channelSurveyId);
    expect(listed.dateCreated).toBe(body.surveyResponse.dateCreated);
  });

  it("answers 201 with the reward of the channel survey, and stores customer, order and opt-in", async () => {
    const customer = { customerId: "0e5b8f8a-2c1d-4f3e-9a7b-6c5d4e3f2a1b", email: "shopper@example.com" };
    const { res, body } = await submit({
      answeredQuestions: [
        { id: Q.stars, type: "star", answer: 5 },
        { id: Q.email, type: "email", answer: "shopper@example.com", marketingOptIn: false },
      ],
      customer,
      order: { remoteOrderId: "10045" },
    });
    expect(res.status).toBe(201);
    expect(body.surveyResponse.reward).toEqual({ type: "coupon", description: "10% off your next order", value: "THANKYOU10" });
    const listed = await findResponse(DEMO_SURVEY_IDS.attribution, body.surveyResponse.surveyResponseId);
    expect(listed).toMatchObject({ customer, order: { remoteOrderId: "10045" }, emailMarketingOptIn: false, isArchived: false, channel: "post-checkout", reward: body.surveyResponse.reward });
    expect(listed.answeredQuestions.map((a) => a.id)).toEqual([Q.stars, Q.email]);
  });

  it("a channel survey without a reward answers 201 without reward", async () => {
    const { res, body } = await submit({ answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }] }, { channelSurveyId: DEMO_CHANNEL_IDS.attrOnSite });
    expect(res.status).toBe(201);
    expect(body.surveyResponse).not.toHaveProperty("reward");
  });

  it("a retried submission with the same Idempotency-Key is stored once and answers the same 201 body", async () => {
    const before = await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution);
    const payload = { answeredQuestions: [{ id: Q.ease, type: "five-point", answer: 3 }] };
    const a = await submit(payload, { key: "retry-abc-123" });
    const b = await submit(payload, { key: "retry-abc-123" });
    expect(a.res.status).toBe(201);
    expect(b.res.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution)).toBe(before + 1);
    const c = await submit({ answeredQuestions: [{ id: Q.ease, type: "five-point", answer: 4 }] }, { key: "retry-abc-123" });
    expect(c.res.status).toBe(409);
    expect(c.body.error.description).toMatch(/Idempotency-Key/);
  });

  it("concurrent retries with one Idempotency-Key store one response and all answer its 201 body", async () => {
    // Each retry holds a place in the address's window until it turns out a replay: start from an empty window.
    await t.services.surveyLimiter.reset();
    const before = await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution);
    const payload = { answeredQuestions: [{ id: Q.ease, type: "five-point", answer: 2 }] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(payload, { key: "concurrent-retry-1" })));
    expect(answers.map((a) => a.res.status)).toEqual(Array(6).fill(201));
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    expect(await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution)).toBe(before + 1);
  });

  it("an invalid Idempotency-Key answers 400", async () => {
    const { res, body } = await submit({ answeredQuestions: [{ id: Q.ease, type: "five-point", answer: 3 }] }, { key: "x".repeat(256) });
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/Idempotency-Key/);
  });

  it.each([
    ["an unknown channel survey", () => submitPath("6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11")],
    ["another store's channel survey", () => submitPath(otherChannelId)],
    ["an unknown store", () => submitPath(DEMO_CHANNEL_IDS.attrCheckout, "6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11")],
  ])("%s answers 404 JSON", async (_name, path) => {
    const res = await fetch(t.url(path()), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }] }),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error.description).toMatch(/not found/);
  });

  const invalid: [string, unknown, RegExp][] = [
    ["an unknown type", { id: Q.stars, type: "slider", answer: 3 }, /type must be one of: text, single-select/],
    ["a missing id", { type: "star", answer: 3 }, /id/],
    ["a number instead of an object", 42, /must be an answered question object/],
    ["a missing type", { id: Q.stars, answer: 3 }, /type must be one of/],
    ["an id that is not a UUID", { id: "q1", type: "star", answer: 3 }, /id must be a UUID/],
    ["a question of another survey", { id: Q.nps, type: "nps", answer: 9 }, /is not a question of survey/],
    ["a type that differs from the question's", { id: Q.ease, type: "star", answer: 3 }, /type must be "five-point" for this question/],
    ["a star answer of 6", { id: Q.stars, type: "star", answer: 6 }, /integer from 1 to 5/],
    ["a star answer of 2.5", { id: Q.stars, type: "star", answer: 2.5 }, /integer from 1 to 5/],
    ["a five-point answer of 0", { id: Q.ease, type: "five-point", answer: 0 }, /integer from 1 to 5/],
    ["a five-point answer given as a string", { id: Q.ease, type: "five-point", answer: "4" }, /integer from 1 to 5/],
    ["a single-select answer that is not an option", { id: Q.heard, type: "single-select", answer: "Radio" }, /"Radio" is not an option/],
    ["a single-select answer given as an array", { id: Q.heard, type: "single-select", answer: ["Podcast"] }, /answer must be a string/],
    ["a custom option chosen without customAnswer", { id: Q.heard, type: "single-select", answer: "Other" }, /customAnswer is required/],
    ["a customAnswer without the custom option", { id: Q.heard, type: "single-select", answer: "Podcast", customAnswer: "x" }, /customAnswer is only allowed/],
    ["a wrong customAnswerOptionText", { id: Q.heard, type: "single-select", answer: "Other", customAnswer: "x", customAnswerOptionText: "Else" }, /customAnswerOptionText must be "Other"/],
    ["an empty multi-select answer", { id: Q.why, type: "multi-select", answer: [] }, /at least one/],
    ["a multi-select answer repeating an option", { id: Q.why, type: "multi-select", answer: ["Free shipping", "Free shipping"] }, /must not repeat/],
    ["a multi-select answer given as a string", { id: Q.why, type: "multi-select", answer: "Free shipping" }, /array of strings/],
    ["an invalid e-mail", { id: Q.email, type: "email", answer: "not-an-email" }, /e-mail address/],
    ["a non-boolean marketingOptIn", { id: Q.email, type: "email", answer: "a@example.com", marketingOptIn: "yes" }, /marketingOptIn must be true or false/],
    ["a day of 32", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 32, month: 1, year: 1990 } } }, /answer\.value\.day must be an integer from 1 to 31/],
    ["a day of 0", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 0, month: 1, year: 1990 } } }, /day must be an integer from 1 to 31/],
    ["a month of 13", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 1, month: 13, year: 1990 } } }, /month must be an integer from 1 to 12/],
    ["a year of 1899", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 1, month: 1, year: 1899 } } }, /year must be an integer from 1900 to 2100/],
    ["a year of 2101", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 1, month: 1, year: 2101 } } }, /year must be an integer from 1900 to 2100/],
    ["31 April", { id: Q.birthday, type: "profile", answer: { type: "date-components", value: { day: 31, month: 4, year: 1990 } } }, /not a calendar date/],
    ["a location without countryCode", { id: Q.location, type: "profile", answer: { type: "location", value: { countryName: "France" } } }, /countryCode/],
    ["a location with a bad countryCode", { id: Q.location, type: "profile", answer: { type: "location", value: { countryCode: "France" } } }, /ISO 3166-1 alpha-2/],
    ["an unknown profile answer type", { id: Q.location, type: "profile", answer: { type: "zip", value: "1000" } }, /answer.type must be one of: date-components, location, multi-value, single-value/],
    ["a profile answer of another variant than the question's", { id: Q.location, type: "profile", answer: { type: "single-value", value: "GB" } }, /answer.type must be "location" for this question/],
    ["a profile answer without value", { id: Q.birthday, type: "profile", answer: { type: "date-components" } }, /value must be an object/],
    [
      "a wrong profileQuestionId",
      { id: Q.birthday, type: "profile", profileQuestionId: "0e5b8f8a-2c1d-4f3e-9a7b-6c5d4e3f2a1b", answer: { type: "date-components", value: { day: 1, month: 1, year: 1990 } } },
      /profileQuestionId must be/,
    ],
    ["a text answer over 5000 characters", { id: Q.heard, type: "text", answer: "x".repeat(5001) }, /at most 5000 characters/],
  ];
  it.each(invalid)("rejects %s with a 400 naming the question and the rule", async (_name, answer, message) => {
    const before = await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution);
    const { res, body } = await submit({ answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }, answer] });
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/^answeredQuestions\[1\]/);
    expect(body.error.description).toMatch(message);
    expect(await t.services.surveysData.countResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.attribution)).toBe(before);
  });

  it.each([
    ["an NPS score of 11", { id: Q.nps, type: "nps", answer: 11 }, /integer from 0 to 10/],
    ["an NPS score of -1", { id: Q.nps, type: "nps", answer: -1 }, /integer from 0 to 10/],
    ["a category inconsistent with the score (9 passive)", { id: Q.nps, type: "nps", answer: 9, answerNpsCategory: "passive" }, /answerNpsCategory must match the score/],
    ["a category inconsistent with the score (6 passive)", { id: Q.nps, type: "nps", answer: 6, answerNpsCategory: "passive" }, /answerNpsCategory must match the score/],
    ["an unknown category", { id: Q.nps, type: "nps", answer: 10, answerNpsCategory: "fan" }, /answerNpsCategory must be one of/],
    ["a single-value not among the options", { id: Q.stage, type: "profile", answer: { type: "single-value", value: "Cancelled" } }, /"Cancelled" is not an option/],
    ["the same question answered twice", { id: Q.reason, type: "text", answer: "again" }, /answered twice/],
  ])("rejects %s (NPS survey)", async (_name, answer, message) => {
    const { res, body } = await submit({ answeredQuestions: [{ id: Q.reason, type: "text", answer: "ok" }, answer] }, { channelSurveyId: DEMO_CHANNEL_IDS.npsEmail });
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/^answeredQuestions\[1\] \(question [0-9a-f-]{36} "/);
    expect(body.error.description).toMatch(message);
  });

  it.each([
    ["a body that is not JSON", "{", /valid JSON/],
    ["a JSON array", "[]", /body must be a JSON object/],
    ["no answers", { answeredQuestions: [] }, /at least one answer/],
    ["answeredQuestions missing", {}, /answeredQuestions/],
    ["a customer ID that is not a UUID", { answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }], customer: { customerId: "123" } }, /customer.customerId must be a UUID/],
    ["a customer e-mail that is not an e-mail", { answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }], customer: { email: "x" } }, /customer.email must be an e-mail address/],
    ["a non-numeric order ID", { answeredQuestions: [{ id: Q.stars, type: "star", answer: 4 }], order: { remoteOrderId: "#1001" } }, /remoteOrderId must be the numeric order ID/],
  ])("rejects %s with a 400 JSON error", async (_name, body, message) => {
    const r = await submit(body);
    expect(r.res.status).toBe(400);
    expect(r.body.error.description).toMatch(message);
  });

  it("a body that is not declared as JSON answers 415", async () => {
    const res = await fetch(t.url(submitPath(DEMO_CHANNEL_IDS.attrCheckout)), { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(res.status).toBe(415);
  });

  it("answers CORS preflight for the storefront (Idempotency-Key allowed)", async () => {
    const res = await fetch(t.url(submitPath(DEMO_CHANNEL_IDS.attrCheckout)), { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
  });
});

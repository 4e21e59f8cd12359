/**
 * Storefront survey responses are limited per client address (issue #19 finding 9: 300 score-0 NPS
 * answers from one address were all stored). Over real HTTP, behind a trusted loopback proxy so each
 * test names its client address in X-Forwarded-For.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";
import { addressKey, DEFAULT_SURVEY_RESPONSE_LIMIT } from "./submission-limits.ts";
import { sql, value } from "../db/database.ts";

let t: TestServer;
const LIMIT = DEFAULT_SURVEY_RESPONSE_LIMIT.max;
const path = `/v1/stores/${TEST_STORE_ID}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`;
const npsZero = { answeredQuestions: [{ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: 0 }] };
const stored = async () => (await value(t.services.db, sql`SELECT count(*) FROM survey_responses WHERE store_id = ${TEST_STORE_ID}`)) as number;

async function submit(address: string, body: unknown = npsZero, headers: Record<string, string> = {}) {
  const res = await fetch(t.url(path), {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
});
beforeEach(() => t.services.surveyLimiter.reset());
afterAll(() => t.close());

describe("survey responses per client address", () => {
  it(`300 concurrent score-0 answers from one address store ${LIMIT}; the rest answer 429 rate_limited; another address still answers 201`, async () => {
    const before = await stored();
    const results = await Promise.all(Array.from({ length: 300 }, () => submit("203.0.113.7")));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - LIMIT);
    const refused = results.find((r) => r.status === 429)!.body;
    expect(refused.error).toMatchObject({ code: "rate_limited", description: expect.stringMatching(/^Too many survey responses from this network: try again in \d+ seconds$/) });
    expect((await stored()) - before).toBe(LIMIT);
    expect((await submit("203.0.113.8")).status).toBe(201);
  });

  it("rotating the low 64 bits of an IPv6 address does not buy more quota", async () => {
    const results = await Promise.all(Array.from({ length: LIMIT + 5 }, (_, i) => submit(`2001:db8:7:7::${(i + 1).toString(16)}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(LIMIT);
    expect((await submit("2001:db8:7:8::1")).status).toBe(201); // the next /64 is someone else
  });

  it("a refused (400) submission uses no quota, and an idempotent replay is not counted again", async () => {
    for (let i = 0; i < LIMIT + 3; i++) expect((await submit("198.51.100.20", { answeredQuestions: "nope" })).status).toBe(400);
    const first = await submit("198.51.100.20", npsZero, { "idempotency-key": "replay-key-0001" });
    expect(first.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await submit("198.51.100.20", npsZero, { "idempotency-key": "replay-key-0001" })).body).toEqual(first.body);
    const rest = await Promise.all(Array.from({ length: LIMIT }, () => submit("198.51.100.20")));
    expect(rest.filter((r) => r.status === 201)).toHaveLength(LIMIT - 1);
  });

  it("the limit is configurable (SURVEY_RESPONSES_PER_IP_PER_HOUR)", async () => {
    t.services.surveyLimiter.configure({ max: 2, windowMs: 3_600_000 });
    try {
      expect([(await submit("192.0.2.55")).status, (await submit("192.0.2.55")).status, (await submit("192.0.2.55")).status]).toEqual([201, 201, 429]);
    } finally {
      t.services.surveyLimiter.configure(DEFAULT_SURVEY_RESPONSE_LIMIT);
    }
  });
});

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6, and keys IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:DB8:0001:0002:aaaa::1")).toBe(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("unknown")).toBe("unknown");
  });
});

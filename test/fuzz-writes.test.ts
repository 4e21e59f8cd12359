/**
 * Property-based fuzzing of every write endpoint (issue 8): random and hostile JSON bodies, multipart
 * bodies, content types and tokens never produce a 5xx; every error is JSON of the documented shape (or
 * the bodiless enterprise 401); a rejected request writes nothing. Plus mass assignment: fields a client
 * must not set (status, counts, verified status, points) are ignored or refused.
 */
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { DEMO_CHANNEL_IDS, DEMO_NPS_FILE, NPS_SURVEY, npsResponses, readNpsRows } from "../server/surveys/surveys.demo.ts";
import { DATA_DIR, realReviews, seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { sql, value } from "../server/db/database.ts";
import { rewardPlatformFor, type ShopifyStandIn } from "./shopify-admin-stand-in.ts";
import { startTestServer, type TestServer } from "./server.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SECRET = "fuzz-platform-secret-0123456789abcd";
let t: TestServer;
let prefix: string;
let shopify: ShopifyStandIn;
let reviewId: string;
let customerToken: string;
let apiKey: string;

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  shopify = await rewardPlatformFor(t.services, TEST_STORE_ID); // redemptions create their discounts there first
  t.services.submissionLimiter.configure({ perIp: { max: 1_000_000, windowMs: 1000 }, perEmail: { max: 1_000_000, windowMs: 1000 } });
  t.services.surveyLimiter.configure({ max: 1_000_000, windowMs: 1000 });
  apiKey = (await t.services.apiKeys.create(TEST_STORE_ID, "fuzz")).key;
  prefix = t.url(`/v1/stores/${TEST_STORE_ID}`);
  reviewId = (await value<string>(t.services.db, sql`SELECT review_id FROM reviews LIMIT 1`))!;
  const login = await fetch(`${prefix}/loyalty/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId: "fuzzer", email: "fuzzer@example.com" }) }),
  });
  customerToken = ((await login.json()) as { customerToken: string }).customerToken;
});
afterAll(async () => {
  await t.close();
  await shopify.close();
});

/** Row counts of every table a write endpoint touches. */
async function counts(): Promise<Record<string, number>> {
  const tables = ["reviews", "review_media", "review_votes", "questions", "survey_responses", "loyalty_customers", "loyalty_transactions", "orders"];
  const out: Record<string, number> = {};
  for (const name of tables) out[name] = Number(await value<number>(t.services.db, sql`SELECT count(*) FROM ${sql.raw(name)}`)); // a fixed table list
  return out;
}

async function expectWellFormedError(res: Response, allowBodiless401 = false): Promise<void> {
  expect(res.status, `${res.url} answered ${res.status}`).toBeLessThan(500);
  if (res.status >= 400) {
    const text = await res.text();
    if (allowBodiless401 && res.status === 401 && text === "") return;
    expect(typeof JSON.parse(text).error.description).toBe("string");
  } else {
    await res.arrayBuffer();
  }
}

const hostileValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.constantFrom("<script>alert(1)</script>", "' OR 1=1 --", "\u0000", "x".repeat(6000), "💥", "__proto__", '{"$ne":1}'),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
);
const bodyFor = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys, "constructor", "__proto__", "status", "points"), hostileValue, { maxKeys: 8 });

type Endpoint = { name: string; path: () => string; keys: string[]; headers?: () => Record<string, string>; enterprise?: boolean };
const endpoints: Endpoint[] = [
  {
    name: "submit review",
    path: () => `${prefix}/products/shopify-1078/reviews`,
    keys: ["rating", "title", "body", "displayName", "email", "isRecommended", "productAttributes", "variantId", "website"],
  },
  { name: "vote", path: () => `${prefix}/reviews/${reviewId}/votes`, keys: ["vote", "visitorId"] },
  { name: "ask question", path: () => `${prefix}/products/shopify-1078/questions`, keys: ["body", "displayName", "email", "website"] },
  { name: "survey response", path: () => `${prefix}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, keys: ["answeredQuestions", "customer", "order", "emailMarketingOptIn"] },
  { name: "loyalty login", path: () => `${prefix}/loyalty/login`, keys: ["customerAccessToken"] },
  {
    name: "activation",
    path: () => `${prefix}/loyalty/customer_activation`,
    keys: ["enrollmentChannel", "legalPoliciesVersionAccepted"],
    headers: () => ({ authorization: `Bearer ${customerToken}` }),
  },
  { name: "redemption", path: () => `${prefix}/loyalty/customer/redemptions`, keys: ["redemptionRuleId"], headers: () => ({ authorization: `Bearer ${customerToken}` }) },
  {
    name: "enterprise earning",
    path: () => t.url("/enterprise/loyalty/earning_transactions"),
    keys: ["customer", "orderId", "amount"],
    enterprise: true,
    headers: () => ({ authorization: `Basic ${Buffer.from(`${TEST_STORE_ID}:${apiKey}`).toString("base64")}` }),
  },
];

describe("write endpoints under random JSON bodies", () => {
  it.each(endpoints.map((e) => [e.name, e] as const))("%s: no 5xx, documented error shape, nothing written when rejected", async (_name, e) => {
    await fc.assert(
      fc.asyncProperty(bodyFor(e.keys), async (body) => {
        const before = await counts();
        const res = await fetch(e.path(), { method: "POST", headers: { "content-type": "application/json", ...e.headers?.() }, body: JSON.stringify(body) });
        const status = res.status;
        await expectWellFormedError(res, e.enterprise);
        if (status >= 400) expect(await counts()).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(endpoints.map((e) => [e.name, e] as const))("%s: malformed JSON, wrong content types and multipart garbage answer 4xx", async (_name, e) => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.constantFrom("application/json", "text/plain", "application/xml", "multipart/form-data; boundary=xyz", "multipart/form-data", ""),
        async (raw, type) => {
          const before = await counts();
          const res = await fetch(e.path(), {
            method: "POST",
            headers: { ...(type ? { "content-type": type } : {}), ...e.headers?.() },
            body: type.startsWith("multipart") ? `--xyz\r\nContent-Disposition: form-data; name="rating"\r\n\r\n${raw}\r\n--xyz--` : `{${raw}`,
          });
          await expectWellFormedError(res, e.enterprise);
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(await counts()).toEqual(before);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe("tokens", () => {
  it("random Authorization headers on customer endpoints answer 401 JSON, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ maxLength: 200 }).map((s) => `Bearer ${s}`),
          fc.base64String().map((s) => `Bearer ${s}.${s}.${s}`),
        ),
        async (auth) => {
          const safe = auth.replace(/[\r\n\0]/g, "").replace(/[^\x20-\x7e]/g, "");
          for (const path of ["/loyalty/customer", "/loyalty/customer/transactions"]) {
            const res = await fetch(`${prefix}${path}`, { headers: { authorization: safe } });
            expect([400, 401]).toContain(res.status);
            await expectWellFormedError(res);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random platform tokens at login answer 400/401, never 5xx, and create no customer", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.base64String().map((s) => `${s}.${s}.${s}`),
        ),
        async (token) => {
          const before = (await counts()).loyalty_customers;
          const res = await fetch(`${prefix}/loyalty/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken: token }) });
          expect([400, 401]).toContain(res.status);
          await expectWellFormedError(res);
          expect((await counts()).loyalty_customers).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("mass assignment", () => {
  it("a review body cannot set its status, counts or verified status", async () => {
    const real = realReviews().find((r) => r.body.length > 50)!;
    const res = await fetch(`${prefix}/products/shopify-1078/reviews`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        rating: real.rating,
        title: real.title,
        body: real.body,
        displayName: "Mass",
        email: "mass@example.com",
        status: "published",
        helpfulCount: 999,
        verifiedStatus: "verified-buyer",
        reviewId: "00000000-0000-4000-8000-000000000000",
      }),
    });
    expect([201, 400]).toContain(res.status);
    if (res.status === 201) {
      const { review } = (await res.json()) as { review: { reviewId: string; status: string } };
      expect(review.reviewId).not.toBe("00000000-0000-4000-8000-000000000000");
      const row = (await t.services.reviewsData.get(TEST_STORE_ID, review.reviewId))!;
      expect(row.status).toBe("pending"); // the store's moderation setting decides
      expect(row.helpful_count).toBe(0);
      expect(row.verified_status).toBe("unverified");
    }
  });

  it("an activation or redemption body cannot set points or status", async () => {
    const before = await t.services.loyaltyData.ledgerMismatches(TEST_STORE_ID);
    const res = await fetch(`${prefix}/loyalty/customer_activation`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${customerToken}` },
      body: JSON.stringify({
        enrollmentChannel: "fuzz",
        legalPoliciesVersionAccepted: (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version,
        points: 1_000_000,
        status: "enrolled",
        balance: 1_000_000,
      }),
    });
    expect(res.status).toBeLessThan(500);
    const me = await (await fetch(`${prefix}/loyalty/customer`, { headers: { authorization: `Bearer ${customerToken}` } })).json();
    expect(me.loyaltyCustomer.points.balance).toBeLessThan(1_000_000);
    expect(await t.services.loyaltyData.ledgerMismatches(TEST_STORE_ID)).toEqual(before);
  });

  it("a survey response body cannot archive itself", async () => {
    const b = npsResponses(readNpsRows(join(DATA_DIR, DEMO_NPS_FILE)))[0];
    const res = await fetch(`${prefix}/surveys/${b.channelSurveyId}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ answeredQuestions: b.answeredQuestions, isArchived: true, surveyResponseId: "00000000-0000-4000-8000-000000000000" }),
    });
    expect([201, 400]).toContain(res.status);
    if (res.status === 201) {
      const id = ((await res.json()) as { surveyResponse: { surveyResponseId: string } }).surveyResponse.surveyResponseId;
      expect(id).not.toBe("00000000-0000-4000-8000-000000000000");
      expect((await t.services.surveysData.getResponse(TEST_STORE_ID, id))!.is_archived).toBe(0);
    }
  });
});

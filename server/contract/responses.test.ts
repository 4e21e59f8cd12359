/**
 * The response schemas (storefront.responses.ts, writes.responses.ts, loyalty.responses.ts, errors.schema.ts)
 * against real answers of the real server: every storefront read, the shopper writes, the order import and
 * every loyalty read and write parse, with every object made strict, so a field the schemas do not document
 * (or a documented one with another type, format or enum value) fails here. Also: every exported schema
 * carries an OpenAPI component name and a description, and the schemas make a valid OpenAPI 3.1 document.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DATA_DIR, realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { minimalMp4 } from "../../test/media-fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { rewardPlatformFor, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { run, sql } from "../db/database.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { errorBodySchema } from "./errors.schema.ts";
import * as loyaltySchemas from "./loyalty.responses.ts";
import * as storefrontSchemas from "./storefront.responses.ts";
import * as writesSchemas from "./writes.responses.ts";

const { listQuestionsResponseSchema, listReviewMediaResponseSchema, listReviewsResponseSchema, reviewAggregateResponseSchema, reviewsKeywordsResponseSchema, reviewsSummaryResponseSchema } =
  storefrontSchemas;
const { askQuestionResponseSchema, importOrdersResponseSchema, submitReviewResponseSchema, voteResponseSchema } = writesSchemas;
const {
  earningRulesResponseSchema,
  legalPoliciesSchema,
  loginResponseSchema,
  loyaltyCustomerResponseSchema,
  orderEarningResponseSchema,
  redemptionResponseSchema,
  redemptionRulesResponseSchema,
  transactionsResponseSchema,
  vipTiersResponseSchema,
} = loyaltySchemas;

// ---- strict checking (tests only: the schemas themselves strip unknown keys) ----

/** A copy of `schema` in which every object, at any depth, rejects keys it does not declare. */
function strictDeep(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    return z.strictObject(Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictDeep(v)])));
  }
  if (schema instanceof z.ZodArray) return z.array(strictDeep(schema.element as z.ZodType));
  if (schema instanceof z.ZodOptional) return strictDeep(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return strictDeep(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map(strictDeep));
  return schema;
}

/** Parse `body` with `schema` and with its strict copy; the parsed value must equal the body (nothing stripped). */
function expectBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const strict = strictDeep(schema).safeParse(body);
  if (!strict.success) throw new Error(`the answer does not match ${String(schema.meta()?.id)}:\n${z.prettifyError(strict.error)}\n${JSON.stringify(body).slice(0, 2000)}`);
  const parsed = schema.parse(body);
  expect(parsed).toEqual(body);
  return parsed;
}

// ---- the server and its data ----

let t: TestServer;
let shopify: ShopifyStandIn | undefined;
const PLATFORM_SECRET = "responses-test-platform-secret-0123456789";
const API_KEY = "responses-test-api-key-0123456789abcdef";
const P30 = "1088"; // a real product of the clothing file with 30 reviews (group "dresses"): AI content
const PRODUCT = "1078";
const FEW = "1106"; // 5 reviews: no AI content
const GROUP = "dresses";
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const REVIEWER_EMAIL = "dana.responses@example.com";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
/** Real questions and answers of the shared Amazon file. */
const realQa = readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8")
  .split("\n")
  .slice(0, 5)
  .map((l) => JSON.parse(l) as { question: string; answer: string });

let submittedReviewId = "";

async function call(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(init.body);
  }
  const res = await fetch(t.url(path), { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return { status: res.status, body: (await res.json()) as unknown };
}
const get = async (path: string, token?: string) => {
  const r = await call(path, { token });
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};

// ---- tests ----

describe("every exported schema is an OpenAPI component with a description", () => {
  const modules = { storefrontSchemas, writesSchemas, loyaltySchemas, errors: { errorBodySchema } };
  const schemas = Object.entries(modules).flatMap(([m, exports]) =>
    Object.entries(exports)
      .filter(([, v]) => v instanceof z.ZodType)
      .map(([name, v]) => [`${m}.${name}`, v as z.ZodType] as const),
  );

  it.each(schemas)("%s has meta id and description", (_name, schema) => {
    const meta = schema.meta();
    expect(meta?.id).toMatch(/^[A-Z][A-Za-z]+$/);
    expect(String(meta?.description).length).toBeGreaterThan(20);
    expect(String(meta?.description)).not.toMatch(/\.md\b|\.ts\b|\u00a7/); // written for integrators
  });

  it("component names are unique and the schemas generate a valid OpenAPI 3.1 document", async () => {
    const ids = schemas.map(([, s]) => s.meta()!.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const registry = new OpenAPIRegistry();
    for (const [name, schema] of schemas) {
      registry.registerPath({
        method: "get",
        path: `/${name.replace(/\W/g, "-")}`,
        responses: { 200: { description: "The answer", content: { "application/json": { schema } } } },
      });
    }
    const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: "3.1.0", info: { title: "schemas", version: "1" } });
    expect(Object.keys(doc.components?.schemas ?? {}).sort()).toEqual([...ids].sort());
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe("the strict check itself", () => {
  it("rejects an undocumented key at any depth and accepts the documented shape", () => {
    const vote = { helpfulCount: 1, unhelpfulCount: 0 };
    expect(strictDeep(voteResponseSchema).safeParse(vote).success).toBe(true);
    expect(strictDeep(voteResponseSchema).safeParse({ ...vote, extra: 1 }).success).toBe(false);
    const summary = { reviewsSummary: { body: "b", contributingReviewCount: 30, dateGenerated: "2026-05-01T12:00:00.000Z", datePublished: "2026-05-01T12:00:00.000Z" } };
    expect(strictDeep(reviewsSummaryResponseSchema).safeParse(summary).success).toBe(true);
    expect(strictDeep(reviewsSummaryResponseSchema).safeParse({ reviewsSummary: { ...summary.reviewsSummary, model: "x" } }).success).toBe(false);
    expect(strictDeep(reviewsSummaryResponseSchema).safeParse({ other: 1 }).success).toBe(false);
    expect(reviewsSummaryResponseSchema.safeParse({ reviewsSummary: { ...summary.reviewsSummary, dateGenerated: "1 May 2026" } }).success).toBe(false);
  });
});

describe("real answers of the real server (seeded with real reviews and Q&A)", () => {
  beforeAll(async () => {
    t = await startTestServer();
    await seedRealReviews(t.services, { productIds: [P30, PRODUCT, FEW] });
    await t.services.apiKeys.create(TEST_STORE_ID, "responses test", API_KEY);
    await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(PLATFORM_SECRET));
    shopify = await rewardPlatformFor(t.services, TEST_STORE_ID); // redemptions create their discounts there first (docs/loyalty.md)
    await t.services.submissionLimiter.reset();
    // Every optional product field: links on the product.
    await t.services.stores.upsertProduct({
      storeId: TEST_STORE_ID,
      productId: PRODUCT,
      name: "Dresses #1078",
      url: "https://shop.example/products/1078",
      imageUrl: "https://shop.example/img/1078.jpg",
      groupId: GROUP,
    });

    // A review with every optional field a stored review can carry (the text of a real review).
    const text = realReviews().find((r) => r.productId === PRODUCT && r.title && r.body)!;
    const full = crypto.randomUUID();
    await t.services.reviewsData.insert({
      reviewId: full,
      storeId: TEST_STORE_ID,
      productId: PRODUCT,
      rating: text.rating,
      title: text.title,
      body: text.body,
      createdMs: Date.UTC(2026, 1, 1),
      status: "published",
      reviewerName: "Robin",
      verifiedStatus: "verified-reviewer",
      helpfulCount: 2,
      unhelpfulCount: 1,
      isRecommended: true,
      isIncentivized: true,
      languageCode: "en",
      variantId: "v-1078-m",
      variantName: "Blue / M",
      productAttributes: [{ title: "Size bought", type: "single-select", value: "M" }],
      reviewerCountryCode: "GB",
      reviewerCountryName: "United Kingdom",
      reviewerZoneCode: "SCT",
    });
    const attributes = JSON.stringify([{ title: "Fit", type: "scale", value: 0.5, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }]);
    await run(t.services.db, sql`UPDATE reviews SET attributes_with_rating_json = ${attributes} WHERE review_id = ${full}`);
    await t.services.moderation.setReply(TEST_STORE_ID, full, "Thank you for the review!");
    await t.services.reviewsData.setStatus(TEST_STORE_ID, full, "published"); // sets dateUpdated
    const bought = realReviews().filter((r) => r.productId === PRODUCT && r.body)[2];
    await t.services.reviewsData.insert({
      reviewId: crypto.randomUUID(),
      storeId: TEST_STORE_ID,
      productId: PRODUCT,
      rating: bought.rating,
      title: bought.title,
      body: bought.body,
      createdMs: Date.UTC(2026, 1, 2),
      status: "published",
      reviewerName: "Kim",
      verifiedStatus: "verified-buyer",
    });

    // AI summary and keywords of the product with 30 reviews.
    await t.services.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: true });
    expect((await t.services.ai.generate(TEST_STORE_ID, { type: "product", id: P30 })).status).toBe("generated");
  });
  afterAll(async () => {
    await t?.close();
    await shopify?.close();
  });

  describe("shopper writes and the order import", () => {
    it("order import (POST /enterprise/orders) answers ImportOrdersResponse", async () => {
      const r = await call("/enterprise/orders", { body: { orders: [{ orderId: "1001", productId: PRODUCT, email: REVIEWER_EMAIL }] }, headers: { authorization: basic } });
      expect(r.status).toBe(200);
      expect(expectBody(importOrdersResponseSchema, r.body).inserted).toBe(1);
    });

    it("a review with an image and a video (multipart) answers SubmitReviewResponse", async () => {
      await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
      const text = realReviews().filter((r) => r.productId === PRODUCT && r.title && r.body)[1];
      const fd = new FormData();
      for (const [k, v] of Object.entries({ rating: text.rating, title: text.title, body: text.body, displayName: "Dana", email: REVIEWER_EMAIL, isRecommended: text.recommended }))
        fd.append(k, String(v));
      fd.append("productAttributes", JSON.stringify([{ title: "Size bought", type: "single-select", value: "S" }]));
      const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3b7" } })
        .jpeg()
        .toBuffer();
      const mp4 = minimalMp4();
      fd.append("media", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "photo.jpg");
      fd.append("media", new Blob([new Uint8Array(mp4)], { type: "video/mp4" }), "clip.mp4");
      fd.append("alt", "The dress, front view");
      const r = await call(`${prefix}/products/shopify-${PRODUCT}/reviews`, { body: fd });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const body = expectBody(submitReviewResponseSchema, r.body);
      expect(body.review.status).toBe("published");
      submittedReviewId = body.review.reviewId;
    });

    it("a question answers AskQuestionResponse; published with answers it is listed", async () => {
      const r = await call(`${prefix}/products/shopify-${PRODUCT}/questions`, { body: { body: realQa[0].question, displayName: "Sam", email: "sam@example.com" } });
      expect(r.status).toBe(201);
      const { question } = expectBody(askQuestionResponseSchema, r.body);
      expect(question.status).toBe("pending");
      await t.services.questions.answerAsStore({ storeId: TEST_STORE_ID, questionId: question.questionId, body: realQa[0].answer, authorName: "Test store" });
      await t.services.questionsData.insertAnswer({
        answerId: crypto.randomUUID(),
        storeId: TEST_STORE_ID,
        questionId: question.questionId,
        body: realQa[1].answer,
        authorName: "Alex",
        isStoreAnswer: false,
        verifiedStatus: "unverified",
        status: "published",
        createdMs: Date.now(),
      });
      await t.services.questions.setQuestionStatus(TEST_STORE_ID, question.questionId, "published");
    });

    it("a vote answers VoteResponse", async () => {
      const r = await call(`${prefix}/reviews/${submittedReviewId}/votes`, { body: { vote: "helpful", visitorId: "visitor-responses-1" } });
      expect(r.status).toBe(200);
      expect(expectBody(voteResponseSchema, r.body)).toMatchObject({ helpfulCount: 1, unhelpfulCount: 0 });
    });
  });

  describe("storefront reads (every scope)", () => {
    const scopes = { product: `/products/shopify-${PRODUCT}`, group: `/collections/${GROUP}`, store: "" };

    it.each(Object.entries(scopes))("%s reviews, every order, every page", async (_scope, path) => {
      for (const orderBy of ["date desc", "rating asc", "helpful desc", "has_media desc"]) {
        let next: string | undefined = `${path}/reviews?limit=25&orderBy=${encodeURIComponent(orderBy)}`;
        for (let pages = 0; next && pages < 4; pages++) {
          // A nextUrl relative to /v1 (`/stores/{id}/…`, docs/api.md, Paging) or, as served today, to the store prefix.
          const url: string = next.startsWith("/stores/") ? `/v1${next}` : prefix + next;
          const body: z.output<typeof listReviewsResponseSchema> = expectBody(listReviewsResponseSchema, await get(url));
          next = body.nextUrl;
        }
      }
    });

    it("the product's reviews show every optional field somewhere (so the strict check covered them)", async () => {
      const { reviews } = expectBody(listReviewsResponseSchema, await get(`${prefix}${scopes.product}/reviews?orderBy=${encodeURIComponent("has_media desc")}`));
      const keys = new Set(reviews.flatMap((r) => [...Object.keys(r), ...Object.keys(r.reviewer).map((k) => `reviewer.${k}`), ...r.media.flatMap((m) => Object.keys(m).map((k) => `media.${k}`))]));
      const optional = [
        "productUrl",
        "productImageUrl",
        "variantId",
        "variantName",
        "dateUpdated",
        "isRecommended",
        "languageCode",
        "reply",
        "productAttributes",
        "attributesWithRating",
        "reviewer.location",
        "media.streamUrl",
        "media.alt",
      ];
      expect(optional.filter((k) => !keys.has(k))).toEqual([]);
      expect(new Set(reviews.map((r) => r.reviewer.verifiedStatus))).toEqual(new Set(["verified-buyer", "verified-reviewer", "unverified"]));
      expect(new Set(reviews.flatMap((r) => r.media.map((m) => m.type)))).toEqual(new Set(["image", "video"]));
    });

    it.each(Object.entries(scopes))("%s review aggregate", async (_scope, path) => {
      const { reviewAggregate } = expectBody(reviewAggregateResponseSchema, await get(`${prefix}${path}/review_aggregate`));
      expect(reviewAggregate.reviewCount).toBeGreaterThan(0);
    });

    it.each(Object.entries(scopes))("%s review media", async (_scope, path) => {
      const { reviewMedia } = expectBody(listReviewMediaResponseSchema, await get(`${prefix}${path}/review_media?limit=1`));
      expect(reviewMedia).toHaveLength(1);
    });

    it.each(Object.entries(scopes).filter(([scope]) => scope !== "store"))("%s questions", async (_scope, path) => {
      const { questions } = expectBody(listQuestionsResponseSchema, await get(`${prefix}${path}/questions`));
      expect(questions.flatMap((q) => q.answers.map((a) => a.isStoreAnswer)).sort()).toEqual([false, true]);
    });

    it("an empty product: aggregate of zeros, empty lists", async () => {
      await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "no-reviews", name: "New product" });
      expectBody(reviewAggregateResponseSchema, await get(`${prefix}/products/shopify-no-reviews/review_aggregate`));
      expect(expectBody(listReviewsResponseSchema, await get(`${prefix}/products/shopify-no-reviews/reviews`))).toEqual({ reviews: [] });
      expectBody(listQuestionsResponseSchema, await get(`${prefix}/products/shopify-no-reviews/questions`));
    });

    it("AI summary and keywords: present, and {} when unavailable", async () => {
      const summary = expectBody(reviewsSummaryResponseSchema, await get(`${prefix}/products/shopify-${P30}/reviews_summary`));
      expect("reviewsSummary" in summary).toBe(true);
      const keywords = expectBody(reviewsKeywordsResponseSchema, await get(`${prefix}/products/shopify-${P30}/reviews_keywords`));
      expect("reviewsKeywords" in keywords).toBe(true);
      expect(expectBody(reviewsSummaryResponseSchema, await get(`${prefix}/products/shopify-${FEW}/reviews_summary`))).toEqual({});
      expect(expectBody(reviewsKeywordsResponseSchema, await get(`${prefix}/products/shopify-${FEW}/reviews_keywords`))).toEqual({});
    });

    it("errors answer the Error body", async () => {
      for (const path of ["/v1/stores/00000000-0000-4000-8000-000000000000/reviews", `${prefix}/reviews?limit=0`, `${prefix}/products/amazon-1/reviews`, `${prefix}/reviews?lastEvaluated=bad`]) {
        const r = await call(path);
        expect(r.status).toBeGreaterThanOrEqual(400);
        expectBody(errorBodySchema, r.body);
      }
    });
  });

  describe("loyalty reads and writes", () => {
    const L = `${prefix}/loyalty`;
    let token = "";

    it("general program: earning rules, redemption rules, VIP tiers, legal policies", async () => {
      const earning = expectBody(earningRulesResponseSchema, await get(`${L}/earning_rules`));
      expect(earning.earningRules.map((r) => r.type).sort()).toEqual(["birthday", "points-per-spend", "review", "review-with-media", "sign-up"]);
      expect(earning.earningRules.every((r) => r.isAvailable === undefined)).toBe(true);
      const redemption = expectBody(redemptionRulesResponseSchema, await get(`${L}/redemption_rules`));
      expect(redemption.redemptionRules).toHaveLength(3);
      expect(expectBody(vipTiersResponseSchema, await get(`${L}/vip_tiers`)).vipTiers).toHaveLength(3);
      expectBody(legalPoliciesSchema, await get(`${L}/legal_policies`));
    });

    it("login (pending), activation, tailored program, customer, order earning, redemption, transactions", async () => {
      const platformToken = await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: "responses-shopper", email: REVIEWER_EMAIL });
      const login = await call(`${L}/login`, { body: { customerAccessToken: platformToken } });
      expect(login.status).toBe(200);
      const l = expectBody(loginResponseSchema, login.body);
      expect(l.loyaltyCustomer.status).toBe("pending");
      token = l.customerToken;

      const version = expectBody(legalPoliciesSchema, await get(`${L}/legal_policies`)).version;
      const activation = await call(`${L}/customer_activation`, { body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }, token });
      expect(activation.status).toBe(200);
      expect(expectBody(loyaltyCustomerResponseSchema, activation.body).loyaltyCustomer).toMatchObject({ status: "enrolled", vipTierName: "Bronze" });

      for (const [path, schema] of [
        ["earning_rules", earningRulesResponseSchema],
        ["redemption_rules", redemptionRulesResponseSchema],
        ["vip_tiers", vipTiersResponseSchema],
      ] as const) {
        const body = expectBody(schema, await get(`${L}/${path}`, token)) as Record<string, { isAvailable?: boolean }[]>;
        expect(Object.values(body)[0].every((x) => typeof x.isAvailable === "boolean")).toBe(true);
      }

      const earn = await call("/enterprise/loyalty/earning_transactions", {
        body: { customer: { email: REVIEWER_EMAIL }, orderId: "order-responses-1", amount: 250, currency: "USD" },
        headers: { authorization: basic },
      });
      expect(earn.status).toBe(201);
      expectBody(orderEarningResponseSchema, earn.body);
      const again = await call("/enterprise/loyalty/earning_transactions", {
        body: { customer: { email: REVIEWER_EMAIL }, orderId: "order-responses-1", amount: 250 },
        headers: { authorization: basic },
      });
      expect(again.status).toBe(200);
      expectBody(orderEarningResponseSchema, again.body);

      const customer = expectBody(loyaltyCustomerResponseSchema, await get(`${L}/customer`, token));
      expect(customer.loyaltyCustomer.points.balance).toBeGreaterThanOrEqual(300);
      const shipping = expectBody(redemptionRulesResponseSchema, await get(`${L}/redemption_rules`, token)).redemptionRules.find((r) => r.type === "free-shipping")!;
      const redeemed = await call(`${L}/customer/redemptions`, { body: { redemptionRuleId: shipping.redemptionRuleId }, token });
      expect(redeemed.status).toBe(201);
      expectBody(redemptionResponseSchema, redeemed.body);

      const page = expectBody(transactionsResponseSchema, await get(`${L}/customer/transactions?limit=2`, token));
      expect(page.nextUrl).toBeDefined();
      const all = expectBody(transactionsResponseSchema, await get(`${L}/customer/transactions`, token));
      expect(new Set(all.transactions.map((x) => x.type))).toEqual(new Set(["earning", "redemption"]));
      expect(all.transactions.some((x) => x.earningRuleId) && all.transactions.some((x) => x.redemptionRuleId)).toBe(true);
    });

    it("loyalty errors answer the Error body", async () => {
      for (const r of [await call(`${L}/customer`), await call(`${L}/login`, { body: { customerAccessToken: "not-a-jwt" } }), await call(`${L}/customer/redemptions`, { body: {}, token })]) {
        expect(r.status).toBeGreaterThanOrEqual(400);
        expectBody(errorBodySchema, r.body);
      }
    });
  });
});

/**
 * Both OpenAPI documents (`/v1/openapi.json`, `/enterprise/openapi.json`): valid OpenAPI 3.1 by a real
 * validator, covering every operation the server answers (the operation table of the build), and every
 * operation's live answers (success and error statuses, real HTTP, real data) validate against the
 * document's schema for that status.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishRealReview, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { loadBuild, startTestServer, type TestServer } from "../../test/server.ts";
import { createHmac } from "node:crypto";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { ATTRIBUTION_SURVEY, DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";
import { operationTable } from "./route-table.ts";

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  components: { schemas: Record<string, object> };
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, string[]>[]; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
};

const PRODUCT = "1078";
const SECRET = "openapi-test-platform-secret-0123456789";
const API_KEY = "openapi-test-api-key-0123456789abcdef";
const S = `/v1/stores/${TEST_STORE_ID}`;
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const SHOP = "openapi-test.myshopify.com";
const APP_SECRET = "openapi-test-app-secret-0123456789";
/** Headers of a Shopify webhook delivery of `body`, signed with `secret`. */
const shopifyHeaders = (topic: string, body: unknown, secret = APP_SECRET, shop = SHOP) => ({
  "x-shopify-topic": topic,
  "x-shopify-shop-domain": shop,
  "x-shopify-webhook-id": crypto.randomUUID(),
  "x-shopify-hmac-sha256": createHmac("sha256", secret).update(JSON.stringify(body)).digest("base64"),
});
const WOO_STORE = "7a0c3e52-9d4b-4f6e-8a21-5c3d2b1e0f99";
const WOO_SITE = "https://woo-openapi.example";
const WOO_SECRET = "openapi-test-woo-secret-0123456789";
/** Headers of a WooCommerce webhook delivery of `body`, signed with `secret`. */
const wooHeaders = (topic: string, body: unknown, secret = WOO_SECRET, source = `${WOO_SITE}/`) => ({
  "x-wc-webhook-topic": topic,
  "x-wc-webhook-source": source,
  "x-wc-webhook-delivery-id": crypto.randomUUID(),
  "x-wc-webhook-signature": createHmac("sha256", secret).update(JSON.stringify(body)).digest("base64"),
});
/** Headers of a signed webhook delivery of `body`. */
const signedHeaders = (body: unknown, secret = APP_SECRET) => {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    "x-chorus-timestamp": ts,
    "x-chorus-webhook-id": crypto.randomUUID(),
    "x-chorus-signature": `sha256=${createHmac("sha256", secret)
      .update(`${ts}.${JSON.stringify(body)}`)
      .digest("hex")}`,
  };
};

let t: TestServer;
const docs: Record<"storefront" | "enterprise" | "platform", Doc> = {} as never;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: [PRODUCT, "1094"] });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  docs.storefront = await (await fetch(t.url("/v1/openapi.json"))).json();
  docs.enterprise = await (await fetch(t.url("/enterprise/openapi.json"))).json();
  docs.platform = await (await fetch(t.url("/platforms/openapi.json"))).json();
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
  await t.services.stores.create({ storeId: WOO_STORE, name: "WooCommerce store", platform: "woocommerce" });
  await t.services.platforms.updateSettings(WOO_STORE, { type: "woocommerce", siteUrl: WOO_SITE, webhookSecret: WOO_SECRET });
});
afterAll(() => t.close());

describe("OpenAPI documents", () => {
  it.each(["storefront", "enterprise", "platform"] as const)("the %s document is valid OpenAPI 3.1", async (api) => {
    const result = await new Validator().validate(docs[api] as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(docs[api].openapi).toBe("3.1.0");
    expect(docs[api].info.version).toBe("1.2.1");
  });

  it("cover every operation the server answers, and nothing else", async () => {
    const table = operationTable(await loadBuild());
    const served = table.operations.map((op) => `${op.api} ${op.method} ${op.path}`).sort();
    const documented = (["storefront", "enterprise", "platform"] as const)
      .flatMap((api) => Object.entries(docs[api].paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${api} ${m.toUpperCase()} ${docs[api].servers[0].url}${path}`)))
      .sort();
    expect(documented).toEqual(served);
    expect(served.length).toBeGreaterThanOrEqual(30);
  });

  it("speaks to integrators: every operation has a summary and no internal file references", () => {
    for (const doc of Object.values(docs)) {
      const text = JSON.stringify(doc);
      expect(text).not.toMatch(/\.(ts|tsx|sql)\b|server\/|app\/lib/);
      for (const methods of Object.values(doc.paths)) for (const op of Object.values(methods)) expect((op as { summary?: string }).summary).toBeTruthy();
    }
  });
});

type DocOperation = Doc["paths"][string][string];

/** The documented operation of `method url` (url with its API prefix), with its document and path template. */
function documentedOperation(method: string, url: string) {
  const api = url.startsWith("/enterprise") ? "enterprise" : url.startsWith("/platforms") ? "platform" : "storefront";
  const doc = docs[api];
  const relative = url.slice(doc.servers[0].url.length).split("?")[0];
  const entry = Object.entries(doc.paths).find(([template]) => new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(relative));
  expect(entry, `${method} ${url} is documented`).toBeDefined();
  return { doc, template: entry![0], methods: entry![1], op: entry![1][method.toLowerCase()] as DocOperation | undefined };
}

type Call = { method?: string; url: string; status: number; body?: unknown; headers?: Record<string, string> };
/** Operations called, and those called with a 4xx answer. */
const seen = new Set<string>();
const seenErrors = new Set<string>();

/**
 * Send `call` over real HTTP and check the live answer against the document: the status is the expected one
 * and documented for the operation; a body is sent exactly when the document describes one, in its content
 * type, and validates against its schema; a documented response without content has an empty body.
 */
async function check(call: Call): Promise<unknown> {
  const method = call.method ?? (call.body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { ...call.headers };
  if (call.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(t.url(call.url), { method, headers, body: call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body) });
  const text = await res.text();
  expect(res.status, `${method} ${call.url}: ${text.slice(0, 300)}`).toBe(call.status);
  const { doc, op } = documentedOperation(method, call.url);
  expect(op, `${method} ${call.url} is an operation of the document`).toBeDefined();
  const response = op!.responses[String(call.status)];
  expect(response, `${op!.operationId} documents status ${call.status}`).toBeDefined();
  seen.add(op!.operationId);
  if (call.status >= 400) seenErrors.add(op!.operationId);
  const content = response.content;
  if (!content) {
    expect(text, `${op!.operationId} ${call.status} is documented without a body`).toBe("");
    if (call.status === 401) expect(res.headers.get("www-authenticate"), `${op!.operationId} 401`).toMatch(/^Basic /);
    return undefined;
  }
  const type = res.headers.get("content-type")?.split(";")[0].trim() ?? "";
  expect(Object.keys(content), `${op!.operationId} ${call.status} content type`).toContain(type);
  const body = type.includes("json") ? JSON.parse(text) : text;
  const validate = ajv.compile({ ...content[type].schema, components: doc.components });
  expect(validate(body), `${op!.operationId} ${call.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

describe("live answers validate against the documents", () => {
  it("every storefront and enterprise operation, success and error statuses", async () => {
    const group = (await t.services.stores.getProduct(TEST_STORE_ID, PRODUCT)) as { groupId?: string; group_id?: string };
    const groupId = group.groupId ?? group.group_id;
    const nowhere = "/v1/stores/00000000-0000-4000-8000-000000000000";
    // Reads in three scopes.
    for (const scope of [`/products/shopify-${PRODUCT}`, `/collections/${groupId}`, ""]) {
      await check({ url: `${S}${scope}/reviews?limit=3`, status: 200 });
      await check({ url: `${S}${scope}/reviews?orderBy=nonsense`, status: 400 });
      // Filters and search (docs/api.md "Search and filters"): highlights in the answer.
      await check({ url: `${S}${scope}/reviews?search=fits%20small&rating=4,5&media=any&verified=true&limit=2`, status: 200 });
      await check({ url: `${S}${scope}/reviews?search=dress&orderBy=rating%20asc&limit=2`, status: 200 });
      await check({ url: `${S}${scope}/reviews?rating=6`, status: 400 });
      await check({ url: `${S}${scope}/reviews?search=%20!!`, status: 400 });
      await check({ url: `${nowhere}${scope.replace(String(groupId), "x")}/reviews`, status: 404 });
      await check({ url: `${S}${scope}/review_aggregate`, status: 200 });
      await check({ url: `${S}${scope}/review_media?limit=2`, status: 200 });
      await check({ url: `${S}${scope}/review_media?limit=0`, status: 400 });
      if (scope) await check({ url: `${S}${scope}/questions`, status: 200 });
    }
    await check({ url: `${S}/products/shopify-${PRODUCT}/reviews_summary`, status: 200 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/reviews_keywords`, status: 200 });
    await check({ url: `${S}/widget_settings?locale=de-AT`, status: 200 });
    // Server-rendered snippets (HTML) and the review JSON-LD (issue #25).
    for (const scope of ["", `/collections/${groupId}`, `/products/shopify-${PRODUCT}`]) {
      await check({ url: `${S}${scope}/snippets/star-rating?lang=de`, status: 200 });
      await check({ url: `${S}${scope}/snippets/nonsense`, status: 400 });
      await check({ url: `${nowhere}${scope.replace(String(groupId), "x")}/snippets/reviews`, status: 404 });
    }
    await check({ url: `${S}/products/shopify-${PRODUCT}/snippets/reviews?lang=en_US`, status: 400 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/structured_data`, status: 200 });
    await check({ url: `${nowhere}/products/shopify-${PRODUCT}/structured_data`, status: 404 });
    await check({ url: `${S}/widget_settings?locale=en_US`, status: 400 });
    await check({ url: `${nowhere}/widget_settings`, status: 404 });
    await check({ url: `${S}/widget_plus_settings`, status: 200 });
    await check({ url: `${nowhere}/widget_plus_settings`, status: 404 });
    await check({ url: `${nowhere}/products/shopify-1/reviews_summary`, status: 404 });
    // Writes.
    await check({
      url: `${S}/products/shopify-${PRODUCT}/reviews`,
      status: 201,
      body: { rating: 5, title: "Lovely", body: "Fits well and the colour is as shown.", displayName: "Ann", email: "ann@example.com" },
    });
    await check({ url: `${S}/products/shopify-${PRODUCT}/reviews`, status: 400, body: { rating: 9 } });
    await check({ url: `${S}/store_reviews`, status: 201, body: { rating: 5, body: "Quick delivery and friendly answers.", displayName: "Ann", email: "ann@example.com" } });
    await check({ url: `${S}/store_reviews`, status: 400, body: { rating: 0 } });
    await check({ url: `${S}/products/shopify-${PRODUCT}/questions`, status: 201, body: { body: "Does it run small?", displayName: "Bea", email: "bea@example.com" } });
    await check({ url: `${S}/products/shopify-${PRODUCT}/questions`, status: 415, body: "x", headers: { "content-type": "text/plain" } });
    const reviewId = await publishRealReview(t.services, PRODUCT);
    await check({ url: `${S}/reviews/${reviewId}/votes`, status: 200, body: { vote: "helpful" } });
    await check({ url: `${S}/reviews/${reviewId}/votes`, status: 400, body: { vote: "maybe" } });
    // Okendo-compatible reads and votes (docs/api.md, Okendo-compatible).
    const okendoReviewId = await publishRealReview(t.services, PRODUCT);
    await check({ url: `${S}/reviews/${okendoReviewId}`, status: 200 });
    await check({ url: `${S}/reviews/${crypto.randomUUID()}`, status: 404 });
    await check({ url: `${S}/reviews/${okendoReviewId}/vote`, status: 200, body: { voteType: "upvote" } });
    await check({ url: `${S}/reviews/${okendoReviewId}/vote`, status: 400, body: { voteType: "sideways" } });
    await check({ url: `${S}/products/shopify-${PRODUCT}/question_aggregate`, status: 200 });
    await check({ url: `${nowhere}/products/shopify-${PRODUCT}/question_aggregate`, status: 404 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/attributes`, status: 200 });
    await check({ url: `${nowhere}/products/shopify-${PRODUCT}/attributes`, status: 404 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/reviews?generalAttributes=Size`, status: 400 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/reviews?orderBy=unhelpful%20desc&generalAttributes=Size,M`, status: 200 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/questions?orderBy=helpful%20desc`, status: 200 });
    const okendoQuestion = (await check({ url: `${S}/products/shopify-${PRODUCT}/questions`, status: 201, body: { body: "Is it lined?", displayName: "Cleo", email: "cleo@example.com" } })) as {
      question: { questionId: string };
    };
    const questionId = okendoQuestion.question.questionId;
    await t.services.questions.setQuestionStatus(TEST_STORE_ID, questionId, "published");
    const { answerId } = await t.services.questions.answerAsStore({ storeId: TEST_STORE_ID, questionId, body: "Yes, fully lined.", authorName: "The shop" });
    await check({ url: `${S}/questions/${questionId}/vote`, status: 200, body: { voteType: "upvote" } });
    await check({ url: `${S}/questions/${questionId}/vote`, status: 400, body: {} });
    await check({ url: `${S}/questions/${crypto.randomUUID()}/vote`, status: 404, body: { voteType: "upvote" } });
    await check({ url: `${S}/questions/${questionId}/answers/${answerId}/vote`, status: 200, body: { voteType: "downvote" } });
    await check({ url: `${S}/questions/${questionId}/answers/${answerId}/vote`, status: 400, body: { voteType: 1 } });
    await check({ url: `${S}/questions/${questionId}/answers/${crypto.randomUUID()}/vote`, status: 404, body: { voteType: "upvote" } });
    await check({ url: `${S}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, status: 201, body: { answeredQuestions: [{ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: 9 }] } });
    await check({ url: `${S}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, status: 400, body: { answeredQuestions: [] } });
    await check({ url: `${S}/surveys/${DEMO_CHANNEL_IDS.npsEmail}`, status: 200 });
    await check({ url: `${S}/surveys/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11`, status: 404 });
    await check({ url: `${S}/regions/DE`, status: 200 });
    await check({ url: `${S}/regions/ZZ`, status: 404 });
    await check({ url: `${S}/regions/DEU`, status: 400 });
    // Referrals (docs/loyalty.md "Referrals"): off (404), on (the link), bad input (400).
    await check({ url: `${S}/referral_program`, status: 200 });
    await check({ url: `${nowhere}/referral_program`, status: 404 });
    await check({ url: `${S}/referral_senders`, status: 404, body: { email: "sender@example.test" } });
    await t.services.referrals.updateSettings(TEST_STORE_ID, {
      enabled: true,
      friendDiscountType: "percentage-coupon",
      friendDiscountValue: 10,
      friendMinimumOrder: null,
      senderRewardType: "points",
      senderRewardValue: 100,
    });
    await check({ url: `${S}/referral_senders`, status: 200, body: { email: "sender@example.test" } });
    await check({ url: `${S}/referral_senders`, status: 400, body: { email: "nope" } });
    // Loyalty.
    const L = `${S}/loyalty`;
    await check({ url: `${L}/legal_policies`, status: 200 });
    await check({ url: `${L}/earning_rules`, status: 200 });
    await check({ url: `${L}/redemption_rules`, status: 200 });
    await check({ url: `${L}/vip_tiers`, status: 200 });
    await check({ url: `${nowhere}/loyalty/vip_tiers`, status: 404 });
    const platformToken = await signPlatformToken(SECRET, { platformCustomerId: "openapi-1", email: "openapi-1@example.test" });
    const login = (await check({ url: `${L}/login`, status: 200, body: { customerAccessToken: platformToken } })) as { customerToken: string };
    await check({ url: `${L}/login`, status: 400, body: {} });
    const bearer = { authorization: `Bearer ${login.customerToken}` };
    await check({ url: `${L}/customer`, status: 401 });
    const policies = (await check({ url: `${L}/legal_policies`, status: 200 })) as { version: string };
    await check({ url: `${L}/customer_activation`, status: 200, headers: bearer, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: policies.version } });
    await check({ url: `${L}/customer`, status: 200, headers: bearer });
    await check({ url: `${L}/earning_rules`, status: 200, headers: bearer });
    await check({ url: `${L}/customer/transactions`, status: 200, headers: bearer });
    await check({ url: `${L}/customer/transactions?limit=0`, status: 400, headers: bearer });
    await check({ url: `${L}/customer/overview`, status: 200, headers: bearer });
    await check({ url: `${L}/customer/overview`, status: 401 });
    await check({ url: `${L}/customer/redemptions`, status: 400, headers: bearer, body: {} });
    // Enterprise.
    const auth = { authorization: basic };
    // The Google Product Reviews feed behind its secret URL (docs/google-shopping.md): the feed, and a wrong token.
    const feed = new URL(((await check({ url: "/enterprise/settings", status: 200, headers: auth })) as { feeds: { googleProductReviewsUrl: string } }).feeds.googleProductReviewsUrl);
    await check({ url: `${feed.pathname}${feed.search}`, status: 200 });
    await check({ url: `${feed.pathname}?token=wrong`, status: 401 });
    const merchantFeed = new URL(((await check({ url: "/enterprise/settings", status: 200, headers: auth })) as { feeds: { googleMerchantReviewsUrl: string } }).feeds.googleMerchantReviewsUrl);
    await check({ url: `${merchantFeed.pathname}${merchantFeed.search}`, status: 200 });
    await check({ url: `${merchantFeed.pathname}?token=wrong`, status: 401 });
    await check({ url: "/enterprise/surveys", status: 200, headers: auth });
    await check({ url: "/enterprise/surveys?limit=0", status: 400, headers: auth });
    await check({ url: `/enterprise/surveys/${NPS_SURVEY.surveyId}/responses`, status: 200, headers: auth });
    await check({ url: "/enterprise/surveys/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11/responses", status: 404, headers: auth });
    await check({ url: "/enterprise/surveys", status: 401 });
    await check({ url: "/enterprise/orders", status: 200, headers: auth, body: { orders: [{ orderId: "o-1", productId: PRODUCT, email: "buyer@example.com" }] } });
    await check({ url: "/enterprise/orders", status: 400, headers: auth, body: { orders: "none" } });
    await check({ url: "/enterprise/loyalty/earning_transactions", status: 201, headers: auth, body: { customer: { platformCustomerId: "openapi-1" }, orderId: "order-1", amount: 59.9 } });
    await check({ url: "/enterprise/loyalty/earning_transactions", status: 200, headers: auth, body: { customer: { platformCustomerId: "openapi-1" }, orderId: "order-1", amount: 59.9 } });
    await check({ url: "/enterprise/loyalty/earning_transactions", status: 400, headers: auth, body: { orderId: "x" } });
    await check({ url: "/enterprise/settings", status: 200, headers: auth });
    await check({ url: "/enterprise/settings", status: 401 });
    await check({
      method: "PATCH",
      url: "/enterprise/settings",
      status: 200,
      headers: auth,
      body: { platform: { shopDomain: SHOP }, reviewRequests: { delayDays: 2 }, widgets: { colors: { star: "#ffaa00" } } },
    });
    await check({ method: "PATCH", url: "/enterprise/settings", status: 400, headers: auth, body: { platform: { appSecret: "short" } } });
    await check({ url: "/enterprise/customers/erasure", status: 200, headers: auth, body: { email: "nobody@example.com" } });
    await check({ url: "/enterprise/customers/erasure", status: 400, headers: auth, body: { email: "not-an-address" } });
    await check({ url: "/enterprise/customers/data_export", status: 400, headers: auth, body: { email: "not-an-address" } }); // its 200 is a zip (privacy.api.test.ts)
    // Outgoing webhook subscriptions (docs/webhooks.md) and CSV exports (docs/exports.md).
    const hooks = "/enterprise/webhook_subscriptions";
    await check({ url: hooks, status: 200, headers: auth });
    await check({ url: hooks, status: 401 });
    const created = (await check({
      url: hooks,
      status: 201,
      headers: auth,
      body: { url: "https://93.184.215.14/hooks", eventTypes: ["review.created", "loyalty_customer.updated"], description: "CRM" },
    })) as { subscription: { subscriptionId: string } };
    await check({ url: hooks, status: 400, headers: auth, body: { url: "https://10.0.0.1/hooks", eventTypes: ["review.created"] } });
    const hook = `${hooks}/${created.subscription.subscriptionId}`;
    await check({ method: "PUT", url: hook, status: 200, headers: auth, body: { eventTypes: ["review.updated"], status: "disabled" } });
    await check({ method: "PUT", url: hook, status: 400, headers: auth, body: { eventTypes: [] } });
    await check({ method: "PUT", url: `${hooks}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11`, status: 404, headers: auth, body: {} });
    await check({ method: "POST", url: `${hook}/rotate_secret`, status: 200, headers: auth });
    await check({ method: "POST", url: `${hooks}/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11/rotate_secret`, status: 404, headers: auth });
    await check({ method: "DELETE", url: hook, status: 200, headers: auth });
    await check({ method: "DELETE", url: hook, status: 404, headers: auth });
    for (const name of ["reviews", "questions", "loyalty_customers", "loyalty_transactions", "orders"]) {
      const text = (await check({ url: `/enterprise/exports/${name}.csv?from=2020-01-01`, status: 200, headers: auth })) as string;
      expect(text.split("\r\n").length, name).toBeGreaterThan(1);
      await check({ url: `/enterprise/exports/${name}.csv?from=never`, status: 400, headers: auth });
    }
    await check({ url: "/enterprise/openapi.json", status: 200 });
    // Shop-platform webhooks.
    const product = { id: Number(PRODUCT), title: "Tiered Linen Midi Dress", handle: "tiered-linen-midi-dress", images: [] };
    await check({ url: "/platforms/shopify/webhooks", status: 200, headers: shopifyHeaders("products/update", product), body: product });
    await check({ url: "/platforms/shopify/webhooks", status: 401, headers: shopifyHeaders("products/update", product, "forged-secret-0123456789"), body: product });
    await check({ url: "/platforms/shopify/webhooks", status: 404, headers: shopifyHeaders("products/update", product, APP_SECRET, "nobody.myshopify.com"), body: product });
    await check({ url: "/platforms/shopify/webhooks", status: 400, headers: shopifyHeaders("products/update", { id: "x" }), body: { id: "x" } });
    const event = { type: "product.upserted", product: { productId: "openapi-p", name: "Linen Shirt" } };
    await check({ url: `/platforms/webhooks/${TEST_STORE_ID}`, status: 200, headers: signedHeaders(event), body: event });
    await check({ url: `/platforms/webhooks/${TEST_STORE_ID}`, status: 401, headers: signedHeaders(event, "forged-secret-0123456789"), body: event });
    await check({ url: "/platforms/webhooks/00000000-0000-4000-8000-000000000000", status: 404, headers: signedHeaders(event), body: event });
    await check({ url: `/platforms/webhooks/${TEST_STORE_ID}`, status: 400, headers: signedHeaders({ type: "nope" }), body: { type: "nope" } });
    const wooProduct = { id: 4100, name: "Linen Apron", permalink: `${WOO_SITE}/product/linen-apron/`, images: [] };
    const woo = "/platforms/woocommerce/webhooks";
    await check({ url: woo, status: 200, headers: wooHeaders("product.updated", wooProduct), body: wooProduct });
    await check({ url: woo, status: 200, headers: { "content-type": "application/x-www-form-urlencoded" }, body: "webhook_id=12" });
    await check({ url: woo, status: 401, headers: wooHeaders("product.updated", wooProduct, "forged-secret-0123456789"), body: wooProduct });
    await check({ url: woo, status: 404, headers: wooHeaders("product.updated", wooProduct, WOO_SECRET, "https://nobody.example/"), body: wooProduct });
    await check({ url: woo, status: 400, headers: wooHeaders("product.updated", { id: "x" }), body: { id: "x" } });
    await check({ url: "/platforms/openapi.json", status: 200 });
    await check({ url: "/v1/openapi.json", status: 200 });

    // Loyalty: bad credentials and forbidden states (401 and 403 carry the JSON error body).
    await check({ url: `${L}/login`, status: 401, body: { customerAccessToken: "not-a-platform-token" } });
    await check({ url: `${L}/login`, status: 401, body: { customerAccessToken: await signPlatformToken("another-secret-0123456789abcdef", { platformCustomerId: "openapi-x" }) } });
    await check({ url: `${nowhere}/loyalty/login`, status: 404, body: { customerAccessToken: platformToken } });
    await check({ url: `${L}/login`, status: 415, body: "x", headers: { "content-type": "text/plain" } });
    await check({ url: `${L}/customer`, status: 401, headers: { authorization: "Bearer not-a-token" } });
    await check({ url: `${nowhere}/loyalty/customer`, status: 404, headers: bearer });
    await check({ url: `${nowhere}/loyalty/legal_policies`, status: 404 });
    for (const list of ["earning_rules", "redemption_rules", "vip_tiers"]) await check({ url: `${L}/${list}`, status: 401, headers: { authorization: "Bearer not-a-token" } });
    const rules = (await check({ url: `${L}/redemption_rules`, status: 200 })) as { redemptionRules: { redemptionRuleId: string }[] };
    const ruleId = rules.redemptionRules[0]!.redemptionRuleId;
    await check({ url: `${L}/customer/redemptions`, status: 409, headers: bearer, body: { redemptionRuleId: ruleId } });
    await check({ url: `${L}/customer/redemptions`, status: 404, headers: bearer, body: { redemptionRuleId: crypto.randomUUID() } });
    // Not enrolled yet: 403.
    const pending = (await check({
      url: `${L}/login`,
      status: 200,
      body: { customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId: "openapi-2", email: "openapi-2@example.test" }) },
    })) as { customerToken: string; loyaltyCustomer: { loyaltyCustomerId: string } };
    const pendingBearer = { authorization: `Bearer ${pending.customerToken}` };
    await check({ url: `${L}/customer/redemptions`, status: 403, headers: pendingBearer, body: { redemptionRuleId: ruleId } });
    await check({ url: `${L}/customer_activation`, status: 409, headers: pendingBearer, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: "0.0.0-stale" } });
    // Blocked: 403 for activation, redemption and order earning.
    await t.services.loyalty.setStatus(TEST_STORE_ID, pending.loyaltyCustomer.loyaltyCustomerId, "blocked");
    await check({ url: `${L}/customer_activation`, status: 403, headers: pendingBearer, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: policies.version } });
    await check({ url: `${L}/customer/redemptions`, status: 403, headers: pendingBearer, body: { redemptionRuleId: ruleId } });
    await check({ url: "/enterprise/loyalty/earning_transactions", status: 403, headers: auth, body: { customer: { platformCustomerId: "openapi-2" }, orderId: "order-blocked", amount: 10 } });
    await check({ url: "/enterprise/loyalty/earning_transactions", status: 404, headers: auth, body: { customer: { platformCustomerId: "nobody" }, orderId: "order-nobody", amount: 10 } });
    // Other error cases of operations not exercised above.
    await check({ url: `${S}/reviews/${crypto.randomUUID()}/votes`, status: 404, body: { vote: "helpful" } });
    await check({ url: `${S}/reviews/${crypto.randomUUID()}/vote`, status: 404, body: { voteType: "upvote" } });
    await check({ url: `${nowhere}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`, status: 404, body: { answeredQuestions: [{ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: 9 }] } });
    await check({ url: `${nowhere}/collections/x/review_aggregate`, status: 404 });
    await check({ url: `${nowhere}/products/shopify-${PRODUCT}/review_aggregate`, status: 404 });
    await check({ url: `${nowhere}/review_aggregate`, status: 404 });
    await check({ url: `${nowhere}/products/shopify-${PRODUCT}/reviews_keywords`, status: 404 });
    await check({ url: `${S}/collections/${groupId}/questions?limit=0`, status: 400 });
    await check({ url: `${S}/products/shopify-${PRODUCT}/questions?limit=0`, status: 400 });
    await check({ url: hooks, status: 415, headers: { ...auth, "content-type": "text/plain" }, body: "x" });
    await check({ url: "/enterprise/orders", status: 415, headers: { ...auth, "content-type": "text/plain" }, body: "x" });
    await check({ url: "/enterprise/customers/data_export", status: 415, headers: { ...auth, "content-type": "text/plain" }, body: "x" });
    await check({ method: "DELETE", url: `${hooks}/not-a-uuid`, status: 400, headers: auth });

    // No or bad credentials, for every operation that has them: Basic (401, no body), customer tokens and webhook signatures (401 JSON).
    const pathOf = (api: keyof typeof docs, template: string) => docs[api].servers[0].url + template.replace("{storeId}", TEST_STORE_ID).replace(/\{[^}]+\}/g, "6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11");
    for (const api of ["storefront", "enterprise", "platform"] as const) {
      for (const [template, methods] of Object.entries(docs[api].paths)) {
        for (const [method, op] of Object.entries(methods)) {
          const schemes = (op.security ?? []).flatMap((alt) => Object.keys(alt));
          const url = pathOf(api, template);
          const body = method === "get" || method === "delete" ? undefined : {};
          if (schemes.includes("basicAuth")) {
            await check({ method: method.toUpperCase(), url, status: 401, body });
            await check({ method: method.toUpperCase(), url, status: 401, body, headers: { authorization: `Basic ${Buffer.from(`${TEST_STORE_ID}:wrong-key`).toString("base64")}` } });
          }
          if (schemes.includes("customerToken")) await check({ method: method.toUpperCase(), url, status: 401, body, headers: { authorization: "Bearer not-a-token" } });
          if (schemes.some((name) => name !== "basicAuth" && name !== "customerToken")) {
            const unsigned: Record<string, string> =
              api === "platform" && template.includes("shopify")
                ? { "x-shopify-topic": "orders/create", "x-shopify-shop-domain": SHOP, "x-shopify-webhook-id": crypto.randomUUID() }
                : api === "platform" && template.includes("woocommerce")
                  ? { "x-wc-webhook-topic": "order.created", "x-wc-webhook-source": WOO_SITE, "x-wc-webhook-delivery-id": crypto.randomUUID() }
                  : { "x-chorus-webhook-id": crypto.randomUUID() };
            await check({ method: method.toUpperCase(), url, status: 401, body, headers: unsigned });
          }
        }
      }
    }

    // Every documented operation was called, and every one that documents an error answered one.
    const operations = Object.values(docs).flatMap((doc) => Object.values(doc.paths).flatMap((methods) => Object.values(methods)));
    expect(operations.filter((op) => !seen.has(op.operationId)).map((op) => op.operationId)).toEqual([]);
    const withErrors = operations.filter((op) => Object.keys(op.responses).some((status) => Number(status) >= 400));
    expect(withErrors.filter((op) => !seenErrors.has(op.operationId)).map((op) => op.operationId)).toEqual([]);
  });

  it("a method a documented path does not offer: 405 with Allow naming exactly the document's methods, the Error body", async () => {
    let paths = 0;
    for (const doc of Object.values(docs)) {
      const Error = ajv.compile({ ...doc.components.schemas.Error, components: doc.components });
      for (const [template, methods] of Object.entries(doc.paths)) {
        const url = doc.servers[0].url + template.replace("{storeId}", TEST_STORE_ID).replace(/\{[^}]+\}/g, "6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11");
        const documented = Object.keys(methods).map((m) => m.toUpperCase());
        const allow = [...documented, ...(documented.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort();
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !documented.includes(m))) {
          const res = await fetch(t.url(url), {
            method,
            headers: { authorization: basic, ...(method === "GET" ? {} : { "content-type": "application/json" }) },
            body: method === "GET" ? undefined : "{}",
          });
          const text = await res.text();
          expect(res.status, `${method} ${url}: ${text.slice(0, 200)}`).toBe(405);
          expect(res.headers.get("allow")?.split(/,\s*/).sort(), `${method} ${url}`).toEqual(allow);
          expect(Error(JSON.parse(text)), `${method} ${url}: ${ajv.errorsText(Error.errors)}`).toBe(true);
        }
        const options = await fetch(t.url(url), { method: "OPTIONS" });
        expect(options.status, `OPTIONS ${url}`).toBe(204);
        paths++;
      }
    }
    expect(paths).toBeGreaterThanOrEqual(50);
  });
});

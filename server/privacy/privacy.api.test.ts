/**
 * Shopper data rights over real HTTP (issue 24 item 1): a shopper with a review with photos, a question, a
 * survey response, a loyalty history and an order is exported (zip with data.json and the photos), then
 * erased: nothing of theirs remains in any table or on disk, aggregates are right, the ledger balances, the
 * audit rows exist without the address; other shoppers and other stores are untouched.
 */
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { dialect } from "../db/database.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { DEMO_CHANNEL_IDS, NPS_SURVEY } from "../surveys/surveys.demo.ts";

let t: TestServer;
let rows: RealReview[];
const SECRET = "privacy-test-platform-secret-0123456789";
const KEY = "privacy-test-api-key-0123456789abcdef";
const OTHER_KEY = "privacy-other-api-key-0123456789abcdef";
const SHOPPER = "erin.shopper@example.com";
const PRODUCT = "1078";
const basic = (store: string, key: string) => `Basic ${Buffer.from(`${store}:${key}`).toString("base64")}`;
let reviewId = "";
let mediaIds: string[] = [];

const post = (path: string, body: unknown, auth = basic(TEST_STORE_ID, KEY)) =>
  fetch(t.url(path), { method: "POST", headers: { "content-type": "application/json", authorization: auth }, body: JSON.stringify(body) });
const photo = (colour: string) => sharp({ create: { width: 400, height: 300, channels: 3, background: colour } }).jpeg().toBuffer();
const aggregate = async () => (await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/review_aggregate`))).json()).reviewAggregate;

/** Entries of a zip archive: name → bytes. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => (out.set(entry.fileName, Buffer.concat(chunks)), zip.readEntry()));
        });
      });
      zip.on("end", () => resolve(out));
      zip.readEntry();
    });
  });
}

/** Every row of every table, as text, that mentions `needle` (case-insensitive). */
function rowsMentioning(needle: string): string[] {
  const db = t.services.db;
  // Every table but the full-text indexes (SQLite's FTS5 tables; PostgreSQL's tsvector tables).
  const tables = (dialect(db) === "postgres"
    ? db.prepare("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('review_search', 'survey_responses_fts')")
    : db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'")).pluck().all() as string[];
  const hits: string[] = [];
  for (const table of tables) {
    for (const row of db.prepare(`SELECT * FROM "${table}"`).all()) {
      const text = JSON.stringify(row).toLowerCase();
      if (text.includes(needle.toLowerCase())) hits.push(`${table}: ${text.slice(0, 160)}`);
    }
  }
  return hits;
}

beforeAll(async () => {
  t = await startTestServer();
  rows = seedRealReviews(t.services, { productIds: [PRODUCT] });
  t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
  t.services.apiKeys.create(TEST_STORE_ID, "tests", KEY);
  t.services.apiKeys.create(OTHER_STORE_ID, "tests", OTHER_KEY);
  t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);

  // Loyalty: the shopper signs in with a platform token and enrols (sign-up points).
  const token = await signPlatformToken(SECRET, { platformCustomerId: "erin-1", email: SHOPPER });
  const login = await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/login`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken: token }) })).json();
  const version = t.services.loyalty.legalPolicies(TEST_STORE_ID).version;
  const activation = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/customer_activation`), {
    method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${login.customerToken}` },
    body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }),
  });
  expect(activation.status).toBe(200);

  // A review with two photos, written through the storefront API (a real review text of the file).
  const r = rows.find((x) => x.body && x.title)!;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ rating: r.rating, title: r.title, body: r.body, displayName: "Erin", email: SHOPPER })) fd.append(k, String(v));
  for (const colour of ["#3b7", "#a35"]) fd.append("media", new Blob([new Uint8Array(await photo(colour))], { type: "image/jpeg" }), "p.jpg");
  const submitted = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/reviews`), { method: "POST", body: fd });
  expect(submitted.status).toBe(201);
  reviewId = (await submitted.json()).review.reviewId;
  mediaIds = t.services.db.prepare("SELECT media_id FROM review_media WHERE review_id = ?").pluck().all(reviewId) as string[];
  expect(mediaIds).toHaveLength(2);
  expect(t.services.loyalty.awardReviewEarnings(TEST_STORE_ID)).toBeGreaterThan(0);

  // A survey response with the address as its customer, and an order.
  t.services.surveys.importResponses(TEST_STORE_ID, [{
    channelSurveyId: DEMO_CHANNEL_IDS.npsEmail, createdMs: Date.now(), customer: { email: SHOPPER },
    answeredQuestions: [{ id: NPS_SURVEY.questions[0].id, type: "nps", answer: 9, answerNpsCategory: "promoter" }],
  }]);
  t.services.orders.importOrders(TEST_STORE_ID, [{ orderId: "ERIN-1001", productId: PRODUCT, email: SHOPPER, orderedMs: Date.now() - 86_400_000 }]);
  // A message the store sent them (kept in the outbox: no SMTP server in this test).
  t.services.mail.enqueue({ storeId: TEST_STORE_ID, kind: "review-request", to: SHOPPER, subject: "How was your order?", html: "<p>How was your order?</p>", text: "How was your order?" });
}, 60_000);
afterAll(() => t.close());

describe("shopper data export and erasure (enterprise API)", () => {
  it("exports a zip with data.json (every kind of record) and the original photos; audited without the address", async () => {
    const res = await post("/enterprise/customers/data_export", { email: ` ${SHOPPER.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="chorus-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    const data = JSON.parse(files.get("data.json")!.toString("utf8"));
    expect(data.email).toBe(SHOPPER);
    expect(data.reviews).toHaveLength(1);
    expect(data.reviews[0].review_id).toBe(reviewId);
    expect(data.reviewMedia).toHaveLength(2);
    expect(data.surveyResponses).toHaveLength(1);
    expect(data.surveyResponses[0].answered_questions[0].answer).toBe(9);
    expect(data.loyaltyCustomers).toHaveLength(1);
    expect(data.loyaltyTransactions.length).toBeGreaterThanOrEqual(2); // sign-up and review points
    expect(data.orderLines).toHaveLength(1);
    for (const id of mediaIds) expect((await sharp(files.get(`media/${id}/full.jpg`)!).metadata()).format).toBe("jpeg");
    expect(files.has("README.txt")).toBe(true);
    const audit = t.services.privacy.recentRequests(TEST_STORE_ID);
    expect(audit[0]).toMatchObject({ kind: "export", actor: "enterprise-api", counts: { reviews: 1, mediaItems: 2, surveyResponses: 1, loyaltyCustomers: 1, orderLines: 1 } });
    expect(JSON.stringify(audit)).not.toContain("erin");
  });

  it("bad input: 400 for a non-address, 401 without credentials, nothing erased", async () => {
    for (const body of [{ email: "not-an-address" }, { email: 42 }, {}, { email: SHOPPER, extra: 1 }]) {
      const res = await post("/enterprise/customers/erasure", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.description).toMatch(/email|extra|Unrecognized/i);
    }
    expect((await post("/enterprise/customers/erasure", { email: SHOPPER }, "")).status).toBe(401);
    // Another store's key erases in that store only: nothing of store A changes.
    const other = await post("/enterprise/customers/erasure", { email: SHOPPER }, basic(OTHER_STORE_ID, OTHER_KEY));
    expect(other.status).toBe(200);
    expect((await other.json()).erasure.reviews).toBe(0);
    expect(rowsMentioning(SHOPPER).length).toBeGreaterThan(0);
  });

  it("erases: no row mentions the address, photos gone from disk and API, aggregate right, ledger balanced, audited", async () => {
    const before = await aggregate();
    const res = await post("/enterprise/customers/erasure", { email: SHOPPER });
    expect(res.status).toBe(200);
    const { erasure } = await res.json();
    expect(erasure).toMatchObject({ reviews: 1, mediaItems: 2, mediaFilesDeleted: 2, surveyResponses: 1, loyaltyCustomersAnonymised: 1, orderLines: 1 });

    expect(rowsMentioning(SHOPPER)).toEqual([]);
    expect(rowsMentioning("erin-1")).toEqual([]); // the platform customer ID went too
    for (const id of mediaIds) expect(existsSync(join(t.services.mediaPath, TEST_STORE_ID, id))).toBe(false);
    expect((await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/reviews/${reviewId}`))).status).not.toBe(200);

    const after = await aggregate();
    expect(after.reviewCount).toBe(before.reviewCount - 1);
    const published = t.services.db.prepare("SELECT count(*) AS n, sum(rating) AS total FROM reviews WHERE store_id = ? AND product_id = ? AND status = 'published'").get(TEST_STORE_ID, PRODUCT) as { n: number; total: number };
    expect(after).toMatchObject({ reviewCount: published.n, reviewRatingValuesTotal: published.total });

    const unbalanced = t.services.db.prepare(
      "SELECT c.loyalty_customer_id FROM loyalty_customers c WHERE c.balance != (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions t WHERE t.loyalty_customer_id = c.loyalty_customer_id)",
    ).all();
    expect(unbalanced).toEqual([]);
    // The AI content of the product is regenerated without the erased review.
    expect(t.services.db.prepare("SELECT count(*) FROM ai_jobs WHERE store_id = ? AND scope_id = ?").pluck().get(TEST_STORE_ID, PRODUCT)).toBeGreaterThan(0);

    const audit = t.services.privacy.recentRequests(TEST_STORE_ID);
    expect(audit[0]).toMatchObject({ kind: "erasure", actor: "enterprise-api", counts: { reviews: 1, surveyResponses: 1 } });
    expect(JSON.stringify(audit)).not.toContain("erin");

    // Idempotent: a second erasure finds nothing.
    const again = await (await post("/enterprise/customers/erasure", { email: SHOPPER })).json();
    expect(Object.values(again.erasure).every((n) => n === 0)).toBe(true);
  });
});

describe("Shopify's privacy webhooks (customers/redact, customers/data_request, shop/redact)", () => {
  const SHOP = "privacy-test.myshopify.com";
  const APP_SECRET = "privacy-test-app-secret-0123456789";
  const deliver = (topic: string, body: unknown, id: string = crypto.randomUUID(), secret = APP_SECRET) => {
    const raw = JSON.stringify(body);
    return fetch(t.url("/platforms/shopify/webhooks"), {
      method: "POST",
      headers: {
        "content-type": "application/json", "x-shopify-topic": topic, "x-shopify-shop-domain": SHOP, "x-shopify-webhook-id": id,
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(raw).digest("base64"),
      },
      body: raw,
    });
  };
  /** A shopper with a question and an order line (what the webhooks must find). */
  const shopper = (email: string) => {
    t.services.orders.importOrders(TEST_STORE_ID, [{ orderId: `O-${email}`, productId: PRODUCT, email, orderedMs: Date.now() }]);
    const group = t.services.db.prepare("SELECT group_id FROM products WHERE store_id = ? AND product_id = ?").pluck().get(TEST_STORE_ID, PRODUCT);
    t.services.db.prepare("INSERT INTO questions (question_id, store_id, product_id, group_id, body, asker_name, asker_email, status, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 'published', ?)")
      .run(crypto.randomUUID(), TEST_STORE_ID, PRODUCT, group, "Does it run small?", "Sam", email, Date.now());
  };

  beforeAll(async () => {
    t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
    await t.services.admin.createUser({ email: "owner@privacy-shop.test", password: "owner password 123", storeIds: [TEST_STORE_ID] });
  });

  it("customers/redact erases the customer's data, once per delivery ID; a forged one changes nothing", async () => {
    shopper("redact.me@example.com");
    expect((await deliver("customers/redact", { shop_domain: SHOP, customer: { id: 191167, email: "redact.me@example.com" } }, "x", "wrong-secret-0123456789012345")).status).toBe(401);
    expect(rowsMentioning("redact.me@example.com").length).toBeGreaterThan(0);
    const id = crypto.randomUUID();
    const res = await deliver("customers/redact", { shop_id: 954889, shop_domain: SHOP, customer: { id: 191167, email: "Redact.Me@example.com", phone: null }, orders_to_redact: [] }, id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outcome: "applied" });
    expect(rowsMentioning("redact.me@example.com")).toEqual([]);
    expect(t.services.privacy.recentRequests(TEST_STORE_ID)[0]).toMatchObject({ kind: "erasure", actor: "shopify:customers/redact" });
    expect(await (await deliver("customers/redact", { customer: { email: "redact.me@example.com" } }, id)).json()).toEqual({ outcome: "duplicate" });
  });

  it("customers/data_request e-mails the store's members a link to the shopper's data; audited", async () => {
    shopper("asks@example.com");
    const res = await deliver("customers/data_request", { shop_domain: SHOP, orders_requested: [], customer: { id: 1, email: "asks@example.com" }, data_request: { id: 9999 } });
    expect(res.status).toBe(200);
    const mail = t.services.db.prepare("SELECT to_address, subject, text FROM mail_outbox WHERE store_id = ? AND kind = 'privacy-request'").all(TEST_STORE_ID) as { to_address: string; subject: string; text: string }[];
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to_address: "owner@privacy-shop.test", subject: "A shopper asked for their data" });
    expect(mail[0].text).toContain(`/admin/stores/${TEST_STORE_ID}/privacy?email=asks%40example.com`);
    expect(t.services.privacy.recentRequests(TEST_STORE_ID)[0]).toMatchObject({ kind: "data-request", actor: "shopify:customers/data_request", counts: { questions: 1, orderLines: 1 } });
    expect(rowsMentioning("asks@example.com").length).toBeGreaterThan(0); // nothing erased
  });

  it("a privacy body without the fields read: 400, nothing done", async () => {
    const res = await deliver("customers/redact", { customer: "nobody" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.description).toMatch(/customer/);
  });

  it("shop/redact erases every shopper's data of the store", async () => {
    shopper("one@example.com");
    shopper("two@example.com");
    expect((await deliver("shop/redact", { shop_id: 954889, shop_domain: SHOP })).status).toBe(200);
    for (const email of ["one@example.com", "two@example.com", "asks@example.com"]) expect(rowsMentioning(email)).toEqual([]);
    expect(t.services.db.prepare("SELECT count(*) FROM reviews WHERE store_id = ? AND reviewer_email IS NOT NULL").pluck().get(TEST_STORE_ID)).toBe(0);
  });
});


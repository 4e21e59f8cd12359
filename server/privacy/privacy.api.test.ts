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
import { rewardPlatformFor, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { all, dialect, one, run, sql, value, values } from "../db/database.ts";
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
let shopifyAdmin: ShopifyStandIn;
/** Codes of the shopper's loyalty rewards: one created at the shop, one that failed there. */
const rewardCodes = { created: "", failed: "" };
/** The shopper's referral link (as sender) and the friend discount they got through another sender's link. */
const referral = { senderId: "", friendCode: "" };

const post = (path: string, body: unknown, auth = basic(TEST_STORE_ID, KEY)) =>
  fetch(t.url(path), { method: "POST", headers: { "content-type": "application/json", authorization: auth }, body: JSON.stringify(body) });
const photo = (colour: string) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
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
async function rowsMentioning(needle: string): Promise<string[]> {
  const db = t.services.db;
  // Every table but the full-text indexes (SQLite's FTS5 tables; PostgreSQL's tsvector tables).
  const tables = await values<string>(
    db,
    dialect(db) === "postgres"
      ? sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('review_search', 'survey_responses_fts')`
      : sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'`,
  );
  const hits: string[] = [];
  for (const table of tables) {
    for (const row of await all(db, sql`SELECT * FROM ${sql.id(table)}`)) {
      const text = JSON.stringify(row).toLowerCase();
      if (text.includes(needle.toLowerCase())) hits.push(`${table}: ${text.slice(0, 160)}`);
    }
  }
  return hits;
}

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { productIds: [PRODUCT] });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", KEY);
  await t.services.apiKeys.create(OTHER_STORE_ID, "tests", OTHER_KEY);
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);

  // Loyalty: the shopper signs in with a platform token and enrols (sign-up points).
  const token = await signPlatformToken(SECRET, { platformCustomerId: "erin-1", email: SHOPPER });
  const login = await (
    await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/login`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken: token }) })
  ).json();
  const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
  const activation = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/customer_activation`), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${login.customerToken}` },
    body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }),
  });
  expect(activation.status).toBe(200);
  // Two loyalty rewards (docs/loyalty.md "Rewards at checkout"): one created at the (stand-in) shop, one the shop failed.
  shopifyAdmin = await rewardPlatformFor(t.services, TEST_STORE_ID);
  const loyaltyCustomerId = login.loyaltyCustomer.loyaltyCustomerId as string;
  await t.services.loyalty.adjustPoints(TEST_STORE_ID, loyaltyCustomerId, 600, "Welcome gift");
  const free = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).redemptionRules.find((r) => r.type === "free-shipping")!;
  const redeem = () =>
    fetch(t.url(`/v1/stores/${TEST_STORE_ID}/loyalty/customer/redemptions`), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${login.customerToken}` },
      body: JSON.stringify({ redemptionRuleId: free.redemption_rule_id }),
    });
  const created = await redeem();
  expect(created.status).toBe(201);
  rewardCodes.created = (await created.json()).redemption.reward.code;
  shopifyAdmin.mode = "error";
  expect((await redeem()).status).toBe(503);
  shopifyAdmin.mode = "ok";
  expect(await t.services.platformRewards.runDue(Date.now() + 61_000)).toMatchObject({ failed: 1 }); // the shop has no such code
  rewardCodes.failed = (await values<string>(t.services.db, sql`SELECT code FROM loyalty_rewards WHERE store_id = ${TEST_STORE_ID} AND state = 'failed'`))[0]!;

  // A review with two photos, written through the storefront API (a real review text of the file).
  const r = rows.find((x) => x.body && x.title)!;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ rating: r.rating, title: r.title, body: r.body, displayName: "Erin", email: SHOPPER })) fd.append(k, String(v));
  for (const colour of ["#3b7", "#a35"]) fd.append("media", new Blob([new Uint8Array(await photo(colour))], { type: "image/jpeg" }), "p.jpg");
  const submitted = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/reviews`), { method: "POST", body: fd });
  expect(submitted.status).toBe(201);
  reviewId = (await submitted.json()).review.reviewId;
  mediaIds = (await values(t.services.db, sql`SELECT media_id FROM review_media WHERE review_id = ${reviewId}`)) as string[];
  expect(mediaIds).toHaveLength(2);
  expect(await t.services.loyalty.awardReviewEarnings(TEST_STORE_ID)).toBeGreaterThan(0);

  // Referrals (docs/loyalty.md "Referrals"): the shopper got a friend discount through Sam's link (created on the
  // stand-in shop), and shares a link of their own. Before their first order: the discount is for new customers.
  await t.services.referrals.updateSettings(TEST_STORE_ID, {
    enabled: true,
    friendDiscountType: "percentage-coupon",
    friendDiscountValue: 10,
    friendMinimumOrder: null,
    senderRewardType: "fixed-amount-coupon",
    senderRewardValue: 5,
  });
  const sam = await t.services.referrals.createSender(TEST_STORE_ID, "sam.sender@example.com", "https://chorus.example");
  referral.friendCode = (await t.services.referrals.claimFriend(sam.referralSenderId, SHOPPER)).code;
  expect(shopifyAdmin.discounts.has(referral.friendCode)).toBe(true);
  referral.senderId = (await t.services.referrals.createSender(TEST_STORE_ID, SHOPPER, "https://chorus.example")).referralSenderId;

  // A survey response with the address as its customer and a profile answer (docs/surveys.md "Customer profiles"), and an order.
  const response = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/surveys/${DEMO_CHANNEL_IDS.npsEmail}/responses`), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      customer: { email: SHOPPER },
      answeredQuestions: [
        { id: NPS_SURVEY.questions[0].id, type: "nps", answer: 9 },
        { id: NPS_SURVEY.questions[2].id, type: "profile", answer: { type: "single-value", value: "First Payment" } },
      ],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  expect(await t.services.surveyRewards.profile(TEST_STORE_ID, SHOPPER)).toHaveLength(1);
  await t.services.orders.importOrders(TEST_STORE_ID, [{ orderId: "ERIN-1001", productId: PRODUCT, email: SHOPPER, orderedMs: Date.now() - 86_400_000 }]);
  // A message the store sent them (kept in the outbox: no SMTP server in this test).
  await t.services.mail.enqueue({ storeId: TEST_STORE_ID, kind: "review-request", to: SHOPPER, subject: "How was your order?", html: "<p>How was your order?</p>", text: "How was your order?" });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await shopifyAdmin?.close();
});

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
    expect(data.loyaltyRewards.map((r: { code: string; state: string }) => [r.code, r.state])).toEqual([
      [rewardCodes.created, "confirmed"],
      [rewardCodes.failed, "failed"],
    ]);
    expect(data.orderLines).toHaveLength(1);
    expect(data.referralSenders).toEqual([expect.objectContaining({ referral_sender_id: referral.senderId, email: SHOPPER })]);
    expect(data.referralFriends).toEqual([expect.objectContaining({ code: referral.friendCode, email: SHOPPER, state: "created" })]);
    expect(data.profileAnswers).toEqual([expect.objectContaining({ question_text: NPS_SURVEY.questions[2].text, answer: { type: "single-value", value: "First Payment" } })]);
    for (const id of mediaIds) expect((await sharp(files.get(`media/${id}/full.jpg`)!).metadata()).format).toBe("jpeg");
    expect(files.has("README.txt")).toBe(true);
    const audit = await t.services.privacy.recentRequests(TEST_STORE_ID);
    expect(audit[0]).toMatchObject({
      kind: "export",
      actor: "enterprise-api",
      counts: { reviews: 1, mediaItems: 2, surveyResponses: 1, loyaltyCustomers: 1, loyaltyRewards: 2, orderLines: 1, referralSenders: 1, referralFriends: 1, profileAnswers: 1 },
    });
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
    expect((await rowsMentioning(SHOPPER)).length).toBeGreaterThan(0);
  });

  it("erases: no row mentions the address, photos gone from disk and API, aggregate right, ledger balanced, audited", async () => {
    const before = await aggregate();
    const res = await post("/enterprise/customers/erasure", { email: SHOPPER });
    expect(res.status).toBe(200);
    const { erasure } = await res.json();
    expect(erasure).toMatchObject({
      reviews: 1,
      mediaItems: 2,
      mediaFilesDeleted: 2,
      surveyResponses: 1,
      loyaltyCustomersAnonymised: 1,
      loyaltyRewardsDeleted: 1,
      orderLines: 1,
      referralSendersAnonymised: 1,
      referralFriendsAnonymised: 1,
      profileAnswers: 1,
    });
    // The friend discount stays valid on the shop (its row kept, without the address); the shopper's own link is retired.
    expect(await one(t.services.db, sql`SELECT email, state FROM referral_friends WHERE code = ${referral.friendCode}`)).toEqual({ email: `erased:${referral.friendCode}`, state: "created" });
    expect(shopifyAdmin.discounts.has(referral.friendCode)).toBe(true);
    expect((await fetch(t.url(`/referrals/${referral.senderId}`))).status).toBe(404);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM customer_profile_answers WHERE store_id = ${TEST_STORE_ID}`)).toBe(0);
    // The reward created at the shop stays with the anonymised account (its code is on the ledger); the failed one is gone.
    expect(await all(t.services.db, sql`SELECT code, state, error FROM loyalty_rewards WHERE code IN (${rewardCodes.created}, ${rewardCodes.failed})`)).toEqual([
      { code: rewardCodes.created, state: "confirmed", error: null },
    ]);

    expect(await rowsMentioning(SHOPPER)).toEqual([]);
    expect(await rowsMentioning("erin-1")).toEqual([]); // the platform customer ID went too
    for (const id of mediaIds) expect(existsSync(join(t.services.mediaPath, TEST_STORE_ID, id))).toBe(false);
    expect((await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/reviews/${reviewId}`))).status).not.toBe(200);

    const after = await aggregate();
    expect(after.reviewCount).toBe(before.reviewCount - 1);
    const published = (await one(
      t.services.db,
      sql`SELECT count(*) AS n, sum(rating) AS total FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${PRODUCT} AND status = 'published'`,
    )) as { n: number; total: number };
    expect(after).toMatchObject({ reviewCount: published.n, reviewRatingValuesTotal: published.total });

    const unbalanced = await all(
      t.services.db,
      sql`SELECT c.loyalty_customer_id FROM loyalty_customers c WHERE c.balance != (SELECT COALESCE(SUM(points), 0) FROM loyalty_transactions t WHERE t.loyalty_customer_id = c.loyalty_customer_id)`,
    );
    expect(unbalanced).toEqual([]);
    // The AI content of the product is regenerated without the erased review.
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM ai_jobs WHERE store_id = ${TEST_STORE_ID} AND scope_id = ${PRODUCT}`)).toBeGreaterThan(0);

    const audit = await t.services.privacy.recentRequests(TEST_STORE_ID);
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
        "content-type": "application/json",
        "x-shopify-topic": topic,
        "x-shopify-shop-domain": SHOP,
        "x-shopify-webhook-id": id,
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(raw).digest("base64"),
      },
      body: raw,
    });
  };
  /** A shopper with a question and an order line (what the webhooks must find). */
  const shopper = async (email: string) => {
    await t.services.orders.importOrders(TEST_STORE_ID, [{ orderId: `O-${email}`, productId: PRODUCT, email, orderedMs: Date.now() }]);
    const group = await value<unknown>(t.services.db, sql`SELECT group_id FROM products WHERE store_id = ${TEST_STORE_ID} AND product_id = ${PRODUCT}`);
    await run(
      t.services.db,
      sql`INSERT INTO questions (question_id, store_id, product_id, group_id, body, asker_name, asker_email, status, created_ms) VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${PRODUCT}, ${group}, ${"Does it run small?"}, ${"Sam"}, ${email}, 'published', ${Date.now()})`,
    );
  };

  beforeAll(async () => {
    await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
    await t.services.admin.createUser({ email: "owner@privacy-shop.test", password: "owner password 123", storeIds: [TEST_STORE_ID] });
  });

  it("customers/redact erases the customer's data, once per delivery ID; a forged one changes nothing", async () => {
    await shopper("redact.me@example.com");
    expect((await deliver("customers/redact", { shop_domain: SHOP, customer: { id: 191167, email: "redact.me@example.com" } }, "x", "wrong-secret-0123456789012345")).status).toBe(401);
    expect((await rowsMentioning("redact.me@example.com")).length).toBeGreaterThan(0);
    const id = crypto.randomUUID();
    const res = await deliver("customers/redact", { shop_id: 954889, shop_domain: SHOP, customer: { id: 191167, email: "Redact.Me@example.com", phone: null }, orders_to_redact: [] }, id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outcome: "applied" });
    expect(await rowsMentioning("redact.me@example.com")).toEqual([]);
    expect((await t.services.privacy.recentRequests(TEST_STORE_ID))[0]).toMatchObject({ kind: "erasure", actor: "shopify:customers/redact" });
    expect(await (await deliver("customers/redact", { customer: { email: "redact.me@example.com" } }, id)).json()).toEqual({ outcome: "duplicate" });
  });

  it("customers/data_request e-mails the store's members a link to the shopper's data; audited", async () => {
    await shopper("asks@example.com");
    const res = await deliver("customers/data_request", { shop_domain: SHOP, orders_requested: [], customer: { id: 1, email: "asks@example.com" }, data_request: { id: 9999 } });
    expect(res.status).toBe(200);
    const mail = (await all(t.services.db, sql`SELECT to_address, subject, text FROM mail_outbox WHERE store_id = ${TEST_STORE_ID} AND kind = 'privacy-request'`)) as {
      to_address: string;
      subject: string;
      text: string;
    }[];
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to_address: "owner@privacy-shop.test", subject: "A shopper asked for their data" });
    expect(mail[0].text).toContain(`/admin/stores/${TEST_STORE_ID}/privacy?email=asks%40example.com`);
    expect((await t.services.privacy.recentRequests(TEST_STORE_ID))[0]).toMatchObject({ kind: "data-request", actor: "shopify:customers/data_request", counts: { questions: 1, orderLines: 1 } });
    expect((await rowsMentioning("asks@example.com")).length).toBeGreaterThan(0); // nothing erased
  });

  it("a privacy body without the fields read: 400, nothing done", async () => {
    const res = await deliver("customers/redact", { customer: "nobody" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.description).toMatch(/customer/);
  });

  it("shop/redact erases every shopper's data of the store", async () => {
    await shopper("one@example.com");
    await shopper("two@example.com");
    expect((await deliver("shop/redact", { shop_id: 954889, shop_domain: SHOP })).status).toBe(200);
    for (const email of ["one@example.com", "two@example.com", "asks@example.com"]) expect(await rowsMentioning(email)).toEqual([]);
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM reviews WHERE store_id = ${TEST_STORE_ID} AND reviewer_email IS NOT NULL`)).toBe(0);
  });
});

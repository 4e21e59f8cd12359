/**
 * Referrals end to end over real HTTP (docs/loyalty.md "Referrals"; issue #35 item 2): a sender's link from
 * `POST /referral_senders`, the hosted friend page creating the friend discount on a stand-in Shopify Admin API
 * (test/shopify-admin-stand-in.ts: token, GraphQL body and variables checked), the friend's order as a signed Shopify
 * webhook using the code → the sender rewarded once (points on the ledger, or a coupon on the stand-in), e-mails on a
 * real SMTP server, `referral.*` webhook events delivered to a real receiver; self-referral, a second reward for the
 * same friend, and cancelled or refunded orders give nothing (a cancellation or refund after the award reverses it).
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { postShopifyWebhook } from "../../test/shopify-webhook.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";
import type { ReferralSettings } from "../contract/referrals.ts";
import { all, one, sql } from "../db/database.ts";
import { demoProgram } from "./loyalty.demo.ts";
import { signPlatformToken } from "./tokens.ts";

const SECRET = "referrals-platform-secret-0123456789";
const APP_SECRET = "shpss_referrals_app_secret_0123456789";
const SHOP = "referrals-test.myshopify.com";
const API_KEY = "referrals-api-key-0123456789abcdef";
const S = `/v1/stores/${TEST_STORE_ID}`;
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const PROGRAM: ReferralSettings = {
  enabled: true,
  friendDiscountType: "percentage-coupon",
  friendDiscountValue: 10,
  friendMinimumOrder: 30,
  senderRewardType: "points",
  senderRewardValue: 500,
};

let t: TestServer;
let smtp: TestSmtp;
let shopify: ShopifyStandIn;
let hook: Server;
type ReferralEvent = { referral: Record<string, unknown> & { code?: string; friendCode?: string } };
const received: { eventType: string; data: ReferralEvent }[] = [];
const clock = Date.now();
let seq = 0;

beforeAll(async () => {
  smtp = await startTestSmtp();
  shopify = await startShopifyStandIn({ token: "shpat_referrals_test_0123456789abcdef" });
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(204).end();
    });
  });
  hook.listen(0, "127.0.0.1");
  await once(hook, "listening");
  t = await startTestServer({
    allowLoopbackRequests: true,
    mail: { smtpUrl: smtp.url, sender: "manual" },
    webhooks: { allowInsecure: true, delivery: "manual", now: () => clock },
    publicUrl: "https://chorus.example",
  });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Referral Outfitters", platform: "shopify" });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
  await connectShopifyStandIn(t.services, TEST_STORE_ID, shopify, SHOP);
  const sub = await call("/enterprise/webhook_subscriptions", {
    headers: { authorization: basic },
    body: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, eventTypes: ["referral.friend_rewarded", "referral.sender_rewarded"] },
  });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
});
afterAll(async () => {
  delete process.env.SHOPIFY_ADMIN_API_URL;
  await t?.close();
  await smtp?.close();
  await shopify?.close();
  hook?.close();
});

async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(t.url(path), { method: init.method ?? (init.body !== undefined ? "POST" : "GET"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** The hosted page: GET, or POST the form with `email`. @returns status and HTML. */
async function page(link: string, email?: string) {
  const path = new URL(link).pathname;
  const res =
    email === undefined
      ? await fetch(t.url(path))
      : await fetch(t.url(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email }).toString() });
  return { status: res.status, html: await res.text(), headers: res.headers };
}
const codeIn = (html: string) => /<strong class="code">([A-Z0-9-]+)<\/strong>/.exec(html)?.[1];

/** A new enrolled loyalty member (sign-up points per the demo program). */
async function member(prefix: string) {
  const platformCustomerId = String(8_100_000 + ++seq);
  const email = `${prefix}-${seq}@example.test`;
  const login = await call(`${S}/loyalty/login`, { body: { customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId, email }) } });
  expect(login.status).toBe(200);
  const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
  expect(
    (
      await call(`${S}/loyalty/customer_activation`, {
        headers: { authorization: `Bearer ${login.body.customerToken}` },
        body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version },
      })
    ).status,
  ).toBe(200);
  return { id: login.body.loyaltyCustomer.loyaltyCustomerId as string, platformCustomerId, email, token: login.body.customerToken as string };
}
const balance = async (id: string) => (await t.services.loyaltyData.getCustomer(TEST_STORE_ID, id))!.balance;

async function webhook(topic: string, body: unknown) {
  const res = await postShopifyWebhook(t.url, { shop: SHOP, secret: APP_SECRET, topic, body });
  expect(res.status).toBe(200);
}
let orderSeq = 5_000;
/** A Shopify order from `email` (customer `customerId`, else a new one) using `codes`. */
const order = (email: string, codes: string[], extra: Record<string, unknown> = {}) => {
  const id = ++orderSeq;
  return {
    id,
    name: `#${id}`,
    email,
    created_at: new Date(clock).toISOString(),
    cancelled_at: null,
    fulfillment_status: null,
    currency: "USD",
    subtotal_price: "60.00",
    total_price: "60.00",
    customer: { id: 9_000_000 + id, email },
    discount_codes: codes.map((code) => ({ code, amount: "6.00", type: "percentage" })),
    line_items: [{ id: id * 10, product_id: 1078, variant_id: 107800, title: "Item", price: "60.00", quantity: 1 }],
    fulfillments: [],
    ...extra,
  };
};
const rewardsOf = (code: string) =>
  all<{ state: string; reward_type: string; order_id: string }>(
    t.services.db,
    sql`SELECT state, reward_type, order_id FROM referral_rewards WHERE store_id = ${TEST_STORE_ID} AND friend_code = ${code}`,
  );

/** A sender's link (member) and a friend's code from the hosted page. */
async function referral(prefix: string) {
  const sender = await member(`${prefix}-sender`);
  const link = (await call(`${S}/referral_senders`, { body: { email: sender.email } })).body.shareableLinkUrl as string;
  const friendEmail = `${prefix}-friend-${++seq}@example.test`;
  const claimed = await page(link, friendEmail);
  expect(claimed.status, claimed.html.slice(0, 500)).toBe(200);
  return { sender, link, friendEmail, code: codeIn(claimed.html)! };
}

describe("the referral program", () => {
  it("set by PATCH /enterprise/settings (section referrals), checked as a whole (400 naming the field)", async () => {
    const patch = (body: unknown) => call("/enterprise/settings", { method: "PATCH", headers: { authorization: basic }, body });
    expect((await patch({ referrals: { friendDiscountValue: 150 } })).status).toBe(400); // a percentage over 100
    const bad = await patch({ referrals: { senderRewardType: "cash" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.description).toContain("senderRewardType");
    expect((await patch({ referrals: { friendDiscountType: "fixed-amount-coupon", friendDiscountValue: 5 } })).status).toBeLessThan(300);
    expect((await call("/enterprise/settings", { headers: { authorization: basic } })).body.referrals).toMatchObject({
      enabled: false,
      friendDiscountType: "fixed-amount-coupon",
      friendDiscountValue: 5,
    });
  });

  it("off: no links (404 JSON), the public program says so; on: set in one place, read back", async () => {
    expect((await call(`${S}/referral_program`)).body).toMatchObject({ referralProgram: { enabled: false } });
    const off = await call(`${S}/referral_senders`, { body: { email: "someone@example.test" } });
    expect(off.status).toBe(404);
    expect(off.body.error).toMatchObject({ code: "referral_program_not_found", description: expect.any(String) });
    await t.services.referrals.updateSettings(TEST_STORE_ID, PROGRAM);
    expect((await call(`${S}/referral_program`)).body).toEqual({
      referralProgram: { enabled: true, friendDiscount: { type: "percentage-coupon", value: 10, minimumOrderAmount: 30 }, senderReward: { type: "points", value: 500 } },
    });
  });
});

describe("POST /referral_senders (Okendo's shape)", () => {
  it("answers { referralSenderId, shareableLinkUrl }, the same for the same sender; bad input is 400 JSON", async () => {
    const a = await call(`${S}/referral_senders`, { body: { email: "Sender.One@Example.test" }, headers: { "okendo-api-version": "2025-02-01" } });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toEqual({ referralSenderId: expect.any(String), shareableLinkUrl: `https://chorus.example/referrals/${a.body.referralSenderId}` });
    const again = await call(`${S}/referral_senders`, { body: { email: "sender.one@example.test" } });
    expect(again.body).toEqual(a.body);
    for (const body of [{}, { email: "not an address" }, { email: 42 }]) {
      const r = await call(`${S}/referral_senders`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.description).toEqual(expect.any(String));
    }
    expect((await call(`${S}/referral_senders`, { body: "{" as unknown as object, headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call("/v1/stores/00000000-0000-4000-8000-000000000000/referral_senders", { body: { email: "a@example.test" } })).status).toBe(404);
  });

  it("with a loyalty customer token the e-mail may be left out: the customer's own address is used", async () => {
    const m = await member("bearer");
    const byToken = await call(`${S}/referral_senders`, { body: {}, headers: { authorization: `Bearer ${m.token}` } });
    expect(byToken.status, JSON.stringify(byToken.body)).toBe(200);
    expect((await call(`${S}/referral_senders`, { body: { email: m.email } })).body).toEqual(byToken.body);
  });

  it("is limited per client address (429 with Retry-After over the limit)", async () => {
    t.services.referralLimiter.configure({ max: 2, windowMs: 3_600_000 });
    try {
      await t.services.referralLimiter.reset();
      expect((await call(`${S}/referral_senders`, { body: { email: "limit-1@example.test" } })).status).toBe(200);
      expect((await call(`${S}/referral_senders`, { body: { email: "limit-2@example.test" } })).status).toBe(200);
      const over = await call(`${S}/referral_senders`, { body: { email: "limit-3@example.test" } });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      t.services.referralLimiter.configure({ max: 1000, windowMs: 3_600_000 });
      await t.services.referralLimiter.reset();
    }
  });
});

describe("the hosted friend page", () => {
  it("shows the store and the offer; the friend's e-mail gets a discount created on Shopify first, mailed; self-referral and a second claim are refused in place", async () => {
    const sender = await member("page-sender");
    const link = (await call(`${S}/referral_senders`, { body: { email: sender.email } })).body.shareableLinkUrl as string;
    const shown = await page(link);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(shown.html).toContain("Referral Outfitters");
    expect(shown.html).toContain("10% off your first order");

    const own = await page(link, sender.email.toUpperCase());
    expect(own.status).toBe(400);
    expect(own.html).toContain("This is your own referral link");
    const bad = await page(link, "nope");
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Please enter your e-mail address");

    const claimed = await page(link, "page-friend@example.test");
    expect(claimed.status).toBe(200);
    const code = codeIn(claimed.html)!;
    expect(code).toMatch(/^CHORUS-/);
    expect(claimed.html).toContain(`https://${SHOP}/discount/${code}`);
    expect(shopify.discounts.get(code)).toMatchObject({
      mutation: "discountCodeBasicCreate",
      input: { code, usageLimit: 1, customerSelection: { all: true }, customerGets: { value: { percentage: 0.1 } }, minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "30.00" } } },
    });
    await t.services.mailSender.runOnce();
    const mail = await smtp.waitFor((m) => m.to.includes("page-friend@example.test"));
    expect(mail.subject).toBe("Your 10% off code for Referral Outfitters");
    expect(mail.text).toContain(code);

    const second = await page(link, "page-friend@example.test");
    expect(second.status).toBe(409);
    expect(second.html).toContain("already has a friend discount");
    expect((await page("https://chorus.example/referrals/nope")).status).toBe(404);
  });

  it("a platform failure shows a clear 'try again' and stores nothing; the retry works", async () => {
    const sender = await member("fail-sender");
    const link = (await call(`${S}/referral_senders`, { body: { email: sender.email } })).body.shareableLinkUrl as string;
    shopify.mode = "error";
    try {
      const failed = await page(link, "fail-friend@example.test");
      expect(failed.status).toBe(503);
      expect(failed.headers.get("retry-after")).toBe("30");
      expect(failed.html).toContain("Please try again in a moment");
      expect(failed.html).toContain('value="fail-friend@example.test"');
    } finally {
      shopify.mode = "ok";
    }
    expect(await one(t.services.db, sql`SELECT code FROM referral_friends WHERE store_id = ${TEST_STORE_ID} AND email = 'fail-friend@example.test'`)).toBeUndefined();
    expect(codeIn((await page(link, "fail-friend@example.test")).html)).toMatch(/^CHORUS-/);
  });
});

describe("the friend's first order rewards the sender once", () => {
  it("points as an earning transaction, once (the webhook again rewards nothing more); mails and webhook events for both rewards", async () => {
    const { sender, friendEmail, code } = await referral("once");
    const before = await balance(sender.id);
    const o = order(friendEmail, [code.toLowerCase()]);
    await webhook("orders/create", o);
    expect(await balance(sender.id)).toBe(before + 500);
    await webhook("orders/create", o); // a new delivery of the same order
    await webhook("orders/fulfilled", { ...o, fulfillment_status: "fulfilled" });
    expect(await balance(sender.id)).toBe(before + 500);
    expect(await rewardsOf(code)).toEqual([{ state: "awarded", reward_type: "points", order_id: String(o.id) }]);
    expect((await t.services.loyalty.checkLedger(TEST_STORE_ID, sender.id)).ok).toBe(true);
    const earned = await one<{ points: number; award_key: string }>(
      t.services.db,
      sql`SELECT points, award_key FROM loyalty_transactions WHERE store_id = ${TEST_STORE_ID} AND loyalty_customer_id = ${sender.id} AND award_key = ${`referral:${code}`}`,
    );
    expect(earned).toEqual({ points: 500, award_key: `referral:${code}` });
    // A second order by the same friend with the same code: nothing more.
    await webhook("orders/create", order(friendEmail, [code]));
    expect(await balance(sender.id)).toBe(before + 500);

    await t.services.mailSender.runOnce();
    const mail = await smtp.waitFor((m) => m.to.includes(sender.email));
    expect(mail.subject).toBe("You earned 500 points at Referral Outfitters");
    await t.services.webhookDelivery.runDue(clock);
    await t.services.webhookDelivery.runDue(clock);
    expect(received.find((e) => e.eventType === "referral.friend_rewarded" && e.data.referral.code === code)?.data.referral).toMatchObject({
      friendEmail,
      platform: "shopify",
      discount: { type: "percentage-coupon", value: 10 },
    });
    expect(received.filter((e) => e.eventType === "referral.sender_rewarded" && e.data.referral.friendCode === code).map((e) => e.data.referral)).toEqual([
      expect.objectContaining({ senderEmail: sender.email, orderId: String(o.id), reward: expect.objectContaining({ type: "points", value: 500, loyaltyCustomerId: sender.id }) }),
    ]);
  });

  it("self-referral is refused: an order from the sender (own platform customer, or own e-mail) using the friend code gives no referral reward", async () => {
    const { sender, code } = await referral("self");
    await webhook("orders/create", order(`other-${seq}@example.test`, [code], { customer: { id: Number(sender.platformCustomerId), email: sender.email } }));
    await webhook("orders/create", order(sender.email, [code]));
    expect(await rewardsOf(code)).toEqual([]);
    expect(await one(t.services.db, sql`SELECT 1 AS one FROM loyalty_transactions WHERE store_id = ${TEST_STORE_ID} AND award_key = ${`referral:${code}`}`)).toBeUndefined();
  });

  it("a cancelled order gives nothing; a refund or cancellation after the award reverses it", async () => {
    const cancelled = await referral("cancelled");
    let before = await balance(cancelled.sender.id);
    await webhook("orders/cancelled", order(cancelled.friendEmail, [cancelled.code], { cancelled_at: new Date(clock).toISOString() }));
    expect(await balance(cancelled.sender.id)).toBe(before);
    expect(await rewardsOf(cancelled.code)).toEqual([]);

    const refunded = await referral("refunded");
    before = await balance(refunded.sender.id);
    const o = order(refunded.friendEmail, [refunded.code]);
    await webhook("orders/create", o);
    expect(await balance(refunded.sender.id)).toBe(before + 500);
    await webhook("refunds/create", { id: 77_000 + o.id, order_id: o.id, refund_line_items: [{ subtotal: "60.00" }], transactions: [] });
    expect(await balance(refunded.sender.id)).toBe(before);
    expect((await rewardsOf(refunded.code))[0]?.state).toBe("reversed");
    expect((await t.services.loyalty.checkLedger(TEST_STORE_ID, refunded.sender.id)).ok).toBe(true);

    const later = await referral("later-cancel");
    before = await balance(later.sender.id);
    const o2 = order(later.friendEmail, [later.code]);
    await webhook("orders/create", o2);
    await webhook("orders/cancelled", { ...o2, cancelled_at: new Date(clock).toISOString() });
    await webhook("orders/cancelled", { ...o2, cancelled_at: new Date(clock).toISOString() });
    expect(await balance(later.sender.id)).toBe(before);
    expect((await rewardsOf(later.code))[0]?.state).toBe("reversed");
  });

  it("a coupon reward is created on Shopify for the sender (limited to the sender's customer) after the order's commit", async () => {
    await t.services.referrals.updateSettings(TEST_STORE_ID, { ...PROGRAM, senderRewardType: "fixed-amount-coupon", senderRewardValue: 15 });
    try {
      const { sender, friendEmail, code } = await referral("coupon");
      const before = await balance(sender.id);
      await webhook("orders/create", order(friendEmail, [code]));
      const reward = (await one<{ state: string; coupon_code: string }>(
        t.services.db,
        sql`SELECT state, coupon_code FROM referral_rewards WHERE store_id = ${TEST_STORE_ID} AND friend_code = ${code}`,
      ))!;
      expect(reward.state).toBe("awarded");
      expect(shopify.discounts.get(reward.coupon_code)).toMatchObject({
        input: { usageLimit: 1, customerSelection: { customers: { add: [`gid://shopify/Customer/${sender.platformCustomerId}`] } }, customerGets: { value: { discountAmount: { amount: "15.00" } } } },
      });
      expect(await balance(sender.id)).toBe(before);
      await t.services.mailSender.runOnce();
      expect((await smtp.waitFor((m) => m.to.includes(sender.email))).text).toContain(reward.coupon_code);
    } finally {
      await t.services.referrals.updateSettings(TEST_STORE_ID, PROGRAM);
    }
  });
});

/**
 * The loyalty lifecycle over real HTTP (docs/loyalty.md "Birthdays", "Expiry", "Pending points and refunds",
 * "Enterprise loyalty API"): birthdays set by the shopper and awarded once a year on the store's local day, the expiry
 * reminder on a real SMTP server and the expiry transaction, pending order points and Shopify refunds and cancellations
 * moving balances, lifetime points and VIP tiers, and the enterprise customer operations with bad input. The clock is
 * moved by passing `nowMs` to the job and `loyalty.now` to the services (no sleeps). Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";
import { all, sql } from "../db/database.ts";
import { createServices } from "../services.ts";
import { addMonths, BIRTHDAY_CHANGE_MS, EXPIRY_REMINDER_MS } from "./lifecycle.ts";
import { demoProgram } from "./loyalty.demo.ts";
import { signPlatformToken } from "./tokens.ts";
import { postShopifyWebhook } from "../../test/shopify-webhook.ts";

const SECRET = "lifecycle-platform-secret-0123456789";
const API_KEY = "lifecycle-api-key-0123456789abcdef";
const APP_SECRET = "shpss_lifecycle_app_secret_0123456789";
const SHOP = "lifecycle-test.myshopify.com";
const A = `/v1/stores/${TEST_STORE_ID}/loyalty`;
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
const DAY = 86_400_000;

let t: TestServer;
let smtp: TestSmtp;
let shopifyAdmin: ShopifyStandIn;
let clock = Date.now();
let seq = 0;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestServer({ mail: { smtpUrl: smtp.url, sender: "manual" }, loyalty: { now: () => clock } });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Lifecycle store", platform: "shopify" });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: SHOP, appSecret: APP_SECRET });
  // Redemptions create their discounts on the shop first (docs/loyalty.md "Rewards at checkout"): a stand-in Shopify.
  shopifyAdmin = await startShopifyStandIn({ token: "shpat_test_lifecycle_0123456789abcdef" });
  await connectShopifyStandIn(t.services, TEST_STORE_ID, shopifyAdmin, SHOP);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await shopifyAdmin.close();
});

async function call(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(t.url(path), {
    method: init.method ?? (init.body !== undefined ? "POST" : "GET"),
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const enterprise = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  call(`/enterprise/loyalty${path}`, { ...init, headers: { authorization: basic, ...init.headers } });

/** A new enrolled shopper (sign-up: 100 points, Bronze). */
async function member(prefix = "life") {
  const platformCustomerId = String(7_000_000 + ++seq);
  const email = `${prefix}-${seq}@example.test`;
  const login = await call(`${A}/login`, { body: { customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId, email }) } });
  expect(login.status).toBe(200);
  const version = (await t.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
  expect((await call(`${A}/customer_activation`, { token: login.body.customerToken, body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version } })).status).toBe(200);
  return { token: login.body.customerToken as string, id: login.body.loyaltyCustomer.loyaltyCustomerId as string, platformCustomerId, email };
}
const row = async (id: string) => (await t.services.loyaltyData.getCustomer(TEST_STORE_ID, id))!;
const tierName = async (id: string) => (await enterprise(`/customers/${id}`)).body.loyaltyCustomer.vipTier?.name ?? null;
const ledgerOk = async (id: string) => expect((await t.services.loyalty.checkLedger(TEST_STORE_ID, id)).ok).toBe(true);
const awards = async (id: string, like: string) =>
  (await all<{ award_key: string }>(t.services.db, sql`SELECT award_key FROM loyalty_transactions WHERE store_id = ${TEST_STORE_ID} AND loyalty_customer_id = ${id} AND award_key LIKE ${like}`)).map(
    (r) => r.award_key,
  );

async function shopify(topic: string, body: unknown) {
  const res = await postShopifyWebhook(t.url, { shop: SHOP, secret: APP_SECRET, topic, body });
  expect(res.status).toBe(200);
}
const order = (id: number, customerId: string, subtotal: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `#${id}`,
  email: "buyer@example.test",
  created_at: new Date().toISOString(),
  cancelled_at: null,
  fulfillment_status: null,
  currency: "USD",
  subtotal_price: subtotal.toFixed(2),
  total_price: subtotal.toFixed(2),
  customer: { id: Number(customerId), email: "buyer@example.test" },
  line_items: [{ id: id * 10, product_id: 1078, variant_id: 107800, title: "Item", price: subtotal.toFixed(2), quantity: 1 }],
  fulfillments: [],
  ...extra,
});
const refund = (id: number, orderId: number, amount: number) => ({ id, order_id: orderId, refund_line_items: [{ subtotal: amount.toFixed(2) }], transactions: [] });

describe("birthdays (docs/loyalty.md, Birthdays)", () => {
  it("PATCH /loyalty/customer sets the birthday; bad input is 400 JSON, no token 401; another day only a year later (409 before)", async () => {
    const me = await member("bday-set");
    for (const body of [{ birthday: { month: 13, day: 1 } }, { birthday: { month: 4, day: 31 } }, { birthday: { month: 2 } }, {}, { birthday: { month: 1, day: 1 }, year: 1990 }]) {
      const r = await call(`${A}/customer`, { method: "PATCH", token: me.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.description).toEqual(expect.any(String));
    }
    expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call(`${A}/customer`, { method: "PATCH", body: { birthday: { month: 3, day: 15 } } })).status).toBe(401);
    const set = await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 3, day: 15 } } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      loyaltyCustomer: { loyaltyCustomerId: me.id, status: "enrolled" },
      birthday: { month: 3, day: 15, changeableFrom: new Date(clock + BIRTHDAY_CHANGE_MS).toISOString() },
    });
    expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 3, day: 15 } } })).status).toBe(200); // same day: no change
    const early = await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 3, day: 16 } } });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("birthday_change_too_soon");
    const saved = clock;
    clock += BIRTHDAY_CHANGE_MS; // a year later
    try {
      expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 3, day: 16 } } })).body.birthday).toMatchObject({ month: 3, day: 16 });
    } finally {
      clock = saved;
    }
    expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.birthday).toEqual({ month: 3, day: 16 });
  });

  it("awards the birthday rule once a year, on the local day in the store's time zone", async () => {
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { timeZone: "Pacific/Auckland" });
    const me = await member("bday-award");
    expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 3, day: 15 } } })).status).toBe(200);
    const before = (await row(me.id)).balance;
    // 2027-03-14 10:00 UTC is 23:00 on the 14th in Auckland (UTC+13): not yet.
    await t.services.loyaltyLifecycle.runDue(Date.parse("2027-03-14T10:00:00Z"));
    expect((await row(me.id)).balance).toBe(before);
    // 2027-03-14 12:00 UTC is 01:00 on the 15th in Auckland: awarded (150 points, the demo rule), once.
    expect((await t.services.loyaltyLifecycle.runDue(Date.parse("2027-03-14T12:00:00Z"))).birthdays).toBeGreaterThanOrEqual(1);
    expect((await row(me.id)).balance).toBe(before + 150);
    await t.services.loyaltyLifecycle.runDue(Date.parse("2027-03-14T20:00:00Z"));
    await t.services.loyaltyLifecycle.runDue(Date.parse("2027-03-15T05:00:00Z"));
    expect((await row(me.id)).balance).toBe(before + 150);
    // The next year: again, once.
    await t.services.loyaltyLifecycle.runDue(Date.parse("2028-03-14T12:00:00Z"));
    await t.services.loyaltyLifecycle.runDue(Date.parse("2028-03-14T13:00:00Z"));
    expect((await row(me.id)).balance).toBe(before + 300);
    expect(await awards(me.id, "birthday:%")).toEqual(["birthday:2027", "birthday:2028"]);
    const tx = (await call(`${A}/customer/transactions`, { token: me.token })).body.transactions;
    expect(tx[0]).toMatchObject({ type: "earning", points: 150, description: "Happy birthday" });
    await ledgerOk(me.id);
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { timeZone: "UTC" });
  });

  it("birthdays, confirmations and expiries are exactly-once with runs on two nodes at the same time", async () => {
    const me = await member("bday-race");
    expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 7, day: 1 } } })).status).toBe(200);
    const other = await createServices({ databasePath: t.databasePath, mediaPath: `${t.dir}/media` });
    try {
      const at = Date.parse("2029-07-01T12:00:00Z");
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : t.services).loyaltyLifecycle.runDue(at)));
      expect(await awards(me.id, "birthday:%")).toEqual(["birthday:2029"]);
      await ledgerOk(me.id);

      // Pending order points confirmed once, and a balance expired once, with eight runs at once on two nodes.
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 14, pointsExpiryMonths: 6 });
      try {
        const buyer = await member("race-pending");
        await shopify("orders/create", order(95001, buyer.platformCustomerId, 120));
        const counts = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : t.services).loyaltyLifecycle.runDue(Date.now() + 15 * DAY)));
        expect(counts.reduce((n, c) => n + c.confirmed, 0)).toBe(1);
        expect((await row(buyer.id)).balance).toBe(220);
        const later = Date.now() + 15 * DAY + 200 * DAY; // past six months after the confirmation
        const expired = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : t.services).loyaltyLifecycle.runDue(later)));
        expect(expired.reduce((n, c) => n + c.expired, 0)).toBeGreaterThanOrEqual(1);
        expect(await awards(buyer.id, "expiry:%")).toHaveLength(1);
        expect((await row(buyer.id)).balance).toBe(0);
        await ledgerOk(buyer.id);
      } finally {
        await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 0, pointsExpiryMonths: null });
      }
    } finally {
      await other.close();
    }
  });
});

describe("the member panel's overview (docs/loyalty.md, The member panel)", () => {
  it("GET /loyalty/customer/overview: balance, pending points, expiry date, tier progress, birthday and each earning rule's state", async () => {
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 14, pointsExpiryMonths: 12 });
    try {
      const me = await member("overview");
      expect((await call(`${A}/customer/overview`)).status).toBe(401);
      await shopify("orders/create", order(93001, me.platformCustomerId, 120)); // 120 points pending
      let o = (await call(`${A}/customer/overview`, { token: me.token })).body.overview;
      const signUp = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).earningRules.find((r) => r.type === "sign-up")!;
      const birthdayRule = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).earningRules.find((r) => r.type === "birthday")!;
      const last = (await t.services.loyalty.transactions(TEST_STORE_ID, me.id, { limit: 1 })).transactions[0]!;
      expect(o).toMatchObject({
        points: { balance: 100, pending: 120, lifetime: 100 },
        pointsExpireAt: new Date(addMonths(Date.parse(last.dateCreated), 12)).toISOString(),
        vipTier: { name: "Bronze", pointsThreshold: 0 },
        nextVipTier: { name: "Silver", pointsThreshold: 500, pointsNeeded: 400 },
        birthday: null,
      });
      const state = (id: string) => o.earningRules.find((r: { earningRuleId: string }) => r.earningRuleId === id);
      expect(state(signUp.earning_rule_id)).toEqual({ earningRuleId: signUp.earning_rule_id, frequency: "once", state: "done" });
      expect(state(birthdayRule.earning_rule_id)).toMatchObject({ frequency: "yearly", state: "available" });
      expect(o.earningRules.map((r: { frequency: string }) => r.frequency).sort()).toEqual(["once", "per-order", "per-review", "per-review", "yearly"]);
      // The birthday is today (the service's clock, UTC): set, then awarded by the job: done for this year.
      const today = new Date(clock);
      expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: today.getUTCMonth() + 1, day: today.getUTCDate() } } })).status).toBe(200);
      await t.services.loyaltyLifecycle.runDue(clock);
      o = (await call(`${A}/customer/overview`, { token: me.token })).body.overview;
      expect(o.birthday).toEqual({ month: today.getUTCMonth() + 1, day: today.getUTCDate(), changeableFrom: new Date(clock + BIRTHDAY_CHANGE_MS).toISOString() });
      expect(state(birthdayRule.earning_rule_id)).toMatchObject({ state: "done" });
      expect(o.points).toMatchObject({ balance: 250, lifetime: 250 });
      expect(o.nextVipTier).toMatchObject({ name: "Silver", pointsNeeded: 250 });
      // Blocked: nothing is available.
      await enterprise(`/customers/${me.id}`, { method: "PATCH", body: { blocked: true } });
      o = (await call(`${A}/customer/overview`, { token: me.token })).body.overview;
      expect(new Set(o.earningRules.map((r: { state: string }) => r.state))).toEqual(new Set(["unavailable"]));
      expect(o.vipTier).toBeNull();
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 0, pointsExpiryMonths: null });
    }
  });
});

describe("expiry (docs/loyalty.md, Expiry)", () => {
  it("sends a reminder 30 days before (real SMTP), then writes one expiry transaction; the ledger stays balanced", async () => {
    const me = await member("expiry");
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { pointsExpiryMonths: 12 });
    try {
      const last = (await row(me.id)).enrolled_ms!;
      const lastActivity = Math.max(
        ...(await all<{ created_ms: number }>(t.services.db, sql`SELECT created_ms FROM loyalty_transactions WHERE loyalty_customer_id = ${me.id}`)).map((r) => Number(r.created_ms)),
      );
      expect(lastActivity).toBeGreaterThanOrEqual(last);
      const expires = addMonths(lastActivity, 12);
      expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.pointsExpireAt).toBe(new Date(expires).toISOString());
      await t.services.loyaltyLifecycle.runDue(expires - EXPIRY_REMINDER_MS - DAY);
      expect(smtp.messages.filter((m) => m.to.includes(me.email))).toHaveLength(0);
      await t.services.loyaltyLifecycle.runDue(expires - EXPIRY_REMINDER_MS + DAY);
      await t.services.loyaltyLifecycle.runDue(expires - EXPIRY_REMINDER_MS + 2 * DAY); // once per period of inactivity
      await t.services.mailSender.runOnce();
      const mail = await smtp.waitFor((m) => m.to.includes(me.email));
      expect(mail.subject).toBe(`Your 100 points at Lifecycle store expire on ${new Date(expires).toISOString().slice(0, 10)}`);
      expect(mail.text).toContain("unless you earn or redeem points before then");
      expect((await row(me.id)).balance).toBe(100);

      await t.services.loyaltyLifecycle.runDue(expires + 1000);
      await t.services.loyaltyLifecycle.runDue(expires + 2000);
      expect((await row(me.id)).balance).toBe(0);
      const tx = (await call(`${A}/customer/transactions`, { token: me.token })).body.transactions;
      expect(tx[0]).toMatchObject({ type: "expiry", points: -100, balanceAfter: 0, description: "Points expired after 12 months without activity" });
      expect(tx.filter((x: { type: string }) => x.type === "expiry")).toHaveLength(1);
      await ledgerOk(me.id);
      expect((await row(me.id)).lifetime_points).toBe(100); // expiry does not lower lifetime points
      expect(smtp.messages.filter((m) => m.to.includes(me.email))).toHaveLength(1);
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { pointsExpiryMonths: null });
    }
  });

  it("refuses settings out of range", async () => {
    const { lifecycleSettingsPatch } = await import("../contract/loyalty-lifecycle.ts");
    for (const patch of [{ pointsExpiryMonths: 5 }, { pointsExpiryMonths: 37 }, { returnWindowDays: 61 }, { returnWindowDays: -1 }, { timeZone: "Mars/Base" }]) {
      expect(lifecycleSettingsPatch.safeParse(patch).success, JSON.stringify(patch)).toBe(false);
    }
  });
});

describe("pending points, refunds and cancellations (docs/loyalty.md, Pending points and refunds)", () => {
  it("holds order points for the return window, lowers them for a refund meanwhile, confirms after it, then reverses a later refund in proportion", async () => {
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 14 });
    try {
      const me = await member("pending");
      await shopify("orders/create", order(91001, me.platformCustomerId, 200));
      let c = (await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer;
      expect(c.points).toEqual({ balance: 100, pending: 200, lifetime: 100 });
      await shopify("refunds/create", refund(81001, 91001, 50));
      expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.points).toEqual({ balance: 100, pending: 150, lifetime: 100 });
      expect((await t.services.loyaltyLifecycle.runDue(Date.now() + 13 * DAY)).confirmed).toBe(0);
      expect((await t.services.loyaltyLifecycle.runDue(Date.now() + 15 * DAY)).confirmed).toBe(1);
      expect((await t.services.loyaltyLifecycle.runDue(Date.now() + 16 * DAY)).confirmed).toBe(0);
      c = (await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer;
      expect(c.points).toEqual({ balance: 250, pending: 0, lifetime: 250 });
      // A refund of 60 of the 200 after confirmation: 60 points back (in proportion to the order's 200), once.
      await shopify("refunds/create", refund(81002, 91001, 60));
      await shopify("refunds/create", refund(81002, 91001, 60));
      c = (await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer;
      expect(c.points).toEqual({ balance: 190, pending: 0, lifetime: 190 });
      // Cancellation: what is left of the order (150 - 60 = 90) is reversed; lifetime points fall too.
      await shopify("orders/cancelled", order(91001, me.platformCustomerId, 200, { cancelled_at: new Date().toISOString() }));
      expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.points).toEqual({ balance: 100, pending: 0, lifetime: 100 });
      await ledgerOk(me.id);
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 0 });
    }
  });

  it("a cancelled order still pending never gives its points", async () => {
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 30 });
    try {
      const me = await member("pending-cancel");
      await shopify("orders/create", order(91002, me.platformCustomerId, 80));
      expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.points.pending).toBe(80);
      await shopify("orders/cancelled", order(91002, me.platformCustomerId, 80, { cancelled_at: new Date().toISOString() }));
      await t.services.loyaltyLifecycle.runDue(Date.now() + 31 * DAY);
      expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.points).toEqual({ balance: 100, pending: 0, lifetime: 100 });
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 0 });
    }
  });

  it("a cancellation lowers lifetime points; the VIP tier is kept unless the store sets re-qualification", async () => {
    const kept = await member("tier-kept");
    await shopify("orders/create", order(91003, kept.platformCustomerId, 450)); // 100 + 450 = 550: Silver
    expect(await tierName(kept.id)).toBe("Silver");
    await shopify("orders/cancelled", order(91003, kept.platformCustomerId, 450, { cancelled_at: new Date().toISOString() }));
    expect((await row(kept.id)).lifetime_points).toBe(100);
    expect(await tierName(kept.id)).toBe("Silver");

    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { tierRequalification: true });
    try {
      const lost = await member("tier-lost");
      await shopify("orders/create", order(91004, lost.platformCustomerId, 450));
      expect(await tierName(lost.id)).toBe("Silver");
      await shopify("refunds/create", refund(81004, 91004, 225)); // half: 225 points back, lifetime 325
      expect((await row(lost.id)).lifetime_points).toBe(325);
      expect(await tierName(lost.id)).toBe("Bronze");
      await ledgerOk(lost.id);
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { tierRequalification: false });
    }
  });
});

describe("the points history's kinds (docs/loyalty.md, Points history)", () => {
  it("each transaction has its machine kind and the values its text needs: sign-up, order, refund, adjustment, redemption, cancellation, birthday, expiry", async () => {
    await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 14, timeZone: "UTC" });
    try {
      const me = await member("kinds");
      await shopify("orders/create", order(97001, me.platformCustomerId, 200)); // pending: no transaction yet
      expect((await call(`${A}/customer/transactions`, { token: me.token })).body.transactions).toHaveLength(1);
      expect((await t.services.loyaltyLifecycle.runDue(Date.now() + 15 * DAY)).confirmed).toBeGreaterThanOrEqual(1);
      await shopify("refunds/create", refund(87001, 97001, 60)); // 60 of 200: 60 points back
      expect((await enterprise(`/customers/${me.id}/adjustments`, { body: { points: 100, reason: "Sorry for the late parcel" } })).status).toBe(201);
      const free = (await call(`${A}/redemption_rules`)).body.redemptionRules.find((r: { name: string }) => r.name === "Free shipping");
      expect((await call(`${A}/customer/redemptions`, { token: me.token, body: { redemptionRuleId: free.redemptionRuleId } })).status).toBe(201);
      // 40 points left: the cancellation reverses 40 of the 140 the order still counted.
      await shopify("orders/cancelled", order(97001, me.platformCustomerId, 200, { cancelled_at: new Date().toISOString() }));
      expect((await call(`${A}/customer`, { method: "PATCH", token: me.token, body: { birthday: { month: 6, day: 1 } } })).status).toBe(200);
      await t.services.loyaltyLifecycle.runDue(Date.parse("2029-06-01T12:00:00Z"));
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { pointsExpiryMonths: 12 });
      await t.services.loyaltyLifecycle.runDue(addMonths(Date.now(), 13));

      const tx = (await call(`${A}/customer/transactions`, { token: me.token })).body.transactions as { kind: string; points: number; details?: unknown; description: string }[];
      expect(tx.map(({ kind, points, details }) => ({ kind, points, details }))).toEqual([
        { kind: "expiry", points: -150, details: { months: 12 } },
        { kind: "birthday", points: 150, details: undefined },
        { kind: "order-cancelled", points: -40, details: { order: "#97001", pointsDue: 140 } },
        { kind: "redemption", points: -300, details: { reward: "Free shipping" } },
        { kind: "adjustment", points: 100, details: undefined },
        { kind: "order-refunded", points: -60, details: { order: "#97001" } },
        { kind: "order", points: 200, details: { order: "#97001" } },
        { kind: "sign-up", points: 100, details: undefined },
      ]);
      // The English description stays (compatibility); an adjustment's is the store's reason, as written.
      expect(tx[4]!.description).toBe("Sorry for the late parcel");
      expect(tx[3]!.description).toBe("Redeemed: Free shipping");
      // The enterprise list shows the same kinds.
      expect((await enterprise(`/customers/${me.id}/transactions?limit=2`)).body.transactions.map((x: { kind: string }) => x.kind)).toEqual(["expiry", "birthday"]);
      await ledgerOk(me.id);
    } finally {
      await t.services.loyaltyLifecycle.updateSettings(TEST_STORE_ID, { returnWindowDays: 0, pointsExpiryMonths: null });
    }
  });
});

describe("enterprise loyalty API (docs/loyalty.md, Enterprise loyalty API)", () => {
  it("looks a customer up by e-mail, platform customer ID or ID; bad input is 400 JSON; unknown 404; no key 401", async () => {
    const me = await member("ent-lookup");
    const byEmail = await enterprise(`/customers?email=${encodeURIComponent(me.email.toUpperCase())}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.loyaltyCustomer).toMatchObject({
      loyaltyCustomerId: me.id,
      platformCustomerId: me.platformCustomerId,
      email: me.email,
      status: "enrolled",
      points: { balance: 100, pending: 0, lifetime: 100 },
      vipTier: { name: "Bronze" },
      minimumVipTier: null,
      pointsExpireAt: null,
    });
    expect((await enterprise(`/customers?platformCustomerId=${me.platformCustomerId}`)).body.loyaltyCustomer.loyaltyCustomerId).toBe(me.id);
    expect((await enterprise(`/customers/${me.id}`)).body.loyaltyCustomer.loyaltyCustomerId).toBe(me.id);
    for (const q of ["", `?email=${me.email}&platformCustomerId=1`, "?email=not-an-address"]) {
      const r = await enterprise(`/customers${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.description).toEqual(expect.any(String));
    }
    expect((await enterprise("/customers?email=nobody@example.test")).status).toBe(404);
    expect((await enterprise("/customers/no-such-customer")).body.error.code).toBe("loyalty_customer_not_found");
    expect((await call(`/enterprise/loyalty/customers/${me.id}`)).status).toBe(401);
  });

  it("adjusts points with a reason (never below zero), lists transactions paged, blocks and unblocks, sets a minimum tier, lists issued rewards", async () => {
    const me = await member("ent-ops");
    const add = await enterprise(`/customers/${me.id}/adjustments`, { body: { points: 250, reason: "Sorry for the late parcel" } });
    expect(add.status).toBe(201);
    expect(add.body.transaction).toMatchObject({ type: "adjustment", points: 250, balanceAfter: 350, description: "Sorry for the late parcel" });
    expect(add.body.loyaltyCustomer.points.balance).toBe(350);
    const tooMuch = await enterprise(`/customers/${me.id}/adjustments`, { body: { points: -351, reason: "Too much" } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe("insufficient_points");
    for (const body of [{ points: 0, reason: "x" }, { points: 1.5, reason: "x" }, { points: 5 }, { points: 5, reason: "" }, { points: "5", reason: "x" }]) {
      const r = await enterprise(`/customers/${me.id}/adjustments`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.description).toEqual(expect.any(String));
    }
    expect((await enterprise(`/customers/${me.id}/adjustments`, { body: "points=5", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await enterprise(`/customers/nobody/adjustments`, { body: { points: 5, reason: "x" } })).status).toBe(404);

    const page1 = await enterprise(`/customers/${me.id}/transactions?limit=1`);
    expect(page1.body.transactions.map((x: { points: number }) => x.points)).toEqual([250]);
    const page2 = await enterprise(`/customers/${me.id}/transactions?limit=1&lastEvaluated=${encodeURIComponent(page1.body.lastEvaluated)}`);
    expect(page2.body.transactions.map((x: { points: number }) => x.points)).toEqual([100]);
    expect(page2.body.lastEvaluated).toBeUndefined();
    expect((await enterprise(`/customers/${me.id}/transactions?lastEvaluated=forged`)).status).toBe(400);
    expect((await enterprise(`/customers/${me.id}/transactions?limit=0`)).status).toBe(400);

    const free = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).redemptionRules.find((r) => r.type === "free-shipping")!;
    const redeemed = await call(`${A}/customer/redemptions`, { token: me.token, body: { redemptionRuleId: free.redemption_rule_id } });
    expect(redeemed.status).toBe(201);
    const rewards = await enterprise(`/customers/${me.id}/rewards`);
    expect(rewards.body.rewards).toEqual([
      expect.objectContaining({
        transactionId: redeemed.body.redemption.transactionId,
        code: redeemed.body.redemption.reward.code,
        pointsCost: 300,
        platform: "shopify",
        platformState: "created",
        platformError: null,
        redemptionRuleId: free.redemption_rule_id,
      }),
    ]);

    expect((await enterprise(`/customers/${me.id}`, { method: "PATCH", body: { blocked: true } })).body.loyaltyCustomer.status).toBe("blocked");
    expect((await call(`${A}/customer/redemptions`, { token: me.token, body: { redemptionRuleId: free.redemption_rule_id } })).status).toBe(403);
    expect((await enterprise(`/customers/${me.id}`, { method: "PATCH", body: { blocked: false } })).body.loyaltyCustomer.status).toBe("enrolled");

    const gold = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).vipTiers.find((v) => v.name === "Gold")!;
    const raised = await enterprise(`/customers/${me.id}`, { method: "PATCH", body: { minimumVipTierId: gold.vip_tier_id } });
    expect(raised.body.loyaltyCustomer).toMatchObject({ vipTier: { name: "Gold" }, minimumVipTier: { name: "Gold" } });
    expect((await enterprise(`/customers/${me.id}`, { method: "PATCH", body: { minimumVipTierId: null } })).body.loyaltyCustomer).toMatchObject({ vipTier: { name: "Bronze" }, minimumVipTier: null });
    for (const body of [{}, { minimumVipTierId: "nope" }, { blocked: "yes" }, { status: "blocked" }]) {
      const r = await enterprise(`/customers/${me.id}`, { method: "PATCH", body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    await ledgerOk(me.id);
  });

  it("lists issued rewards with their real platform state: pending, then reconciled or failed, as the reward rows hold it", async () => {
    const me = await member("ent-rewards");
    await enterprise(`/customers/${me.id}/adjustments`, { body: { points: 500, reason: "Two rewards" } }); // 600 points
    const free = (await t.services.loyalty.adminProgram(TEST_STORE_ID)).redemptionRules.find((r) => r.type === "free-shipping")!;
    const redeemWhileShopifyFails = async () => {
      shopifyAdmin.mode = "error"; // a 500: no definite answer, the reward stays pending (docs/loyalty.md "Never losing points")
      try {
        const r = await call(`${A}/customer/redemptions`, { token: me.token, body: { redemptionRuleId: free.redemption_rule_id } });
        expect(r.status).toBe(503);
      } finally {
        shopifyAdmin.mode = "ok";
      }
      const [latest] = (await enterprise(`/customers/${me.id}/rewards`)).body.rewards;
      expect(latest).toMatchObject({ platform: "shopify", platformState: "pending", transactionId: null, pointsCost: 300, platformError: expect.any(String) });
      return latest.code as string;
    };
    const later = await redeemWhileShopifyFails();
    // The discount exists at Shopify after all (created before the error): the reconciler takes the points once.
    shopifyAdmin.discounts.set(later, { id: "gid://shopify/DiscountCodeNode/990001", mutation: "discountCodeFreeShippingCreate", input: {} });
    expect(await t.services.platformRewards.runDue(Date.now() + 61_000)).toMatchObject({ confirmed: 1 });
    const missing = await redeemWhileShopifyFails();
    expect(await t.services.platformRewards.runDue(Date.now() + 61_000)).toMatchObject({ failed: 1 }); // Shopify has no such code: nothing taken
    const { rewards } = (await enterprise(`/customers/${me.id}/rewards`)).body;
    const byCode = new Map(rewards.map((r: { code: string }) => [r.code, r]));
    expect(byCode.get(later)).toMatchObject({ platformState: "reconciled", transactionId: expect.any(String), platformError: null });
    expect(byCode.get(missing)).toMatchObject({ platformState: "failed", transactionId: null, platformError: expect.stringMatching(/no discount/) });
    expect((await row(me.id)).balance).toBe(300);
    await ledgerOk(me.id);
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await call("/enterprise/openapi.json", { headers: { authorization: basic } })).body;
    for (const path of [
      "/enterprise/loyalty/customers",
      "/enterprise/loyalty/customers/{loyaltyCustomerId}",
      "/enterprise/loyalty/customers/{loyaltyCustomerId}/transactions",
      "/enterprise/loyalty/customers/{loyaltyCustomerId}/adjustments",
      "/enterprise/loyalty/customers/{loyaltyCustomerId}/rewards",
    ]) {
      expect(Object.keys(doc.paths).some((p) => p.endsWith(path.replace("/enterprise", ""))) || doc.paths[path], path).toBeTruthy();
    }
  });
});

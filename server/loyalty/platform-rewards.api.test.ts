/**
 * Rewards that work at checkout over real HTTP (docs/loyalty.md "Rewards at checkout"; issue #35 item 1): a stand-in
 * Shopify Admin API (a real HTTP server checking the token, the GraphQL body and its variables, test/shopify-admin-stand-in.ts)
 * receives each discount before the code is shown; a platform error, timeout or missing token answers 503 with
 * `Retry-After` and leaves the balance unchanged; a discount created before a timeout is reconciled (points taken once);
 * other platforms get a signed `loyalty_reward.created` webhook whose 2xx decides; the demo store uses the demo platform;
 * the Admin API token is write-only and sealed; every storefront operation accepts `okendo-api-version: 2025-02-01` and
 * refuses another value with 400 JSON.
 */
import { createHmac } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import type { LoginResponse, RedemptionRulesResponse } from "../contract/loyalty.responses.ts";
import { sql, value } from "../db/database.ts";
import { DEMO_STORE_ID } from "../demo/demo.ts";
import { demoProgram } from "./loyalty.demo.ts";
import { STALE_MS } from "./platform-rewards.ts";
import { signPlatformToken } from "./tokens.ts";

const SECRET = "rewards-platform-secret-0123456789";
const TOKEN = "shpat_rewards_test_token_0123456789";
const API_KEY = "rewards-api-key-0123456789abcdef";
const THIRD_STORE_ID = "33333333-4444-4555-8666-777777777777";
let t: TestServer;
let shopify: ShopifyStandIn;
const clock = Date.now();
let seq = 0;
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;

beforeAll(async () => {
  shopify = await startShopifyStandIn({ token: TOKEN });
  t = await startTestServer({ allowLoopbackRequests: true, rewards: { now: () => clock, shopifyTimeoutMs: 1_500, demoStoreId: DEMO_STORE_ID } });
  for (const [storeId, name] of [
    [TEST_STORE_ID, "Shopify store"],
    [OTHER_STORE_ID, "Unconnected store"],
    [THIRD_STORE_ID, "Webhook store"],
    [DEMO_STORE_ID, "Demo store"],
  ]) {
    await t.services.stores.create({ storeId, name, platform: "shopify" });
    await t.services.loyalty.setupProgram(storeId, demoProgram(SECRET));
  }
  await t.services.apiKeys.create(TEST_STORE_ID, "rewards tests", API_KEY);
  await connectShopifyStandIn(t.services, TEST_STORE_ID, shopify, "rewards-test.myshopify.com");
});
afterAll(async () => {
  delete process.env.SHOPIFY_ADMIN_API_URL;
  await t?.close();
  await shopify?.close();
});

async function call(path: string, init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(t.url(path), { method: init.method ?? (init.body !== undefined ? "POST" : "GET"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An enrolled shopper of `storeId` with `points` more than the sign-up points: token, IDs. */
async function shopper(storeId: string, points = 1000) {
  const platformCustomerId = `${7000000 + ++seq}`;
  const customerAccessToken = await signPlatformToken(SECRET, { platformCustomerId, email: `buyer${seq}@example.test` });
  const login = (await call(`/v1/stores/${storeId}/loyalty/login`, { body: { customerAccessToken } })).body as LoginResponse;
  const version = (await t.services.loyalty.legalPolicies(storeId)).version;
  expect(
    (await call(`/v1/stores/${storeId}/loyalty/customer_activation`, { body: { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }, token: login.customerToken })).status,
  ).toBe(200);
  const id = login.loyaltyCustomer.loyaltyCustomerId;
  if (points) await t.services.loyalty.adjustPoints(storeId, id, points, "Test points");
  return { token: login.customerToken, id, platformCustomerId };
}
const balance = async (storeId: string, id: string) => (await t.services.loyaltyData.getCustomer(storeId, id))!.balance;
const ruleOf = async (storeId: string, type: string) => ((await call(`/v1/stores/${storeId}/loyalty/redemption_rules`)).body as RedemptionRulesResponse).redemptionRules.find((r) => r.type === type)!;
const redeem = (storeId: string, token: string, redemptionRuleId: string) => call(`/v1/stores/${storeId}/loyalty/customer/redemptions`, { body: { redemptionRuleId }, token });

describe("Shopify: the discount is created through the Admin GraphQL API before the code is shown", () => {
  it("a fixed-amount reward: discountCodeBasicCreate with the code, the amount, usage limit 1, the customer, the minimum order and the expiry", async () => {
    const s = await shopper(TEST_STORE_ID);
    const rule = await ruleOf(TEST_STORE_ID, "fixed-amount-coupon");
    await t.services.platformRewards.setRewardConditions(TEST_STORE_ID, rule.redemptionRuleId, { minimumOrderAmount: 40, expiresAfterDays: 30 });
    const before = await balance(TEST_STORE_ID, s.id);
    const r = await redeem(TEST_STORE_ID, s.token, rule.redemptionRuleId);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const reward = r.body.redemption.reward;
    expect(reward).toMatchObject({ type: "coupon", value: 5, platform: "shopify", discountUrl: `https://rewards-test.myshopify.com/discount/${reward.code}` });
    expect(Date.parse(reward.expiresAt) - clock).toBe(30 * 86_400_000);
    const d = shopify.discounts.get(reward.code)!;
    expect(d.mutation).toBe("discountCodeBasicCreate");
    expect(d.input).toMatchObject({
      code: reward.code,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      customerSelection: { customers: { add: [`gid://shopify/Customer/${s.platformCustomerId}`] } },
      customerGets: { value: { discountAmount: { amount: "5.00", appliesOnEachItem: false } }, items: { all: true } },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "40.00" } },
      endsAt: reward.expiresAt,
    });
    expect(shopify.refusals).toEqual([]);
    expect(await balance(TEST_STORE_ID, s.id)).toBe(before - rule.pointsCost);
    expect(await t.services.loyalty.checkLedger(TEST_STORE_ID, s.id)).toMatchObject({ ok: true });
    const tx = await t.services.loyaltyData.getTransaction(TEST_STORE_ID, r.body.redemption.transactionId);
    expect(tx).toMatchObject({ type: "redemption", coupon_code: reward.code, points: -rule.pointsCost });
    await t.services.platformRewards.setRewardConditions(TEST_STORE_ID, rule.redemptionRuleId, { minimumOrderAmount: null, expiresAfterDays: null });
  });

  it("a percentage reward is a basic discount of the percentage (0.1 for 10 %), free shipping a free-shipping discount", async () => {
    const s = await shopper(TEST_STORE_ID, 2000);
    const pct = await redeem(TEST_STORE_ID, s.token, (await ruleOf(TEST_STORE_ID, "percentage-coupon")).redemptionRuleId);
    expect(pct.status).toBe(201);
    expect(shopify.discounts.get(pct.body.redemption.reward.code)).toMatchObject({
      mutation: "discountCodeBasicCreate",
      input: { customerGets: { value: { percentage: 0.1 } }, usageLimit: 1, endsAt: null, minimumRequirement: null },
    });
    const ship = await redeem(TEST_STORE_ID, s.token, (await ruleOf(TEST_STORE_ID, "free-shipping")).redemptionRuleId);
    expect(ship.status).toBe(201);
    expect(shopify.discounts.get(ship.body.redemption.reward.code)).toMatchObject({
      mutation: "discountCodeFreeShippingCreate",
      input: { destination: { all: true }, usageLimit: 1, customerSelection: { customers: { add: [`gid://shopify/Customer/${s.platformCustomerId}`] } } },
    });
    expect(shopify.refusals).toEqual([]);
  });

  it("a stand-in answering 500 or timing out: 503 with Retry-After and a code, the balance unchanged", async () => {
    const s = await shopper(TEST_STORE_ID);
    const rule = await ruleOf(TEST_STORE_ID, "free-shipping");
    const before = await balance(TEST_STORE_ID, s.id);
    const created = shopify.discounts.size;
    for (const mode of ["error", "hang"] as const) {
      shopify.mode = mode;
      try {
        const r = await redeem(TEST_STORE_ID, s.token, rule.redemptionRuleId);
        expect(r.status, mode).toBe(503);
        expect(r.body.error).toMatchObject({ code: "platform_unavailable" });
        expect(r.body.error.description).toMatch(/try again/i);
        expect(Number(r.res.headers.get("retry-after"))).toBeGreaterThan(0);
      } finally {
        shopify.mode = "ok";
      }
      expect(await balance(TEST_STORE_ID, s.id), mode).toBe(before);
    }
    expect(shopify.discounts.size).toBe(created);
    // A 500 or a timeout may follow a created discount: both rewards stay pending until they are asked about by code
    // once stale; Shopify has neither, so they fail and their points are free again.
    expect(await t.services.platformRewards.runDue(clock + STALE_MS + 1)).toMatchObject({ failed: 2, confirmed: 0 });
    expect((await redeem(TEST_STORE_ID, s.token, rule.redemptionRuleId)).status).toBe(201);
  });

  it("a discount created just before a timeout (or a crash) is reconciled by code: points taken once, never twice", async () => {
    const s = await shopper(TEST_STORE_ID, 200); // 300 points: one free-shipping reward
    const rule = await ruleOf(TEST_STORE_ID, "free-shipping");
    shopify.mode = "create-then-hang";
    let r;
    try {
      r = await redeem(TEST_STORE_ID, s.token, rule.redemptionRuleId);
    } finally {
      shopify.mode = "ok";
    }
    expect(r.status).toBe(503);
    expect(await balance(TEST_STORE_ID, s.id)).toBe(300);
    // The reservation holds meanwhile: no second reward for the same points.
    const again = await redeem(TEST_STORE_ID, s.token, rule.redemptionRuleId);
    expect(again.status).toBe(409);
    expect(again.body.error.description).toMatch(/held by a reward still being created/);
    expect(await t.services.platformRewards.runDue(clock + STALE_MS - 1000)).toEqual({ confirmed: 0, failed: 0, pending: 0 }); // not stale yet
    expect(await t.services.platformRewards.runDue(clock + STALE_MS + 1)).toMatchObject({ confirmed: 1 });
    expect(await t.services.platformRewards.runDue(clock + STALE_MS + 2)).toEqual({ confirmed: 0, failed: 0, pending: 0 });
    expect(await balance(TEST_STORE_ID, s.id)).toBe(0);
    const [reward] = (await t.services.platformRewards.list(TEST_STORE_ID, { limit: 100 })).filter((x) => x.loyalty_customer_id === s.id);
    expect(reward).toMatchObject({ state: "confirmed" });
    expect(shopify.discounts.get(reward.code)!.id).toBe(reward.platform_discount_id);
    expect(await t.services.loyalty.checkLedger(TEST_STORE_ID, s.id)).toEqual({ ok: true, balance: 0, sum: 0 });
  });
});

describe("no usable platform: 503, nothing taken", () => {
  it("a store without a platform connection: 503 platform_not_connected with Retry-After", async () => {
    const s = await shopper(OTHER_STORE_ID);
    const r = await redeem(OTHER_STORE_ID, s.token, (await ruleOf(OTHER_STORE_ID, "free-shipping")).redemptionRuleId);
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe("platform_not_connected");
    expect(r.res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await balance(OTHER_STORE_ID, s.id)).toBe(1100);
    expect(await t.services.platformRewards.target(OTHER_STORE_ID)).toMatchObject({ platform: null, code: "platform_not_connected" });
  });

  it("the demo store redeems on the demo platform until a shop domain is set; then a missing token is the 503, never the demo", async () => {
    const s = await shopper(DEMO_STORE_ID);
    const rule = await ruleOf(DEMO_STORE_ID, "free-shipping");
    const r = await redeem(DEMO_STORE_ID, s.token, rule.redemptionRuleId);
    expect(r.status).toBe(201);
    expect(r.body.redemption.reward.platform).toBe("demo");
    expect((await t.services.platformRewards.list(DEMO_STORE_ID, { platform: "demo" })).map((x) => x.code)).toEqual([r.body.redemption.reward.code]);
    await t.services.platforms.updateSettings(DEMO_STORE_ID, { shopDomain: "demo-shop.myshopify.com" });
    const after = await redeem(DEMO_STORE_ID, s.token, rule.redemptionRuleId);
    expect(after.status).toBe(503);
    expect(after.body.error.code).toBe("platform_token_missing");
    await t.services.platforms.updateSettings(DEMO_STORE_ID, { shopDomain: null });
  });
});

describe("other platforms: a signed loyalty_reward.created webhook answered 2xx before the code is shown", () => {
  let receiver: Server;
  let status = 200;
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let secret = "";

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on("data", (c: Buffer) => chunks.push(c))
        .on("end", () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
          res.writeHead(status).end();
        });
    });
    receiver.listen(0, "127.0.0.1");
    await once(receiver, "listening");
    const created = await t.services.webhooks.create(THIRD_STORE_ID, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/rewards`, eventTypes: ["loyalty_reward.created"] });
    secret = created.secret;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it("sends what the shop must create, signed; a 2xx shows the code, a 500 is the 503 with the balance unchanged", async () => {
    const s = await shopper(THIRD_STORE_ID);
    const rule = await ruleOf(THIRD_STORE_ID, "fixed-amount-coupon");
    const r = await redeem(THIRD_STORE_ID, s.token, rule.redemptionRuleId);
    expect(r.status).toBe(201);
    expect(r.body.redemption.reward.platform).toBe("webhook");
    const sent = received.at(-1)!;
    const [, ts, sig] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(sent.headers["chorus-signature"]))!;
    expect(createHmac("sha256", secret).update(`${ts}.`).update(sent.body).digest("hex")).toBe(sig);
    expect(sent.headers["chorus-event-type"]).toBe("loyalty_reward.created");
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({
      eventType: "loyalty_reward.created",
      storeId: THIRD_STORE_ID,
      data: { reward: { code: r.body.redemption.reward.code, type: "fixed-amount-coupon", value: 5, usageLimit: 1, platformCustomerId: s.platformCustomerId, loyaltyCustomerId: s.id } },
    });
    const before = await balance(THIRD_STORE_ID, s.id);
    status = 500;
    const failed = await redeem(THIRD_STORE_ID, s.token, rule.redemptionRuleId);
    status = 200;
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe("platform_unavailable");
    expect(await balance(THIRD_STORE_ID, s.id)).toBe(before);
  });
});

describe("the Admin API token (PATCH /enterprise/settings platform.adminApiToken)", () => {
  it("is write-only: the settings say it is set, never what it is, and the database holds it sealed", async () => {
    const patched = await call("/enterprise/settings", { method: "PATCH", body: { platform: { adminApiToken: TOKEN } }, headers: { authorization: basic } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const got = await call("/enterprise/settings", { headers: { authorization: basic } });
    expect(got.body.platform).toMatchObject({ adminApiTokenSet: true });
    expect(JSON.stringify(got.body)).not.toContain(TOKEN);
    const stored = await value<string>(t.services.db, sql`SELECT admin_token_encrypted FROM platform_connections WHERE store_id = ${TEST_STORE_ID}`);
    expect(stored).toBeTruthy();
    expect(stored).not.toContain(TOKEN);
    const bad = await call("/enterprise/settings", { method: "PATCH", body: { platform: { adminApiToken: "short" } }, headers: { authorization: basic } });
    expect(bad.status).toBe(400);
  });
});

describe("okendo-api-version on every storefront operation", () => {
  it("accepts 2025-02-01 (and no header), answers 400 JSON for another value; enterprise operations ignore it", async () => {
    const path = `/v1/stores/${TEST_STORE_ID}/loyalty/redemption_rules`;
    expect((await call(path, { headers: { "okendo-api-version": "2025-02-01" } })).status).toBe(200);
    expect((await call(path)).status).toBe(200);
    const bad = await call(path, { headers: { "okendo-api-version": "2023-01-01" } });
    expect(bad.status).toBe(400);
    expect(bad.res.headers.get("content-type")).toMatch(/application\/json/);
    expect(bad.body.error).toMatchObject({ code: "invalid_header" });
    expect(bad.body.error.description).toMatch(/okendo-api-version/);
    const reviews = await call(`/v1/stores/${TEST_STORE_ID}/reviews`, { headers: { "okendo-api-version": "nope" } });
    expect(reviews.status).toBe(400);
    expect((await call("/enterprise/settings", { headers: { authorization: basic, "okendo-api-version": "nope" } })).status).toBe(200);
    const openapi = (await call("/v1/openapi.json")).body as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    const ops = Object.values(openapi.paths).flatMap((p) => Object.values(p));
    expect(ops.length).toBeGreaterThan(10);
    for (const op of ops) expect(op.parameters?.some((p) => p.in === "header" && p.name === "okendo-api-version")).toBe(true);
  });
});

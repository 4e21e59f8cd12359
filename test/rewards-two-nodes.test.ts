/**
 * Rewards at checkout on two nodes (issue #35 "Done when": "40 concurrent redemptions on two nodes create exactly the
 * affordable number of discounts on the stand-in"; docs/loyalty.md "Rewards at checkout"). Two Chorus HTTP servers,
 * each with its own services and connections, over one database: one SQLite file, or with CHORUS_TEST_POSTGRES_URL
 * (`npm run test:postgres`) one PostgreSQL database. A stand-in Shopify Admin API (test/shopify-admin-stand-in.ts)
 * counts the discounts. The pending reward row, written under the customer's row lock before the platform call,
 * reserves the points, so exactly the affordable rewards reach Shopify; each is confirmed once with its transaction.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "./shopify-admin-stand-in.ts";

const SECRET = "two-node-rewards-platform-secret-01";
let a: TestServer;
let b: TestServer;
let shopify: ShopifyStandIn;

beforeAll(async () => {
  shopify = await startShopifyStandIn({ token: "shpat_two_nodes_0123456789abcdef" });
  a = await startTestServer();
  b = await startTestServer({ databasePath: a.databasePath });
  await a.services.stores.create({ storeId: TEST_STORE_ID, name: "Two-node rewards", platform: "shopify" });
  await a.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET)); // sign-up 100 points, free shipping for 300
  await connectShopifyStandIn(a.services, TEST_STORE_ID, shopify);
}, 240_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await shopify?.close();
  delete process.env.SHOPIFY_ADMIN_API_URL;
});

it("40 concurrent redemptions, half to each node: exactly the 3 affordable discounts are created on Shopify, each paid once", async () => {
  const nodes = [a, b];
  const post = async (i: number, path: string, body: unknown, authorization = "") => {
    const res = await fetch(nodes[i % 2]!.url(path), { method: "POST", headers: { "content-type": "application/json", authorization }, body: JSON.stringify(body) });
    return {
      status: res.status,
      body: (await res.json()) as { customerToken: string; loyaltyCustomer: { loyaltyCustomerId: string }; redemption: { reward: { code: string } }; error?: { code?: string } },
    };
  };
  const store = `/v1/stores/${TEST_STORE_ID}/loyalty`;
  const login = await post(0, `${store}/login`, { customerAccessToken: await signPlatformToken(SECRET, { platformCustomerId: "4242", email: "two@example.com" }) });
  const token = `Bearer ${login.body.customerToken}`;
  const id = login.body.loyaltyCustomer.loyaltyCustomerId;
  const version = (await a.services.loyalty.legalPolicies(TEST_STORE_ID)).version;
  expect((await post(1, `${store}/customer_activation`, { enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }, token)).status).toBe(200);
  await a.services.loyalty.adjustPoints(TEST_STORE_ID, id, 850, "Goodwill"); // 950 points: three free-shipping rewards of 300
  const rule = (await a.services.loyaltyData.redemptionRules(TEST_STORE_ID)).find((r) => r.type === "free-shipping")!;

  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i, `${store}/customer/redemptions`, { redemptionRuleId: rule.redemption_rule_id }, token)));
  const won = results.filter((r) => r.status === 201);
  expect(won).toHaveLength(3);
  expect(results.filter((r) => r.status === 409 && r.body.error?.code === "insufficient_points")).toHaveLength(37);
  expect(shopify.discounts.size).toBe(3);
  expect([...shopify.discounts.keys()].sort()).toEqual(won.map((r) => r.body.redemption.reward.code).sort());
  for (const d of shopify.discounts.values()) expect(d.input).toMatchObject({ usageLimit: 1, customerSelection: { customers: { add: ["gid://shopify/Customer/4242"] } } });
  expect(shopify.refusals).toEqual([]);
  expect(await a.services.loyalty.checkLedger(TEST_STORE_ID, id)).toEqual({ ok: true, balance: 50, sum: 50 });
  const rewards = await a.services.platformRewards.list(TEST_STORE_ID);
  expect(rewards.map((r) => r.state)).toEqual(["confirmed", "confirmed", "confirmed"]);
}, 120_000);

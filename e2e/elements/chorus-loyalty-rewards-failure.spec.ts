/**
 * A redemption in `<chorus-loyalty>` against a failing shop (docs/loyalty.md "Rewards at checkout"), in Chromium: a
 * stand-in Shopify Admin API (a real HTTP server, test/shopify-admin-stand-in.ts) answers 500, then never answers (the
 * server's Shopify timeout is cut to 1.5 s here). Each time the shopper sees the clear retry message and the balance is
 * unchanged (in the panel and on the server); once the shop works again, the retry shows the code.
 *
 * The e2e server (playwright.config.ts) cannot be pointed at a stand-in Shopify (SHOPIFY_ADMIN_API_URL is read from
 * its environment), so this spec runs a server of its own (test/server.ts, a free loopback port) with the real build.
 */
import { expect, test, type Page } from "@playwright/test";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { connectShopifyStandIn, startShopifyStandIn, type ShopifyStandIn } from "../../test/shopify-admin-stand-in.ts";
import { demoProgram } from "../../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../../server/loyalty/tokens.ts";
import { expectNoAxeViolations } from "../axe.ts";

const SECRET = "e2e-failing-shop-platform-secret-0123456789";
const RETRY = "The reward could not be created at the shop just now, and no points were taken. Please try again in a moment.";
let t: TestServer;
let shopify: ShopifyStandIn;

test.beforeAll(async () => {
  t = await startTestServer({ rewards: { shopifyTimeoutMs: 1_500 } });
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Failing shop", platform: "shopify" });
  await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
  shopify = await startShopifyStandIn({ token: "shpat_e2e_failing_shop_0123456789abcdef" });
  await connectShopifyStandIn(t.services, TEST_STORE_ID, shopify, "failing-shop.myshopify.com");
});
test.afterAll(async () => {
  await t?.close();
  await shopify?.close();
});

/** An enrolled member with 1,000 points: @returns their platform token and loyalty customer ID. */
async function member(): Promise<{ token: string; id: string }> {
  const token = await signPlatformToken(SECRET, { platformCustomerId: "7000042", email: "failing-shop@example.test" });
  const L = t.url(`/v1/stores/${TEST_STORE_ID}/loyalty`);
  const json = { "content-type": "application/json" };
  const login = (await (await fetch(`${L}/login`, { method: "POST", headers: json, body: JSON.stringify({ customerAccessToken: token }) })).json()) as {
    customerToken: string;
    loyaltyCustomer: { loyaltyCustomerId: string };
  };
  const { version } = await t.services.loyalty.legalPolicies(TEST_STORE_ID);
  const r = await fetch(`${L}/customer_activation`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${login.customerToken}` },
    body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }),
  });
  expect(r.status).toBe(200);
  const id = login.loyaltyCustomer.loyaltyCustomerId;
  await t.services.loyalty.adjustPoints(TEST_STORE_ID, id, 900, "Welcome gift");
  return { token, id };
}

async function openShop(page: Page, token: string): Promise<void> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My rewards</title><script async src="/widgets/chorus.js"></script></head>
<body><main><h1>My rewards</h1><chorus-loyalty store-id="${TEST_STORE_ID}" customer-token="${token}"></chorus-loyalty></main></body></html>`;
  await page.route("**/e2e/my-rewards", (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(t.url("/e2e/my-rewards"));
  await expect(page.locator("chorus-loyalty [part=balance]")).toHaveText("1,000 points", { timeout: 20_000 });
}

const balanceOnServer = async (id: string) => (await t.services.loyaltyData.getCustomer(TEST_STORE_ID, id))!.balance;

test("a shop answering 500 or timing out: the shopper sees the retry message, the balance is unchanged; the retry works once the shop does", async ({ page }) => {
  const { token, id } = await member();
  await openShop(page, token);
  const panel = page.locator("chorus-loyalty");
  const redeem = panel.getByRole("button", { name: "Redeem Free shipping for 300 points" });
  for (const mode of ["error", "hang"] as const) {
    shopify.mode = mode;
    try {
      await redeem.click();
      await expect(panel.getByRole("alert")).toHaveText(RETRY, { timeout: 15_000 });
    } finally {
      shopify.mode = "ok";
    }
    if (mode === "error") await expectNoAxeViolations(page, "chorus-loyalty"); // the message state passes axe
    await expect(panel.locator("[part=balance]")).toHaveText("1,000 points");
    await expect(panel.locator("[part=coupon]")).toHaveCount(0);
    expect(await balanceOnServer(id), mode).toBe(1_000);
  }
  // A reload shows the same balance (nothing was taken).
  await page.reload();
  await expect(panel.locator("[part=balance]")).toHaveText("1,000 points", { timeout: 20_000 });
  // The shop works again: the retry shows the code, which exists at the stand-in Shopify; 300 points are taken.
  await panel.getByRole("button", { name: "Redeem Free shipping for 300 points" }).click();
  const code = await panel.locator("[part=coupon]").textContent({ timeout: 15_000 });
  expect(shopify.discounts.has(code!.trim())).toBe(true);
  await expect(panel.locator("[part=balance]")).toHaveText("700 points");
  expect(await balanceOnServer(id)).toBe(700);
});

/**
 * Admin: the shop-platform connection and the orders list (issue #22 items 1, 5, 6), in Chromium against
 * the real server with the demo store: connect the shop (per-field errors, secret never shown), receive a
 * Shopify webhook signed with the secret just saved, and see the order at the top of the orders list;
 * demo orders paged newest first; the empty state of a store without orders; axe on every state.
 */
import { expect, test } from "@playwright/test";
import { createHmac, randomUUID } from "node:crypto";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { run, sql, transaction } from "../server/db/database.ts";
import { DEMO_ADMIN, signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const SHOP = "chorus-demo-e2e.myshopify.com";
const SECRET = `shpss_e2e_${randomUUID().replace(/-/g, "")}`;

// Connecting a shop domain replaces the demo store's built-in demo platform (docs/loyalty.md): give it back for the
// specs that redeem or issue codes on the demo store after this one (e2e/referrals.spec.ts).
test.afterAll(async () => {
  await withE2eDb((db) => run(db, sql`UPDATE platform_connections SET shop_domain = NULL WHERE store_id = ${DEMO_STORE_ID}`));
});

test("connect the shop platform, receive a signed Shopify order, see it in the orders list", async ({ page, request }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/integration`);
  await page.getByRole("link", { name: "connect your shop platform" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Shop platform" })).toBeVisible();
  await expect(page.locator("#shopify-webhook-url")).toHaveText(/\/platforms\/shopify\/webhooks$/);
  await expectNoAxeViolations(page);

  // A bad domain and a short secret: errors beside the fields.
  await page.getByLabel("Shop domain (Shopify)").fill("not a domain");
  await page.getByLabel(/app secret/i).fill("short");
  await page.getByRole("button", { name: "Save" }).click();
  const domain = page.getByLabel("Shop domain (Shopify)");
  await expect(domain).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#shopDomain-error")).toContainText("shopDomain must be the shop's domain");
  await expect(page.getByLabel(/app secret/i)).toHaveAttribute("aria-describedby", /appSecret-error/);
  await expectNoAxeViolations(page);

  await domain.fill(SHOP);
  await page.getByLabel(/app secret/i).fill(SECRET);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Platform connection saved.")).toHaveAttribute("role", "status");
  await expect(page.getByTestId("secret-state")).toContainText("set on");
  expect(await page.content()).not.toContain(SECRET);
  await expectNoAxeViolations(page);

  // Shopify delivers an order, signed with the secret saved above.
  const orderId = Date.now();
  const body = JSON.stringify({
    id: orderId,
    name: `#E2E-${orderId}`,
    email: "e2e.buyer@example.com",
    created_at: new Date().toISOString(),
    currency: "USD",
    subtotal_price: "89.00",
    customer: { id: 880001, first_name: "Edith", last_name: "Tester" },
    line_items: [{ product_id: 1078, variant_id: 107801, title: "Tiered linen dress", price: "89.00", quantity: 1 }],
  });
  const hmac = createHmac("sha256", SECRET).update(body).digest("base64");
  const headers = { "content-type": "application/json", "x-shopify-topic": "orders/create", "x-shopify-shop-domain": SHOP, "x-shopify-webhook-id": randomUUID(), "x-shopify-hmac-sha256": hmac };
  const res = await request.post("/platforms/shopify/webhooks", { headers, data: body });
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ outcome: "applied" });
  const forged = await request.post("/platforms/shopify/webhooks", {
    headers: { ...headers, "x-shopify-webhook-id": randomUUID(), "x-shopify-hmac-sha256": createHmac("sha256", "forged").update(body).digest("base64") },
    data: body,
  });
  expect(forged.status()).toBe(401);

  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  const first = page.locator("tbody tr").first();
  await expect(first).toContainText(`#E2E-${orderId}`);
  await expect(first).toContainText("e2e.buyer@example.com");
  await expect(first).toContainText("Tiered linen dress");
  await expect(first).toContainText("Ordered");
  await expect(first).toContainText("Shopify");
  // Demo orders follow, newest first, 50 a page.
  await expect(page.getByRole("cell", { name: "Demo (generated)" }).first()).toBeVisible();
  await expectNoAxeViolations(page);
  const times = await page.locator("tbody tr td:nth-child(5) time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime")!));
  expect(times.length).toBe(50);
  expect([...times].sort().reverse()).toEqual(times);
  await page.getByRole("link", { name: "Older orders" }).click();
  await expect(page).toHaveURL(/\?after=/);
  await expect(page.locator("tbody tr")).toHaveCount(50);
  // The URL changes as the client navigation starts; the rows are replaced once its data is in: read until they are.
  const firstOnPage = async () => (await page.locator("tbody tr td:nth-child(5) time").first().getAttribute("datetime"))!;
  await expect.poll(async () => (await firstOnPage()) <= times[times.length - 1], { message: "the older page starts after the first page's last order" }).toBe(true);
  await expectNoAxeViolations(page);
});

test("a store without orders shows the empty state", async ({ page }) => {
  const storeId = randomUUID();
  await withE2eDb((db) =>
    transaction(db, async () => {
      await run(db, sql`INSERT INTO stores (store_id, name, platform, created_ms) VALUES (${storeId}, 'Empty Orders Shop', 'shopify', ${Date.now()})`);
      await run(db, sql`INSERT INTO store_memberships (user_id, store_id, created_ms) SELECT user_id, ${storeId}, ${Date.now()} FROM merchant_users WHERE email = ${DEMO_ADMIN.email}`);
    }),
  );
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${storeId}/orders`);
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(page.getByText("No orders yet.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.goto(`/admin/stores/${storeId}/orders?after=forged-cursor`);
  await expect(page.getByText("This page link is not valid")).toBeVisible();
});

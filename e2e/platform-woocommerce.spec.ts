/**
 * Admin: connecting WooCommerce (issue #38 item 2; docs/platforms.md "WooCommerce"), in Chromium against the real
 * server: per-field errors for a site that is not https and a malformed REST key, the connection saved with its
 * secrets never shown again, a product delivery signed with the webhook secret just saved applied (a forged one 401),
 * disconnecting; axe on every state. A store of its own, so the demo store's platform stays as it is.
 */
import { expect, test } from "@playwright/test";
import { createHmac, randomUUID } from "node:crypto";
import { expectNoAxeViolations } from "./axe.ts";
import { run, sql, transaction } from "../server/db/database.ts";
import { DEMO_ADMIN, signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const KEY = `ck_${randomUUID().replace(/-/g, "")}`;
const SECRET = `cs_${randomUUID().replace(/-/g, "")}`;
const WEBHOOK_SECRET = `wc-e2e ${randomUUID()}`;

test("connect WooCommerce in the admin, receive a signed product delivery, disconnect", async ({ page, request }) => {
  test.setTimeout(180_000); // five axe runs on a shared, loaded machine
  const storeId = randomUUID();
  const site = `https://woo-${storeId.slice(0, 8)}.example`;
  await withE2eDb((db) =>
    transaction(db, async () => {
      await run(db, sql`INSERT INTO stores (store_id, name, platform, created_ms) VALUES (${storeId}, 'Linden & Loom', 'woocommerce', ${Date.now()})`);
      await run(db, sql`INSERT INTO store_memberships (user_id, store_id, created_ms) SELECT user_id, ${storeId}, ${Date.now()} FROM merchant_users WHERE email = ${DEMO_ADMIN.email}`);
    }),
  );
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${storeId}/platform`);
  await expect(page.getByRole("heading", { level: 2, name: "WooCommerce" })).toBeVisible();
  await expect(page.locator("#woocommerce-webhook-url")).toHaveText(/\/platforms\/woocommerce\/webhooks$/);
  await expect(page.getByTestId("woocommerce-state")).toContainText("Not connected.");
  await expectNoAxeViolations(page);

  // An http address and a malformed key: errors beside the fields.
  const form = page.getByRole("form", { name: "WooCommerce" });
  await form.getByLabel("Shop address").fill("http://shop.example");
  await form.getByLabel("Consumer key").fill("not-a-key");
  await form.getByRole("button", { name: "Connect WooCommerce", exact: true }).click();
  await expect(page.locator("#consumerKey-error")).toContainText("consumerKey must be WooCommerce's REST API consumer key");
  await expect(page.getByLabel("Consumer key")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await page.getByLabel("Shop address").fill("http://shop.example");
  await page.getByLabel("Consumer key").fill(KEY);
  await page.getByRole("button", { name: "Connect WooCommerce", exact: true }).click();
  await expect(page.locator("#siteUrl-error")).toContainText("siteUrl must be the shop's https:// address");
  await expect(page.getByLabel("Shop address")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  await page.getByLabel("Shop address").fill(`${site}/`);
  await page.getByLabel("Consumer key").fill(KEY);
  await page.getByLabel("Consumer secret").fill(SECRET);
  await page.getByLabel("Webhook secret").fill(WEBHOOK_SECRET);
  await page.getByRole("button", { name: "Connect WooCommerce", exact: true }).click();
  await expect(page.getByText("WooCommerce connection saved.")).toHaveAttribute("role", "status");
  await expect(page.getByTestId("woocommerce-state")).toContainText(`Connected to ${site}`);
  await expect(page.getByTestId("woocommerce-state")).toContainText("REST API key: set; webhook secret: set");
  await expect(page.getByTestId("rewards-platform")).toContainText("WooCommerce coupons");
  for (const secret of [KEY, SECRET, WEBHOOK_SECRET]) expect(await page.content()).not.toContain(secret);
  await expectNoAxeViolations(page);

  // WooCommerce delivers a product, signed with the webhook secret saved above.
  const body = JSON.stringify({ id: 4711, name: "Waffle Towel", permalink: `${site}/product/waffle-towel/`, sku: "WT-1", images: [] });
  const headers = {
    "content-type": "application/json",
    "x-wc-webhook-topic": "product.created",
    "x-wc-webhook-source": `${site}/`,
    "x-wc-webhook-delivery-id": randomUUID(),
    "x-wc-webhook-signature": createHmac("sha256", WEBHOOK_SECRET).update(body).digest("base64"),
  };
  const res = await request.post("/platforms/woocommerce/webhooks", { headers, data: body });
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ outcome: "applied" });
  const forged = await request.post("/platforms/woocommerce/webhooks", {
    headers: { ...headers, "x-wc-webhook-delivery-id": randomUUID(), "x-wc-webhook-signature": createHmac("sha256", "forged").update(body).digest("base64") },
    data: body,
  });
  expect(forged.status()).toBe(401);

  await page.getByRole("button", { name: "Disconnect WooCommerce" }).click();
  await expect(page.getByText("WooCommerce disconnected: its webhooks are refused.")).toBeVisible();
  await expect(page.getByTestId("woocommerce-state")).toContainText("Not connected.");
  await expectNoAxeViolations(page);
  const refused = await request.post("/platforms/woocommerce/webhooks", { headers: { ...headers, "x-wc-webhook-delivery-id": randomUUID() }, data: body });
  expect(refused.status()).toBe(404);
});

/**
 * Admin: Klaviyo (issue #38 item 3, docs/klaviyo.md), in Chromium against the real server with the demo store: not
 * connected; a key that is not a private API key (a field error); connected (only the key's last four characters
 * shown); a storefront review by a shopper with an address appears in the delivery log; disconnected. axe on every state.
 */
import { expect, test } from "@playwright/test";
import { sql, value } from "../server/db/database.ts";
import { realReviews } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const SHOPPER = `klaviyo-${Date.now()}@example.com`;
const KEY = "pk_e2e0123456789abcdef0123456789ab9f3c";

test("connect, the delivery log, disconnect; axe on each state", async ({ page, request }) => {
  test.setTimeout(240_000); // five axe runs on a machine shared by many
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}`);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Klaviyo" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Klaviyo" })).toBeVisible();
  await expect(page.getByTestId("klaviyo-status")).toHaveText("Not connected.");
  await expectNoAxeViolations(page);

  // A secret key of another kind: refused beside the field, nothing stored.
  await page.getByLabel("Private API key").fill("sk_live_0123456789");
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.locator("#privateApiKey-error")).toContainText("privateApiKey must be a Klaviyo private API key");
  await expect(page.getByLabel("Private API key")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("klaviyo-status")).toHaveText("Not connected.");
  await expectNoAxeViolations(page);

  await page.getByLabel("Private API key").fill(KEY);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.locator("p.flash[role=status]")).toContainText("Klaviyo connected");
  await expect(page.getByTestId("klaviyo-status")).toHaveText(`Connected with the private API key ending in ${KEY.slice(-4)}.`);
  await expect(page.locator("body")).not.toContainText(KEY.slice(0, 12));
  await expectNoAxeViolations(page);

  // A shopper's review through the storefront API: its Klaviyo event and profile update are in the log.
  const product = (await withE2eDb(
    (db) => value<string>(db, sql`SELECT scope_id FROM review_aggregates WHERE store_id = ${DEMO_STORE_ID} AND scope_type = 'product' ORDER BY review_count DESC LIMIT 1`),
    { readonly: true },
  ))!;
  const text = realReviews().find((r) => r.title && r.body)!;
  const review = await request.post(`/v1/stores/${DEMO_STORE_ID}/products/shopify-${product}/reviews`, {
    data: { rating: text.rating, title: text.title, body: text.body, displayName: "Kim", email: SHOPPER },
  });
  expect(review.status()).toBe(201);
  await page.reload();
  const log = page.getByRole("table", { name: "Delivery log" });
  await expect(log.getByRole("row", { name: new RegExp(`Submitted Review ${SHOPPER}`) })).toBeVisible();
  await expect(log.getByRole("row", { name: new RegExp(`Profile properties ${SHOPPER}`) })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Disconnect Klaviyo" }).click();
  await expect(page.locator("p.flash[role=status]")).toContainText("Klaviyo disconnected");
  await expect(page.getByTestId("klaviyo-status")).toHaveText("Not connected.");
  await expectNoAxeViolations(page);
});

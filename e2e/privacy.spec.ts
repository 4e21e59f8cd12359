/**
 * Shopper data in the admin (issue 24 item 1), in Chromium: find what the store holds about an address,
 * download it as a zip, erase it after typing the address again; axe on every state of the page.
 */
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { realReviews } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { sql, value } from "../server/db/database.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const SHOPPER = `privacy-${Date.now()}@example.com`;
/** How many reviews of the e2e database are by SHOPPER (read-only). */
const shopperReviews = () => withE2eDb((db) => value<number>(db, sql`SELECT count(*) AS n FROM reviews WHERE reviewer_email = ${SHOPPER}`), { readonly: true });

test("find, export and erase a shopper's data; axe on each state", async ({ page, request }) => {
  // The shopper writes a review (a real review text) and asks a question through the storefront API.
  const product = (await withE2eDb(
    (db) => value<string>(db, sql`SELECT scope_id FROM review_aggregates WHERE store_id = ${DEMO_STORE_ID} AND scope_type = 'product' ORDER BY review_count DESC LIMIT 1`),
    { readonly: true },
  ))!;
  const text = realReviews().find((r) => r.title && r.body)!;
  const review = await request.post(`/v1/stores/${DEMO_STORE_ID}/products/shopify-${product}/reviews`, {
    data: { rating: text.rating, title: text.title, body: text.body, displayName: "Pat", email: SHOPPER },
  });
  expect(review.status()).toBe(201);

  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/privacy`);
  await expect(page.getByRole("heading", { name: "Shopper data", level: 1 })).toBeVisible();
  await expect(page.getByText("No shopper data has been exported or erased yet.")).toBeVisible();
  await expectNoAxeViolations(page);

  // A malformed address: a field error, not a crash.
  await page.getByLabel("Shopper's e-mail address").fill("not-an-address");
  await page.evaluate(() => document.querySelector<HTMLInputElement>("#shopper-email")!.setAttribute("type", "text")); // past the browser's own check
  await page.getByRole("button", { name: "Find data" }).click();
  await expect(page.getByText("Enter a shopper's e-mail address")).toBeVisible();
  await expect(page.getByLabel("Shopper's e-mail address")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Shopper's e-mail address").fill(SHOPPER.toUpperCase());
  await page.getByRole("button", { name: "Find data" }).click();
  await expect(page.getByRole("heading", { name: `Data held about ${SHOPPER}` })).toBeVisible();
  await expect(page.getByRole("row", { name: "Reviews 1" })).toBeVisible();
  await expectNoAxeViolations(page);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as zip" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^chorus-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 2).toString()).toBe("PK");

  // Erasing needs the address typed again.
  await page.getByLabel(`Type ${SHOPPER} to confirm`).fill("someone-else@example.com");
  await page.getByRole("button", { name: `Erase all data of ${SHOPPER}` }).click();
  await expect(page.getByRole("alert")).toContainText("type the shopper's e-mail address again");
  expect(await shopperReviews()).toBe(1);

  await page.getByLabel(`Type ${SHOPPER} to confirm`).fill(SHOPPER);
  await page.getByRole("button", { name: `Erase all data of ${SHOPPER}` }).click();
  // The result flash, not the lookup's own "holds nothing" note that follows it.
  await expect(page.getByRole("status").filter({ hasText: "Erased" })).toContainText(`Erased 1 record of ${SHOPPER}`);
  await expect(page.getByText(`This store holds nothing about ${SHOPPER}.`)).toBeVisible();
  expect(await shopperReviews()).toBe(0);
  await expect(page.getByRole("cell", { name: "Erasure" })).toBeVisible();
  await expectNoAxeViolations(page);
});

/**
 * Admin: Google Shopping (issue #38 item 1), in Chromium against the real server with the demo store: the feed
 * address (fetched: a Google Product Reviews feed), the coverage of the demo store (no identifiers yet: Google can
 * take none), an identifiers CSV upload with a refused line, the coverage after it, a new feed address (the old
 * one then answers 401); axe on every state.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";

test("feed address, coverage, identifiers CSV and a new address", async ({ page, request }) => {
  test.setTimeout(240_000); // the demo feed (21.7 MB) is fetched twice, and axe reads a table of 200 products four times
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}`);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Google Shopping" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Google Shopping" })).toBeVisible();
  const address = (await page.locator("#feed-url").textContent())!;
  expect(address).toMatch(new RegExp(`/v1/stores/${DEMO_STORE_ID}/feeds/google-product-reviews\\.xml\\?token=[A-Za-z0-9_-]{43}$`));
  const local = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  const feed = await request.get(local(address));
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  expect((await feed.text()).slice(0, 400)).toContain("<version>2.4</version>");
  const summary = page.getByTestId("coverage-summary");
  await expect(summary).toContainText(/Google can take \d+ of \d+ published reviews/); // the demo store's 23,486, and those other specs published
  const row = page.getByRole("row", { name: /#1078\b/ }).first();
  await expect(row).toContainText("a GTIN, or brand and MPN");
  await expectNoAxeViolations(page);

  // A CSV with a GTIN for the most reviewed product and a line with a bad check digit.
  const top = (await page.locator("tbody tr").first().locator("th").textContent())!;
  const topId = top.match(/(\d+)\s*$/)?.[1];
  expect(topId).toBeTruthy();
  await page.getByLabel("CSV file").setInputFiles({
    name: "identifiers.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`productId,variantId,gtin,mpn,sku,brand\r\nshopify-${topId},,4006381333931,,,\r\nshopify-${topId},v2,4006381333932,,,\r\n`),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.locator("p.flash[role=status]")).toHaveText("1 line imported, 1 line refused."); // (the copy button has a status of its own)
  await expect(page.getByRole("list", { name: "Refused lines" })).toContainText("Line 3: gtin must be");
  await expect(page.locator("tbody tr").first()).not.toContainText("a GTIN, or brand and MPN");
  await expectNoAxeViolations(page);

  // A new address: the old one answers 401.
  await page.getByRole("button", { name: "Make a new feed address" }).click();
  await expect(page.locator("p.flash[role=status]")).toContainText("New feed URL made");
  const next = (await page.locator("#feed-url").textContent())!;
  expect(next).not.toBe(address);
  expect((await request.get(local(address))).status()).toBe(401);
  expect((await request.get(local(next))).status()).toBe(200);
  await expectNoAxeViolations(page);
});

/**
 * `<chorus-loyalty>` in Chromium on the demo store's real program (docs/loyalty.md), on the demo loyalty page:
 * axe first (anonymous and pending shoppers), then a pending shopper sees the join button beside its legal
 * sentence. (The enrolment journey: e2e/loyalty.spec.ts.)
 */
import { expect, test } from "@playwright/test";
import { expectElementAccessible, waitForElements } from "./element-page.ts";

test("axe finds nothing in the loyalty card of an anonymous and of a pending shopper", async ({ page }) => {
  await page.goto("/demo/loyalty");
  await waitForElements(page);
  await expect(page.locator("chorus-loyalty [part=card]")).toBeVisible();
  await expectElementAccessible(page, "chorus-loyalty");
  await page.goto("/demo/loyalty?shopper=demo-pending");
  await waitForElements(page);
  await expect(page.locator("chorus-loyalty [part=join-button]")).toBeVisible();
  await expectElementAccessible(page, "chorus-loyalty");
});

test("a pending shopper's join button is described by the legal sentence", async ({ page }) => {
  await page.goto("/demo/loyalty?shopper=demo-pending");
  await waitForElements(page);
  const join = page.locator("chorus-loyalty [part=join-button]");
  await expect(join).toHaveAccessibleDescription(/^By joining, you agree to/);
});

/**
 * `<chorus-reviews-keywords>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-reviews-keywords>`):
 * axe first, then a keyword chip is pressed and announces the keyword the reviews list filters by.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT, waitForAiContent } from "./element-page.ts";

const TAG = `<chorus-reviews-keywords store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews-keywords>`;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  await waitForAiContent(baseURL!);
});

test("axe finds nothing in the topics of a product with reviews", async ({ page }) => {
  await openElementPage(page, TAG);
  await expectElementAccessible(page, "chorus-reviews-keywords");
});

test("a keyword chip toggles pressed and sends chorus-keyword-selected with its keyword", async ({ page }) => {
  await openElementPage(page, TAG);
  const chip = page.locator("chorus-reviews-keywords [part~=chip]").first();
  await expect(chip).toHaveAttribute("aria-pressed", "false");
  const selected = page.evaluate(() => new Promise<unknown>((resolve) => document.addEventListener("chorus-keyword-selected", (e) => resolve((e as CustomEvent).detail), { once: true })));
  await chip.click();
  await expect(chip).toHaveAttribute("aria-pressed", "true");
  const { keyword } = (await selected) as { keyword: string };
  expect((await chip.textContent())!.trim().startsWith(keyword)).toBe(true);
});

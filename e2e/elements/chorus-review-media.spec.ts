/**
 * `<chorus-review-media>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-review-media>`):
 * axe first (grid and open lightbox), then a thumbnail opens the lightbox and Escape returns focus to it.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-review-media store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" limit="6"></chorus-review-media>`;

test("axe finds nothing in the media grid of a product with photos, nor in its open lightbox", async ({ page }) => {
  await openElementPage(page, TAG);
  await expectElementAccessible(page, "chorus-review-media");
  await page.locator("chorus-review-media [part=thumbnail]").first().click();
  await expect(page.locator("chorus-review-media [part=lightbox]")).toBeVisible();
  await expectElementAccessible(page, "chorus-review-media");
});

test("a thumbnail opens the lightbox; Escape closes it and focus returns to the thumbnail", async ({ page }) => {
  await openElementPage(page, TAG);
  const thumb = page.locator("chorus-review-media [part=thumbnail]").nth(1);
  await thumb.click();
  const lightbox = page.locator("chorus-review-media [part=lightbox]");
  await expect(lightbox).toBeVisible();
  await expect(lightbox.locator("[part=lightbox-review]")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(lightbox).toBeHidden();
  await expect(thumb).toBeFocused();
});

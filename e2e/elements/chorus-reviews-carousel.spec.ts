/**
 * `<chorus-reviews-carousel>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-reviews-carousel>`):
 * axe first, then "next" moves the "N of M" status. (The full keyboard, drag and autoplay journey: e2e/carousel.spec.ts.)
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="4" limit="5"></chorus-reviews-carousel>`;

test("axe finds nothing in a product's reviews carousel", async ({ page }) => {
  await openElementPage(page, TAG);
  await expectElementAccessible(page, "chorus-reviews-carousel");
});

test("the next button moves to the second slide and says so", async ({ page }) => {
  await openElementPage(page, TAG);
  const el = page.locator("chorus-reviews-carousel");
  await expect(el.locator("[part=status]")).toHaveText(/^1 of \d+$/);
  await el.locator("[part=next]").click();
  await expect(el.locator("[part=status]")).toHaveText(/^2 of \d+$/);
});

/**
 * `<chorus-reviews>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-reviews>`):
 * axe first (the list, then with the review form open), then the list shows the API's first page.
 */
import { expect, test, type Page } from "@playwright/test";
import type { ListReviewsResponse } from "../../server/contract/storefront.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>`;
const API = `/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}`;
const reviews = (page: Page) => page.locator("chorus-reviews");
const cards = (page: Page) => reviews(page).locator("article[part=card]");

test("axe finds nothing in the reviews of a product, nor with the review form open", async ({ page }) => {
  await openElementPage(page, TAG);
  await expect(cards(page).first()).toBeVisible();
  await expectElementAccessible(page, "chorus-reviews");
  await reviews(page).locator("[part=write-review]").click();
  await expect(page.locator("chorus-review-form [part=form]")).toBeVisible();
  await expectElementAccessible(page, "chorus-reviews");
});

test("the list shows the API's first page in its order", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/reviews`)).json()) as ListReviewsResponse;
  await openElementPage(page, TAG);
  await expect.poll(() => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-review-id")))).toEqual(api.reviews.map((r) => r.reviewId));
});

/**
 * `<chorus-star-rating>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-star-rating>`):
 * axe first, then the badge's accessible name matches the API's aggregate and `href` makes it a link.
 */
import { expect, test } from "@playwright/test";
import type { ReviewAggregateResponse } from "../../server/contract/storefront.ts";
import { formatRating } from "../../widgets/internal/rating.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-star-rating store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" href="#reviews"></chorus-star-rating>`;

test("axe finds nothing in the star badge of a product with reviews", async ({ page }) => {
  await openElementPage(page, TAG);
  await expectElementAccessible(page, "chorus-star-rating");
});

test("the badge names the API's average and count, and links to the reviews", async ({ page, request }) => {
  const { reviewAggregate } = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/review_aggregate`)).json()) as ReviewAggregateResponse;
  await openElementPage(page, TAG);
  const count = reviewAggregate.reviewCount;
  await expect(page.locator("chorus-star-rating").getByRole("img")).toHaveAccessibleName(`Rated ${formatRating(reviewAggregate.averageRating)} out of 5, ${count.toLocaleString("en")} reviews`);
  await expect(page.locator("chorus-star-rating [part=link]")).toHaveAttribute("href", "#reviews");
});

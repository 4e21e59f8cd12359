/**
 * `<chorus-reviews>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-reviews>`):
 * axe first (the list, then with the review form open), then the list shows the API's first page; the header
 * shows the average (large), its stars and the number of reviews beside the breakdown, whose rows filter by rating;
 * the vote buttons are light.
 */
import { expect, test, type Page } from "@playwright/test";
import type { ListReviewsResponse, ReviewAggregateResponse } from "../../server/contract/storefront.ts";
import { formatRating } from "../../widgets/internal/rating.ts";
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

test("the header shows the average large, its stars and the number of reviews, as the API's aggregate", async ({ page, request }) => {
  const { reviewAggregate } = (await (await request.get(`${API}/review_aggregate`)).json()) as ReviewAggregateResponse;
  await openElementPage(page, TAG);
  const score = reviews(page).locator("[part=score]");
  await expect(score.locator("[part=average]")).toHaveText(formatRating(reviewAggregate.averageRating));
  await expect(score.locator("[part=total]")).toHaveText(`${reviewAggregate.reviewCount.toLocaleString("en")} reviews`);
  await expect(score.locator("[part=stars]")).toBeVisible();
  await expect(score).toContainText(`Rated ${formatRating(reviewAggregate.averageRating)} out of 5`);
  // Large: the average is at least twice the text's size; the breakdown sits in the same header.
  const [average, body] = await Promise.all([score.locator("[part=average]"), cards(page).first().locator("[part=body]")].map((l) => l.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))));
  expect(average!).toBeGreaterThanOrEqual(2 * body!);
  await expect(reviews(page).locator("[part=header] [part=breakdown] [part=breakdown-row]")).toHaveCount(5);
});

test("a breakdown row filters the list by its rating, and pressing it again shows every review", async ({ page, request }) => {
  const oneStar = (await (await request.get(`${API}/reviews?rating=1`)).json()) as ListReviewsResponse;
  const all = (await (await request.get(`${API}/reviews`)).json()) as ListReviewsResponse;
  expect(oneStar.reviews.length).toBeGreaterThan(0);
  await openElementPage(page, TAG);
  const row = reviews(page).getByRole("button", { name: /^1 out of 5 stars: / });
  await row.click();
  await expect(row).toHaveAttribute("aria-pressed", "true");
  await expect.poll(() => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-review-id")))).toEqual(oneStar.reviews.map((r) => r.reviewId));
  for (const card of await cards(page).all()) await expect(card).toContainText("Rated 1 out of 5");
  await row.click();
  await expect(row).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-review-id")))).toEqual(all.reviews.map((r) => r.reviewId));
});

test("the vote buttons are light: no fill, no border until hovered, regular weight", async ({ page }) => {
  await openElementPage(page, TAG);
  const vote = cards(page).first().locator("[part=vote-button]").first();
  await expect(vote).toHaveText(/^Helpful/);
  const look = () =>
    vote.evaluate((el) => {
      const s = getComputedStyle(el);
      return { background: s.backgroundColor, border: s.borderTopColor, weight: s.fontWeight };
    });
  expect(await look()).toEqual({ background: "rgba(0, 0, 0, 0)", border: "rgba(0, 0, 0, 0)", weight: "400" });
  await vote.hover();
  expect((await look()).border).not.toBe("rgba(0, 0, 0, 0)");
});

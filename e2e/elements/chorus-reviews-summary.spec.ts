/**
 * `<chorus-reviews-summary>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-reviews-summary>`):
 * axe first, then the card shows the API's summary text, labelled as AI-generated.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT, waitForAiContent } from "./element-page.ts";

const TAG = `<chorus-reviews-summary store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews-summary>`;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  await waitForAiContent(baseURL!);
});

test("axe finds nothing in the summary of a product with reviews", async ({ page }) => {
  await openElementPage(page, TAG);
  await expectElementAccessible(page, "chorus-reviews-summary");
});

test("the card shows the API's summary, labelled as AI-generated", async ({ page, request }) => {
  const { reviewsSummary } = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/reviews_summary`)).json()) as { reviewsSummary: { body: string } };
  await openElementPage(page, TAG);
  const summary = page.locator("chorus-reviews-summary [part=summary]");
  await expect(summary.locator("[part=body]")).toHaveText(reviewsSummary.body);
  await expect(summary.locator("[part=label]")).toContainText(/AI/);
});

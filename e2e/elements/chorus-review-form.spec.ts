/**
 * `<chorus-review-form>` in Chromium with the demo store's real settings (docs/widgets.md, `<chorus-review-form>`):
 * axe first (empty, then with every error shown), then each error sits beside its field.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-review-form store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-review-form>`;
const form = (page: Page) => page.locator("chorus-review-form");

test("axe finds nothing in the review form, empty and with its errors shown", async ({ page }) => {
  await openElementPage(page, TAG);
  await expect(form(page).locator("[part=form]")).toBeVisible();
  await expectElementAccessible(page, "chorus-review-form");
  await form(page).locator("[part=submit]").click();
  await expect(form(page).locator("[part=error]").first()).toBeVisible();
  await expectElementAccessible(page, "chorus-review-form");
});

test("an empty submit names each missing field beside it", async ({ page }) => {
  await openElementPage(page, TAG);
  await form(page).locator("[part=submit]").click();
  await expect(form(page).locator("#crf-rating-error")).toHaveText("Choose a rating from 1 to 5 stars.");
  const body = form(page).getByRole("textbox", { name: "Your review (required)", exact: true });
  await expect(body).toHaveAttribute("aria-invalid", "true");
  await expect(body).toHaveAccessibleDescription("Write your review.");
  await expect(form(page).getByLabel("Name shown with your review (required)")).toHaveAccessibleDescription("Enter the name to show with your review.");
});

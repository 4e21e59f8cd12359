/**
 * `<chorus-review-form store-review>` in Chromium (docs/widgets.md `<chorus-review-form>`, "Rate our shop"): axe
 * first (empty, then with its errors), the store form asks nothing about a product (no recommendation, no photos),
 * the API's rules show beside their field, a failed send keeps the text and is retried, and a sent store review
 * lands in the admin's store reviews waiting for moderation (Google Shopping page).
 */
import { expect, test, type Page } from "@playwright/test";
import { realReviews } from "../../test/fixtures.ts";
import { signInAsDemoMerchant } from "../e2e-server.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./element-page.ts";

const TAG = `<chorus-review-form store-id="${DEMO_STORE_ID}" store-review></chorus-review-form>`;
const form = (page: Page) => page.locator("chorus-review-form");

test("axe finds nothing in the store review form, empty and with its errors shown", async ({ page }) => {
  await openElementPage(page, TAG);
  await expect(form(page).getByRole("form", { name: "Review the shop" })).toBeVisible();
  await expectElementAccessible(page, "chorus-review-form");
  await form(page).locator("[part=submit]").click();
  await expect(form(page).locator("#crf-rating-error")).toHaveText("Choose a rating from 1 to 5 stars.");
  await expect(form(page).getByRole("textbox", { name: "Your review of the shop (required)" })).toHaveAccessibleDescription("Write your review.");
  await expectElementAccessible(page, "chorus-review-form");
});

test("asks only about the shop, keyboard first; the API's rules and a failed send are shown, the retry sends it, and it lands in the admin", async ({ page }) => {
  test.setTimeout(120_000);
  const text = realReviews().find((r) => r.title && r.body.length > 80)!;
  const name = `Shop rater ${Date.now()}`;
  await openElementPage(page, TAG);
  const el = form(page);
  await expect(el.getByRole("group", { name: "Your rating of the shop (required)" })).toBeVisible();
  await expect(el.locator("[part=media-picker]")).toHaveCount(0);
  await expect(el.getByLabel("I recommend this product")).toHaveCount(0);

  // Keyboard only: Tab to the stars, arrow keys choose, Tab on through the fields.
  await el.getByRole("radio", { name: "1 star", exact: true }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(el.getByRole("radio", { name: "5 stars" })).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(el.locator("#crf-title")).toBeFocused();
  await page.keyboard.type(text.title);
  await page.keyboard.press("Tab");
  await page.keyboard.type(text.body);
  await page.keyboard.press("Tab");
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await page.keyboard.type(`shop-${Date.now()}@example.com`);

  // A name over 60 characters (typed past the input's own limit): the API's rule, checked before sending, beside the field.
  await el.locator("#crf-displayName").evaluate((input: HTMLInputElement) => {
    input.removeAttribute("maxlength");
    input.value = "x".repeat(61);
  });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  await el.locator("[part=submit]").click();
  await expect(el.locator("#crf-displayName-error")).toContainText("60");
  expect(posts).toEqual([]);
  await el.locator("#crf-displayName").fill(name);
  await expect(el.locator("#crf-displayName-error")).toHaveCount(0);

  // The network fails once: the error above the form, the text kept, and the next submit sends it.
  await page.route("**/store_reviews", (route) => route.abort("failed"), { times: 1 });
  await page.keyboard.press("Enter");
  await expect(el.locator(".form-error")).toBeVisible();
  await expect(el.locator("#crf-body")).toHaveValue(text.body);
  const submitted = page.evaluate(() => new Promise<unknown>((resolve) => document.addEventListener("chorus-review-submitted", (e) => resolve((e as CustomEvent).detail), { once: true })));
  const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/v1/stores/${DEMO_STORE_ID}/store_reviews`));
  await el.locator("[part=submit]").click();
  expect((await sent).postDataJSON()).toEqual({ rating: 5, title: text.title, body: text.body, displayName: name, email: expect.stringMatching(/^shop-\d+@example\.com$/), website: "" });
  await expect(el.locator("[part=message]")).toContainText("awaits moderation");
  expect(await submitted).toMatchObject({ status: "pending", storeReview: true });
  await expectElementAccessible(page, "chorus-review-form");

  // It lands in the admin: waiting for moderation on the Google Shopping page.
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/google-shopping`);
  const item = page.getByRole("list", { name: "Store reviews waiting for moderation" }).getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText("5 of 5");
  await expect(item).toContainText(text.title);
  await expect(item).not.toContainText("verified buyer");
});

/**
 * `<chorus-review-form>` in Chromium with the demo store's real settings (docs/widgets.md, `<chorus-review-form>`):
 * axe first (empty, then with every error shown), then each error sits beside its field and goes as the field is
 * corrected, and an attached photo shows as a thumbnail without the file input's own text.
 */
import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT } from "./element-page.ts";

const TAG = `<chorus-review-form store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-review-form>`;
const form = (page: Page) => page.locator("chorus-review-form");
/** An 8×8 PNG photo. */
const PNG = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } }).png().toBuffer();

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

test("an error goes as its field is corrected; the other fields keep theirs", async ({ page }) => {
  await openElementPage(page, TAG);
  const el = form(page);
  await el.locator("[part=submit]").click();
  const body = el.locator("#crf-body");
  const email = el.locator("#crf-email");
  await expect(body).toHaveAttribute("aria-invalid", "true");
  await body.fill("Fits well and the fabric is soft.");
  await expect(body).toHaveAttribute("aria-invalid", "false");
  await expect(el.locator("#crf-body-error")).toHaveCount(0);
  await expect(el.locator("#crf-displayName-error")).toHaveText("Enter the name to show with your review.");
  // The e-mail's message follows what is typed: not valid yet, then gone.
  await email.fill("shopper@");
  await expect(el.locator("#crf-email-error")).toHaveText(/valid e-mail address/);
  await email.fill("shopper@example.com");
  await expect(el.locator("#crf-email-error")).toHaveCount(0);
  // The rating's error goes with a star chosen.
  await el.getByRole("radio", { name: "4 stars" }).check();
  await expect(el.locator("#crf-rating-error")).toHaveCount(0);
  // A field without an error shows none while typing.
  await el.locator("#crf-title").fill("x".repeat(10));
  await expect(el.locator("#crf-title-error")).toHaveCount(0);
});

test("an attached photo shows as a thumbnail; the file input's own text is not shown, its label is the button", async ({ page }) => {
  await openElementPage(page, TAG);
  const el = form(page);
  const picker = el.locator("[part=media-picker]");
  await expect(picker).toHaveText("Add photos or a video");
  const chooser = page.waitForEvent("filechooser");
  await picker.click();
  await (await chooser).setFiles({ name: "dress.png", mimeType: "image/png", buffer: PNG });
  const thumb = el.getByRole("img", { name: "Preview of dress.png" });
  await expect(thumb).toBeVisible();
  expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  const box = await el.locator("#crf-media").boundingBox();
  expect(box === null || (box.width <= 1 && box.height <= 1), "the native file input takes no visible space").toBe(true);
  await expect(el.getByLabel("Add photos or a video")).toHaveCount(1);
  await expectElementAccessible(page, "chorus-review-form");
});

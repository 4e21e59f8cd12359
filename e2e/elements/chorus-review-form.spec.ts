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
const PNG = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } })
  .png()
  .toBuffer();

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

test("after a review, the store's post-review survey follows in the form's thank-you state and is answered in place (axe 0)", async ({ page, baseURL }) => {
  const ATTRIBUTION = "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a";
  const email = `post-review-${Date.now()}@example.com`;
  await openElementPage(page, TAG);
  const el = form(page);
  // The survey's code is loaded on demand, only after the review: not before.
  expect(await page.evaluate(() => customElements.get("chorus-survey") === undefined)).toBe(true);
  await el.getByRole("radio", { name: "5 stars" }).check();
  await el.locator("#crf-body").fill("Soft fabric, true to size, and it washes well.");
  await el.getByLabel("Name shown with your review (required)").fill("Post Review");
  await el.locator("#crf-email").fill(email);
  await el.locator("[part=submit]").click();
  await expect(el.locator("[part=message]")).toBeVisible();
  const survey = el.locator("chorus-survey");
  await expect(survey).toHaveAttribute("email", email);
  await expect(survey.getByText("Question 1 of 8")).toBeVisible();
  await expectElementAccessible(page, "chorus-review-form");
  await survey.getByRole("radio", { name: "Podcast" }).check();
  const next = survey.locator("[part=next]");
  for (let step = 2; step <= 8; step++) {
    await next.click();
    await expect(survey.getByText(`Question ${step} of 8`)).toBeVisible();
  }
  await expect(next).toHaveText("Send answers");
  await next.click();
  await expect(survey.locator("[part=message]")).toContainText("Thank you for your answers!");
  await expectElementAccessible(page, "chorus-review-form");
  const res = await fetch(`${baseURL}/enterprise/surveys/${ATTRIBUTION}/responses?limit=5`, {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}` },
  });
  const listed = ((await res.json()) as { surveyResponses: { channel: string; customer?: { email?: string }; answeredQuestions: { type: string; answer: unknown }[] }[] }).surveyResponses;
  const mine = listed.find((r) => r.customer?.email === email)!;
  expect(mine.channel).toBe("post-review");
  // The survey's e-mail question starts filled in with the reviewer's address (the element's `email`).
  expect(mine.answeredQuestions).toEqual([expect.objectContaining({ type: "single-select", answer: "Podcast" }), expect.objectContaining({ type: "email", answer: email })]);
});

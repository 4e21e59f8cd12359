/**
 * Review form product attributes in Chromium (issue #23 item 2): the demo merchant configures a "Fit" scale
 * on the admin widgets page (a bad label first: the error beside the field), the review form on a shop page
 * asks it (a radio group answered with the arrow keys), the review waits for moderation, the merchant
 * publishes it, and its card shows the answer; required attributes (a choice as a select, a scale without
 * a middle label) are checked in the form, each error beside its attribute. Axe in every state. The demo
 * store's attributes are cleared at the end (other specs submit reviews without them).
 */
import { expect, test, type Page } from "@playwright/test";
import { reviewsRepo } from "../server/reviews/reviews.repo.ts";
import { storesRepo } from "../server/stores/stores.repo.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { run, sql, value } from "../server/db/database.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const PRODUCT_ID = "7301";
const PRODUCT = `shopify-${PRODUCT_ID}`;
const PAGE = "/e2e/review-attributes-page";
const TITLE = "Linen shirt that runs small";

const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Review attributes test page</title>
<script async src="/widgets/chorus.js"></script></head><body><main>
<h1>Linen shirt</h1>
<section aria-labelledby="h-form"><h2 id="h-form">Write a review</h2>
<chorus-review-form store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-review-form></section>
<section aria-labelledby="h-reviews"><h2 id="h-reviews">Reviews</h2>
<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews></section>
</main></body></html>`;

async function openShopPage(page: Page): Promise<void> {
  await page.route(`**${PAGE}`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto(PAGE);
}

const clearAttributes = () => withE2eDb((db) => run(db, sql`UPDATE widget_settings SET review_form_attributes_json = '[]' WHERE store_id = ${DEMO_STORE_ID}`));

test.beforeAll(async () => {
  await withE2eDb((db) => storesRepo(db).upsertProduct({ storeId: DEMO_STORE_ID, productId: PRODUCT_ID, name: "Linen shirt" }));
});
test.afterAll(() => clearAttributes());

test("the merchant adds a Fit scale, a shopper answers it with the keyboard, and the published review's card shows it", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/widgets`);
  const section = page.locator("form", { has: page.getByRole("button", { name: "Save review form attributes" }) });
  await expect(section.getByLabel("Kind")).toHaveValue("scale");
  await section.getByLabel("Title").fill("Fit");
  await section.getByLabel("Label of 1 (low end)").fill("<b>Runs small</b>");
  await section.getByLabel("Label of 3 (middle, optional)").fill("True to size");
  await section.getByLabel("Label of 5 (high end)").fill("Runs large");
  await section.getByRole("button", { name: "Save review form attributes" }).click();
  // The error beside the field, announced with it; nothing saved.
  const low = page.getByLabel("Label of 1 (low end)");
  await expect(low).toHaveAttribute("aria-invalid", "true");
  await expect(low).toHaveAccessibleDescription(/must not contain < or >/);
  await expectNoAxeViolations(page);
  await low.fill("Runs small");
  await page.getByRole("button", { name: "Save review form attributes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review form attributes saved." })).toBeVisible();
  await expect(page.getByRole("group", { name: "Attribute 1: Fit" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The shop page: the form asks Fit as a radio group with the merchant's labels.
  await openShopPage(page);
  const form = page.locator("chorus-review-form");
  const fit = form.getByRole("group", { name: "Fit" });
  await expect(fit).toBeVisible();
  await expect(fit.getByRole("radio")).toHaveCount(5);
  await expect(fit.getByText("Runs small", { exact: true })).toBeVisible();
  await expect(fit.getByText("True to size", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // Keyboard: focus the scale, arrows move the choice.
  await fit.getByRole("radio", { name: /^1\s*,\s*Runs small$/ }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(fit.getByRole("radio", { name: /^3\s*,\s*True to size$/ })).toBeChecked();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(fit.getByRole("radio", { name: /^1\s*,\s*Runs small$/ })).toBeChecked();

  await form.getByRole("radio", { name: "4 stars" }).check();
  await form.getByLabel("Title", { exact: true }).fill(TITLE);
  await form.getByLabel("Your review (required)", { exact: true }).fill("Lovely linen, but order one size up: the shoulders are tight.");
  await form.getByLabel("Name shown with your review (required)").fill("Ines");
  await form.getByLabel("E-mail (required, never shown)").fill("ines@example.com");
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/products/${PRODUCT}/reviews`));
  await form.getByRole("button", { name: "Submit review" }).click();
  const body = (await posted).postData() ?? "";
  expect(body).toContain(JSON.stringify([{ title: "Fit", value: 1 }]));
  await expect(form.getByRole("status")).toContainText("awaits moderation");
  await expectNoAxeViolations(page);

  // The merchant publishes it.
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/reviews`);
  const item = page.getByRole("article", { name: TITLE });
  await item.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review published." })).toBeVisible();

  // The card shows the answer on the scale.
  await openShopPage(page);
  const card = page.locator("chorus-reviews").getByRole("article").filter({ hasText: TITLE });
  await expect(card).toBeVisible();
  await expect(card.locator('[part="attribute-scale"]')).toContainText("Fit");
  await expect(card.locator('[part="attribute-scale"]')).toContainText("Runs small");
  const reviewId = (await withE2eDb((db) => value<string>(db, sql`SELECT review_id FROM reviews WHERE store_id = ${DEMO_STORE_ID} AND product_id = ${PRODUCT_ID} AND title = ${TITLE}`)))!;
  await expectNoAxeViolations(page);

  const api = await (await page.request.get(`/v1/stores/${DEMO_STORE_ID}/reviews/${reviewId}`)).json();
  expect(api.review.attributesWithRating).toEqual([{ title: "Fit", type: "centered-range", value: -1, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }]);
  await withE2eDb((db) => reviewsRepo(db).setStatus(DEMO_STORE_ID, reviewId, "rejected"));
});

test("required attributes: the form says which is missing beside it; a choice is a select of the merchant's options", async ({ page }) => {
  const attributes = [
    { kind: "choice", title: "Size bought", options: ["S", "M", "L"], required: true },
    { kind: "scale", title: "Quality", minLabel: "Poor", midLabel: "", maxLabel: "Excellent", required: true },
  ];
  await withE2eDb((db) =>
    run(
      db,
      sql`INSERT INTO widget_settings (store_id, review_form_attributes_json, updated_ms) VALUES (${DEMO_STORE_ID}, ${JSON.stringify(attributes)}, ${Date.now()})
     ON CONFLICT (store_id) DO UPDATE SET review_form_attributes_json = excluded.review_form_attributes_json, updated_ms = excluded.updated_ms`,
    ),
  );
  await openShopPage(page);
  const form = page.locator("chorus-review-form");
  const size = form.getByRole("combobox", { name: "Size bought (required)" });
  await expect(size).toBeVisible();
  await expect(size.getByRole("option")).toHaveText(["Choose…", "S", "M", "L"]);
  await form.getByRole("radio", { name: "5 stars" }).check();
  await form.getByLabel("Your review (required)", { exact: true }).fill("Well made; the collar keeps its shape after washing.");
  await form.getByLabel("Name shown with your review (required)").fill("Omar");
  await form.getByLabel("E-mail (required, never shown)").fill("omar@example.com");
  await form.getByRole("button", { name: "Submit review" }).click();
  await expect(size).toHaveAttribute("aria-invalid", "true");
  await expect(size).toHaveAccessibleDescription("Choose an answer for Size bought.");
  const quality = form.getByRole("group", { name: "Quality (required)" });
  await expect(quality).toHaveAccessibleDescription("Choose an answer for Quality.");
  await expectNoAxeViolations(page);

  await size.selectOption("M");
  await quality.getByRole("radio", { name: /^4$/ }).check();
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/products/${PRODUCT}/reviews`));
  await form.getByRole("button", { name: "Submit review" }).click();
  const body = (await posted).postData() ?? "";
  expect(body).toContain(JSON.stringify([{ title: "Quality", value: 4 }]));
  expect(body).toContain(JSON.stringify([{ title: "Size bought", value: "M" }]));
  await expect(form.getByRole("status")).toContainText("Thank you!");
  await withE2eDb((db) => run(db, sql`UPDATE reviews SET status = 'rejected' WHERE store_id = ${DEMO_STORE_ID} AND product_id = ${PRODUCT_ID} AND reviewer_name = 'Omar'`));
});

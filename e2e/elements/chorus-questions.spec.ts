/**
 * `<chorus-questions>` in Chromium on the demo store's real data (docs/widgets.md, `<chorus-questions>`):
 * axe first (list, then the open form), then the list shows the API's questions and an empty form names its errors.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./element-page.ts";

/** The demo product with published questions and answers (e2e/writes.spec.ts). */
const PRODUCT = "shopify-B00004U9JP";
const TAG = `<chorus-questions store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-questions>`;

test("axe finds nothing in the questions of a product with answers, nor in the open form", async ({ page }) => {
  await openElementPage(page, TAG);
  await expect(page.locator("chorus-questions [part=question]").first()).toBeVisible();
  await expectElementAccessible(page, "chorus-questions");
  await page.locator("chorus-questions").getByRole("button", { name: "Ask a question" }).click();
  await expect(page.locator("chorus-questions [part=form]")).toBeVisible();
  await expectElementAccessible(page, "chorus-questions");
});

test("the list shows the API's first questions; an empty question is refused beside its field", async ({ page, request }) => {
  const api = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/questions`)).json()) as { questions: { body: string }[] };
  await openElementPage(page, TAG);
  const questions = page.locator("chorus-questions [part=question]");
  await expect(questions).toHaveCount(api.questions.length);
  await expect(questions.first()).toContainText(api.questions[0]!.body);
  const el = page.locator("chorus-questions");
  await el.getByRole("button", { name: "Ask a question" }).click();
  await el.locator("[part=form] [type=submit]").click();
  await expect(el.locator("#cq-body")).toHaveAttribute("aria-invalid", "true");
});

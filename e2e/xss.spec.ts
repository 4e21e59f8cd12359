/**
 * XSS (issue 8, security checks): hostile HTML in every text field a shopper or merchant can fill —
 * review title, body, reviewer name, merchant reply, question, store answer — is shown as text by the
 * widgets and the admin, in Chromium: nothing executes and no injected element appears.
 */
import { expect, test, type Page } from "@playwright/test";
import { createServices } from "../server/services.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const port = process.env.E2E_PORT ?? 3111;
const dbDir = process.env.E2E_DB_DIR ?? `/tmp/chorus-e2e-${port}`;
const PAYLOADS = {
  title: `<img src=x onerror="window.__xss='title'">Hostile title`,
  body: `<script>window.__xss='body'</script>Hostile body <svg onload="window.__xss='svg'"></svg>`,
  name: `<b onmouseover="window.__xss='name'">Eve</b>`,
  reply: `<iframe src="javascript:window.__xss='reply'"></iframe>Hostile reply`,
  question: `<img src=x onerror="window.__xss='question'">Hostile question?`,
  answer: `<script>window.__xss='answer'</script>Hostile answer`,
};

test.beforeAll(async () => {
  const services = await createServices({ databasePath: `${dbDir}/chorus.sqlite`, mediaPath: `${dbDir}/media` });
  try {
    const reviewId = crypto.randomUUID();
    await services.reviewsData.insert({
      reviewId,
      storeId: DEMO_STORE_ID,
      productId: "1078",
      rating: 2,
      title: PAYLOADS.title,
      body: PAYLOADS.body,
      createdMs: Date.now() + 3_600_000,
      status: "published",
      reviewerName: PAYLOADS.name,
      reviewerEmail: "eve@example.test",
    });
    await services.moderation.setReply(DEMO_STORE_ID, reviewId, PAYLOADS.reply);
    const questionId = crypto.randomUUID();
    await services.questionsData.insertQuestion({
      questionId,
      storeId: DEMO_STORE_ID,
      productId: "1078",
      body: PAYLOADS.question,
      askerName: PAYLOADS.name,
      status: "published",
      createdMs: Date.now() + 3_600_000,
    });
    await services.questions.answerAsStore({ storeId: DEMO_STORE_ID, questionId, body: PAYLOADS.answer, authorName: "Chorus Demo Boutique", status: "published" });
  } finally {
    await services.close();
  }
});

/** Fail on any dialog, and record whether any payload ran or any injected element exists (also in shadow roots). */
function watch(page: Page) {
  page.on("dialog", (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
}
async function injected(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll("*")) {
        if (el.matches("img[src=x], iframe, script:not([src]):not([type]), svg[onload], [onerror], [onload], [onmouseover]") && !el.closest("head")) {
          // A payload that became a script element starts with its code (Remix's own data scripts carry it JSON-escaped).
          if (el.matches("script") && (el.textContent ?? "").trim().startsWith("window.__xss")) found.push(el.outerHTML.slice(0, 80));
          else if (!el.matches("script")) found.push(el.outerHTML.slice(0, 80));
        }
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return { ran: (window as unknown as { __xss?: string }).__xss ?? null, found };
  });
}

test("hostile review, reply, question and answer text render as text in the widgets", async ({ page }) => {
  watch(page);
  await page.goto("/demo/products/shopify-1078");
  const reviews = page.locator("chorus-reviews");
  await expect(reviews.getByText("Hostile body", { exact: false }).first()).toBeVisible();
  await expect(reviews.getByText(PAYLOADS.title, { exact: false }).first()).toBeVisible();
  await expect(reviews.getByText("Hostile reply", { exact: false }).first()).toBeVisible();
  const questions = page.locator("chorus-questions");
  await expect(questions.getByText(PAYLOADS.question, { exact: false }).first()).toBeVisible();
  await expect(questions.getByText("Hostile answer", { exact: false }).first()).toBeVisible();
  await page.mouse.move(10, 10);
  expect(await injected(page)).toEqual({ ran: null, found: [] });
  await expectNoAxeViolations(page);
});

test("the hostile review and reply render as text in the admin", async ({ page }) => {
  watch(page);
  await page.goto("/admin");
  await page.getByLabel("E-mail").fill("demo@chorus.test");
  await page.getByLabel("Password").fill("e2e-admin-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/reviews?status=published&product=1078`);
  await expect(page.getByText(PAYLOADS.title, { exact: false }).first()).toBeVisible();
  await expect(page.getByText("Hostile reply", { exact: false }).first()).toBeVisible();
  expect(await injected(page)).toEqual({ ran: null, found: [] });
});

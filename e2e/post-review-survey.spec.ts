/**
 * The post-review survey on the hosted review page without JavaScript (issue #36, docs/surveys.md "Post-review"): a
 * shopper opens a review-request link, writes the review, and the store's post-review survey follows in place under
 * the thank-you, as a plain form posting back to the review page: one submit with nothing answered shows its problem
 * in place, the next is stored with channel `post-review`, the review request's address and its order.
 */
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { one, sql } from "../server/db/database.ts";
import { reviewRequestsRepo } from "../server/review-requests/review-requests.repo.ts";
import { hashToken, newToken, REVIEW_LINK_TTL_MS } from "../server/review-requests/tokens.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { withE2eDb } from "./e2e-server.ts";

/** The demo store's "Post-purchase attribution" survey, whose post-review channel survey follows a review. */
const ATTRIBUTION = "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a";
type Listed = { channel: string; customer?: { email?: string }; order?: { remoteOrderId: string }; answeredQuestions: { type: string; answer: unknown }[] };

/** A review request of the demo store for one of its products, as the scheduler makes it, and its review link's path. */
async function reviewLink(email: string, orderId: string): Promise<string> {
  return withE2eDb(async (db) => {
    const repo = reviewRequestsRepo(db);
    const product = (await one<{ product_id: string }>(db, sql`SELECT product_id FROM products WHERE store_id = ${DEMO_STORE_ID} ORDER BY product_id LIMIT 1`))!;
    const now = Date.now();
    const requestId = randomUUID();
    const request = { request_id: requestId, store_id: DEMO_STORE_ID, order_id: orderId, email, customer_name: "Ada Shopper", locale: "en", fulfilled_ms: now, created_ms: now };
    expect(await repo.insertRequest({ ...request, status: "sent", skip_reason: null, next_step: null, due_ms: null })).toBe(true);
    await repo.insertProduct(requestId, DEMO_STORE_ID, product.product_id, 0);
    const token = newToken();
    await repo.insertToken({
      token_hash: hashToken(token),
      request_id: requestId,
      store_id: DEMO_STORE_ID,
      purpose: "review",
      product_id: product.product_id,
      created_ms: now,
      expires_ms: now + REVIEW_LINK_TTL_MS,
    });
    return `/r/${token}`;
  });
}

test("after a review on the hosted review page, the post-review survey is answered in place without JavaScript (axe 0)", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const email = `no-js-post-review-${Date.now()}@example.com`;
  const orderId = String(Date.now());
  const path = await reviewLink(email, orderId);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  // axe runs inside the page, which it cannot with JavaScript off: each state is scanned in a second page with JavaScript
  // on for axe but every page script blocked (no widget, no hydration), so it shows the same plain form.
  const scanning = await browser.newContext({ baseURL });
  await scanning.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
  const mirror = await scanning.newPage();
  const scan = async (url: string, post?: (p: Page) => Promise<void>) => {
    await mirror.goto(url);
    if (post) await post(mirror);
    expect(await mirror.evaluate(() => customElements.get("chorus-survey") === undefined), "the element is not upgraded").toBe(true);
    await expectNoAxeViolations(mirror);
  };

  await page.goto(path);
  await page.getByLabel("5 stars").check();
  await page.getByLabel("Your review (required)", { exact: true }).fill("Warm, soft and well made: I wear it every day.");
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for your review!" })).toBeVisible();

  // The survey follows in place: a plain form (no link away), posting back to the review page.
  const section = page.locator("section.follow-up");
  await expect(section.getByRole("heading", { level: 2, name: "Post-purchase attribution" })).toBeVisible();
  const form = section.locator("chorus-survey form");
  await expect(form).toBeVisible();
  await expect(section.getByRole("link", { name: "Answer the survey" })).toHaveCount(0);
  const thankYou = page.url();
  expect(new URL(thankYou).pathname).toBe(path);
  await scan(thankYou);

  // Nothing answered: the problem at the first question, on the review page, nothing stored.
  await form.getByRole("button", { name: "Send answers" }).click();
  await expect(page).toHaveURL((u) => u.pathname === path);
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for your review!" })).toBeVisible();
  await expect(section.getByRole("alert")).toContainText("The answers were not sent");
  const first = form.locator("fieldset").first();
  await expect(first).toHaveAttribute("aria-describedby", /^e-/);
  await expect(first.locator(".field-error")).toBeVisible();
  await scan(thankYou, async (p) => {
    await p.locator("section.follow-up chorus-survey form").getByRole("button", { name: "Send answers" }).click();
    await expect(p.locator("section.follow-up").getByRole("alert")).toContainText("The answers were not sent");
  });
  await scanning.close();

  // Answered: the thank-you of the survey, still on the review page.
  await form.getByRole("radio", { name: "Podcast" }).check();
  await form.getByRole("button", { name: "Send answers" }).click();
  await expect(section.getByRole("heading", { level: 2, name: "Thank you for your answers!" })).toBeVisible();
  await expect(page).toHaveURL((u) => u.pathname === path && u.searchParams.has("answered"));
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for your review!" })).toBeVisible();

  const res = await fetch(`${baseURL}/enterprise/surveys/${ATTRIBUTION}/responses?limit=10`, {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}` },
  });
  expect(res.status).toBe(200);
  const mine = ((await res.json()) as { surveyResponses: Listed[] }).surveyResponses.filter((r) => r.customer?.email === email);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ channel: "post-review", customer: { email }, order: { remoteOrderId: orderId } });
  expect(mine[0]!.answeredQuestions).toEqual([expect.objectContaining({ type: "single-select", answer: "Podcast" })]);
  await context.close();
});

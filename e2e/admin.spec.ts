/**
 * Merchant admin journeys in Chromium against the production server over the seeded demo database:
 * sign in as the demo merchant, publish a pending review and see it on the storefront API, reply to
 * it, change settings, create and revoke an API key; axe on every admin page; the core flow without JS.
 */
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { apiKeys } from "../server/auth/api-keys.ts";
import { isApiError } from "../server/contract/errors.ts";
import { reviewsRepo } from "../server/reviews/reviews.repo.ts";
import { realReviews } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { DEMO_ADMIN, signInAsDemoMerchant as signIn, withE2eDb as withDb } from "./e2e-server.ts";

const { email: EMAIL } = DEMO_ADMIN;
const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;

/**
 * Insert a pending review into the demo store through the real repo function. Its text is a real
 * review from the shared data (index `index`), on that review's product, dated now (so it is newest).
 */
async function insertPendingReview(index: number): Promise<{ reviewId: string; productId: string; title: string }> {
  const real = realReviews().filter((r) => r.title && r.body)[index];
  const reviewId = randomUUID();
  await withDb(async (db) => {
    await reviewsRepo(db).insert({
      reviewId,
      storeId: DEMO_STORE_ID,
      productId: real.productId,
      rating: real.rating,
      title: real.title,
      body: real.body,
      createdMs: Date.now() + 60_000,
      status: "pending",
      reviewerName: "E2E shopper",
      reviewerEmail: "shopper@example.test",
    });
  });
  return { reviewId, productId: real.productId, title: real.title };
}

type ApiReview = { reviewId: string; reply?: { body: string } };
async function storefrontReviews(page: Page, productId: string): Promise<ApiReview[]> {
  const res = await page.request.get(`/v1/stores/${DEMO_STORE_ID}/products/shopify-${productId}/reviews?orderBy=${encodeURIComponent("date desc")}&limit=5`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { reviews: ApiReview[] }).reviews;
}

test("the sign-in page has no axe violations and a wrong password shows a clear message", async ({ page }) => {
  await page.goto("/admin/login");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Chorus" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("E-mail").fill(EMAIL);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("E-mail or password is wrong.");
  await expectNoAxeViolations(page);
});

test("publish a pending review, see it on the storefront API, reply and see the reply there", async ({ page }) => {
  const pending = await insertPendingReview(3);
  expect((await storefrontReviews(page, pending.productId)).map((r) => r.reviewId)).not.toContain(pending.reviewId);

  await signIn(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Moderation" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Reviews waiting for moderation" })).toBeVisible();
  const item = page.getByRole("article", { name: pending.title });
  await expect(item).toBeVisible();
  await expectNoAxeViolations(page);

  await item.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review published." })).toBeVisible();
  await expect(page.getByRole("article", { name: pending.title })).toHaveCount(0);
  await expectNoAxeViolations(page);
  expect((await storefrontReviews(page, pending.productId)).map((r) => r.reviewId)).toContain(pending.reviewId);

  // Reply from the published list, filtered to the product.
  await page.getByLabel("Status").selectOption("published");
  await page.getByLabel("Product ID").fill(`shopify-${pending.productId}`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  const published = page.getByRole("article", { name: pending.title }).first();
  await published.getByText("Reply publicly").click();
  const reply = "Thank you for the detailed review! We passed your sizing notes to our buyers.";
  await published.getByLabel(/Public reply/).fill(reply);
  await published.getByRole("button", { name: "Save reply" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reply saved." })).toBeVisible();
  await expect(page.getByRole("article", { name: pending.title }).first().locator(".reply-body")).toHaveText(reply);
  await expectNoAxeViolations(page);
  const served = (await storefrontReviews(page, pending.productId)).find((r) => r.reviewId === pending.reviewId);
  expect(served?.reply?.body).toBe(reply);
});

test("bulk reject with checkboxes and one submit", async ({ page }) => {
  const a = await insertPendingReview(10);
  const b = await insertPendingReview(11);
  await signIn(page);
  await page.goto(`${ADMIN}/reviews`);
  await page.getByRole("checkbox", { name: a.title }).check();
  await page.getByRole("checkbox", { name: b.title }).check();
  await page.getByLabel("Reason for rejecting").selectOption("spam");
  await page.getByRole("button", { name: "Reject selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "2 reviews rejected." })).toBeVisible();
  await page.goto(`${ADMIN}/reviews?status=rejected`);
  await expect(page.getByRole("article", { name: a.title }).first()).toBeVisible();
});

test("create an API key (shown once), revoke it, and it no longer authenticates", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Integration" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Integration" })).toBeVisible();
  await expect(page.locator("#widget-snippet")).toContainText(`<chorus-reviews store-id="${DEMO_STORE_ID}"`);
  await expect(page.locator("#widget-snippet")).toContainText("/widgets/chorus.js");
  await expect(page.getByRole("button", { name: "Copy snippet" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Name of the new key").fill("E2E warehouse");
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = (await page.locator("#new-key").textContent())!.trim();
  expect(key).toMatch(/^chk_/);
  await expectNoAxeViolations(page);
  const basic = `Basic ${Buffer.from(`${DEMO_STORE_ID}:${key}`).toString("base64")}`;
  expect(await withDb(async (db) => await apiKeys(db).authenticateBasic(basic))).toBe(DEMO_STORE_ID);

  await page.getByRole("button", { name: "Revoke E2E warehouse" }).click();
  await expect(page.getByRole("status").filter({ hasText: "API key revoked." })).toBeVisible();
  await expect(page.getByRole("row", { name: /E2E warehouse/ })).toContainText("Revoked");
  await expect(page.locator("#new-key")).toHaveCount(0);
  // The enterprise survey route is not in this build yet: assert the Basic-auth semantics it uses.
  const error = await withDb(async (db) => {
    try {
      await apiKeys(db).authenticateBasic(basic);
      return null;
    } catch (e) {
      return e;
    }
  });
  expect(isApiError(error) && error.status).toBe(401);
  const enterprise = await page.request.get("/enterprise/surveys/any/responses", { headers: { authorization: basic } });
  if (enterprise.status() !== 404) expect(enterprise.status()).toBe(401);
});

test("settings: save translation and a group's content switch", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await expectNoAxeViolations(page);
  await page.getByLabel(/On load: translate/).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByLabel(/On load: translate/)).toBeChecked();
  const group = page.getByRole("group", { name: "Use group-level content for" }).getByRole("checkbox").first();
  await group.check();
  await page.getByRole("button", { name: "Save group settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Group content settings saved." })).toBeVisible();
  await expect(page.getByRole("group", { name: "Use group-level content for" }).getByRole("checkbox").first()).toBeChecked();
  await expectNoAxeViolations(page);
  await page.getByLabel(/Off: show reviews as written/).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
});

test("every section is reachable from the navigation, has one h1, and no axe violations", async ({ page }) => {
  await signIn(page);
  await expectNoAxeViolations(page);
  for (const [link, heading] of [
    ["Surveys", "Surveys"],
    ["Questions", "Questions"],
    ["AI content", "AI content"],
    ["Rules and tiers", "Loyalty"],
    ["Moderation", "Reviews"],
    ["Store settings", "Settings"],
    ["Integration", "Integration"],
  ]) {
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByRole("link", { name: link, exact: true })).toHaveAttribute("aria-current", "page");
    await expectNoAxeViolations(page);
  }
  await expect(page.getByText("Not available yet.")).toHaveCount(0);
});

test("the skip link moves focus to the content; an unknown store shows a friendly 404", async ({ page }) => {
  await signIn(page);
  await page.goto(`${ADMIN}/reviews`);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  const res = await page.goto("/admin/stores/00000000-0000-4000-8000-000000000000/reviews");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("sign out ends the session", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.goto(`${ADMIN}/reviews`);
  await expect(page).toHaveURL(/\/admin\/login\?next=/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign in and publish a pending review with plain HTML forms", async ({ page }) => {
    const pending = await insertPendingReview(20);
    await signIn(page);
    await page.goto(`${ADMIN}/reviews`);
    await page.getByRole("article", { name: pending.title }).getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Review published." })).toBeVisible();
    expect((await storefrontReviews(page, pending.productId)).map((r) => r.reviewId)).toContain(pending.reviewId);
    // The copy button is an enhancement: without JS the snippet is plain text and no dead button shows.
    await page.goto(`${ADMIN}/integration`);
    await expect(page.locator("#widget-snippet")).toContainText("chorus.js");
    await expect(page.getByRole("button", { name: "Copy snippet" })).toHaveCount(0);
  });
});

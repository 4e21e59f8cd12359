/**
 * "Rate the shop" in review requests, in Chromium with JavaScript off (docs/review-requests.md "Rate the shop"): the
 * merchant ticks "Also ask for a shop rating" in the admin; a fulfilled order's e-mailed link opens the hosted page,
 * the product review's thank-you page offers the shop rating (plain form posts, axe 0 in each state), a missing rating
 * is shown beside its field, the rating is stored as a verified store review (waiting for moderation on the Google
 * Shopping page), and a second visit says the shop is already rated.
 */
import { expect, test } from "@playwright/test";
import { openDatabase } from "../server/db/database.ts";
import { mailRepo } from "../server/mail/mail.repo.ts";
import { mailService } from "../server/mail/mail.service.ts";
import { reviewRequestsRepo } from "../server/review-requests/review-requests.repo.ts";
import { reviewRequestsService } from "../server/review-requests/review-requests.service.ts";
import type { SubmissionsService } from "../server/reviews/submissions.service.ts";
import { storesRepo } from "../server/stores/stores.repo.ts";
import { realReviews } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { E2E_DB_PATH, signInAsDemoMerchant } from "./e2e-server.ts";
import { waitForMail } from "./mailbox.ts";

/** The review-request schedule over the e2e server's database (as e2e/review-requests.spec.ts): queue and send, at the test's moment. */
async function withSchedule<T>(fn: (service: ReturnType<typeof reviewRequestsService>) => Promise<T>): Promise<T> {
  const db = await openDatabase(E2E_DB_PATH);
  try {
    const mail = mailService({ db, repo: mailRepo(db), sending: true, now: Date.now, secret: "e2e-review-requests" } as Parameters<typeof mailService>[0]);
    return await fn(reviewRequestsService({ db, repo: reviewRequestsRepo(db), stores: storesRepo(db), mail, submissions: {} as SubmissionsService }));
  } finally {
    await db.close();
  }
}

test("with the setting on, the review page's thank-you step rates the shop once, without JavaScript (axe 0)", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  // The merchant's setting, in the admin.
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/review-requests`);
  await page.getByLabel("Send review requests after orders are fulfilled").check();
  await page.getByLabel("Days after fulfilment before the request").fill("0");
  await page.getByLabel("Send nothing during these hours (messages wait until they end)").uncheck();
  await page.getByLabel("Also ask for a shop rating").check();
  await page.getByRole("button", { name: "Save review-request settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review-request settings saved." })).toBeVisible();
  await expect(page.getByLabel("Also ask for a shop rating")).toBeChecked();
  await expectNoAxeViolations(page);

  const shopper = await browser.newContext({ javaScriptEnabled: false, baseURL });
  // axe runs inside the page, which it cannot with JavaScript off: each state is scanned in a second page with
  // JavaScript on for axe but every page script blocked (no hydration), so it shows the same plain forms.
  const scanning = await browser.newContext({ baseURL });
  await scanning.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
  const mirror = await scanning.newPage();
  /** Open `url` in the scanning page (same state as the shopper's page: the server renders it) and run axe. */
  const scan = async (url: string, heading: string | RegExp) => {
    await mirror.goto(url);
    await expect(mirror.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expectNoAxeViolations(mirror);
  };
  try {
    const to = `shop-rating-${Date.now()}@example.com`;
    const orderId = `E2E-SHOP-${Date.now()}`;
    const product = realReviews().find((r) => r.title && r.body.length > 100 && r.productId === "1078")!;
    const shopText = realReviews().find((r) => r.title && r.body.length > 60 && r.productId !== "1078")!;
    await withSchedule(async (s) => {
      const now = Date.now();
      await s.orderFulfilled({ storeId: DEMO_STORE_ID, orderId, email: to, customerName: "Katherine Johnson", locale: "en-US", lines: [{ productId: "1078" }], fulfilledMs: now }, now);
      await s.runDue(now, baseURL!);
    });
    const mail = await waitForMail((m) => m.to.includes(to), 40_000);
    const link = /href="(http[^"?]+\/r\/[A-Za-z0-9_-]{43})\?rating=5"/.exec(mail.html)![1];

    const p = await shopper.newPage();
    await p.goto(`${link}?rating=5`);
    await p.getByLabel("Your review (required)", { exact: true }).fill(product.body);
    await p.getByRole("button", { name: "Send review" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Thank you for your review!" })).toBeVisible();
    // The shop rating step, a form of its own after the product review.
    const step = p.getByRole("region", { name: /^Rate / });
    await expect(step).toBeVisible();
    await expect(step.getByLabel("Name shown with your shop review (required)")).toHaveValue("Katherine Johnson");
    await scan(p.url(), "Thank you for your review!");
    await expect(mirror.getByRole("region", { name: /^Rate / })).toBeVisible();

    // Sent without a star: the page of /r/{token}/shop with the message beside the rating, the text kept.
    await step.getByLabel("Your review of the shop (required)").fill(shopText.body);
    await step.getByRole("button", { name: "Send shop rating" }).click();
    await expect(p).toHaveURL(/\/r\/[A-Za-z0-9_-]{43}\/shop$/);
    await expect(p.getByRole("alert")).toContainText("please correct the field marked below");
    await expect(p.locator("#shop-rating-error")).toHaveText("rating is required: an integer from 1 to 5");
    await expect(p.getByLabel("Your review of the shop (required)")).toHaveValue(shopText.body);
    // The same refused post in the scanning page (nothing is stored), then axe on its error state.
    await mirror.getByRole("button", { name: "Send shop rating" }).click();
    await expect(mirror.locator("#shop-rating-error")).toHaveText("rating is required: an integer from 1 to 5");
    await expectNoAxeViolations(mirror);

    await p.getByLabel("4 stars").check();
    await p.getByLabel("Title (optional)").fill(shopText.title);
    await p.getByRole("button", { name: "Send shop rating" }).click();
    await expect(p.getByRole("heading", { level: 1, name: "Thank you for rating the shop!" })).toBeVisible();
    await expect(p.getByRole("status")).toContainText("published once the shop has checked it");
    await scan(p.url(), "Thank you for rating the shop!");

    // Once per review request: the link again offers no second rating.
    await p.goto(`${link}/shop`);
    await expect(p.getByRole("heading", { level: 1, name: "You already rated this shop" })).toBeVisible();
    await scan(`${link}/shop`, "You already rated this shop");
    await p.goto(link);
    await expect(p.getByRole("heading", { level: 1, name: "You already reviewed this product" })).toBeVisible();
    await expect(p.getByRole("region", { name: /^Rate / })).toHaveCount(0);

    // Stored as a verified store review, waiting for moderation in the admin.
    await page.goto(`/admin/stores/${DEMO_STORE_ID}/google-shopping`);
    const item = page.getByRole("list", { name: "Store reviews waiting for moderation" }).getByRole("listitem").filter({ hasText: shopText.title });
    await expect(item.first()).toContainText("4 of 5 · Katherine Johnson · verified buyer");
  } finally {
    await shopper.close();
    await scanning.close();
    // Clean-up: the demo store's requests off again, so later specs' orders mail nobody.
    await withSchedule((s) => s.update(DEMO_STORE_ID, { enabled: false, askShopRating: false }));
  }
});

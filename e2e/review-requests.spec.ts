/**
 * Review requests in Chromium (issue #22 "Done when", review-request part): the merchant turns them on in
 * the admin (per-field errors, the preview, the funnel; axe on each state); an order of the demo store is
 * fulfilled and the schedule run at the current time (the scheduler's clock), the e-mail goes over SMTP to
 * the e2e sink (e2e/mailbox.ts); the shopper follows its star link, writes a review with a photo on the
 * hosted page /r/{token} (axe), the merchant publishes it (the demo store moderates by hand), and the
 * storefront lists it as from a verified buyer.
 */
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { one, openDatabase, sql, type Db } from "../server/db/database.ts";
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

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;
test.describe.configure({ mode: "serial" });

/**
 * The review-request schedule over the e2e server's database, as a second process sees it (WAL): what the
 * server's own loop runs every minute, run here at the moment the test chooses. Messages are queued; the
 * server's mail sender delivers them to the sink.
 */
async function withSchedule<T>(fn: (service: ReturnType<typeof reviewRequestsService>, db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase(E2E_DB_PATH);
  try {
    const mail = mailService({ db, repo: mailRepo(db), sending: true, now: Date.now, secret: "e2e-review-requests" } as Parameters<typeof mailService>[0]);
    // The hosted page (the server) writes reviews; this side only schedules and sends.
    return await fn(reviewRequestsService({ db, repo: reviewRequestsRepo(db), stores: storesRepo(db), mail, submissions: {} as SubmissionsService }), db);
  } finally {
    await db.close();
  }
}

test("the merchant turns review requests on: per-field errors, the e-mail preview, the funnel (axe)", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Review requests" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Review requests" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Preview of the e-mail" })).toBeVisible();
  const preview = page.locator('iframe[title^="Preview of the review-request e-mail"]').contentFrame();
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(`How do you like your order from ${await demoStoreName()}?`);
  await expect(preview.getByText("Hi Alex,")).toBeVisible();
  await expectNoAxeViolations(page);

  // A wrong value: the message next to the field, nothing saved.
  await page.getByLabel("Days after fulfilment before the request").fill("-3");
  await page.getByLabel("Subject").first().fill("Your order {{orderTotal}}");
  await page.getByRole("button", { name: "Save review-request settings" }).click();
  await expect(page.getByRole("alert")).toContainText("The settings were not saved");
  const delay = page.getByLabel("Days after fulfilment before the request");
  await expect(delay).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#err-delayDays")).toHaveText("delayDays must be a whole number of days from 0 to 365");
  await expect(page.locator("#err-subject-en")).toContainText("unknown placeholder {{orderTotal}}");
  await expectNoAxeViolations(page);

  // On, at once after fulfilment, no quiet hours (this test runs at any hour), a reminder after 5 days.
  await page.getByLabel("Send review requests after orders are fulfilled").check();
  await delay.fill("0");
  await page.getByLabel("Subject").first().fill("How do you like your order from {{storeName}}?");
  await page.getByLabel("Send nothing during these hours (messages wait until they end)").uncheck();
  await page.getByLabel("Days after the request").fill("5");
  await page.getByRole("button", { name: "Save review-request settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review-request settings saved." })).toBeVisible();
  await expect(page).toHaveURL(/\/review-requests\?saved=1$/);
  await expect(page.getByLabel("Send review requests after orders are fulfilled")).toBeChecked();
  await expect(page.getByRole("img", { name: "Review requests sent, opened and reviewed per day" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await withSchedule((s) => s.get(DEMO_STORE_ID))).toMatchObject({ enabled: true, delayDays: 0, reminderDays: 5, quietHours: null });
});

async function demoStoreName(): Promise<string> {
  return withSchedule(async (_, db) => (await one<{ name: string }>(db, sql`SELECT name FROM stores WHERE store_id = ${DEMO_STORE_ID}`))!.name);
}

test("a shopper follows the e-mailed star link, reviews with a photo, and is listed as a verified buyer after moderation", async ({ page, baseURL }) => {
  test.setTimeout(180_000); // eight axe runs, two of them on admin pages with charts, on a shared machine
  const started = new Date(Date.now() - 1000).toISOString();
  const to = `rr-${Date.now()}@example.com`;
  const orderId = `E2E-${Date.now()}`;
  // A real product of the demo store with a real review text to write.
  const text = realReviews().find((r) => r.title && r.body.length > 100 && r.productId === "1078")!;
  const product = await withSchedule(async (s, db) => {
    const row = (await one<{ product_id: string; name: string }>(db, sql`SELECT product_id, name FROM products WHERE store_id = ${DEMO_STORE_ID} AND product_id = ${text.productId}`))!;
    const now = Date.now();
    expect(
      await s.orderFulfilled({ storeId: DEMO_STORE_ID, orderId, email: to, customerName: "Grace Hopper", locale: "en-US", lines: [{ productId: row.product_id }], fulfilledMs: now }, now),
    ).toMatchObject({ status: "scheduled", dueMs: now });
    // The scheduler's clock at "now": the request is due (the server's own loop may take it first; either sends it once).
    await s.runDue(now, baseURL!);
    expect(await s.byOrder(DEMO_STORE_ID, orderId)).toMatchObject({ status: "sent", next_step: "reminder" });
    return row;
  });

  const mail = await waitForMail((m) => m.to.includes(to), 40_000);
  expect(mail.subject).toBe(`How do you like your order from ${await demoStoreName()}?`);
  expect(mail.headers["list-unsubscribe"]).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/u\/[A-Za-z0-9_-]{43}\/one-click>$/);
  expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  const star5 = /href="(http[^"]+\/r\/[A-Za-z0-9_-]{43}\?rating=5)"/.exec(mail.html)![1];

  // The hosted page: product named, rating pre-filled from the star link.
  await page.goto(star5);
  await expect(page.getByRole("heading", { level: 1, name: `Review ${product.name}` })).toBeVisible();
  await expect(page.getByLabel("5 stars")).toBeChecked();
  await expectNoAxeViolations(page);

  // Sent without a review text: the message next to the field (the page works without JavaScript: a plain form post).
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByRole("alert")).toContainText("please correct the field marked below");
  await expect(page.getByLabel("Your review (required)", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#body-error")).toHaveText("body is required");
  await expectNoAxeViolations(page);

  await page.getByLabel("4 stars").check();
  await page.getByLabel("Title (optional)").fill(text.title);
  await page.getByLabel("Your review (required)", { exact: true }).fill(text.body);
  await expect(page.getByLabel("Name shown with your review (required)")).toHaveValue("Grace Hopper");
  await page.getByLabel("Yes").check();
  const photo = await sharp({ create: { width: 900, height: 700, channels: 3, background: "#2a6f97" } })
    .jpeg()
    .toBuffer();
  await page.getByLabel("Photos and video (optional)").setInputFiles([{ name: "worn.jpg", mimeType: "image/jpeg", buffer: photo }]);
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for your review!" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("published once the shop has checked it");
  await expectNoAxeViolations(page);

  // The link works once per product.
  await page.goto(star5);
  await expect(page.getByRole("heading", { level: 1, name: "You already reviewed this product" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Not listed before moderation; the merchant publishes it in the admin.
  const listUrl = `/v1/stores/${DEMO_STORE_ID}/products/shopify-${product.product_id}/reviews?limit=10&orderBy=${encodeURIComponent("date desc")}`;
  const mine = async () =>
    (
      (await (await page.request.get(listUrl)).json()) as { reviews: { title: string; dateCreated: string; reviewer: { verifiedStatus: string; displayName: string }; media: unknown[] }[] }
    ).reviews.find(
      // This attempt's review only (a retry writes the same real text again).
      (r) => r.title === text.title && r.reviewer.displayName === "Grace Hopper" && r.dateCreated >= started,
    );
  expect(await mine()).toBeUndefined();
  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/reviews`);
  const item = page.getByRole("article", { name: text.title }).first();
  await item.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review published." })).toBeVisible();
  const listed = await mine();
  expect(listed).toMatchObject({ reviewer: { verifiedStatus: "verified-buyer", displayName: "Grace Hopper" } });
  expect(listed!.media).toHaveLength(1);

  // The funnel counts it: sent, opened and reviewed today.
  await page.goto(`${ADMIN}/review-requests`);
  for (const id of ["funnel-sent", "funnel-opened", "funnel-reviewed"]) expect(Number((await page.getByTestId(id).textContent())!.split(" ")[0])).toBeGreaterThanOrEqual(1);
  await expectNoAxeViolations(page);

  // Unsubscribe from the e-mail's link: a confirm page (opening it changes nothing), then one button; no reminder follows.
  const unsubscribe = /^<([^>]+)>$/.exec(mail.headers["list-unsubscribe"])![1];
  await page.goto(unsubscribe);
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe from review requests?" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeVisible();
  await expectNoAxeViolations(page);
  await withSchedule(async (s) => {
    expect((await s.runDue(Date.now() + 6 * 86_400_000, baseURL!)).sent).toBe(0);
    expect(await s.byOrder(DEMO_STORE_ID, orderId)).toMatchObject({ next_step: null, skip_reason: "unsubscribed" });
  });

  // Clean-up: the demo store's requests off again, so later specs' orders mail nobody.
  await withSchedule((s) => s.update(DEMO_STORE_ID, { enabled: false }));
});

/**
 * No review waits forever (docs/admin.md "Held reviews"), in Chromium on the moderation page of the seeded
 * demo store: a pending review shows its age and the date it will be published automatically; it is rejected
 * with a reason using only the keyboard, and the reason shows in the Rejected list; the held-reviews setting
 * names the FTC rule and saves. axe on the page with its panels open.
 */
import { expect, test } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { reviewsRepo } from "../server/reviews/reviews.repo.ts";
import { realReviews } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant as signIn, withE2eDb as withDb } from "./e2e-server.ts";

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;
const DAY = 86_400_000;

/** A pending 2-star review written `ageDays` days ago, with the text of a real review (index `index`), on its product. */
async function insertHeldReview(index: number, ageDays: number) {
  const real = realReviews().filter((r) => r.title && r.body && !r.title.includes("'"))[index];
  const reviewId = randomUUID();
  const createdMs = Date.now() - ageDays * DAY;
  await withDb((db) =>
    reviewsRepo(db).insert({
      reviewId,
      storeId: DEMO_STORE_ID,
      productId: real.productId,
      rating: 2,
      title: real.title,
      body: real.body,
      createdMs,
      status: "pending",
      reviewerName: "Held shopper",
      reviewerEmail: "held@example.test",
    }),
  );
  return { reviewId, productId: real.productId, title: real.title, createdMs };
}

test("a pending review shows its age and auto-publish date, and is rejected with a reason by keyboard", async ({ page }) => {
  const held = await insertHeldReview(30, 3);
  await signIn(page);
  await page.goto(`${ADMIN}/reviews?product=shopify-${held.productId}&rating=2`);
  const item = page.getByRole("article", { name: held.title });
  const due = new Date(held.createdMs + 14 * DAY).toISOString().slice(0, 10);
  await expect(item.getByTestId("held")).toHaveText(`Waiting 3 days. Published automatically on ${due} unless you reject it.`);

  // Keyboard only: open "Reject…", choose "Other" with the arrow keys, type the words, submit.
  await item.getByText("Reject…").focus();
  await page.keyboard.press("Enter");
  await expect(item.getByRole("group", { name: "Why reject this review?" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Tab");
  await expect(item.getByRole("radio", { name: "Spam" })).toBeFocused();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
  await expect(item.getByRole("radio", { name: "Other" })).toBeChecked();
  await page.keyboard.press("Tab");
  await page.keyboard.type("Names a member of staff");
  await page.keyboard.press("Tab");
  await expect(item.getByRole("button", { name: "Reject review" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Review rejected." })).toBeVisible();

  await page.goto(`${ADMIN}/reviews?status=rejected&product=shopify-${held.productId}`);
  await expect(page.getByRole("article", { name: held.title }).getByTestId("rejection-reason")).toHaveText("Rejected: Other (Names a member of staff)");
});

test("the held-reviews setting names the FTC rule, saves a number of days and an explicit never", async ({ page }) => {
  await signIn(page);
  await page.goto(`${ADMIN}/reviews`);
  // The panel stays open after a save; a click on its summary would close it.
  const panel = page.locator("details", { has: page.getByText("Moderation setting:") });
  // The panel's one-line summary (a held review in the list below may say the same words).
  const summary = panel.locator("summary");
  const openPanel = async () => {
    if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await page.getByText("Moderation setting:").click();
  };
  await openPanel();
  const held = page.getByRole("group", { name: "Reviews nobody moderates" });
  await expect(held).toContainText("FTC rule on review suppression (16 CFR 465.7)");
  await expect(held.getByRole("radio", { name: "Publish held reviews automatically" })).toBeChecked();
  await expect(held.getByLabel("Publish a review still waiting after (days)")).toHaveValue("14");
  await expectNoAxeViolations(page);

  await held.getByLabel("Publish a review still waiting after (days)").fill("10");
  await page.getByRole("button", { name: "Save moderation setting" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Moderation setting saved." })).toBeVisible();
  await expect(summary).toContainText("held reviews are published after 10 days");

  await openPanel();
  await page.getByRole("radio", { name: /^Never/ }).check();
  await page.getByRole("button", { name: "Save moderation setting" }).click();
  await expect(summary).toContainText("held reviews wait until someone moderates them");

  await openPanel();
  await page.getByRole("radio", { name: "Publish held reviews automatically" }).check();
  await page.getByLabel("Publish a review still waiting after (days)").fill("14");
  await page.getByRole("button", { name: "Save moderation setting" }).click();
  await expect(summary).toContainText("held reviews are published after 14 days");
});

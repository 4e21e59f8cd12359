/**
 * A brand-new store's loyalty program set up in the admin, and its reviews imported from a CSV
 * (issue 21 item 3 and its done-when walk), in Chromium against the production server: turn the program
 * on (field errors first), copy the platform secret shown once, add earning and redemption rules and a
 * VIP tier, import a small CSV of reviews; then a shop page on another origin shows the store's reviews
 * and its enrol button works with a shopper token signed with that secret; the member's review earns
 * points and shows "Received a reward for this review" (issue 22 item 4) in the widget and the admin.
 * axe finds no violations on each admin page state.
 */
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { createServices } from "../server/services.ts";
import { stringify } from "csv-stringify/sync";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { realReviews } from "../test/fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { startShopOrigin, type ShopOrigin } from "./shop-origin.ts";
import { DEMO_ADMIN, E2E_DB_DIR, E2E_DB_PATH, signInAsDemoMerchant } from "./e2e-server.ts";

test.describe.configure({ mode: "serial" });

const STORE = randomUUID();
const ADMIN = `/admin/stores/${STORE}`;
const SHOP = "https://shop.e2e.test";
const run = Date.now().toString(36);
const SHOPPER = { platformCustomerId: `shopper-${run}`, email: `shopper-${run}@shop.e2e.test` };
const JOIN = "Accept the terms and join our rewards program";
let secret = "";
/** Real reviews of the CC0 clothing file for the CSV and the member's review (never invented text). */
const [R1, R2, R3] = realReviews()
  .filter((r) => r.title && r.body && !r.body.includes("\n"))
  .slice(10, 13);

/** A brand-new store (auto-publish, so the member's review counts at once) the demo merchant belongs to, without a loyalty program. */
test.beforeAll(async () => {
  const s = await createServices({ databasePath: E2E_DB_PATH, mediaPath: `${E2E_DB_DIR}/media`, ai: { worker: false } });
  try {
    await s.stores.create({ storeId: STORE, name: `New shop ${run}`, platform: "shopify", moderation: "auto-publish-all" });
    await s.admin.addMembership(DEMO_ADMIN.email, STORE);
  } finally {
    await s.close();
  }
});

/**
 * The store's product page on another origin (a server of its own on `localhost`, the Chorus server is
 * `127.0.0.1`): the one script tag, the loyalty widget with the shopper's platform token, the reviews.
 */
let shop: ShopOrigin;
test.beforeAll(async () => {
  shop = await startShopOrigin();
});
test.afterAll(() => shop.close());

async function openShopPage(page: Page, baseURL: string, customerToken: string) {
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Linen tee · New shop</title>
    <script async src="${baseURL}/widgets/chorus.js"></script></head><body><main>
    <h1>Linen tee</h1>
    <chorus-loyalty store-id="${STORE}" customer-token="${customerToken}" partner-id="shop-e2e"></chorus-loyalty>
    <section id="reviews"><h2>Customer reviews</h2><chorus-reviews store-id="${STORE}" product-id="shopify-linen-tee"></chorus-reviews></section>
  </main></body></html>`;
  await page.goto(shop.url("/products/linen-tee"));
  expect(new URL(page.url()).origin).not.toBe(new URL(baseURL).origin);
}

test("turn the program on: field errors, then the platform secret shown once with a copy button", async ({ page, context, baseURL }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/loyalty`);
  await expect(page.getByText("This store has no loyalty program yet.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Set up the loyalty program" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Loyalty program set-up" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Without the two URLs: a message next to each, the fields marked invalid.
  await page.getByRole("button", { name: "Turn on the loyalty program" }).click();
  const terms = page.getByLabel("Terms and conditions URL");
  await expect(terms).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#p-termsAndConditionsUrl-error")).toHaveText("Terms and conditions URL is required");
  await expect(page.getByLabel("Privacy policy URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Join button text")).not.toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  await terms.fill(`${SHOP}/pages/rewards-terms`);
  await page.getByLabel("Privacy policy URL").fill("/pages/privacy");
  await page.getByRole("button", { name: "Turn on the loyalty program" }).click();
  await expect(page.getByRole("status").first()).toContainText("The loyalty program is on.");
  secret = (await page.getByTestId("platform-secret").textContent())!;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expectNoAxeViolations(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await page.getByRole("button", { name: "Copy the secret" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // Shown once: the next view has only the date it was generated.
  await page.reload();
  await expect(page.getByTestId("program-status")).toHaveText("on");
  await expect(page.getByTestId("platform-secret")).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("add earning rules, a redemption rule and a VIP tier on the loyalty page", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/loyalty`);
  await expect(page.getByText("No earning rules yet: add one below.")).toBeVisible();
  await expectNoAxeViolations(page);
  const addEarning = page.getByRole("form", { name: "Add an earning rule" });

  // A missing name: the message next to the field.
  await addEarning.getByLabel("Type").selectOption({ label: "Sign-up" });
  await addEarning.getByLabel("Points", { exact: true }).fill("100");
  await addEarning.getByRole("button", { name: "Add earning rule" }).click();
  await expect(page.getByRole("form", { name: "Add an earning rule" }).getByLabel("Name shown to shoppers")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#er-new-name-error")).toHaveText("Name is required");
  await expectNoAxeViolations(page);

  for (const [type, name, points] of [
    ["Sign-up", "Join bonus", "100"],
    ["Review", "Write a review", "50"],
  ]) {
    const form = page.getByRole("form", { name: "Add an earning rule" });
    await form.getByLabel("Type").selectOption({ label: type });
    await form.getByLabel("Name shown to shoppers").fill(name);
    await form.getByLabel("Points", { exact: true }).fill(points);
    await form.getByRole("button", { name: "Add earning rule" }).click();
    await expect(page.getByRole("status")).toHaveText(`Earning rule "${name}" added.`);
  }
  const addReward = page.getByRole("form", { name: "Add a redemption rule" });
  await addReward.getByLabel("Type").selectOption({ label: "Percentage coupon" });
  await addReward.getByLabel("Name shown to shoppers").fill("10% off");
  await addReward.getByLabel("Points cost").fill("200");
  await addReward.getByLabel("Reward description (on the coupon)").fill("10% off your next order");
  await addReward.getByLabel(/^Reward value/).fill("10");
  await addReward.getByRole("button", { name: "Add redemption rule" }).click();
  await expect(page.getByRole("status")).toHaveText('Redemption rule "10% off" added.');

  const addTier = page.getByRole("form", { name: "Add a VIP tier" });
  await addTier.getByLabel("Tier name").fill("Insider");
  await addTier.getByLabel("Lifetime points needed").fill("0");
  await addTier.getByLabel("Perks (one per line)").fill("Early access to sales\nBirthday gift");
  await addTier.getByRole("button", { name: "Add VIP tier" }).click();
  await expect(page.getByRole("status")).toContainText('VIP tier "Insider" added.');
  await expect(page.getByLabel("Points for Write a review")).toHaveValue("50");
  await expectNoAxeViolations(page);

  const api = await (await page.request.get(`/v1/stores/${STORE}/loyalty/earning_rules`)).json();
  expect(api.earningRules.map((r: { name: string; points: number }) => [r.name, r.points])).toEqual([
    ["Join bonus", 100],
    ["Write a review", 50],
  ]);
  const tiers = await (await page.request.get(`/v1/stores/${STORE}/loyalty/vip_tiers`)).json();
  expect(tiers.vipTiers).toEqual([expect.objectContaining({ name: "Insider", pointsThreshold: 0, pointsMultiplier: 1, perks: ["Early access to sales", "Birthday gift"] })]);
});

test("import a small CSV of reviews with a per-row report", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.goto(ADMIN);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Import" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import reviews" })).toBeVisible();
  await expectNoAxeViolations(page);
  const csv = stringify([
    ["product_id", "rating", "title", "body", "reviewer", "date"],
    ["linen-tee", R1.rating, R1.title, R1.body, "Ana", "2026-06-01"],
    ["linen-tee", R2.rating, R2.title, R2.body, "Ben", "2026-06-02"],
    ["linen-tee", "six", R3.title, R3.body, "Cy", "2026-06-03"],
  ]);
  await page.getByLabel(/^Reviews CSV file/).setInputFiles({ name: `reviews-${run}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import reviews" }).click();
  await expect(page.getByRole("status").first()).toHaveText("2 reviews imported, 0 already present, 1 row skipped with errors.");
  await expect(page.getByTestId("import-inserted")).toHaveText("2");
  await expect(page.getByRole("row", { name: /rating must be an integer from 1 to 5/ })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a shop on another origin shows the reviews; the enrol button works with a token signed with the new secret; a member's review is disclosed as rewarded", async ({ page, browser, baseURL }) => {
  const token = await signPlatformToken(secret, SHOPPER);
  await openShopPage(page, baseURL!, token);
  const reviews = page.locator("chorus-reviews");
  await expect(reviews.getByRole("heading", { name: R1.title })).toBeVisible();
  await expect(reviews.getByRole("heading", { name: R2.title })).toBeVisible();
  const loyalty = page.locator("chorus-loyalty");
  await loyalty.getByRole("button", { name: JOIN, exact: true }).click();
  await expect(loyalty.getByRole("heading", { name: "Your rewards" })).toBeVisible();
  await expect(loyalty.locator("[part=balance]")).toHaveText("100 points");
  await expect(loyalty.locator("[part=tier]")).toHaveText("Insider");

  // The member reviews the tee; points are awarded at their next visit, and the review says so from then on.
  const res = await page.request.post(`/v1/stores/${STORE}/products/shopify-linen-tee/reviews`, {
    data: { rating: R3.rating, title: R3.title, body: R3.body, displayName: "Member M.", email: SHOPPER.email },
  });
  expect(res.status()).toBe(201);
  await page.reload();
  await expect(loyalty.locator("[part=balance]")).toHaveText("150 points");
  // A later visit (a fresh browser, so no listing cached by this one before the points were awarded).
  const laterContext = await browser.newContext();
  const later = await laterContext.newPage();
  await openShopPage(later, baseURL!, token);
  const card = (title: string) =>
    later
      .locator("chorus-reviews")
      .locator("article")
      .filter({ has: later.getByRole("heading", { name: title }) });
  await expect(card(R3.title).locator("[part=incentive-note]")).toHaveText("Received a reward for this review");
  await expect(card(R1.title).locator("[part=incentive-note]")).toHaveCount(0);
  await expectNoAxeViolations(later, "chorus-reviews");
  await laterContext.close();

  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/reviews?status=published`);
  const adminCard = page.locator("article").filter({ has: page.getByRole("heading", { name: R3.title }) });
  await expect(adminCard.getByTestId("incentivized")).toHaveText("Received a reward for this review");
  await expect(
    page
      .locator("article")
      .filter({ has: page.getByRole("heading", { name: R2.title }) })
      .getByTestId("incentivized"),
  ).toHaveCount(0);
  await expectNoAxeViolations(page);
});

/**
 * The member panel of `<chorus-loyalty>` with a real points history (docs/loyalty.md "Points history", "Widget
 * `<chorus-loyalty>`"), in Chromium, English then German, axe first in each: a new member of the demo store with the
 * sign-up points, an order earned at once (enterprise API), a store adjustment, a birthday awarded by the lifecycle job
 * on the store's local day, an order still pending (held for the return window) and a redemption on the demo platform
 * made by keyboard; and, in a store of its own with the lifecycle job's clock moved a year on, an expiry. Each history
 * line is written from its `kind` in the panel's language (names the merchant wrote stay as written); balance, pending
 * points, the expiry date, the VIP tier and the points to the next, rule states, what rewards still need, the referral
 * link with its copy button and the birthday form show in both languages. The demo store's settings this spec changes
 * (points expiry, the referral program) are restored after it.
 */
import { expect, test, type Page } from "@playwright/test";
import { transaction } from "../../server/db/database.ts";
import { randomUUID } from "node:crypto";
import { addMonths, holdOrderPoints } from "../../server/loyalty/lifecycle.ts";
import { demoProgram } from "../../server/loyalty/loyalty.demo.ts";
import { lifecycleRepo } from "../../server/loyalty/lifecycle.repo.ts";
import type { ReferralSettings } from "../../server/contract/referrals.ts";
import { createServices } from "../../server/services.ts";
import { signPlatformToken } from "../../server/loyalty/tokens.ts";
import { E2E_DB_DIR } from "../e2e-server.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./element-page.ts";

test.describe.configure({ mode: "serial" });

const SECRET = "e2e-platform-secret-0123456789"; // DEMO_PLATFORM_SECRET of playwright.config.ts
const BASIC = `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}`;
const JSON_TYPE = { "content-type": "application/json" };
const services = () => createServices({ databasePath: `${E2E_DB_DIR}/chorus.sqlite`, mediaPath: `${E2E_DB_DIR}/media` });

let before: { expiry: number | null; referrals: ReferralSettings } | null = null;
let token = "";
let orderLabel = "";

/** The demo store's local month and day now (the birthday job awards on the store's local day). */
function localToday(timeZone: string): { month: number; day: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, month: "numeric", day: "numeric" }).formatToParts(Date.now());
  return { month: Number(parts.find((p) => p.type === "month")!.value), day: Number(parts.find((p) => p.type === "day")!.value) };
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  const s = await services();
  try {
    const settings = await s.loyaltyLifecycle.settings(DEMO_STORE_ID);
    before = { expiry: settings.pointsExpiryMonths, referrals: await s.referrals.settings(DEMO_STORE_ID) };
    await s.referrals.updateSettings(DEMO_STORE_ID, {
      ...before.referrals,
      enabled: true,
      friendDiscountType: "percentage-coupon",
      friendDiscountValue: 15,
      senderRewardType: "points",
      senderRewardValue: 250,
    });

    // A new member: sign-up 100 points (Bronze).
    const id = `demo-history-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    token = await signPlatformToken(SECRET, { platformCustomerId: id, email: `${id}@demo.chorus.test` });
    const L = `${baseURL}/v1/stores/${DEMO_STORE_ID}/loyalty`;
    const login = (await (await fetch(`${L}/login`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ customerAccessToken: token }) })).json()) as {
      customerToken: string;
      loyaltyCustomer: { loyaltyCustomerId: string };
    };
    const bearer = { ...JSON_TYPE, authorization: `Bearer ${login.customerToken}` };
    const customerId = login.loyaltyCustomer.loyaltyCustomerId;
    const { version } = (await (await fetch(`${L}/legal_policies`)).json()) as { version: string };
    expect(
      (await fetch(`${L}/customer_activation`, { method: "POST", headers: bearer, body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }) })).status,
    ).toBe(200);
    // An order of $250 earned at once (the enterprise API: 1 point per $1): 350 points.
    orderLabel = `#H${Date.now().toString().slice(-6)}`;
    const order = await fetch(`${baseURL}/enterprise/loyalty/earning_transactions`, {
      method: "POST",
      headers: { ...JSON_TYPE, authorization: BASIC },
      body: JSON.stringify({ customer: { platformCustomerId: id }, orderId: orderLabel, amount: 250 }),
    });
    expect(order.status).toBe(201);
    // The store's adjustment, with its own words: 370 points.
    const adjusted = await fetch(`${baseURL}/enterprise/loyalty/customers/${customerId}/adjustments`, {
      method: "POST",
      headers: { ...JSON_TYPE, authorization: BASIC },
      body: JSON.stringify({ points: 20, reason: "Thank you for your feedback" }),
    });
    expect(adjusted.status).toBe(201);
    // The birthday is today in the store's time zone: the lifecycle job awards 150 points (520; lifetime 500: Silver).
    expect((await fetch(`${L}/customer`, { method: "PATCH", headers: bearer, body: JSON.stringify({ birthday: localToday(settings.timeZone) }) })).status).toBe(200);
    await s.loyaltyLifecycle.runDue(Date.now()); // or the server's own run got there first: either awards it once
    // Points expire after 12 months without activity (set after the run, so that it expires nobody now).
    await s.loyaltyLifecycle.updateSettings(DEMO_STORE_ID, { pointsExpiryMonths: 12 });
    // An order of $80 still in the return window: 80 points pending (held as an order webhook holds them).
    await transaction(s.db, async () => {
      await s.loyaltyData.lockCustomer(DEMO_STORE_ID, customerId);
      const rule = (await s.loyaltyData.earningRules(DEMO_STORE_ID)).find((r) => r.type === "points-per-spend")!;
      const held = await holdOrderPoints(lifecycleRepo(s.db), {
        storeId: DEMO_STORE_ID,
        customerId,
        orderId: `${orderLabel}-2`,
        points: 80,
        amount: 80,
        ruleId: rule.earning_rule_id,
        description: `Order ${orderLabel}-2`,
        windowDays: 14,
        nowMs: Date.now(),
      });
      expect(held).toBe(true);
    });
  } finally {
    await s.close();
  }
});

test.afterAll(async () => {
  if (!before) return;
  const s = await services();
  try {
    await s.loyaltyLifecycle.updateSettings(DEMO_STORE_ID, { pointsExpiryMonths: before.expiry });
    await s.referrals.updateSettings(DEMO_STORE_ID, before.referrals);
  } finally {
    await s.close();
  }
});

const panel = (page: Page) => page.locator("chorus-loyalty");

async function openPanel(page: Page, lang: string, storeId = DEMO_STORE_ID, shopperToken = token): Promise<void> {
  await openElementPage(page, `<chorus-loyalty store-id="${storeId}" customer-token="${shopperToken}"></chorus-loyalty>`, { lang });
  await expect(panel(page).locator("[part=history]")).toBeVisible({ timeout: 20_000 });
  if (storeId === DEMO_STORE_ID) await expect(panel(page).locator("[part=referral-link]")).toBeVisible({ timeout: 20_000 });
}

test("English: axe first; balance, pending, expiry, tier progress, history lines by kind; redeem, copy the code and the referral link by keyboard", async ({ page, context, baseURL }) => {
  test.setTimeout(150_000); // two axe scans of the whole panel on a loaded machine
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await openPanel(page, "en");
  await expectElementAccessible(page, "chorus-loyalty");
  const p = panel(page);
  await expect(p.locator("[part=balance]")).toHaveText("520 points");
  await expect(p.locator("[part=pending]")).toHaveText("Pending: 80 points (from recent orders, usable once the return period ends)");
  await expect(p.locator("[part=expiry]")).toHaveText(/^Your points expire on \w+ \d{1,2}, \d{4} unless you earn or redeem before then\.$/);
  await expect(p.locator("[part=tier]")).toHaveText("Silver");
  await expect(p.locator("[part=tier-progress]")).toContainText("1,000 points to Gold");
  const ways = p.getByRole("list", { name: "Ways to earn points" });
  await expect(ways.getByRole("listitem").filter({ hasText: "Celebrate your birthday" }).locator("[part=rule-state]")).toHaveText("Done");
  // Rewards against 520 points: free shipping (300) and $5 off (500) are affordable, 10% off (800) needs 280 more.
  await expect(p.getByRole("list", { name: "Rewards" }).locator("[part=missing]")).toHaveText(["· 280 points to go"]);
  const lines = p.locator("[part=history] [part=history-text]");
  await expect(lines).toHaveText([/^Happy birthday · /, /^Thank you for your feedback · /, new RegExp(`^Order ${orderLabel} · `), /^Joined the program · /]);
  await expect(p.locator("[part=history] li strong")).toHaveText(["+150 points", "+20 points", "+250 points", "+100 points"]);

  // Redeem free shipping by keyboard: the code (created on the demo platform), then Tab to "Copy code" and Enter.
  await p.getByRole("button", { name: "Redeem Free shipping for 300 points" }).focus();
  await page.keyboard.press("Enter");
  await expect(p.locator("[part=coupon]")).toHaveText(/\S+/, { timeout: 20_000 });
  await expect(p.locator("[part=demo-notice]")).toBeVisible();
  await expect(p.locator("[part=balance]")).toHaveText("220 points");
  await expect(lines.first()).toHaveText(/^Redeemed: Free shipping · /);
  await expect(p.locator("[part=history] li strong").first()).toHaveText("−300 points");
  await p.locator("[part=copy-button]").focus();
  await page.keyboard.press("Enter");
  await expect(p.getByRole("status").filter({ hasText: "Your coupon code for Free shipping" })).toContainText("Code copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await p.locator("[part=coupon]").textContent());

  // The referral link: Tab from the link field to "Copy link", Enter.
  const referral = p.locator("[part=referral]");
  await expect(referral.getByRole("heading", { name: "Refer a friend" })).toBeVisible();
  await p.locator("[part=referral-link]").focus();
  await page.keyboard.press("Tab");
  await expect(p.locator("[part=referral-copy-button]")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(referral).toContainText("Link copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await p.locator("[part=referral-link]").inputValue());

  // The birthday form shows the saved day, locked for a year.
  const form = p.locator("[part=birthday-form]");
  await expect(form).toContainText(/You can change it again from \w+ \d{1,2}, \d{4}\./);
});

test("German: axe first; the same parts in German, history lines written from their kinds", async ({ page, context, baseURL }) => {
  test.setTimeout(150_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await openPanel(page, "de");
  await expectElementAccessible(page, "chorus-loyalty");
  const p = panel(page);
  await expect(p.getByRole("heading", { name: "Deine Prämien" })).toBeVisible();
  await expect(p.locator("[part=balance]")).toHaveText("220 Punkte");
  await expect(p.locator("[part=pending]")).toHaveText("Ausstehend: 80 Punkte (aus neuen Bestellungen, einlösbar nach Ablauf der Rückgabefrist)");
  await expect(p.locator("[part=expiry]")).toHaveText(/^Deine Punkte verfallen am \d{1,2}\. \p{L}+ \d{4}, wenn du bis dahin keine sammelst oder einlöst\.$/u);
  await expect(p.locator("[part=tier-progress]")).toContainText("Noch 1.000 Punkte bis Gold");
  const ways = p.getByRole("list", { name: "Möglichkeiten, Punkte zu sammeln" });
  await expect(ways.getByRole("listitem").filter({ hasText: "Celebrate your birthday" }).locator("[part=rule-state]")).toHaveText("Erledigt");
  await expect(p.getByRole("list", { name: "Prämien" }).locator("[part=missing]")).toHaveText(["· Noch 80 Punkte", "· Noch 280 Punkte", "· Noch 580 Punkte"]);
  await expect(p.getByRole("heading", { name: "Punkteverlauf" })).toBeVisible();
  // Written from each kind in German; the reward's name and the store's reason stay as the merchant wrote them.
  await expect(p.locator("[part=history] [part=history-text]")).toHaveText([
    /^Eingelöst: Free shipping · \d{1,2}\. \p{L}+ \d{4}$/u,
    /^Alles Gute zum Geburtstag · /,
    /^Thank you for your feedback · /,
    new RegExp(`^Bestellung ${orderLabel} · `),
    /^Dem Programm beigetreten · /,
  ]);
  await expect(p.locator("[part=history] li strong")).toHaveText(["−300 Punkte", "+150 Punkte", "+20 Punkte", "+250 Punkte", "+100 Punkte"]);

  const referral = p.locator("[part=referral]");
  await expect(referral.getByRole("heading", { name: "Freunde werben" })).toBeVisible();
  await p.locator("[part=referral-link]").focus();
  await page.keyboard.press("Tab");
  await expect(referral.getByRole("button", { name: "Link kopieren" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(referral).toContainText("Link kopiert");

  const form = p.locator("[part=birthday-form]");
  await expect(form.getByRole("group", { name: "Dein Geburtstag" })).toBeVisible();
  await expect(form).toContainText(/Du kannst ihn ab dem \d{1,2}\. \p{L}+ \d{4} wieder ändern\./u);
  await expect(form.getByRole("button", { name: "Geburtstag speichern" })).toBeVisible();
});

test("an expiry with the clock moved: the expiry line in English and in German (axe first)", async ({ page, baseURL }) => {
  test.setTimeout(240_000); // two page loads and two axe scans on a loaded machine
  // A store of its own with the demo program and points expiring after 12 months, so that moving the lifecycle job's
  // clock a year on expires only this member's points (the demo store has no expiry: nothing of it expires).
  const storeId = randomUUID();
  const id = `history-expiry-${Date.now().toString(36)}`;
  const shopperToken = await signPlatformToken(SECRET, { platformCustomerId: id, email: `${id}@demo.chorus.test` });
  const s = await services();
  try {
    await s.stores.create({ storeId, name: "Expiry store", platform: "shopify" });
    await s.loyalty.setupProgram(storeId, demoProgram(SECRET));
    const L = `${baseURL}/v1/stores/${storeId}/loyalty`;
    const login = (await (await fetch(`${L}/login`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ customerAccessToken: shopperToken }) })).json()) as { customerToken: string };
    const { version } = (await (await fetch(`${L}/legal_policies`)).json()) as { version: string };
    const activated = await fetch(`${L}/customer_activation`, {
      method: "POST",
      headers: { ...JSON_TYPE, authorization: `Bearer ${login.customerToken}` },
      body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }),
    });
    expect(activated.status).toBe(200);
    await s.loyaltyLifecycle.updateSettings(storeId, { pointsExpiryMonths: 12 });
    // The demo store back to no expiry first (its default; afterAll restores what it was): the run a year on must
    // expire nobody there.
    await s.loyaltyLifecycle.updateSettings(DEMO_STORE_ID, { pointsExpiryMonths: null });
    expect((await s.loyaltyLifecycle.runDue(addMonths(Date.now(), 12) + 86_400_000)).expired).toBeGreaterThanOrEqual(1);
  } finally {
    await s.close();
  }
  const p = panel(page);
  await openPanel(page, "en", storeId, shopperToken);
  await expectElementAccessible(page, "chorus-loyalty");
  await expect(p.locator("[part=balance]")).toHaveText("0 points");
  await expect(p.locator("[part=history] [part=history-text]")).toHaveText([/^Points expired after 12 months without activity · /, /^Joined the program · /]);
  await expect(p.locator("[part=history] li strong")).toHaveText(["−100 points", "+100 points"]);
  await openPanel(page, "de", storeId, shopperToken);
  await expectElementAccessible(page, "chorus-loyalty");
  await expect(p.locator("[part=balance]")).toHaveText("0 Punkte");
  await expect(p.locator("[part=history] [part=history-text]")).toHaveText([/^Punkte nach 12 Monaten ohne Aktivität verfallen · /, /^Dem Programm beigetreten · /]);
  await expect(p.locator("[part=history] li strong")).toHaveText(["−100 Punkte", "+100 Punkte"]);
});

/**
 * Referrals in Chromium (docs/loyalty.md "Referrals"), on the demo store (its built-in demo platform creates the
 * codes): the referral program turned on through the service, an enrolled shopper's "Refer a friend" section in
 * `<chorus-loyalty>` (the link, copy and share buttons; English and German), then the hosted friend page the link
 * opens: works without JavaScript (a plain form post), an error in place, the code shown. axe finds nothing in each state.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { E2E_DB_DIR } from "./e2e-server.ts";
import { createServices } from "../server/services.ts";

test.describe.configure({ mode: "serial" });

const BUTTON_TEXT = "Accept the terms and join Chorus Rewards";
const widget = (page: Page) => page.locator("chorus-loyalty");
let link = "";

test.beforeAll(async () => {
  const services = await createServices({ databasePath: `${E2E_DB_DIR}/chorus.sqlite`, mediaPath: `${E2E_DB_DIR}/media` });
  try {
    await services.referrals.updateSettings(DEMO_STORE_ID, {
      enabled: true,
      friendDiscountType: "percentage-coupon",
      friendDiscountValue: 15,
      friendMinimumOrder: null,
      senderRewardType: "points",
      senderRewardValue: 250,
    });
  } finally {
    await services.close();
  }
});

test("an enrolled shopper's panel shows 'Refer a friend' with the link, copy and share buttons (axe 0)", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await page.goto("/demo/loyalty?shopper=demo-referral-sender");
  await widget(page).getByRole("button", { name: BUTTON_TEXT, exact: true }).click();
  await expect(widget(page).getByRole("heading", { name: "Your rewards" })).toBeVisible();
  const section = widget(page).locator("[part=referral]");
  await expect(section.getByRole("heading", { name: "Refer a friend" })).toBeVisible();
  await expect(section).toContainText("Give your friends 15% off their first order, and get 250 points when they order.");
  const field = section.getByRole("textbox", { name: "Your referral link" });
  link = await field.inputValue();
  expect(link).toMatch(/\/referrals\/[0-9a-f-]{36}$/);
  await expect(section.locator("[part=referral-share-button]")).toHaveCount(await page.evaluate(() => (typeof navigator.share === "function" ? 1 : 0)));
  await expectNoAxeViolations(page);
  await section.getByRole("button", { name: "Copy link" }).click();
  await expect(section.getByRole("status")).toHaveText("Link copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // The same shopper gets the same link on the next visit.
  await page.reload();
  await expect(widget(page).locator("[part=referral-link]")).toHaveValue(link);
});

test("in German the section speaks German", async ({ page }) => {
  // The demo page in German: its document language (the widgets follow it).
  await page.route("**/demo/loyalty?*", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: (await res.text()).replace('<html lang="en">', '<html lang="de">') });
  });
  await page.goto("/demo/loyalty?shopper=demo-referral-sender");
  const section = widget(page).locator("[part=referral]");
  await expect(section.getByRole("heading", { name: "Freunde werben" })).toBeVisible();
  await expect(section.getByRole("button", { name: "Link kopieren" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the hosted friend page works without JavaScript: a plain form post, an error in place, then the code", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole("heading", { level: 1, name: "A friend sent you 15% off your first order" })).toBeVisible();
    await page.getByLabel("E-mail address").fill("not-an-address");
    await page.getByRole("button", { name: "Get my discount" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter your e-mail address (for example name@example.com).");
    await expect(page.getByLabel("E-mail address")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("E-mail address").fill(`friend-nojs-${Date.now()}@example.test`);
    await page.getByRole("button", { name: "Get my discount" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your discount is ready" })).toBeVisible();
    await expect(page.locator(".code")).toHaveText(/^CHORUS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  } finally {
    await context.close();
  }
});

test("axe finds nothing on the hosted friend page: the form, an error in place, the code", async ({ page }) => {
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("15% off");
  await expect(page.locator(".store")).not.toBeEmpty(); // the store's name
  await expectNoAxeViolations(page);
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByRole("button", { name: "Get my discount" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("E-mail address").fill(`friend-axe-${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Get my discount" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your discount is ready" })).toBeVisible();
  await expectNoAxeViolations(page);
});

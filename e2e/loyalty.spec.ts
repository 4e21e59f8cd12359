/**
 * The loyalty journey on the demo storefront's /demo/loyalty page, in Chromium (docs/loyalty.md, Statuses and rules; docs/loyalty.md, Enrolment flow):
 * anonymous, pending → enrolled, enrolled → redeem, blocked, and merchant HTML that must execute nothing.
 * axe finds no violations in each state.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { createServices } from "../server/services.ts";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";

test.describe.configure({ mode: "serial" });

const BUTTON_TEXT = "Accept the terms and join Chorus Rewards";
const widget = (page: Page) => page.locator("chorus-loyalty");

/** Fail the test on any dialog (alert/confirm/prompt) the page opens. */
function forbidDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return dialogs;
}

test("anonymous shopper sees the general program and a sign-in prompt", async ({ page }) => {
  await page.goto("/demo/loyalty");
  await expect(widget(page).getByRole("heading", { name: "Join our rewards program" })).toBeVisible();
  await expect(widget(page).getByRole("link", { name: /sign in/i })).toBeVisible();
  await expect(widget(page).getByRole("list", { name: "Ways to earn points" }).getByRole("listitem")).toHaveCount(5);
  await expect(widget(page).getByRole("button")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("pending shopper sees the exact button text and legal sentence with working links, enrols, and gets sign-up points and the initial tier", async ({ page }) => {
  await page.goto("/demo/loyalty?shopper=demo-pending");
  const join = widget(page).getByRole("button", { name: BUTTON_TEXT, exact: true });
  await expect(join).toBeVisible();
  await expect(join).toHaveText(BUTTON_TEXT);
  const legal = widget(page).locator("[part=legal]");
  await expect(legal).toHaveText("By joining, you agree to the Chorus Rewards Terms and Conditions and confirm you have read our Privacy Policy.");
  // Default position: the sentence below the button.
  expect(await join.evaluate((b) => !!(b.compareDocumentPosition((b.getRootNode() as ShadowRoot).querySelector("[part=legal]")!) & Node.DOCUMENT_POSITION_FOLLOWING))).toBe(true);
  await expectNoAxeViolations(page);

  // The links work: each opens its policy page.
  for (const [name, heading] of [
    ["Chorus Rewards Terms and Conditions", "Chorus Rewards Terms and Conditions"],
    ["Privacy Policy", "Privacy Policy"],
  ]) {
    const href = await legal.getByRole("link", { name }).getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain(`<h1>${heading}</h1>`);
  }
  await legal.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await page.goBack();

  const enrolledEvent = page.evaluate(() => new Promise((resolve) => document.addEventListener("chorus-loyalty-enrolled", (e) => resolve((e as CustomEvent).detail), { once: true })));
  await widget(page).getByRole("button", { name: BUTTON_TEXT, exact: true }).click();
  await expect(widget(page).getByRole("heading", { name: "Your rewards" })).toBeVisible();
  await expect(widget(page).locator("[part=balance]")).toHaveText("100 points");
  await expect(widget(page).locator("[part=tier]")).toHaveText("Bronze");
  await expect(widget(page).getByRole("status")).toContainText("Welcome to the program! You have 100 points and the Bronze tier.");
  expect(await enrolledEvent).toMatchObject({ balance: 100, vipTierName: "Bronze" });
  await expect(widget(page).getByRole("button", { name: BUTTON_TEXT })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Rule 3: an enrolled shopper skips the enrolment steps on the next visit.
  await page.reload();
  await expect(widget(page).getByRole("heading", { name: "Your rewards" })).toBeVisible();
  await expect(widget(page).getByRole("button", { name: BUTTON_TEXT })).toHaveCount(0);
});

test("policy-position=above puts the legal sentence above the button", async ({ page }) => {
  await page.goto("/demo/loyalty?shopper=demo-new-above1&position=above");
  const join = widget(page).getByRole("button", { name: BUTTON_TEXT, exact: true });
  await expect(join).toBeVisible();
  expect(await join.evaluate((b) => !!(b.compareDocumentPosition((b.getRootNode() as ShadowRoot).querySelector("[part=legal]")!) & Node.DOCUMENT_POSITION_PRECEDING))).toBe(true);
});

test("enrolled shopper redeems a reward and gets a coupon code", async ({ page }) => {
  await page.goto("/demo/loyalty?shopper=demo-enrolled");
  await expect(widget(page).getByRole("heading", { name: "Your rewards" })).toBeVisible();
  await expect(widget(page).locator("[part=balance]")).toHaveText("738 points");
  await expect(widget(page).locator("[part=tier]")).toHaveText("Silver");
  await expectNoAxeViolations(page);

  const redeemedEvent = page.evaluate(() => new Promise((resolve) => document.addEventListener("chorus-loyalty-redeemed", (e) => resolve((e as CustomEvent).detail), { once: true })));
  await widget(page).getByRole("button", { name: "Redeem $5 off for 500 points" }).click();
  const coupon = widget(page).locator("[part=coupon]");
  await expect(coupon).toHaveText(/^CHORUS-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  expect(await redeemedEvent).toMatchObject({ code: await coupon.textContent(), pointsCost: 500 });
  await expect(widget(page).locator("[part=balance]")).toHaveText("238 points");
  // Not enough points left for the $5 reward: its button is disabled now.
  await expect(widget(page).getByRole("button", { name: "Redeem $5 off for 500 points" })).toBeDisabled();
  await expectNoAxeViolations(page);
});

test("blocked shopper sees a polite message and no participation controls", async ({ page }) => {
  await page.goto("/demo/loyalty?shopper=demo-blocked");
  await expect(widget(page)).toContainText("can't take part in the rewards program");
  await expect(widget(page).getByRole("button")).toHaveCount(0);
  await expect(widget(page).locator("[part=balance]")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("merchant HTML with <img onerror> and <script> set through the service executes nothing", async ({ page }) => {
  const port = Number(process.env.E2E_PORT ?? 3111);
  const dbDir = process.env.E2E_DB_DIR ?? `/tmp/chorus-e2e-${port}`;
  const services = await createServices({ databasePath: `${dbDir}/chorus.sqlite`, mediaPath: `${dbDir}/media` });
  const original = demoProgram("unused").legalPolicies;
  try {
    await services.loyalty.updateLegalPolicies(DEMO_STORE_ID, {
      ...original,
      policySentenceHtml: `By joining you accept the <img src=x onerror="window.__pwned='img';alert('img')"><script>window.__pwned='script';alert('script')</script><a href="/demo/loyalty?policy=terms" onclick="window.__pwned='click'">terms</a>.`,
    });
    const dialogs = forbidDialogs(page);
    await page.goto("/demo/loyalty?shopper=demo-new-xss1");
    await page.reload();
    const legal = widget(page).locator("[part=legal]");
    await expect(legal).toHaveText("By joining you accept the terms.");
    await expect(legal.locator("img, script")).toHaveCount(0);
    expect(await legal.getByRole("link", { name: "terms" }).getAttribute("onclick")).toBeNull();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as Window & { __pwned?: string }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await expectNoAxeViolations(page);
  } finally {
    await services.loyalty.updateLegalPolicies(DEMO_STORE_ID, original);
    await services.close();
  }
});

test("without policySentence.html the widget builds the sentence from the template and the two URLs", async ({ page }) => {
  const port = Number(process.env.E2E_PORT ?? 3111);
  const dbDir = process.env.E2E_DB_DIR ?? `/tmp/chorus-e2e-${port}`;
  const services = await createServices({ databasePath: `${dbDir}/chorus.sqlite`, mediaPath: `${dbDir}/media` });
  const original = demoProgram("unused").legalPolicies;
  try {
    await services.loyalty.updateLegalPolicies(DEMO_STORE_ID, { ...original, policySentenceHtml: "" });
    await page.goto("/demo/loyalty?shopper=demo-new-template1");
    const legal = widget(page).locator("[part=legal]");
    await expect(legal).toHaveText("By joining, you agree to the Terms and Conditions and confirm you have read our Privacy Policy.");
    // The widget links the URL it checked, resolved against the page (widgets/internal/safe-html.ts safeHref).
    const resolved = (href: string) => new URL(href, page.url()).href;
    expect(await legal.getByRole("link", { name: "Terms and Conditions" }).getAttribute("href")).toBe(resolved(original.termsAndConditionsUrl));
    expect(await legal.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(resolved(original.privacyPolicyUrl));
    await expectNoAxeViolations(page);
  } finally {
    await services.loyalty.updateLegalPolicies(DEMO_STORE_ID, original);
    await services.close();
  }
});

test("the widget sanitises the sentence itself even when the server sends raw HTML", async ({ page }) => {
  const dialogs = forbidDialogs(page);
  await page.route(`**/v1/stores/${DEMO_STORE_ID}/loyalty/legal_policies`, async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    body.policySentence.html = `Join <img src=x onerror="window.__pwned='img';alert(1)"><script>window.__pwned='script'</script><svg onload="window.__pwned='svg'"></svg><a href="javascript:window.__pwned='js'">terms</a>`;
    await route.fulfill({ response: res, json: body });
  });
  await page.goto("/demo/loyalty?shopper=demo-new-xss2");
  const legal = widget(page).locator("[part=legal]");
  await expect(legal).toContainText("Join");
  await expect(legal.locator("img, script, svg")).toHaveCount(0);
  expect(await legal.locator("a").getAttribute("href")).toBeNull();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as Window & { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

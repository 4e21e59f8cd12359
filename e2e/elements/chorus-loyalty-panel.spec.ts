/**
 * The member panel of `<chorus-loyalty>` (docs/loyalty.md "Widget `<chorus-loyalty>`") in Chromium on the demo store's
 * real program, in English and German, axe first: a new member (sign-up points, Bronze) with more transactions than one
 * page sees the expiry date, the points to the next VIP tier, each earning rule's state, what each reward still needs,
 * the points history with "Load more", and sets a birthday by keyboard (saved, then locked for a year).
 */
import { expect, test, type Page } from "@playwright/test";
import { run, sql } from "../../server/db/database.ts";
import { signPlatformToken } from "../../server/loyalty/tokens.ts";
import { withE2eDb } from "../e2e-server.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./element-page.ts";

const SECRET = "e2e-platform-secret-0123456789"; // DEMO_PLATFORM_SECRET of playwright.config.ts
const BASIC = `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}`;

/** A new enrolled member with 11 adjustments of 10 points (sign-up 100 + 110 = 210 points): @returns their platform token. */
async function member(baseURL: string): Promise<string> {
  const id = `demo-panel-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const token = await signPlatformToken(SECRET, { platformCustomerId: id, email: `${id}@demo.chorus.test` });
  const L = `${baseURL}/v1/stores/${DEMO_STORE_ID}/loyalty`;
  const json = { "content-type": "application/json" };
  const login = (await (await fetch(`${L}/login`, { method: "POST", headers: json, body: JSON.stringify({ customerAccessToken: token }) })).json()) as {
    customerToken: string;
    loyaltyCustomer: { loyaltyCustomerId: string };
  };
  const { version } = (await (await fetch(`${L}/legal_policies`)).json()) as { version: string };
  const activated = await fetch(`${L}/customer_activation`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${login.customerToken}` },
    body: JSON.stringify({ enrollmentChannel: "storefront", legalPoliciesVersionAccepted: version }),
  });
  expect(activated.status).toBe(200);
  for (let i = 1; i <= 11; i++) {
    const r = await fetch(`${baseURL}/enterprise/loyalty/customers/${login.loyaltyCustomer.loyaltyCustomerId}/adjustments`, {
      method: "POST",
      headers: { ...json, authorization: BASIC },
      body: JSON.stringify({ points: 10, reason: `Thank-you gift ${i}` }),
    });
    expect(r.status).toBe(201);
  }
  return token;
}

/** The demo program's points expiry (months; null: off), set directly in the e2e database for one test and restored after. */
const setExpiry = (months: number | null) => withE2eDb((db) => run(db, sql`UPDATE loyalty_programs SET points_expiry_months = ${months} WHERE store_id = ${DEMO_STORE_ID}`));

const panel = (page: Page) => page.locator("chorus-loyalty");

async function openPanel(page: Page, token: string, lang: string): Promise<void> {
  await openElementPage(page, `<chorus-loyalty store-id="${DEMO_STORE_ID}" customer-token="${token}"></chorus-loyalty>`, { lang });
  await expect(panel(page).locator("[part=history]")).toBeVisible({ timeout: 20_000 });
}

test.afterEach(async () => {
  await setExpiry(null);
});

test("axe finds nothing in the member panel, in English and in German", async ({ page, baseURL }) => {
  test.setTimeout(150_000); // two page loads and two axe scans of the whole panel (one took over a minute on a loaded machine)
  const token = await member(baseURL!);
  await setExpiry(12);
  for (const lang of ["en", "de"]) {
    await openPanel(page, token, lang);
    await expectElementAccessible(page, "chorus-loyalty");
  }
});

test("English: expiry date, points to the next tier, rule states, what rewards still need, history with Load more, the birthday by keyboard", async ({ page, baseURL }) => {
  const token = await member(baseURL!);
  await setExpiry(12);
  await openPanel(page, token, "en");
  const p = panel(page);
  await expect(p.locator("[part=balance]")).toHaveText("210 points");
  await expect(p.locator("[part=expiry]")).toContainText(/Your points expire on \w+ \d{1,2}, \d{4}/);
  // Demo tiers: Bronze 0, Silver 500 (docs/loyalty.md "Demo"); tiers go by lifetime earned points, which merchant
  // adjustments do not count (docs/loyalty.md "Earning"): 100 (the sign-up).
  await expect(p.locator("[part=tier-progress]")).toContainText("400 points to Silver");
  await expect(p.getByRole("progressbar")).toHaveAttribute("value", "100");
  const ways = p.getByRole("list", { name: "Ways to earn points" });
  await expect(ways.getByRole("listitem").filter({ hasText: "Join the program" }).locator("[part=rule-state]")).toHaveText("Done");
  await expect(ways.locator("[part=rule-state]").filter({ hasText: "Once a year" })).toHaveCount(1);
  await expect(ways.locator("[part=rule-state]").filter({ hasText: "Every order" })).toHaveCount(1);
  // Rewards: free shipping (300), $5 off (500), 10% off (800) against 210 points.
  const rewards = p.getByRole("list", { name: "Rewards" });
  await expect(rewards.locator("[part=missing]")).toHaveText(["· 90 points to go", "· 290 points to go", "· 590 points to go"]);
  // History: 10 newest, then Load more shows the rest (11 adjustments and the sign-up).
  const history = p.locator("[part=history] li");
  await expect(history).toHaveCount(10);
  await expect(history.first()).toContainText("Thank-you gift 11");
  await expect(history.first()).toContainText("+10 points");
  await p.locator("[part=load-more]").click();
  await expect(history).toHaveCount(12);
  await expect(p.locator("[part=load-more]")).toHaveCount(0);
  // Birthday by keyboard: month, day, save.
  const form = p.locator("[part=birthday-form]");
  await form.getByLabel("Month").focus();
  await form.getByLabel("Month").selectOption({ label: "April" });
  await page.keyboard.press("Tab");
  await form.getByLabel("Day").selectOption("31");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(form.getByRole("alert")).toHaveText("That day does not exist in that month. Please choose another.");
  await form.getByLabel("Day").selectOption("30");
  await form.getByRole("button", { name: "Save birthday" }).press("Enter");
  await expect(p.getByRole("status")).toContainText("Your birthday is saved.");
  await expect(form).toContainText(/You can change it again from \w+ \d{1,2}, \d{4}\./);
  await expect(form.getByLabel("Month")).toHaveValue("4");
  // Another day within the year: the server's 409 as a clear message.
  await form.getByLabel("Day").selectOption("29");
  await form.getByRole("button", { name: "Save birthday" }).click();
  await expect(form.getByRole("alert")).toHaveText("Your birthday can be changed only once a year.");
  await expectElementAccessible(page, "chorus-loyalty");
});

test("German: the same parts in German", async ({ page, baseURL }) => {
  const token = await member(baseURL!);
  await setExpiry(12);
  await openPanel(page, token, "de");
  const p = panel(page);
  await expect(p.locator("[part=balance]")).toHaveText("210 Punkte");
  await expect(p.locator("[part=expiry]")).toContainText(/Deine Punkte verfallen am \d{1,2}\. \p{L}+ \d{4}/u);
  await expect(p.locator("[part=tier-progress]")).toContainText("Noch 400 Punkte bis Silver");
  const ways = p.getByRole("list", { name: "Möglichkeiten, Punkte zu sammeln" });
  await expect(ways.locator("[part=rule-state]").filter({ hasText: "Erledigt" })).toHaveCount(1);
  await expect(ways.locator("[part=rule-state]").filter({ hasText: "Einmal im Jahr" })).toHaveCount(1);
  await expect(p.getByRole("list", { name: "Prämien" }).locator("[part=missing]").first()).toHaveText("· Noch 90 Punkte");
  await expect(p.getByRole("heading", { name: "Punkteverlauf" })).toBeVisible();
  await p.getByRole("button", { name: "Mehr laden" }).click();
  await expect(p.locator("[part=history] li")).toHaveCount(12);
  const form = p.locator("[part=birthday-form]");
  await expect(form.getByRole("group", { name: "Dein Geburtstag" })).toBeVisible();
  await form.getByLabel("Monat").selectOption({ label: "Februar" });
  await form.getByLabel("Tag").selectOption("29");
  await form.getByRole("button", { name: "Geburtstag speichern" }).click();
  await expect(p.getByRole("status")).toContainText("Dein Geburtstag ist gespeichert.");
  await expectElementAccessible(page, "chorus-loyalty");
});

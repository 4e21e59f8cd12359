/**
 * A new merchant's first hour, as one walk in Chromium against the production server (issue 21, "Done
 * when"): sign up a store, turn its loyalty program on with legal policies, import a small CSV of (real)
 * reviews, copy the integration page's snippet into a shop page on another origin and see the reviews and
 * the enrol button work with a shopper token signed with the store's new platform secret; invite a member
 * who accepts through the link received by the SMTP sink; reset the owner's password through the mailed
 * link. The single steps are tested in depth (with axe on every state) by accounts.spec.ts and
 * loyalty-setup.spec.ts; this walk proves they fit together for a store made through the sign-up page.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { stringify } from "csv-stringify/sync";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { realReviews } from "../test/fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { waitForMail } from "./mailbox.ts";
import { startShopOrigin, type ShopOrigin } from "./shop-origin.ts";
import { signUpStore } from "./signup.ts";

const run = Date.now().toString(36);
const OWNER = { email: `walk-owner-${run}@e2e-shop.test`, password: "walk owner password" };
const MEMBER = `walk-member-${run}@e2e-shop.test`;
const PRODUCT = "shopify-7001";
/** Two real reviews of the CC0 clothing file (never invented text). */
const REAL = realReviews()
  .filter((r) => r.title && r.body && !r.body.includes("\n"))
  .slice(0, 2);

let shop: ShopOrigin;
test.beforeAll(async () => {
  shop = await startShopOrigin();
});
test.afterAll(() => shop.close());

/** The path of the account link in the newest mail to `to` whose subject matches. */
async function mailedPath(to: string, subject: RegExp, kind: "invite" | "reset"): Promise<string> {
  const mail = await waitForMail((m) => m.to.includes(to) && subject.test(m.subject));
  const url = new RegExp(`https?://[^\\s"]+(/admin/${kind}/[A-Za-z0-9_-]{43})`).exec(mail.text);
  expect(url, mail.text).not.toBeNull();
  return url![1];
}
const freshPage = async (browser: Browser): Promise<Page> => (await browser.newContext()).newPage();

test("sign up, loyalty on, import reviews, paste the snippet on another origin, invite a member, reset the password", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const store = await signUpStore(page, { storeName: `Walk Boutique ${run}`, email: OWNER.email, password: OWNER.password, platform: "shopify", shopUrl: "https://walk-boutique.example" });
  const admin = `/admin/stores/${store.storeId}`;

  // Loyalty program on, with its legal policies and a sign-up earning rule.
  await page.goto(`${admin}/loyalty`);
  await page.getByRole("link", { name: "Set up the loyalty program" }).click();
  await page.getByLabel("Terms and conditions URL").fill("https://walk-boutique.example/pages/rewards-terms");
  await page.getByLabel("Privacy policy URL").fill("https://walk-boutique.example/pages/privacy");
  await page.getByRole("button", { name: "Turn on the loyalty program" }).click();
  await expect(page.getByRole("status").first()).toContainText("The loyalty program is on.");
  const secret = (await page.getByTestId("platform-secret").textContent())!;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.goto(`${admin}/loyalty`);
  const addEarning = page.getByRole("form", { name: "Add an earning rule" });
  await addEarning.getByLabel("Type").selectOption({ label: "Sign-up" });
  await addEarning.getByLabel("Name shown to shoppers").fill("Join bonus");
  await addEarning.getByLabel("Points", { exact: true }).fill("100");
  await addEarning.getByRole("button", { name: "Add earning rule" }).click();
  await expect(page.getByRole("status")).toHaveText('Earning rule "Join bonus" added.');

  // A small CSV of real reviews.
  await page.goto(`${admin}/import`);
  const csv = stringify([["product_id", "rating", "title", "body"], ...REAL.map((r) => [PRODUCT.replace("shopify-", ""), r.rating, r.title, r.body])]);
  await page.getByLabel(/^Reviews CSV file/).setInputFiles({ name: `walk-${run}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import reviews" }).click();
  await expect(page.getByRole("status").first()).toHaveText("2 reviews imported, 0 already present, 0 rows skipped with errors.");

  // The integration page's snippet, pasted into a shop page on another origin.
  await page.goto(`${admin}/integration`);
  const snippet = (await page.locator("#widget-snippet").textContent())!;
  expect(snippet).toContain(`store-id="${store.storeId}"`);
  const token = await signPlatformToken(secret, { platformCustomerId: `walk-shopper-${run}`, email: `walk-shopper-${run}@example.com` });
  const pasted = snippet.replace(/product-id="[^"]*"/g, `product-id="${PRODUCT}"`).replace(/<chorus-loyalty /, `<chorus-loyalty customer-token="${token}" `);
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Walk Boutique</title></head><body><main><h1>Walk Boutique</h1>\n${pasted}\n</main></body></html>`;
  const shopper = await freshPage(browser);
  await shopper.goto(shop.url("/products/7001"));
  expect(new URL(shopper.url()).origin).not.toBe(new URL(baseURL!).origin);
  const reviews = shopper.locator("chorus-reviews");
  for (const r of REAL) await expect(reviews.getByRole("heading", { name: r.title })).toBeVisible();
  const loyalty = shopper.locator("chorus-loyalty");
  await loyalty.getByRole("button", { name: /join/i }).first().click();
  await expect(loyalty.locator("[part=balance]")).toHaveText("100 points");
  await expectNoAxeViolations(shopper, "main");

  // A member invited by e-mail accepts through the received link.
  await page.goto(`${admin}/team`);
  const inviteForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Send invitation" }) });
  await inviteForm.getByLabel("E-mail").fill(MEMBER);
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${MEMBER}` })).toBeVisible();
  const member = await freshPage(browser);
  await member.goto(await mailedPath(MEMBER, /invited/i, "invite"));
  await member.getByLabel("Choose a password").fill("walk member password");
  await member.getByLabel("Repeat the password").fill("walk member password");
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member.locator(".brand")).toContainText(store.storeName);

  // The owner resets their password through the mailed link, then signs in with the new one.
  const signedOut = await freshPage(browser);
  await signedOut.goto("/admin/forgot");
  await signedOut.getByLabel("E-mail").fill(OWNER.email);
  await signedOut.getByRole("button", { name: "Send the link" }).click();
  // Wait for the answer and the page's revalidation: its new sign-in CSRF cookie, set after the reset page had
  // set its own, made the reset form "expired" now and then.
  await expect(signedOut.getByRole("status")).toContainText("If an account exists for that e-mail");
  await signedOut.waitForLoadState("networkidle");
  await signedOut.goto(await mailedPath(OWNER.email, /new password/i, "reset"));
  await signedOut.getByLabel("New password", { exact: true }).fill("walk owner new password");
  await signedOut.getByLabel("Repeat the new password").fill("walk owner new password");
  await signedOut.getByRole("button", { name: "Set password" }).click();
  await expect(signedOut).toHaveURL(/\/admin\/login\?reset=done/);
  await signedOut.getByLabel("Password").fill("walk owner new password");
  await signedOut.getByRole("button", { name: "Sign in" }).click();
  await expect(signedOut.locator(".brand")).toContainText(store.storeName);
});

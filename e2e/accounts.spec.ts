/**
 * Accounts in Chromium against the production server (SIGNUP=open in playwright.config.ts, mail to the
 * SMTP sink): sign up a new store, invite a member and accept through the link in the received mail,
 * reset a password through the mailed link, create a store as the demo operator; axe on every page of
 * it (sign-up with field errors, team, invitation, forgot, reset, new store, a used link).
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";
import { waitForMail } from "./mailbox.ts";
import { signUpStore } from "./signup.ts";

const run = Date.now().toString(36);
const OWNER = { email: `owner-${run}@e2e-shop.test`, password: "owner e2e password" };
const MEMBER = `member-${run}@e2e-shop.test`;

/** The path of the account link in the newest mail to `to` whose subject matches. */
async function mailedPath(to: string, subject: RegExp, kind: "invite" | "reset"): Promise<string> {
  const mail = await waitForMail((m) => m.to.includes(to) && subject.test(m.subject));
  const url = new RegExp(`https?://[^\\s"]+(/admin/${kind}/[A-Za-z0-9_-]{43})`).exec(mail.text);
  expect(url, mail.text).not.toBeNull();
  return url![1];
}

/** A page in a fresh browser context (no cookies): the invitee's or a signed-out browser. */
async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("sign up a store, invite a member who accepts through the mailed link, and remove them", async ({ page, browser }) => {
  await page.goto("/admin/login");
  await page.getByRole("link", { name: "Create your store" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create your store on Chorus" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Your e-mail").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByLabel("Store name").fill("E2E Outdoor Supply");
  await page.getByLabel("Shop platform").selectOption("woocommerce");
  await page.getByLabel("Shop address").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create store" }).click();
  const shopUrl = page.getByLabel("Shop address");
  await expect(shopUrl).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#field-shopUrl-error")).toContainText("https://");
  await expect(page.getByLabel("Store name")).toHaveValue("E2E Outdoor Supply");
  await expectNoAxeViolations(page);

  await page.getByLabel("Password").fill(OWNER.password);
  await shopUrl.fill("https://e2e-outdoor.example");
  await page.getByRole("button", { name: "Create store" }).click();
  await expect(page.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  await expect(page.locator(".brand")).toContainText("E2E Outdoor Supply");
  const storePath = new URL(page.url()).pathname.replace(/\/$/, "");
  expect(storePath).toMatch(/^\/admin\/stores\/[0-9a-f-]{36}$/);

  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await expect(page.getByRole("cell", { name: `${OWNER.email} (you)` })).toBeVisible();
  await expectNoAxeViolations(page);
  const inviteForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Send invitation" }) });
  await inviteForm.getByLabel("E-mail").fill("not-an-address");
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  await expect(inviteForm.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await inviteForm.getByLabel("E-mail").fill(MEMBER);
  await inviteForm.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${MEMBER}` })).toBeVisible();
  await expect(page.getByRole("cell", { name: MEMBER, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  const link = await mailedPath(MEMBER, /invited/i, "invite");
  const member = await freshPage(browser);
  await member.goto(link);
  await expect(member.getByRole("heading", { level: 1, name: "Join E2E Outdoor Supply" })).toBeVisible();
  await expectNoAxeViolations(member);
  await member.getByLabel("Choose a password").fill("member e2e password");
  await member.getByLabel("Repeat the password").fill("member e2e passwort");
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member.getByLabel("Repeat the password")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(member);
  await member.getByLabel("Choose a password").fill("member e2e password");
  await member.getByLabel("Repeat the password").fill("member e2e password");
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  expect(new URL(member.url()).pathname.replace(/\/$/, "")).toBe(storePath);

  // The link was single-use.
  await member.goto(link);
  await expect(member.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(member.getByText("was already used")).toBeVisible();
  await expectNoAxeViolations(member);

  // The owner sees the new member and removes them: their next page is a 404.
  await page.reload();
  const row = page.getByRole("row").filter({ hasText: MEMBER });
  await expect(row).toContainText("Member");
  await row.getByRole("button", { name: `Remove ${MEMBER}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `${MEMBER} was removed` })).toBeVisible();
  const after = await member.goto(`${storePath}/reviews`);
  expect(after?.status()).toBe(404);
});

test("reset a password through the mailed link; the old password and its sessions stop working", async ({ browser }) => {
  const RESETTER = { email: `resetter-${Date.now().toString(36)}@e2e-shop.test`, password: "resetter e2e password" };
  const earlier = await freshPage(browser);
  await signUpStore(earlier, { ...RESETTER, storeName: "E2E Reset Shop" });
  const storeUrl = earlier.url();
  const page = await freshPage(browser);
  await page.goto("/admin/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("E-mail").fill(RESETTER.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for that e-mail");
  await expectNoAxeViolations(page);

  const link = await mailedPath(RESETTER.email, /new password/i, "reset");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("New password", { exact: true }).fill("owner new e2e password");
  await page.getByLabel("Repeat the new password").fill("owner new e2e password");
  await page.getByRole("button", { name: "Set password" }).click();
  // Nobody is signed in by a reset: the sign-in form, with a note and the e-mail filled in.
  await expect(page).toHaveURL(/\/admin\/login\?reset=done/);
  await expect(page.getByRole("status")).toContainText("Your password was changed");
  await expect(page.getByLabel("E-mail")).toHaveValue(RESETTER.email);
  await expectNoAxeViolations(page);
  await page.getByLabel("Password").fill("owner new e2e password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".brand")).toContainText("E2E Reset Shop");

  await page.goto(link);
  await expect(page.getByText("does not work")).toBeVisible();
  await expectNoAxeViolations(page);

  // The session opened with the old password has ended.
  await earlier.goto(storeUrl);
  await expect(earlier).toHaveURL(/\/admin\/login/);

  const other = await freshPage(browser);
  await other.goto("/admin/login");
  await other.getByLabel("E-mail").fill(RESETTER.email);
  await other.getByLabel("Password").fill(RESETTER.password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("alert")).toHaveText("E-mail or password is wrong.");
  await other.getByLabel("Password").fill("owner new e2e password");
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
});

test("the demo merchant is an operator and creates a store from the admin", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.getByRole("link", { name: "New store" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New store" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Create store" }).click();
  await expect(page.getByLabel("Store name")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await page.getByLabel("Store name").fill(`Operator's second store ${run}`);
  await page.getByLabel("Shop platform").selectOption("custom");
  await page.getByLabel("Shop address").fill("https://second.example");
  await page.getByRole("button", { name: "Create store" }).click();
  await expect(page.locator(".brand")).toContainText(`Operator's second store ${run}`);
  await expect(page.getByLabel("Store", { exact: true })).toBeVisible(); // the switcher: two stores now
});

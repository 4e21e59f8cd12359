/**
 * Owner actions are owners' (docs/admin.md "Who may do what") in Chromium against the production server: an
 * owner signs up a store and invites a member (who joins through the mailed link) and then a second owner. The
 * member does not see the owner invitation in the outbox, cannot open it by its URL (404 page without its
 * subject or link), sees no owner-only control (team, API keys, webhooks, platform, loyalty set-up), and a
 * forged form POST of an owner-only action from their browser is refused with the 403 page. Axe on each page.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe.ts";
import { waitForMail } from "./mailbox.ts";
import { signUpStore } from "./signup.ts";

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const MEMBER = { email: `roles-member-${run}@e2e-shop.test`, password: "member e2e password" };
const CO_OWNER = `roles-co-owner-${run}@e2e-shop.test`;

async function invite(page: Page, storeId: string, email: string, role: "member" | "owner") {
  await page.goto(`/admin/stores/${storeId}/team`);
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Send invitation" }) });
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
}

async function memberPage(browser: Browser, storeName: string): Promise<Page> {
  const mail = await waitForMail((m) => m.to.includes(MEMBER.email) && /invited/i.test(m.subject));
  const link = /https?:\/\/[^\s"]+(\/admin\/invite\/[A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  const member = await (await browser.newContext()).newPage();
  await member.goto(link);
  await expect(member.getByRole("heading", { level: 1, name: `Join ${storeName}` })).toBeVisible();
  await member.getByLabel("Choose a password").fill(MEMBER.password);
  await member.getByLabel("Repeat the password").fill(MEMBER.password);
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member.getByRole("navigation", { name: "Admin sections" })).toBeVisible();
  return member;
}

test("a member neither reads the owner invitation nor uses owner-only controls; a forged POST is refused", async ({ page, browser }) => {
  test.setTimeout(240_000); // two browsers, many pages and axe scans on a shared machine
  const store = await signUpStore(page, { storeName: `Roles ${run}` });
  await invite(page, store.storeId, MEMBER.email, "member");
  const member = await memberPage(browser, store.storeName);
  await invite(page, store.storeId, CO_OWNER, "owner");
  const coOwnerMail = await waitForMail((m) => m.to.includes(CO_OWNER));
  const inviteLink = /https?:\/\/[^\s"]+\/admin\/invite\/([A-Za-z0-9_-]{43})/.exec(coOwnerMail.text)![1];

  // The owner lists the invitation and opens it.
  await page.goto("/admin/outbox");
  const ownerRow = page.getByRole("row").filter({ hasText: CO_OWNER });
  await expect(ownerRow).toBeVisible();
  const messagePath = await ownerRow.getByRole("link").getAttribute("href");
  expect(messagePath).toMatch(/^\/admin\/outbox\/[0-9a-f-]{36}$/);

  // The member: not listed, and by URL the 404 page, which says nothing of it.
  await member.goto("/admin/outbox");
  await expect(member.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  await expect(member.getByText("Team invitations are shown only to a store's owners")).toBeVisible();
  await expect(member.getByRole("row").filter({ hasText: CO_OWNER })).toHaveCount(0);
  await expect(member.getByText(/You are invited/)).toHaveCount(0);
  await expectNoAxeViolations(member);
  const opened = await member.goto(messagePath!);
  expect(opened?.status()).toBe(404);
  await expect(member.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(member.getByText("Message not found")).toBeVisible();
  expect(await member.content()).not.toContain(inviteLink);
  expect(await member.content()).not.toContain(CO_OWNER);
  await expectNoAxeViolations(member);
  expect((await member.goto(`${messagePath}/html`))?.status()).toBe(404);

  // No owner-only controls on the member's pages, each with its note.
  const base = `/admin/stores/${store.storeId}`;
  for (const [path, heading, note, control] of [
    ["team", "Team", "Only the store's owners", "Send invitation"],
    ["integration", "Integration", "Only an owner of this store can create or revoke API keys.", "Create API key"],
    ["webhooks", "Webhooks", "Only an owner of this store can add, change or delete subscriptions.", "Create subscription"],
    ["platform", "Shop platform", "Only an owner of this store can change its shop domain or app secret.", "Save"],
    ["loyalty/program", "Loyalty program set-up", "Only an owner of this store can turn the loyalty program on or off", "Turn on the loyalty program"],
  ] as const) {
    await member.goto(`${base}/${path}`);
    await expect(member.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(member.getByText(note)).toBeVisible();
    await expect(member.getByRole("button", { name: control, exact: true })).toHaveCount(0);
    await expectNoAxeViolations(member);
  }
  // The owner sees them.
  await page.goto(`${base}/integration`);
  await expect(page.getByRole("button", { name: "Create API key" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto(`${base}/platform`);
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeVisible();

  // A forged form (the member's own valid CSRF token) posting an owner-only action: the 403 page, no key made.
  await member.goto(`${base}/integration`);
  const csrf = await member.locator('input[name="csrf"]').first().inputValue();
  await member.evaluate(
    ({ action, csrf }) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = action;
      for (const [name, value] of Object.entries({ csrf, intent: "create", name: "Forged key" })) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { action: `${base}/integration`, csrf },
  );
  await expect(member.getByText("Only an owner of this store can create or revoke its API keys.")).toBeVisible();
  await expectNoAxeViolations(member);
  await page.goto(`${base}/integration`);
  await expect(page.getByText("No API keys yet.")).toBeVisible();
});

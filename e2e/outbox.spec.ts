/**
 * The admin outbox in Chromium: a message put in the outbox through the real data module is sent by the
 * e2e server's send loop to its SMTP sink (e2e/smtp-sink.ts) and received there as HTML + text; the demo
 * merchant finds it at /admin/outbox (from the store navigation) marked sent, opens it with the keyboard, sees
 * its HTML in the sandboxed frame and its text; axe finds nothing on either page, nor on an unknown message.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { mailRepo } from "../server/mail/mail.repo.ts";
import { renderMail } from "../server/mail/render.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { run, sql, transaction } from "../server/db/database.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";
import { waitForMail } from "./mailbox.ts";

/**
 * axe on the message page without its preview frame: axe's per-frame run never finishes inside a frame where
 * scripts are off (the sandbox), so the frame is left out here and the message's HTML is checked on its own.
 */
async function expectNoAxeViolationsOutsidePreview(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).exclude("iframe.mail-preview").analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    "axe violations",
  ).toEqual([]);
}

test("a message is sent to the SMTP sink and shown in the outbox, list and detail, with axe", async ({ page }) => {
  const subject = `Tell us about your order ${randomUUID().slice(0, 8)}`;
  const to = `outbox-${randomUUID().slice(0, 8)}@example.com`;
  const { html, text } = renderMail({
    storeName: "Chorus demo store",
    preheader: "It takes a minute",
    heading: "How is your new dress?",
    paragraphs: ["Thank you for your order <#1001>.", "Tell other shoppers what you think."],
    action: { label: "Write a review", url: "https://reviews.example.com/r/demo-token" },
    footer: "You get this e-mail because you ordered from the Chorus demo store.",
  });
  const messageId = randomUUID();
  await withE2eDb((db) =>
    mailRepo(db).insert({
      message_id: messageId,
      store_id: DEMO_STORE_ID,
      kind: "review-request",
      to_address: to,
      subject,
      html,
      text,
      headers_json: JSON.stringify({ "List-Unsubscribe": "<https://reviews.example.com/u/demo>" }),
      dedupe_key: null,
      status: "queued",
      next_attempt_ms: Date.now(),
      created_ms: Date.now(),
    }),
  );

  // The send loop (every 15 s at the latest) delivers it to the sink.
  const received = await waitForMail((m) => m.subject === subject, 40_000);
  expect(received.to).toEqual([to]);
  expect(received.from).toBe('"Chorus E2E" <no-reply@chorus.test>');
  expect(received.headers["message-id"]).toBe(`<${messageId}@chorus.test>`);
  expect(received.html).toContain("Thank you for your order &lt;#1001&gt;.");
  expect(received.text).toContain("Write a review: https://reviews.example.com/r/demo-token");

  await signInAsDemoMerchant(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Outbox" }).click();
  await expect(page).toHaveURL(/\/admin\/outbox$/);
  await expect(page.getByRole("heading", { level: 1, name: "Outbox" })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: subject }) });
  await expect(row).toContainText(to);
  await expect(row).toContainText("Sent");
  await expectNoAxeViolations(page);

  // Keyboard: focus the subject link and follow it with Enter.
  await page.getByRole("link", { name: subject }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/outbox/${messageId}$`));
  await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
  await expect(page.getByText("<https://reviews.example.com/u/demo>")).toBeVisible();
  const frame = page.frameLocator(`iframe[title="HTML version of “${subject}”"]`);
  await expect(frame.getByRole("heading", { name: "How is your new dress?" })).toBeVisible();
  await expect(frame.getByRole("link", { name: "Write a review" })).toHaveAttribute("href", "https://reviews.example.com/r/demo-token");
  await expect(page.locator("pre.mail-text")).toContainText("Thank you for your order <#1001>.");
  await expect(page.getByRole("link", { name: "https://reviews.example.com/r/demo-token" })).toHaveAttribute("target", "_blank");
  await expectNoAxeViolationsOutsidePreview(page);

  // The message's own HTML (renderMail's template), checked as a page of its own.
  const mailPage = await page.context().newPage();
  await mailPage.setContent(html);
  await expectNoAxeViolations(mailPage);
  await mailPage.close();

  // An unknown message: the admin's not-found page.
  const res = await page.goto(`/admin/outbox/${randomUUID()}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a script in a message's HTML never runs in the admin", async ({ page }) => {
  const messageId = randomUUID();
  const subject = `Scripted ${messageId.slice(0, 8)}`;
  await withE2eDb((db) =>
    mailRepo(db).insert({
      message_id: messageId,
      store_id: DEMO_STORE_ID,
      kind: "test",
      to_address: "x@example.com",
      subject,
      html: `<html><body><h1>Hi</h1><script>parent.document.title = "pwned"; document.body.dataset.ran = "1";</script><img src=x onerror="document.body.dataset.ran='2'"></body></html>`,
      text: "Hi",
      headers_json: "{}",
      dedupe_key: null,
      status: "kept",
      next_attempt_ms: Date.now(),
      created_ms: Date.now(),
    }),
  );
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/outbox/${messageId}`);
  const frame = page.frameLocator("iframe.mail-preview");
  await expect(frame.getByRole("heading", { name: "Hi" })).toBeVisible();
  await expect(frame.locator("body")).not.toHaveAttribute("data-ran", /.*/);
  expect(await page.title()).not.toBe("pwned");
  expect(dialogs).toEqual([]);
});

test("a failed message is sent again from its page", async ({ page }) => {
  const messageId = randomUUID();
  const subject = `Failed at first ${messageId.slice(0, 8)}`;
  const { html, text } = renderMail({ storeName: "Chorus demo store", heading: "Join the team", paragraphs: ["You are invited."] });
  await withE2eDb((db) =>
    transaction(db, async () => {
      await mailRepo(db).insert({
        message_id: messageId,
        store_id: DEMO_STORE_ID,
        kind: "invite",
        to_address: "retry@example.com",
        subject,
        html,
        text,
        headers_json: "{}",
        dedupe_key: null,
        status: "queued",
        next_attempt_ms: Date.now() + 86_400_000,
        created_ms: Date.now(),
      });
      await run(db, sql`UPDATE mail_outbox SET status = 'failed', attempts = 8, last_error = 'refused: EENVELOPE: 550 Mailbox unavailable' WHERE message_id = ${messageId}`);
    }),
  );
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/outbox/${messageId}`);
  await expect(page.getByText("Gave up after 8 attempts")).toBeVisible();
  await expect(page.getByText("550 Mailbox unavailable")).toBeVisible();
  await expectNoAxeViolationsOutsidePreview(page);
  await page.getByRole("button", { name: "Send again" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status")).toContainText("The message is queued");
  const received = await waitForMail((m) => m.subject === subject, 20_000);
  expect(received.to).toEqual(["retry@example.com"]);
  await page.reload();
  await expect(page.locator(".mail-facts")).toContainText(/Sent at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(page.getByRole("button", { name: "Send again" })).toHaveCount(0);
  await expectNoAxeViolationsOutsidePreview(page);
});

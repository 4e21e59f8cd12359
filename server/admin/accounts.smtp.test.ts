/**
 * Account e-mails over real SMTP (test/smtp.ts, a real smtp-server in the test): a store signed up over
 * HTTP invites a member, the invitation arrives with its link (HTML and text), and following it creates
 * the member; the member asks for a password reset, the mail arrives, and its link sets a new password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openForm, postForm, sessionFrom } from "../../test/account-forms-http.ts";
import { hiddenField, postAdminLogin } from "../../test/admin-http.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";

const ORIGIN = "https://reviews.example.test";
let t: TestServer;
let smtp: TestSmtp;

/** The path of the account link (`/admin/invite/…`, `/admin/reset/…`) in a received mail; the same link in its HTML and text. */
function linkIn(mail: { html: string; text: string }, kind: "invite" | "reset"): string {
  const pattern = new RegExp(`${ORIGIN.replace(/\./g, "\\.")}(/admin/${kind}/[A-Za-z0-9_-]{43})`);
  const fromText = pattern.exec(mail.text)?.[1];
  expect(fromText).toBeDefined();
  expect(pattern.exec(mail.html)?.[1]).toBe(fromText);
  return fromText!;
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestServer({ publicUrl: ORIGIN, mail: { smtpUrl: smtp.url, from: "Chorus <no-reply@chorus.test>" } });
  t.services.signup.configure({ open: true });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe("account mail over SMTP", () => {
  it("sign up → invite → the received link creates the member; forgot → the received link sets a new password", async () => {
    const form = await openForm(t, "/admin/signup");
    const signedUp = await postForm(t, "/admin/signup", form, {
      email: "founder@smtp-shop.test",
      password: "founder password",
      storeName: "SMTP <Shop> & Co",
      platform: "bigcommerce",
      shopUrl: "https://smtp-shop.test",
    });
    expect(signedUp.status).toBe(302);
    const storePath = signedUp.headers.get("location")!;
    const cookie = sessionFrom(signedUp)!;
    const team = await fetch(t.url(`${storePath}/team`), { headers: { cookie } });
    expect(team.status).toBe(200);
    const csrf = hiddenField(await team.text(), "csrf")!;
    const invited = await fetch(t.url(`${storePath}/team`), {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, intent: "invite", email: "colleague@smtp-shop.test", role: "member" }),
    });
    expect(invited.status).toBe(200);

    const invitation = await smtp.waitFor((m) => m.to.includes("colleague@smtp-shop.test"), 10_000);
    expect(invitation.subject).toBe("You are invited to SMTP <Shop> & Co on Chorus");
    expect(invitation.from).toContain("no-reply@chorus.test");
    expect(invitation.html).toContain("SMTP &lt;Shop&gt; &amp; Co"); // the store name is escaped in the HTML
    const inviteLink = linkIn(invitation, "invite");
    const accept = await openForm(t, inviteLink);
    expect(accept.status).toBe(200);
    const joined = await postForm(t, inviteLink, accept, { newPassword: "colleague password", confirm: "colleague password" });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("location")).toBe(storePath);
    expect((await fetch(t.url(`${storePath}/reviews`), { headers: { cookie: sessionFrom(joined)! } })).status).toBe(200);

    const forgot = await openForm(t, "/admin/forgot");
    expect((await postForm(t, "/admin/forgot", forgot, { email: "colleague@smtp-shop.test" })).status).toBe(200);
    const resetMail = await smtp.waitFor((m) => m.to.includes("colleague@smtp-shop.test") && /new password/i.test(m.subject), 10_000);
    const resetLink = linkIn(resetMail, "reset");
    const resetForm = await openForm(t, resetLink);
    expect(resetForm.status).toBe(200);
    const reset = await postForm(t, resetLink, resetForm, { newPassword: "colleague new password", confirm: "colleague new password" });
    expect(reset.status).toBe(302);
    expect(reset.headers.get("location")).toMatch(/^\/admin\/login\?reset=done/);
    expect((await postAdminLogin(t, "colleague@smtp-shop.test", "colleague new password")).status).toBe(302);
    // Following either link again does nothing.
    expect((await fetch(t.url(inviteLink))).status).toBe(410);
    expect((await fetch(t.url(resetLink))).status).toBe(410);
    // No mail for an address without an account.
    expect((await postForm(t, "/admin/forgot", await openForm(t, "/admin/forgot"), { email: "stranger@smtp-shop.test" })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.messages.some((m) => m.to.includes("stranger@smtp-shop.test"))).toBe(false);
  });
});

/**
 * The admin outbox over real HTTP (the real server and Remix build, real sessions): without SMTP_URL every
 * message is kept and listed at /admin/outbox, newest first, keyset-paged by a signed cursor; a merchant sees
 * their stores' mail, never another store's, and mail of no store (password resets) only as an operator
 * (the rules per role: server/admin/roles.api.test.ts); the message page shows
 * the text and frames the HTML from a sandboxed route that runs no script. With SMTP_URL (a real SMTP
 * server) the send loop delivers right after the enqueue and the outbox shows the message as sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { run, sql } from "../db/database.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";
import { renderMail } from "./render.ts";
import type { OutgoingMail } from "./mail.service.ts";

const A = "11111111-2222-4333-8444-555555555555";
const B = "99999999-8888-4777-8666-555555555555";
let t: TestServer;
let alice: AdminAgent;
let bob: AdminAgent;
const ids: Record<string, string> = {};

const mail = (storeId: string | null, to: string, subject: string, extra: Partial<OutgoingMail> = {}): OutgoingMail => ({
  storeId,
  kind: storeId ? "review-request" : "password-reset",
  to,
  subject,
  ...renderMail({ storeName: storeId === B ? "Store B" : "Store A", heading: subject, paragraphs: [`Hello <b>${to}</b>`], action: { label: "Open", url: "https://reviews.example.com/x" } }),
  ...extra,
});
const links = (html: string) => [...html.matchAll(/href="(\/admin\/outbox\/[^"]+)"/g)].map((m) => m[1]);
const subjects = (html: string) => [...html.matchAll(/<a [^>]*href="\/admin\/outbox\/[0-9a-f-]{36}"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
const olderLink = (html: string) => /href="(\/admin\/outbox\?after=[^"]+)"[^>]*>Older messages/.exec(html)?.[1]?.replaceAll("&amp;", "&");

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Store B", platform: "shopify" });
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "alice password 1", storeIds: [A] });
  await t.services.admin.createUser({ email: "bob@shop-b.test", password: "bob password 12", storeIds: [B] });
  for (let i = 0; i < 30; i++) ids[`a${i}`] = (await t.services.mail.enqueue(mail(A, `shopper${i}@example.com`, `Review your order #${i}`))).messageId;
  ids.b = (await t.services.mail.enqueue(mail(B, "b-shopper@example.com", "Store B secret subject"))).messageId;
  ids.aliceNote = (await t.services.mail.enqueue(mail(A, "Alice@Shop-A.test", "A note to Alice", { headers: { "X-Chorus-Test": "yes" } }))).messageId;
  ids.aliceReset = (await t.services.mail.enqueue(mail(null, "Alice@Shop-A.test", "Reset your Chorus password"))).messageId;
  ids.bobReset = (await t.services.mail.enqueue(mail(null, "bob@shop-b.test", "Bob's reset link"))).messageId;
  alice = await signInAgent(t, "alice@shop-a.test", "alice password 1", A);
  bob = await signInAgent(t, "bob@shop-b.test", "bob password 12", B);
});
afterAll(async () => {
  await t?.close();
});

describe("/admin/outbox without SMTP_URL", () => {
  it("keeps every message (status kept) and says that nothing is sent", async () => {
    expect(await t.services.mail.statusCounts()).toMatchObject({ kept: 34, queued: 0, sent: 0 });
    const res = await adminGet(t, alice, "/admin/outbox");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Outbox</h1>");
    expect(html).toContain("No mail server is configured");
    expect(html).toContain("Kept (not sent)");
  });

  it("lists the user's stores' mail, newest first, 25 per page, never another store's nor a reset (not an operator)", async () => {
    const first = await (await adminGet(t, alice, "/admin/outbox")).text();
    expect(subjects(first)).toEqual(["A note to Alice", ...Array.from({ length: 24 }, (_, i) => `Review your order #${29 - i}`)]);
    expect(first).not.toContain("Reset your Chorus password");
    expect(first).not.toContain("Store B secret subject");
    expect(first).not.toContain("Bob&#x27;s reset link");
    const next = olderLink(first)!;
    expect(next).toBeTruthy();
    const second = await (await adminGet(t, alice, next)).text();
    expect(subjects(second)).toEqual(["Review your order #5", "Review your order #4", "Review your order #3", "Review your order #2", "Review your order #1", "Review your order #0"]);
    expect(olderLink(second)).toBeUndefined();
    expect(second).toContain("Newest messages");

    const bobs = await (await adminGet(t, bob, "/admin/outbox")).text();
    expect(subjects(bobs)).toEqual(["Store B secret subject"]);
  });

  it("answers 400 with the error in the page for a changed or another user's cursor", async () => {
    const next = olderLink(await (await adminGet(t, alice, "/admin/outbox")).text())!;
    const forged = next.replace(/%22k%22%3A%5B(\d+)/, (_, n) => `%22k%22%3A%5B${Number(n) + 1}`);
    expect(forged).not.toBe(next);
    for (const [agent, path] of [
      [alice, forged],
      [bob, next],
      [alice, "/admin/outbox?after=nonsense"],
    ] as const) {
      const res = await adminGet(t, agent, path);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain("This page link is not valid");
      expect(html).not.toContain("Review your order");
    }
  });

  it("shows one message: facts, headers, the text, and its HTML in a sandboxed frame", async () => {
    const res = await adminGet(t, alice, `/admin/outbox/${ids.aliceNote}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>A note to Alice</h1>");
    expect(html).toContain("Alice@Shop-A.test");
    expect(html).toContain("X-Chorus-Test");
    expect(html).toMatch(new RegExp(`<iframe[^>]*src="/admin/outbox/${ids.aliceNote}/html"[^>]*sandbox=""`));
    expect(html).toContain("Hello &lt;b&gt;Alice@Shop-A.test&lt;/b&gt;"); // the text version, escaped
    expect(html).toMatch(/<a href="https:\/\/reviews.example.com\/x" target="_blank" rel="noreferrer noopener">/); // its links, to open from here
    const frame = await adminGet(t, alice, `/admin/outbox/${ids.aliceNote}/html`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(frame.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const body = await frame.text();
    expect(body).toBe((await t.services.mail.getVisible({ ownerOf: [A], memberOf: [], operator: false, email: "alice@shop-a.test", messageId: ids.aliceNote }))!.html);
    expect(body).toContain("Hello &lt;b&gt;Alice@Shop-A.test&lt;/b&gt;");
  });

  it("answers 404 for another store's message, a reset (also the user's own: resets are operators'), and an ID that is not one", async () => {
    for (const path of [
      `/admin/outbox/${ids.b}`,
      `/admin/outbox/${ids.bobReset}`,
      `/admin/outbox/${ids.aliceReset}`,
      `/admin/outbox/${ids.aliceReset}/html`,
      `/admin/outbox/${ids.b}/html`,
      `/admin/outbox/${ids.bobReset}/html`,
      "/admin/outbox/not-a-uuid",
      `/admin/outbox/${crypto.randomUUID()}`,
    ]) {
      const res = await adminGet(t, alice, path);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html).not.toContain("Store B secret subject");
      expect(html).not.toContain("Bob");
    }
  });

  it("offers no Send again while nothing can be sent (409 when posted anyway)", async () => {
    const html = await (await adminGet(t, alice, `/admin/outbox/${ids.aliceNote}`)).text();
    expect(html).not.toContain("Send again");
    const res = await adminPost(t, alice, `/admin/outbox/${ids.aliceNote}`, { intent: "send-again" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("no mail server is configured");
    expect((await t.services.mail.statusCounts()).kept).toBe(34);
  });

  it("says so when a message's content is no longer kept", async () => {
    // 100 days earlier, as a bigint literal (100 * 86400000 overflows PostgreSQL's 32-bit integer arithmetic)
    await run(t.services.db, sql`UPDATE mail_outbox SET created_ms = created_ms - 8640000000 WHERE message_id = ${ids.a0}`);
    expect(await t.services.mail.pruneContent(90)).toBe(1);
    const html = await (await adminGet(t, alice, `/admin/outbox/${ids.a0}`)).text();
    expect(html).toContain("<h1>Review your order #0</h1>");
    expect(html).toContain("The content of this message is no longer kept");
    expect(html).not.toContain("<iframe");
  });

  it("sends a visitor without a session to sign in", async () => {
    for (const path of ["/admin/outbox", `/admin/outbox/${ids.aliceNote}`, `/admin/outbox/${ids.aliceNote}/html`]) {
      const res = await adminGet(t, null, path);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/admin\/login\?next=/);
    }
  });

  it("shows an empty state", async () => {
    const C = "33333333-2222-4333-8444-555555555555";
    await t.services.stores.create({ storeId: C, name: "Store C", platform: "custom" });
    await t.services.admin.createUser({ email: "carol@shop-c.test", password: "carol password", storeIds: [C] });
    const carol = await signInAgent(t, "carol@shop-c.test", "carol password", C);
    const html = await (await adminGet(t, carol, "/admin/outbox")).text();
    expect(html).toContain("No e-mail yet");
    expect(subjects(html)).toEqual([]);
  });
});

describe("with SMTP_URL", () => {
  let smtp: TestSmtp;
  let s: TestServer;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    s = await startTestServer({ mail: { smtpUrl: smtp.url, from: "Store Mail <mail@reviews.example.com>" } });
    await s.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
    await s.services.admin.createUser({ email: "alice@shop-a.test", password: "alice password 1", storeIds: [A] });
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  it("the send loop delivers right after the enqueue, and the outbox shows it sent", async () => {
    const { messageId } = await s.services.mail.enqueue(mail(A, "zed@example.com", "Your review request"));
    const received = await smtp.waitFor((m) => m.to.includes("zed@example.com"));
    expect(received.from).toBe('"Store Mail" <mail@reviews.example.com>');
    expect(received.subject).toBe("Your review request");
    const agent = await signInAgent(s, "alice@shop-a.test", "alice password 1", A);
    let html = "";
    for (let i = 0; i < 50 && !html.includes(">Sent<"); i++) {
      html = await (await adminGet(s, agent, "/admin/outbox")).text();
      if (!html.includes(">Sent<")) await new Promise((r) => setTimeout(r, 20));
    }
    expect(html).toContain(">Sent<");
    expect(html).not.toContain("No mail server is configured");
    expect(links(html)).toContain(`/admin/outbox/${messageId}`);
  });

  it("a failed message can be sent again from its page (CSRF checked, only the user's own)", async () => {
    smtp.refuse = (to) => (to === "yan@example.com" ? { code: 550, message: "Mailbox unavailable" } : null);
    const { messageId } = await s.services.mail.enqueue(mail(A, "yan@example.com", "Refused at first"));
    const agent = await signInAgent(s, "alice@shop-a.test", "alice password 1", A);
    let page = "";
    for (let i = 0; i < 100 && !page.includes("Send again"); i++) {
      await new Promise((r) => setTimeout(r, 20));
      page = await (await adminGet(s, agent, `/admin/outbox/${messageId}`)).text();
    }
    expect(page).toContain("Failed");
    expect(page).toContain("Mailbox unavailable");
    expect(page).toContain(">Send again</button>");

    expect((await adminPost(s, agent, `/admin/outbox/${messageId}`, { intent: "send-again" }, null)).status).toBe(403);
    expect((await adminPost(s, agent, `/admin/outbox/${messageId}`, { intent: "send-again" }, "forged")).status).toBe(403);
    expect((await adminPost(s, agent, `/admin/outbox/${crypto.randomUUID()}`, { intent: "send-again" })).status).toBe(404);
    expect((await s.services.mail.getVisible({ ownerOf: [A], memberOf: [], operator: false, email: "x", messageId }))!.status).toBe("failed");

    smtp.refuse = null;
    const res = await adminPost(s, agent, `/admin/outbox/${messageId}`, { intent: "send-again" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("The message is queued");
    const received = await smtp.waitFor((m) => m.to.includes("yan@example.com"));
    expect(received.headers.get("message-id")).toBe(`<${messageId}@reviews.example.com>`);
    // Sent now: no second Send again.
    for (let i = 0; i < 50 && (await s.services.mail.getVisible({ ownerOf: [A], memberOf: [], operator: false, email: "x", messageId }))!.status !== "sent"; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await adminPost(s, agent, `/admin/outbox/${messageId}`, { intent: "send-again" })).status).toBe(409);
    expect(smtp.messages.filter((m) => m.to.includes("yan@example.com"))).toHaveLength(1);
  });
});

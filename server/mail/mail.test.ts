/**
 * Outgoing mail against a real SMTP server (test/smtp.ts: smtp-server on loopback, mailparser) and a real
 * SQLite file: a message enqueued arrives as HTML + text from MAIL_FROM in the store's name; a dedupe key
 * sends once; refusals are retried with exponential backoff on the outbox clock, permanent ones give up;
 * a restart (close, reopen the same file) loses nothing and sends nothing twice, and a message left mid-send
 * by a crash is sent again after its lease with the same Message-ID; an enqueue joins the caller's transaction.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { all, one, sql, transaction, value } from "../db/database.ts";
import { createServices, type Services } from "../services.ts";
import { startTestSmtp, type TestSmtp } from "../../test/smtp.ts";
import { testDatabases } from "../../test/test-databases.ts";
import { renderMail } from "./render.ts";
import { LEASE_MS, MAX_ATTEMPTS, POLL_MS, RETRY_BASE_MS, retryDelayMs } from "./sender.ts";
import { mailRepo } from "./mail.repo.ts";

const STORE = "11111111-2222-4333-8444-555555555555";
const FROM = "Chorus Mail <no-reply@reviews.example.com>";
let smtp: TestSmtp;
/** SQLite files, or PostgreSQL databases with CHORUS_TEST_POSTGRES_URL (a "file" name opened twice is one database). */
const dbs = testDatabases("chorus-mail-");
let clock = Date.UTC(2026, 10, 24, 12);
const now = () => clock;
const open: Services[] = [];

async function services(file = "mail.sqlite", smtpUrl: string | null = smtp.url): Promise<Services> {
  const s = await createServices({ databasePath: await dbs.location(file), mediaPath: join(dbs.dir, "media"), mail: { smtpUrl, from: FROM, now } });
  if (!(await s.stores.get(STORE))) await s.stores.create({ storeId: STORE, name: "Maple & Thread <Boutique>", platform: "shopify" });
  open.push(s);
  return s;
}
async function close(s: Services) {
  open.splice(open.indexOf(s), 1);
  await s.close();
}
const message = (to: string, extra: Partial<Parameters<Services["mail"]["enqueue"]>[0]> = {}) => ({
  storeId: STORE,
  kind: "review-request",
  to,
  subject: `How was your order, ${to}?`,
  ...renderMail({
    storeName: "Maple & Thread <Boutique>",
    heading: "Tell us about your dress",
    paragraphs: ["Your order arrived <3 days> ago."],
    action: { label: "Write a review", url: "https://reviews.example.com/r/abc?x=1&y=2" },
    footer: "You bought from Maple & Thread.",
  }),
  ...extra,
});
const statusOf = async (s: Services, id: string) =>
  (await one<{ status: string; attempts: number; last_error: string | null; next_attempt_ms: number }>(
    s.db,
    sql`SELECT status, attempts, last_error, next_attempt_ms FROM mail_outbox WHERE message_id = ${id}`,
  ))!;

beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterEach(async () => {
  smtp.refuse = null;
  for (const s of [...open]) await close(s);
});
afterAll(async () => {
  await smtp.close();
  await dbs.removeAll();
});

describe("sending", () => {
  it("delivers an enqueued message as HTML + text, from MAIL_FROM, in the store's name, with its headers", async () => {
    const s = await services("deliver.sqlite");
    const { messageId, duplicate } = await s.mail.enqueue(message("ada@example.com", { headers: { "List-Unsubscribe": "<https://reviews.example.com/u/1>" } }));
    expect(duplicate).toBe(false);
    expect((await statusOf(s, messageId)).status).toBe("queued");
    expect(await s.mailSender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const m = await smtp.waitFor((m) => m.to.includes("ada@example.com"));
    expect(m.from).toBe('"Chorus Mail" <no-reply@reviews.example.com>');
    expect(m.subject).toBe("How was your order, ada@example.com?");
    expect(m.html).toContain("Maple &amp; Thread &lt;Boutique&gt;");
    expect(m.html).toContain("Your order arrived &lt;3 days&gt; ago.");
    expect(m.html).toContain('href="https://reviews.example.com/r/abc?x=1&amp;y=2"');
    expect(m.text).toContain("Maple & Thread <Boutique>");
    expect(m.text).toContain("Write a review: https://reviews.example.com/r/abc?x=1&y=2");
    expect(m.headers.get("message-id")).toBe(`<${messageId}@reviews.example.com>`);
    expect(m.headers.get("list-unsubscribe")).toBe("<https://reviews.example.com/u/1>");
    expect((await statusOf(s, messageId)).status).toBe("sent");
    // Nothing more to send.
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it("sends a message once per dedupe key", async () => {
    const s = await services("dedupe.sqlite");
    const first = await s.mail.enqueue(message("bo@example.com", { dedupeKey: "review-request:order-1" }));
    const second = await s.mail.enqueue(message("bo@example.com", { dedupeKey: "review-request:order-1", subject: "Another" }));
    expect(second).toEqual({ messageId: first.messageId, duplicate: true });
    await s.mailSender.runOnce();
    await s.mail.enqueue(message("bo@example.com", { dedupeKey: "review-request:order-1" })); // after sending too
    await s.mailSender.runOnce();
    expect(smtp.messages.filter((m) => m.to.includes("bo@example.com"))).toHaveLength(1);
  });

  it("waits until notBeforeMs", async () => {
    const s = await services("later.sqlite");
    await s.mail.enqueue(message("cy@example.com", { notBeforeMs: clock + 3_600_000 }));
    expect((await s.mailSender.runOnce()).sent).toBe(0);
    clock += 3_600_000;
    expect((await s.mailSender.runOnce()).sent).toBe(1);
    await smtp.waitFor((m) => m.to.includes("cy@example.com"));
  });

  it("joins the caller's transaction: a rolled-back change leaves no message", async () => {
    const s = await services("tx.sqlite");
    await expect(
      transaction(s.db, async () => {
        await s.mail.enqueue(message("dee@example.com"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await value<number>(s.db, sql`SELECT COUNT(*) AS n FROM mail_outbox`)).toBe(0);
  });

  it("the loop sends a message enqueued in a transaction right after the commit, not at the next poll", async () => {
    const s = await services("wake.sqlite");
    s.mailSender.start();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the start's pass is over: before POLL_MS only a wake sends
    const { messageId } = await transaction(s.db, async () => {
      const enqueued = await s.mail.enqueue(message("wren@example.com"));
      // Still uncommitted when a pass woken at the enqueue would have run (PostgreSQL: on another connection).
      await new Promise((resolve) => setTimeout(resolve, 100));
      return enqueued;
    });
    await smtp.waitFor((m) => m.to.includes("wren@example.com"), POLL_MS / 3);
    await expect.poll(async () => (await statusOf(s, messageId)).status).toBe("sent");
  });

  it("refuses malformed messages (header injection, reserved headers, bad address)", async () => {
    const s = await services("bad.sqlite");
    await expect(s.mail.enqueue(message("x@example.com", { subject: "Hi\r\nBcc: victim@example.com" }))).rejects.toThrow(TypeError);
    await expect(s.mail.enqueue(message("x@example.com", { headers: { "X-A": "1\r\nBcc: v@example.com" } }))).rejects.toThrow(TypeError);
    await expect(s.mail.enqueue(message("x@example.com", { headers: { Bcc: "v@example.com" } }))).rejects.toThrow(TypeError);
    await expect(s.mail.enqueue(message("not an address"))).rejects.toThrow(TypeError);
    await expect(s.mail.enqueue(message("a@example.com, b@example.com"))).rejects.toThrow(TypeError);
  });
});

describe("retries", () => {
  it("retries a refused message with exponential backoff, then sends it once", async () => {
    const s = await services("retry.sqlite");
    let refusals = 2;
    smtp.refuse = (to) => (to === "eve@example.com" && refusals-- > 0 ? { code: 451, message: "Greylisted, try later" } : null);
    const { messageId } = await s.mail.enqueue(message("eve@example.com"));
    const t0 = clock;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    let row = await statusOf(s, messageId);
    expect(row).toMatchObject({ status: "queued", attempts: 1, next_attempt_ms: t0 + RETRY_BASE_MS });
    expect(row.last_error).toContain("Greylisted");
    // Not due yet: nothing happens.
    clock = t0 + RETRY_BASE_MS - 1;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock = t0 + RETRY_BASE_MS;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    row = await statusOf(s, messageId);
    expect(row).toMatchObject({ status: "queued", attempts: 2, next_attempt_ms: clock + 2 * RETRY_BASE_MS }); // doubled
    clock += 2 * RETRY_BASE_MS;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await statusOf(s, messageId)).toMatchObject({ status: "sent", attempts: 3, last_error: null });
    expect(smtp.messages.filter((m) => m.to.includes("eve@example.com"))).toHaveLength(1);
    expect(smtp.refused).toBeGreaterThanOrEqual(2);
  });

  it("gives up after MAX_ATTEMPTS temporary failures, and at once on a permanent refusal", async () => {
    const s = await services("giveup.sqlite");
    smtp.refuse = (to) => (to === "fay@example.com" ? { code: 452, message: "Mailbox busy" } : to === "gus@example.com" ? { code: 550, message: "No such user" } : null);
    const busy = (await s.mail.enqueue(message("fay@example.com"))).messageId;
    const unknown = (await s.mail.enqueue(message("gus@example.com"))).messageId;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 1 });
    expect(await statusOf(s, unknown)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await statusOf(s, unknown)).last_error).toContain("No such user");
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      clock += retryDelayMs(attempt);
      await s.mailSender.runOnce();
    }
    expect(await statusOf(s, busy)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    clock += 24 * 3_600_000;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.messages.filter((m) => m.to.includes("fay@example.com") || m.to.includes("gus@example.com"))).toHaveLength(0);
  });

  it("retries when the SMTP server is down, and sends once it is back", async () => {
    const s = await createServices({ databasePath: await dbs.location("down.sqlite"), mail: { smtpUrl: "smtp://u:p@127.0.0.1:1", from: FROM, now } });
    open.push(s);
    const id = (await s.mail.enqueue({ ...message("hal@example.com"), storeId: null })).messageId;
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect((await statusOf(s, id)).last_error).toMatch(/ECONNREFUSED|ECONNECTION/);
    await close(s);
    const back = await services("down.sqlite"); // same file, the real server's URL
    clock += RETRY_BASE_MS;
    expect(await back.mailSender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    await smtp.waitFor((m) => m.to.includes("hal@example.com"));
  });
});

describe("restart", () => {
  it("loses nothing and sends nothing twice; a message left mid-send is sent after its lease with the same Message-ID", async () => {
    const file = "restart.sqlite";
    const before = await services(file);
    const ids: string[] = [];
    for (const n of ["ivy", "jon", "kim", "lee"]) ids.push((await before.mail.enqueue(message(`${n}@example.com`))).messageId);
    expect(await before.mailSender.runOnce()).toEqual({ sent: 4, retried: 0, failed: 0 }); // sent before the restart
    // Two more, then a crash: a process claimed mo (the oldest due) and died mid-send.
    const repo = mailRepo(before.db);
    const mo = (await before.mail.enqueue(message("mo@example.com"))).messageId;
    const nia = (await before.mail.enqueue(message("nia@example.com"))).messageId;
    await transaction(before.db, () => repo.claimDue(clock, clock + LEASE_MS, 1)); // mo: sending, lease held by the "dead" process
    await close(before);

    const after = await services(file);
    // nia (queued) goes at once; mo waits for its lease to run out; the four sent are not sent again.
    expect(await after.mailSender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect((await statusOf(after, mo)).status).toBe("sending");
    clock += LEASE_MS;
    expect(await after.mailSender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await statusOf(after, mo)).toMatchObject({ status: "sent", attempts: 2 });
    clock += 7 * 24 * 3_600_000;
    expect(await after.mailSender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    for (const [name, id] of [
      ["ivy", ids[0]],
      ["jon", ids[1]],
      ["kim", ids[2]],
      ["lee", ids[3]],
      ["mo", mo],
      ["nia", nia],
    ]) {
      const got = smtp.messages.filter((m) => m.to.includes(`${name}@example.com`));
      expect(got, name).toHaveLength(1);
      expect(got[0].headers.get("message-id")).toBe(`<${id}@reviews.example.com>`);
    }
  });

  it("stopping mid-pass finishes the message at hand and gives back the rest of the claim, ready for the next start", async () => {
    const s = await services("stop.sqlite");
    for (let i = 0; i < 15; i++) await s.mail.enqueue(message(`stop${i}@example.com`));
    const pass = s.mailSender.runOnce();
    await smtp.waitFor((m) => m.to.includes("stop0@example.com"));
    await s.mailSender.stop();
    const { sent } = await pass;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThan(15);
    const counts = await s.mail.statusCounts();
    expect(counts).toMatchObject({ sent, queued: 15 - sent, sending: 0 });
    expect(await value<number>(s.db, sql`SELECT COUNT(*) AS n FROM mail_outbox WHERE status = 'queued' AND attempts = 0 AND lease_until_ms IS NULL`)).toBe(15 - sent);
    await close(s);
    const next = await services("stop.sqlite");
    expect((await next.mailSender.runOnce()).sent).toBe(15 - sent); // at once, not after a lease
    for (let i = 0; i < 15; i++) expect(smtp.messages.filter((m) => m.to.includes(`stop${i}@example.com`))).toHaveLength(1);
  });

  it("two senders on one database never send a message twice", async () => {
    const a = await services("two.sqlite");
    const b = await services("two.sqlite");
    for (let i = 0; i < 30; i++) await a.mail.enqueue(message(`pair${i}@example.com`));
    const [ra, rb] = await Promise.all([a.mailSender.runOnce(), b.mailSender.runOnce()]);
    expect(ra.sent + rb.sent).toBe(30);
    for (let i = 0; i < 30; i++) expect(smtp.messages.filter((m) => m.to.includes(`pair${i}@example.com`))).toHaveLength(1);
  });
});

describe("without SMTP_URL", () => {
  it("keeps every message in the outbox and sends none", async () => {
    const s = await services("kept.sqlite", null);
    const { messageId } = await s.mail.enqueue(message("quinn@example.com"));
    expect(s.mail.sending).toBe(false);
    expect((await statusOf(s, messageId)).status).toBe("kept");
    expect(await s.mailSender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.messages.some((m) => m.to.includes("quinn@example.com"))).toBe(false);
  });
});

describe("retention and erasure", () => {
  it("pruneContent empties the content of finished messages older than the limit; rows, statuses and dedupe keys stay", async () => {
    const s = await services("prune.sqlite");
    const day = 86_400_000;
    const old = (await s.mail.enqueue(message("old@example.com", { dedupeKey: "k-old" }))).messageId;
    await s.mailSender.runOnce(); // sent
    const oldQueued = (await s.mail.enqueue(message("later@example.com", { notBeforeMs: clock + 200 * day }))).messageId; // still to send
    clock += 91 * day;
    const recent = (await s.mail.enqueue(message("new@example.com"))).messageId;
    await s.mailSender.runOnce();
    expect(await s.mail.pruneContent(90)).toBe(1);
    const row = async (id: string) => (await one<Record<string, string>>(s.db, sql`SELECT status, html, text, headers_json, subject FROM mail_outbox WHERE message_id = ${id}`))!;
    expect(await row(old)).toMatchObject({ status: "sent", html: "", text: "", headers_json: "{}", subject: "How was your order, old@example.com?" });
    expect((await row(oldQueued)).html).not.toBe("");
    expect((await row(recent)).html).not.toBe("");
    expect((await s.mail.enqueue(message("old@example.com", { dedupeKey: "k-old" }))).duplicate).toBe(true);
    expect(await s.mail.pruneContent(90)).toBe(0);
  });

  it("forgetRecipient deletes one store's messages to one address, any case, and nothing else", async () => {
    const s = await services("forget.sqlite", null);
    const OTHER = "99999999-8888-4777-8666-555555555555";
    await s.stores.create({ storeId: OTHER, name: "Other", platform: "shopify" });
    await s.mail.enqueue(message("Shopper@Example.com"));
    await s.mail.enqueue(message("shopper@example.com", { subject: "second" }));
    await s.mail.enqueue(message("someone@example.com"));
    await s.mail.enqueue({ ...message("shopper@example.com"), storeId: OTHER });
    await s.mail.enqueue({ ...message("shopper@example.com"), storeId: null });
    expect(await s.mail.forgetRecipient(STORE, " SHOPPER@example.com ")).toBe(2);
    const left = await all(s.db, sql`SELECT store_id, to_address FROM mail_outbox ORDER BY seq`);
    expect(left).toEqual([
      { store_id: STORE, to_address: "someone@example.com" },
      { store_id: OTHER, to_address: "shopper@example.com" },
      { store_id: null, to_address: "shopper@example.com" },
    ]);
  });
});

/**
 * Outgoing mail (issue #21 item 1; docs/mail.md). Every message goes through `enqueue`: one
 * INSERT into the outbox (mail.repo.ts) that joins the caller's transaction, so a message exists exactly
 * when the change that caused it commits. A persisted send job (sender.ts) delivers it over SMTP later.
 *
 * Without an SMTP server configured (`SMTP_URL` unset, the embedded default) a message is stored with
 * status `kept`: it is never sent, and the admin shows it at /admin/outbox, so the product works offline
 * and a developer sees what would have been sent. A later start with `SMTP_URL` does not send kept mail
 * (invites and resets in it would be stale); it sends what is enqueued from then on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { dialect, inTransaction, isOpen, transaction, type Db } from "../db/database.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { MailRepo, OutboxRow, OutboxSummary } from "./mail.repo.ts";

/** A message to send (the cross-helper contract, /work/brief: interface 1). */
export type OutgoingMail = {
  /** The store it is sent for, or null for mail of no store (e.g. a password reset). */
  storeId: string | null;
  /** What it is: "invite" | "password-reset" | "review-request" | ... (shown in the outbox, used in logs). */
  kind: string;
  /** One recipient address. */
  to: string;
  subject: string;
  /** The HTML body (renderMail's `html`). */
  html: string;
  /** The plain-text body (renderMail's `text`). */
  text: string;
  /** Extra headers, e.g. `List-Unsubscribe`; names are header tokens, values one line. */
  headers?: Record<string, string>;
  /** Unique: a second enqueue with the same key is a no-op (answers the first message's ID). */
  dedupeKey?: string;
  /** Not sent before this time (epoch ms). */
  notBeforeMs?: number;
};

/** Headers the mail module sets itself; a caller cannot override them. */
const RESERVED_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "message-id",
  "date",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "sender",
  "reply-to-address",
  "return-path",
]);
const ONE_LINE = /^[^\r\n\0]*$/;

const mailSchema = z.object({
  storeId: z.string().min(1).nullable(),
  kind: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "kind is a lower-case word like review-request"),
  to: z.email().max(254),
  subject: z.string().min(1).max(998).regex(ONE_LINE, "subject must be one line"),
  html: z.string().min(1).max(2_000_000),
  text: z.string().min(1).max(1_000_000),
  headers: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9-]{1,76}$/, "header names are letters, digits and '-'")
        .refine((n) => !RESERVED_HEADERS.has(n.toLowerCase()), "this header is set by the mail module"),
      z.string().max(2000).regex(ONE_LINE, "header values must be one line"),
    )
    .optional(),
  dedupeKey: z.string().min(1).max(500).optional(),
  notBeforeMs: z.number().int().nonnegative().optional(),
});

/**
 * Kinds of message whose links are secrets that open an account or a store (an invitation to a team, a
 * password reset): only a store's owners see them (docs/mail.md "Who sees which message"). A new kind that
 * carries such a link must be added here.
 */
export const ACCOUNT_LINK_KINDS = ["invite", "password-reset"] as const;

/**
 * Who reads the outbox: the stores they own, the stores they are a member (not an owner) of, and whether they
 * are an instance operator. `email` keys their listing cursors.
 */
export type OutboxReader = { ownerOf: string[]; memberOf: string[]; operator: boolean; email: string };

/**
 * The outbox's visibility rule (docs/mail.md "Who sees which message"): a store's message is seen by its
 * owners, and by its members unless its kind is one of ACCOUNT_LINK_KINDS; a message of no store (a password
 * reset) only by instance operators.
 */
export function mayRead(reader: Omit<OutboxReader, "email">, m: { store_id: string | null; kind: string }): boolean {
  if (m.store_id === null) return reader.operator;
  if (reader.ownerOf.includes(m.store_id)) return true;
  return reader.memberOf.includes(m.store_id) && !(ACCOUNT_LINK_KINDS as readonly string[]).includes(m.kind);
}

/** Messages per range (of seq) of one pruning transaction. */
const PRUNE_RANGE = 100;

/** A message as the admin outbox shows it. */
export type OutboxMessage = {
  messageId: string;
  storeId: string | null;
  kind: string;
  to: string;
  subject: string;
  status: OutboxRow["status"];
  attempts: number;
  lastError: string | null;
  createdMs: number;
  sentMs: number | null;
  nextAttemptMs: number;
};
/** A message with its content; `html` and `text` are empty once the content was pruned (`pruneContent`). */
export type OutboxMessageDetail = OutboxMessage & { html: string; text: string; headers: Record<string, string> };

const toMessage = (r: OutboxSummary): OutboxMessage => ({
  messageId: r.message_id,
  storeId: r.store_id,
  kind: r.kind,
  to: r.to_address,
  subject: r.subject,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  createdMs: r.created_ms,
  sentMs: r.sent_ms,
  nextAttemptMs: r.next_attempt_ms,
});

export type MailServiceDeps = {
  db: Db;
  repo: MailRepo;
  /** Whether a transport is configured: decides `queued` (to send) or `kept` at enqueue. */
  sending: boolean;
  /** Clock (epoch ms). */
  now: () => number;
  /** The installation secret that signs listing cursors (server/shared/cursor.ts). */
  secret: string;
  /** Called after each enqueue of a message to send, once the message is committed (after the caller's transaction). */
  onEnqueued?: () => void;
};

/** Create the mail service. */
export function mailService(deps: MailServiceDeps) {
  const { repo, now } = deps;
  /** Every finished message with seq <= this had its content pruned when due (by this process; 0 at start). */
  let prunedThrough = 0;
  /** Runs a function in the async context the service was created in: outside any caller's transaction. */
  const outside = AsyncLocalStorage.snapshot();

  /**
   * Call `onEnqueued` once the message is committed. Outside a transaction it is. Inside the caller's transaction,
   * waking the sender now would start a pass that (on PostgreSQL, another pooled connection) cannot see the row yet
   * and misses it until the next poll: wait, outside the transaction's async context, until the row is visible.
   * SQLite: that first read waits for the one connection, so for the commit (or rollback: no row, nothing to wake).
   * PostgreSQL: read again after short pauses (2 ms doubling to 200 ms, 5 s in all; a rolled-back message never shows).
   */
  function wakeWhenCommitted(messageId: string): void {
    const wake = deps.onEnqueued;
    if (!wake) return;
    if (!inTransaction(deps.db)) {
      outside(wake);
      return;
    }
    outside(() => {
      void (async () => {
        for (let pauseMs = 2, waited = 0; waited <= 5_000; waited += pauseMs, pauseMs = Math.min(pauseMs * 2, 200)) {
          if (!isOpen(deps.db)) return;
          if (await repo.isQueued(messageId)) return wake();
          if (dialect(deps.db) === "sqlite") return;
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      })().catch(() => {}); // the database closed meanwhile: the next start's pass sends it
    });
  }

  /** One message with its bodies when the reader may see it (`mayRead`, the same rule as `listVisible`), else undefined. */
  async function getVisible(input: OutboxReader & { messageId: string }): Promise<OutboxMessageDetail | undefined> {
    const r = await repo.byId(input.messageId);
    if (!r || !mayRead(input, r)) return undefined;
    return { ...toMessage(r), html: r.html, text: r.text, headers: JSON.parse(r.headers_json) as Record<string, string> };
  }

  return {
    /** Whether messages are sent (SMTP_URL set) or only kept in the outbox. */
    sending: deps.sending,

    /**
     * Put a message in the outbox: one INSERT, inside the caller's transaction when there is one (it joins it).
     * @returns its ID and `duplicate: true` when a message with the same `dedupeKey` exists (nothing is written).
     * @throws TypeError for a malformed message (bad address, multi-line subject or header, reserved header):
     *   a programming error, never shopper input passed through unchecked.
     */
    async enqueue(message: OutgoingMail): Promise<{ messageId: string; duplicate: boolean }> {
      const parsed = mailSchema.safeParse(message);
      if (!parsed.success) throw new TypeError(`mail.enqueue: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      const m = parsed.data;
      const createdMs = now();
      const result = await repo.insert({
        message_id: randomUUID(),
        store_id: m.storeId,
        kind: m.kind,
        to_address: m.to,
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers_json: JSON.stringify(m.headers ?? {}),
        dedupe_key: m.dedupeKey ?? null,
        status: deps.sending ? "queued" : "kept",
        next_attempt_ms: Math.max(m.notBeforeMs ?? createdMs, createdMs),
        created_ms: createdMs,
      });
      if (!result.duplicate && deps.sending) wakeWhenCommitted(result.messageId);
      return result;
    },

    /**
     * A page of the outbox a reader may see (`mayRead`), newest first. `after` is the previous page's `next`
     * (a signed cursor).
     * @throws ApiError 400 `invalid_cursor` for a cursor that is not one of this listing's.
     */
    async listVisible(input: OutboxReader & { after?: string; limit: number }): Promise<{ messages: OutboxMessage[]; next?: string }> {
      const page = await keysetPage<OutboxSummary, [number]>({
        secret: deps.secret,
        context: `outbox|${input.email.toLowerCase()}|seq desc`,
        cursor: input.after,
        shape: ["number"],
        limit: input.limit,
        fetch: (after, n) => repo.listVisible({ ownerOf: input.ownerOf, memberOf: input.memberOf, operator: input.operator, hiddenKinds: ACCOUNT_LINK_KINDS }, after?.[0], n),
        keyOf: (r) => [r.seq],
      });
      return { messages: page.rows.map(toMessage), next: page.next };
    },

    getVisible,

    /**
     * "Send again" from the admin: a `failed` message (e.g. after the operator fixed SMTP_URL), or a `kept` one
     * once a mail server is configured, goes back to the queue with fresh attempts. Same visibility rule as
     * `getVisible`. @returns false when the message is not visible, not failed or kept, or nothing is sent (no SMTP_URL).
     */
    async sendAgain(input: OutboxReader & { messageId: string }): Promise<boolean> {
      if (!deps.sending || !(await getVisible(input))) return false;
      const queued = await repo.requeue(input.messageId, now()); // one UPDATE: atomic on its own
      if (queued) wakeWhenCommitted(input.messageId);
      return queued;
    },

    /**
     * Erase a store's messages to `email` (any case) from the outbox, e.g. for a shopper's data erasure request.
     * A message being sent at that moment may still go out. @returns how many messages were deleted.
     */
    async forgetRecipient(storeId: string, email: string): Promise<number> {
      return repo.deleteRecipient(storeId, email.trim());
    },

    /**
     * Empty the content (HTML, text, extra headers) of finished messages (sent, failed, kept) older than
     * `keepDays` days; the list entries stay (docs/mail.md "Retention"). Works through the outbox in ranges of
     * PRUNE_RANGE messages, one short transaction each, yielding to the event loop between them, so the server
     * keeps answering. @returns how many messages were emptied.
     */
    async pruneContent(keepDays: number): Promise<number> {
      const before = now() - keepDays * 86_400_000;
      const last = await repo.lastSeqBefore(before);
      // Start after what an earlier run of this process finished, but never after a message still to be sent.
      const unfinished = await repo.firstUnfinishedSeq();
      let from = Math.min(prunedThrough, unfinished === null ? Infinity : unfinished - 1);
      let total = 0;
      for (; from < last; from += PRUNE_RANGE) {
        const to = Math.min(from + PRUNE_RANGE, last);
        total += await transaction(deps.db, () => repo.pruneContent(from, to, before));
        await new Promise((resolve) => setImmediate(resolve));
        if (!isOpen(deps.db)) return total;
      }
      prunedThrough = Math.max(prunedThrough, last);
      return total;
    },

    /** Messages per status (every store). */
    statusCounts: (): Promise<Record<OutboxRow["status"], number>> => repo.statusCounts(),
  };
}
export type MailService = ReturnType<typeof mailService>;

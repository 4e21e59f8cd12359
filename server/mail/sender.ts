/**
 * The persisted send job of the outbox (docs/mail.md). `runOnce()` claims due messages in one transaction
 * (each becomes `sending` with a lease of LEASE_MS and its attempt counted), sends each over SMTP with
 * nodemailer, and records the outcome: `sent`; or queued again after an exponential backoff
 * (RETRY_BASE_MS × 2^(attempt−1), at most RETRY_MAX_DELAY_MS); or `failed` after MAX_ATTEMPTS attempts or
 * a permanent refusal (an SMTP 5xx answer other than authentication). Attempts, the last error and the next
 * attempt time are stored and shown in the admin outbox.
 *
 * Delivery is AT-LEAST-ONCE, never lost and, but for one crash window, never twice:
 * - a message is only a row until it is `sent`, so a restart (or a crash) loses nothing: queued rows wait,
 *   and a row left `sending` by a process that died is claimed again once its lease has run out;
 * - two senders (two processes on one database, two nodes on one PostgreSQL database, or a loop and a
 *   test's `runOnce`) never send the same message at once: the claim is a persisted lease (`sending` until
 *   `lease_until_ms`) written by an UPDATE in a write transaction that commits before the SMTP send is
 *   awaited (a row lock could not be held across it), and an outcome is recorded only by the holder of the
 *   lease (`lease_until_ms` as claimed). On PostgreSQL (issue #26 item 3) the claim's rows are selected
 *   `FOR UPDATE SKIP LOCKED`, so the senders of any number of nodes share the outbox and each message is
 *   claimed by one of them;
 * - the one duplicate possible: the process dies after the SMTP server accepted the message and before
 *   `sent` was committed (milliseconds). The message is then sent again after the lease, with the SAME
 *   Message-ID and Date headers (`<message_id@MAIL_FROM domain>`), so the receiving side can recognise it
 *   as the same message. We chose this over at-most-once because losing a password reset, an invite or a
 *   review request silently is worse than a rare recognisable duplicate.
 * Connections are pooled (nodemailer's pool, at most 2, reused across messages: ~4 ms a message to a local
 * server instead of a new connection and greeting each time).
 * The loop (`start`) runs a pass every POLL_MS and right after each enqueue (once the caller's transaction
 * has committed); `stop()` ends it after the message being sent (the rest of its claim goes back to the
 * queue). The clock is injectable (`now`, epoch ms) so tests drive retries with `runOnce()` and no sleeping.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import nodemailer, { type Transporter } from "nodemailer";
import { isOpen, transaction, type Db } from "../db/database.ts";
import { parseMailFrom } from "./address.ts";
import type { MailRepo, OutboxRow } from "./mail.repo.ts";

/** Attempts before a message is given up (`failed`). */
export const MAX_ATTEMPTS = 8;
/** Delay after the first failed attempt (ms); doubles with each further one: 1, 2, 4, ... 64 min. */
export const RETRY_BASE_MS = 60_000;
/** Longest delay between two attempts (ms): 6 hours. */
export const RETRY_MAX_DELAY_MS = 6 * 3_600_000;
/** How long a claim holds (ms). Longer than the slowest send allowed by the transport's timeouts (10 + 10 + 60 s). */
export const LEASE_MS = 5 * 60_000;
/** Time between two passes of the loop when nothing wakes it (ms). */
export const POLL_MS = 15_000;
/** Messages claimed per transaction. */
const BATCH = 20;

export type SendReport = { sent: number; retried: number; failed: number };

export type MailSenderDeps = {
  db: Db;
  repo: MailRepo;
  /** `smtp://user:pass@host:port` / `smtps://...`, or null: nothing is sent (messages are `kept` at enqueue). */
  smtpUrl: string | null;
  /** The From header (MAIL_FROM, checked by config.ts). */
  from: string;
  now?: () => number;
  log?: (line: string) => void;
  maxAttempts?: number;
  retryBaseMs?: number;
};

/** The delay before attempt `attempts + 1` after `attempts` failed ones (ms). */
export const retryDelayMs = (attempts: number, baseMs = RETRY_BASE_MS): number => Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), RETRY_MAX_DELAY_MS);

/** Whether a nodemailer error is a permanent refusal of this message (an SMTP 5xx, but not a login failure the operator can fix). */
function isPermanent(error: unknown): boolean {
  const e = error as { responseCode?: number; code?: string };
  return typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600 && e.code !== "EAUTH";
}

/** One line describing a send error, without the message's content. */
function describe(error: unknown): string {
  const e = error as { responseCode?: number; code?: string; message?: string };
  return `${e.code ? `${e.code}: ` : ""}${(e.message ?? String(error)).replace(/\s+/g, " ").slice(0, 500)}`;
}

/** Create the sender over the outbox. */
export function mailSender(deps: MailSenderDeps) {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  const from = parseMailFrom(deps.from);
  if (!from) throw new Error(`MAIL_FROM is not one valid address: ${deps.from}`);
  const transport: Transporter | null = deps.smtpUrl
    ? nodemailer.createTransport({ url: deps.smtpUrl, pool: true, maxConnections: 2, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 } as never)
    : null;

  let timer: NodeJS.Timeout | null = null;
  /**
   * Runs a function in the async context the sender was created in. Timers are set in it: a timer keeps the
   * async context of the code that set it, and a pass started from an enqueuing transaction's context would
   * otherwise run its claim as a savepoint of that (by then finished) transaction.
   */
  const outside = AsyncLocalStorage.snapshot();
  /** The passes run one after the other: this is the last one asked for. */
  let last: Promise<unknown> = Promise.resolve();
  let started = false;
  /** Set by stop(): the pass in flight sends the message at hand, gives back the rest of its claim and ends. */
  let stopping = false;

  async function sendOne(row: OutboxRow, report: SendReport): Promise<void> {
    const lease = row.lease_until_ms!;
    try {
      await transport!.sendMail({
        from: deps.from,
        to: row.to_address,
        subject: row.subject,
        html: row.html,
        text: row.text,
        headers: JSON.parse(row.headers_json) as Record<string, string>,
        messageId: `<${row.message_id}@${from!.domain}>`,
        date: new Date(row.created_ms),
      });
      if (!isOpen(deps.db)) return;
      if (await deps.repo.markSent(row.seq, lease, now())) report.sent++; // one conditional UPDATE: only the lease holder records
      log(`mail: sent ${row.kind} ${row.message_id} (attempt ${row.attempts})`);
    } catch (error) {
      if (!isOpen(deps.db)) return;
      const permanent = isPermanent(error);
      const giveUp = permanent || row.attempts >= maxAttempts;
      const next = giveUp ? null : now() + retryDelayMs(row.attempts, deps.retryBaseMs);
      const message = `${permanent ? "refused" : "attempt failed"}: ${describe(error)}`;
      if (await deps.repo.markAttemptFailed(row.seq, lease, message, next)) {
        if (giveUp) report.failed++;
        else report.retried++;
      }
      log(`mail: ${giveUp ? "gave up on" : "will retry"} ${row.kind} ${row.message_id} after attempt ${row.attempts}: ${describe(error)}`);
    }
  }

  async function pass(): Promise<SendReport> {
    const report: SendReport = { sent: 0, retried: 0, failed: 0 };
    if (!transport) return report;
    for (;;) {
      if (!isOpen(deps.db) || stopping) return report;
      const at = now();
      // Exactly-once claim: rows selected FOR UPDATE SKIP LOCKED (PostgreSQL) and leased in one transaction that
      // commits before any send; outcomes are recorded only by the lease holder (conditional UPDATEs).
      const claimed = await transaction(deps.db, () => deps.repo.claimDue(at, at + LEASE_MS, BATCH));
      for (const [i, row] of claimed.entries()) {
        if (stopping) {
          // Not attempted: back to the queue now rather than after the lease, for the next start.
          const rest = claimed.slice(i);
          if (isOpen(deps.db)) {
            await transaction(deps.db, async () => {
              for (const r of rest) await deps.repo.release(r.seq, r.lease_until_ms!);
            });
          }
          return report;
        }
        await sendOne(row, report);
      }
      if (claimed.length < BATCH || stopping) return report;
    }
  }

  function schedule(delayMs: number): void {
    if (!started) return;
    if (timer) clearTimeout(timer);
    timer = outside(() => setTimeout(tick, delayMs));
    timer.unref();
  }

  function tick(): void {
    timer = null;
    if (!started) return;
    if (!isOpen(deps.db)) {
      started = false;
      return;
    }
    void sender
      .runOnce()
      .catch((error) => log(`mail: send pass failed: ${describe(error)}`))
      .finally(() => {
        if (!timer) schedule(POLL_MS);
      });
  }

  const sender = {
    /** Whether a transport is configured. */
    enabled: transport !== null,
    /**
     * One pass: claim and send every message due now (several batches), record the outcomes.
     * Passes run one at a time: a call during a pass runs after it. @returns counts of this pass.
     */
    runOnce(): Promise<SendReport> {
      const run = last.then(pass);
      last = run.catch(() => {});
      return run;
    },
    /** Start the loop (no-op without a transport). */
    start(): void {
      if (!transport || started) return;
      started = true;
      schedule(0);
    },
    /** Run a pass soon (the mail service calls it once an enqueued message is committed). */
    wake(): void {
      if (started) schedule(0);
    },
    /** Stop the loop: the pass in flight ends after the message it is sending (its other claims are given back); closes the transport. */
    async stop(): Promise<void> {
      started = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await last;
      transport?.close();
    },
  };
  return sender;
}
export type MailSender = ReturnType<typeof mailSender>;

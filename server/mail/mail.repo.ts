/**
 * The outbox (SQL, table `mail_outbox`, migration 073): one row per outgoing message, written by
 * `enqueue` and worked on by the sender (sender.ts). Times are epoch milliseconds.
 *
 * Statuses: `queued` (waiting for its next attempt), `sending` (claimed by a sender until `lease_until_ms`),
 * `sent`, `failed` (gave up: a permanent refusal or too many attempts), `kept` (no SMTP server configured:
 * kept for the admin outbox, never sent).
 */
import { dialect, type Db } from "../db/database.ts";

export type MailStatus = "queued" | "sending" | "sent" | "failed" | "kept";

/** A message as stored. */
export type OutboxRow = {
  seq: number;
  message_id: string;
  store_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  headers_json: string;
  dedupe_key: string | null;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  next_attempt_ms: number;
  lease_until_ms: number | null;
  created_ms: number;
  sent_ms: number | null;
};

/** A listing row (no bodies). */
export type OutboxSummary = Pick<OutboxRow, "seq" | "message_id" | "store_id" | "kind" | "to_address" | "subject" | "status" | "attempts" | "created_ms" | "sent_ms" | "next_attempt_ms" | "last_error">;

export type NewOutboxRow = Pick<OutboxRow, "message_id" | "store_id" | "kind" | "to_address" | "subject" | "html" | "text" | "headers_json" | "dedupe_key" | "status" | "next_attempt_ms" | "created_ms">;

const SUMMARY = "seq, message_id, store_id, kind, to_address, subject, status, attempts, created_ms, sent_ms, next_attempt_ms, last_error";

/** Create the outbox data module over `db`. */
export function mailRepo(db: Db) {
  const postgres = dialect(db) === "postgres";
  /** `to_address` equals a parameter in any case (SQLite NOCASE; PostgreSQL lower(), its index mail_outbox_recipient). */
  const sameAddress = postgres ? "lower(to_address) = lower(?)" : "to_address = ? COLLATE NOCASE";
  return {
    /**
     * Insert a message; a row with the same `dedupe_key` already there makes this a no-op.
     * @returns the stored message's ID (the existing one for a duplicate) and whether it was a duplicate.
     */
    insert(row: NewOutboxRow): { messageId: string; duplicate: boolean } {
      const inserted = db.prepare(
        `INSERT INTO mail_outbox (message_id, store_id, kind, to_address, subject, html, text, headers_json, dedupe_key, status, next_attempt_ms, created_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
      ).run(row.message_id, row.store_id, row.kind, row.to_address, row.subject, row.html, row.text, row.headers_json, row.dedupe_key, row.status, row.next_attempt_ms, row.created_ms);
      if (inserted.changes === 1) return { messageId: row.message_id, duplicate: false };
      const existing = db.prepare("SELECT message_id FROM mail_outbox WHERE dedupe_key = ?").pluck().get(row.dedupe_key) as string;
      return { messageId: existing, duplicate: true };
    },

    /**
     * Claim up to `limit` messages due at `nowMs` (queued with `next_attempt_ms <= nowMs`, or `sending` with an
     * expired lease): each becomes `sending` until `leaseUntilMs`, its attempt counted. Call inside a transaction.
     */
    claimDue(nowMs: number, leaseUntilMs: number, limit: number): OutboxRow[] {
      // Expired leases first (few: a crash), then queued messages in due order; each an index range, no sort.
      // PostgreSQL: rows another node's claim transaction holds are skipped, not waited for.
      const lock = postgres ? " FOR UPDATE SKIP LOCKED" : "";
      const due = db.prepare(`SELECT * FROM mail_outbox WHERE status = 'sending' AND lease_until_ms <= ? LIMIT ?${lock}`).all(nowMs, limit) as OutboxRow[];
      if (due.length < limit) {
        due.push(...(db.prepare(
          `SELECT * FROM mail_outbox WHERE status = 'queued' AND next_attempt_ms <= ? ORDER BY next_attempt_ms, seq LIMIT ?${lock}`,
        ).all(nowMs, limit - due.length) as OutboxRow[]));
      }
      const claim = db.prepare("UPDATE mail_outbox SET status = 'sending', lease_until_ms = ?, attempts = attempts + 1 WHERE seq = ?");
      for (const row of due) {
        claim.run(leaseUntilMs, row.seq);
        row.status = "sending";
        row.lease_until_ms = leaseUntilMs;
        row.attempts += 1;
      }
      return due;
    },

    /** Record a successful send of a message this sender holds (`lease_until_ms` as claimed). @returns false when the claim was lost. */
    markSent(seq: number, leaseUntilMs: number, sentMs: number): boolean {
      return db.prepare("UPDATE mail_outbox SET status = 'sent', sent_ms = ?, lease_until_ms = NULL, last_error = NULL WHERE seq = ? AND status = 'sending' AND lease_until_ms = ?")
        .run(sentMs, seq, leaseUntilMs).changes === 1;
    },

    /** Give back a claim not attempted (the sender is stopping): queued again as it was, the attempt not counted. */
    release(seq: number, leaseUntilMs: number): boolean {
      return db.prepare("UPDATE mail_outbox SET status = 'queued', attempts = attempts - 1, lease_until_ms = NULL WHERE seq = ? AND status = 'sending' AND lease_until_ms = ?")
        .run(seq, leaseUntilMs).changes === 1;
    },

    /** Record a failed attempt: queued again for `nextAttemptMs`, or `failed` when `nextAttemptMs` is null. */
    markAttemptFailed(seq: number, leaseUntilMs: number, error: string, nextAttemptMs: number | null): boolean {
      return db.prepare(
        `UPDATE mail_outbox SET status = ?, last_error = ?, next_attempt_ms = COALESCE(?, next_attempt_ms), lease_until_ms = NULL
         WHERE seq = ? AND status = 'sending' AND lease_until_ms = ?`,
      ).run(nextAttemptMs === null ? "failed" : "queued", error, nextAttemptMs, seq, leaseUntilMs).changes === 1;
    },

    /**
     * Queue a `failed` or `kept` message again for `nowMs`, its attempts counted from zero (the last error stays
     * until the next attempt). @returns false when the message is in another status or its content was pruned.
     */
    requeue(messageId: string, nowMs: number): boolean {
      return db.prepare(
        "UPDATE mail_outbox SET status = 'queued', attempts = 0, next_attempt_ms = ?, lease_until_ms = NULL WHERE message_id = ? AND status IN ('failed', 'kept') AND html <> ''",
      ).run(nowMs, messageId).changes === 1;
    },

    /**
     * The last `seq` written before `beforeMs`, by binary search over the primary key (seq grows with created_ms:
     * both are taken at enqueue), reading about log2(rows) rows instead of scanning; 0 when there is none.
     */
    lastSeqBefore(beforeMs: number): number {
      const at = db.prepare("SELECT seq, created_ms FROM mail_outbox WHERE seq >= ? ORDER BY seq LIMIT 1");
      let lo = 0;
      let hi = (db.prepare("SELECT COALESCE(MAX(seq), 0) FROM mail_outbox").pluck().get() as number);
      while (lo < hi) { // invariant: every seq <= lo is before; the answer is <= hi
        const mid = Math.ceil((lo + hi) / 2);
        const row = at.get(mid) as { seq: number; created_ms: number } | undefined;
        if (row && row.created_ms < beforeMs) lo = row.seq;
        else hi = mid - 1;
      }
      return lo;
    },

    /**
     * Empty the bodies and extra headers of the finished messages (sent, failed, kept) with `fromSeq < seq <= toSeq`
     * created before `beforeMs`; the row (recipient, subject, status, dedupe key) stays. A range of the primary key:
     * no scan. @returns how many were emptied.
     */
    pruneContent(fromSeq: number, toSeq: number, beforeMs: number): number {
      return db.prepare(
        `UPDATE mail_outbox SET html = '', text = '', headers_json = '{}'
         WHERE seq > ? AND seq <= ? AND ${postgres ? "status" : "+status"} IN ('sent', 'failed', 'kept') AND html <> '' AND created_ms < ?`, // +status: SQLite reads the seq range, not the status index
      ).run(fromSeq, toSeq, beforeMs).changes;
    },

    /** The lowest `seq` of a message not finished yet (queued or sending), or null. */
    firstUnfinishedSeq(): number | null {
      return db.prepare("SELECT MIN(seq) FROM mail_outbox WHERE status IN ('queued', 'sending')").pluck().get() as number | null;
    },

    /**
     * Delete a store's messages to `email` (any case), and those whose subject or content names it (e.g. the notice
     * of a shopper's data request sent to the store's members), for a shopper's erasure request. @returns how many.
     */
    deleteRecipient(storeId: string, email: string): number {
      const mentions = `%${email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const mentioned = ["subject", "text", "html"].map((c) => `lower(${c}) LIKE ? ESCAPE '\\'`).join(" OR ");
      return db.prepare(`DELETE FROM mail_outbox WHERE store_id = ? AND (${sameAddress} OR ${mentioned})`).run(storeId, email, mentions, mentions, mentions).changes;
    },

    /** One message by its ID. */
    byId(messageId: string): OutboxRow | undefined {
      return db.prepare("SELECT * FROM mail_outbox WHERE message_id = ?").get(messageId) as OutboxRow | undefined;
    },

    /**
     * Messages a reader may see (mail.service.ts `mayRead`), newest first: every message of `ownerOf`, those of
     * `memberOf` whose kind is not one of `hiddenKinds`, and, for an operator, those of no store. `beforeSeq` is
     * the keyset position (exclusive).
     */
    listVisible(reader: { ownerOf: string[]; memberOf: string[]; operator: boolean; hiddenKinds: readonly string[] }, beforeSeq: number | undefined, limit: number): OutboxSummary[] {
      // One index range per store (store_id, seq) and one for mail of no store, each read newest first and merged
      // here: a merchant with few messages on a large instance reads only their own rows.
      const before = beforeSeq ?? Number.MAX_SAFE_INTEGER;
      const byStore = db.prepare(`SELECT ${SUMMARY} FROM mail_outbox WHERE store_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`);
      const hidden = reader.hiddenKinds.map(() => "?").join(", ");
      const byStoreForMember = db.prepare(
        `SELECT ${SUMMARY} FROM mail_outbox WHERE store_id = ? AND seq < ?${hidden ? ` AND kind NOT IN (${hidden})` : ""} ORDER BY seq DESC LIMIT ?`,
      );
      const rows = reader.ownerOf.flatMap((id) => byStore.all(id, before, limit) as OutboxSummary[]);
      for (const id of reader.memberOf) rows.push(...(byStoreForMember.all(id, before, ...reader.hiddenKinds, limit) as OutboxSummary[]));
      if (reader.operator) {
        rows.push(...(db.prepare(`SELECT ${SUMMARY} FROM mail_outbox WHERE store_id IS NULL AND seq < ? ORDER BY seq DESC LIMIT ?`).all(before, limit) as OutboxSummary[]));
      }
      return rows.sort((a, b) => b.seq - a.seq).slice(0, limit);
    },

    /** Messages per status (all stores), for logs and tests. */
    statusCounts(): Record<MailStatus, number> {
      const counts: Record<MailStatus, number> = { queued: 0, sending: 0, sent: 0, failed: 0, kept: 0 };
      for (const r of db.prepare("SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status").all() as { status: MailStatus; n: number }[]) counts[r.status] = r.n;
      return counts;
    },

    /** The earliest `next_attempt_ms` / `lease_until_ms` of work still to do, or null when there is none. */
    nextDueMs(): number | null {
      return db.prepare(
        `SELECT MIN(CASE status WHEN 'queued' THEN next_attempt_ms ELSE lease_until_ms END) FROM mail_outbox WHERE status IN ('queued', 'sending')`,
      ).pluck().get() as number | null;
    },
  };
}
export type MailRepo = ReturnType<typeof mailRepo>;

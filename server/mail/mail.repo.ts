/**
 * The outbox (SQL, table `mail_outbox`, migration 073): one row per outgoing message, written by
 * `enqueue` and worked on by the sender (sender.ts). Times are epoch milliseconds.
 *
 * Statuses: `queued` (waiting for its next attempt), `sending` (claimed by a sender until `lease_until_ms`),
 * `sent`, `failed` (gave up: a permanent refusal or too many attempts), `kept` (no SMTP server configured:
 * kept for the admin outbox, never sent).
 */
import { all, dialect, forUpdate, one, run, sql, value, type Db } from "../db/database.ts";

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
export type OutboxSummary = Pick<
  OutboxRow,
  "seq" | "message_id" | "store_id" | "kind" | "to_address" | "subject" | "status" | "attempts" | "created_ms" | "sent_ms" | "next_attempt_ms" | "last_error"
>;

export type NewOutboxRow = Pick<
  OutboxRow,
  "message_id" | "store_id" | "kind" | "to_address" | "subject" | "html" | "text" | "headers_json" | "dedupe_key" | "status" | "next_attempt_ms" | "created_ms"
>;

const SUMMARY = sql.raw("seq, message_id, store_id, kind, to_address, subject, status, attempts, created_ms, sent_ms, next_attempt_ms, last_error");

/** Create the outbox data module over `db`. */
export function mailRepo(db: Db) {
  const postgres = dialect(db) === "postgres";
  /** `to_address` equals `email` in any case (SQLite NOCASE; PostgreSQL lower(), its index mail_outbox_recipient). */
  const sameAddress = (email: string) => (postgres ? sql`lower(to_address) = lower(${email})` : sql`to_address = ${email} COLLATE NOCASE`);
  return {
    /**
     * Insert a message; a row with the same `dedupe_key` already there makes this a no-op.
     * @returns the stored message's ID (the existing one for a duplicate) and whether it was a duplicate.
     */
    async insert(row: NewOutboxRow): Promise<{ messageId: string; duplicate: boolean }> {
      // Exactly-once per dedupe key: the unique index on dedupe_key with ON CONFLICT DO NOTHING (no error that
      // would abort the caller's PostgreSQL transaction).
      const inserted = await run(
        db,
        sql`INSERT INTO mail_outbox (message_id, store_id, kind, to_address, subject, html, text, headers_json, dedupe_key, status, next_attempt_ms, created_ms)
         VALUES (${row.message_id}, ${row.store_id}, ${row.kind}, ${row.to_address}, ${row.subject}, ${row.html}, ${row.text}, ${row.headers_json}, ${row.dedupe_key}, ${row.status}, ${row.next_attempt_ms}, ${row.created_ms})
         ON CONFLICT (dedupe_key) DO NOTHING`,
      );
      if (inserted.changes === 1) return { messageId: row.message_id, duplicate: false };
      const existing = await value<string>(db, sql`SELECT message_id FROM mail_outbox WHERE dedupe_key = ${row.dedupe_key}`);
      return { messageId: existing!, duplicate: true };
    },

    /**
     * Claim up to `limit` messages due at `nowMs` (queued with `next_attempt_ms <= nowMs`, or `sending` with an
     * expired lease): each becomes `sending` until `leaseUntilMs`, its attempt counted. Call inside a transaction.
     */
    async claimDue(nowMs: number, leaseUntilMs: number, limit: number): Promise<OutboxRow[]> {
      // Expired leases first (few: a crash), then queued messages in due order; each an index range, no sort.
      // Exactly-once claim across nodes: PostgreSQL selects FOR UPDATE SKIP LOCKED (rows another node's claim
      // transaction holds are skipped, not waited for) and the lease UPDATE commits before the send; SQLite's
      // write transaction (BEGIN IMMEDIATE) serialises claims.
      const lock = forUpdate(db, { skipLocked: true });
      const due = await all<OutboxRow>(db, sql`SELECT * FROM mail_outbox WHERE status = 'sending' AND lease_until_ms <= ${nowMs} LIMIT ${limit}${lock}`);
      if (due.length < limit) {
        due.push(
          ...(await all<OutboxRow>(db, sql`SELECT * FROM mail_outbox WHERE status = 'queued' AND next_attempt_ms <= ${nowMs} ORDER BY next_attempt_ms, seq LIMIT ${limit - due.length}${lock}`)),
        );
      }
      for (const row of due) {
        await run(db, sql`UPDATE mail_outbox SET status = 'sending', lease_until_ms = ${leaseUntilMs}, attempts = attempts + 1 WHERE seq = ${row.seq}`);
        row.status = "sending";
        row.lease_until_ms = leaseUntilMs;
        row.attempts += 1;
      }
      return due;
    },

    /** Record a successful send of a message this sender holds (`lease_until_ms` as claimed). @returns false when the claim was lost. */
    async markSent(seq: number, leaseUntilMs: number, sentMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE mail_outbox SET status = 'sent', sent_ms = ${sentMs}, lease_until_ms = NULL, last_error = NULL WHERE seq = ${seq} AND status = 'sending' AND lease_until_ms = ${leaseUntilMs}`,
          )
        ).changes === 1
      );
    },

    /** Give back a claim not attempted (the sender is stopping): queued again as it was, the attempt not counted. */
    async release(seq: number, leaseUntilMs: number): Promise<boolean> {
      return (
        (await run(db, sql`UPDATE mail_outbox SET status = 'queued', attempts = attempts - 1, lease_until_ms = NULL WHERE seq = ${seq} AND status = 'sending' AND lease_until_ms = ${leaseUntilMs}`))
          .changes === 1
      );
    },

    /** Record a failed attempt: queued again for `nextAttemptMs`, or `failed` when `nextAttemptMs` is null. */
    async markAttemptFailed(seq: number, leaseUntilMs: number, error: string, nextAttemptMs: number | null): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE mail_outbox SET status = ${nextAttemptMs === null ? "failed" : "queued"}, last_error = ${error}, next_attempt_ms = COALESCE(CAST(${nextAttemptMs} AS bigint), next_attempt_ms), lease_until_ms = NULL
         WHERE seq = ${seq} AND status = 'sending' AND lease_until_ms = ${leaseUntilMs}`,
          )
        ).changes === 1
      );
    },

    /**
     * Queue a `failed` or `kept` message again for `nowMs`, its attempts counted from zero (the last error stays
     * until the next attempt). @returns false when the message is in another status or its content was pruned.
     */
    async requeue(messageId: string, nowMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE mail_outbox SET status = 'queued', attempts = 0, next_attempt_ms = ${nowMs}, lease_until_ms = NULL WHERE message_id = ${messageId} AND status IN ('failed', 'kept') AND html <> ''`,
          )
        ).changes === 1
      );
    },

    /**
     * The last `seq` written before `beforeMs`, by binary search over the primary key (seq grows with created_ms:
     * both are taken at enqueue), reading about log2(rows) rows instead of scanning; 0 when there is none.
     */
    async lastSeqBefore(beforeMs: number): Promise<number> {
      let lo = 0;
      let hi = (await value<number>(db, sql`SELECT COALESCE(MAX(seq), 0) AS m FROM mail_outbox`)) ?? 0;
      while (lo < hi) {
        // invariant: every seq <= lo is before; the answer is <= hi
        const mid = Math.ceil((lo + hi) / 2);
        const row = await one<{ seq: number; created_ms: number }>(db, sql`SELECT seq, created_ms FROM mail_outbox WHERE seq >= ${mid} ORDER BY seq LIMIT 1`);
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
    async pruneContent(fromSeq: number, toSeq: number, beforeMs: number): Promise<number> {
      // +status: SQLite reads the seq range, not the status index
      return (
        await run(
          db,
          sql`UPDATE mail_outbox SET html = '', text = '', headers_json = '{}'
         WHERE seq > ${fromSeq} AND seq <= ${toSeq} AND ${sql.raw(postgres ? "status" : "+status")} IN ('sent', 'failed', 'kept') AND html <> '' AND created_ms < ${beforeMs}`,
        )
      ).changes;
    },

    /** The lowest `seq` of a message not finished yet (queued or sending), or null. */
    async firstUnfinishedSeq(): Promise<number | null> {
      return (await value<number | null>(db, sql`SELECT MIN(seq) AS m FROM mail_outbox WHERE status IN ('queued', 'sending')`)) ?? null;
    },

    /**
     * Delete a store's messages to `email` (any case), and those whose subject or content names it (e.g. the notice
     * of a shopper's data request sent to the store's members), for a shopper's erasure request. @returns how many.
     */
    async deleteRecipient(storeId: string, email: string): Promise<number> {
      const mentions = `%${email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const mentioned = sql.join(
        ["subject", "text", "html"].map((c) => sql`lower(${sql.raw(c)}) LIKE ${mentions} ESCAPE '\\'`),
        sql` OR `,
      );
      return (await run(db, sql`DELETE FROM mail_outbox WHERE store_id = ${storeId} AND (${sameAddress(email)} OR ${mentioned})`)).changes;
    },

    /** Whether the message is queued as this connection sees it (outside a transaction: committed rows only). */
    async isQueued(messageId: string): Promise<boolean> {
      return (await value<number>(db, sql`SELECT 1 AS one FROM mail_outbox WHERE message_id = ${messageId} AND status = 'queued'`)) !== undefined;
    },

    /** One message by its ID. */
    async byId(messageId: string): Promise<OutboxRow | undefined> {
      return one<OutboxRow>(db, sql`SELECT * FROM mail_outbox WHERE message_id = ${messageId}`);
    },

    /**
     * Messages a reader may see (mail.service.ts `mayRead`), newest first: every message of `ownerOf`, those of
     * `memberOf` whose kind is not one of `hiddenKinds`, and, for an operator, those of no store. `beforeSeq` is
     * the keyset position (exclusive).
     */
    async listVisible(reader: { ownerOf: string[]; memberOf: string[]; operator: boolean; hiddenKinds: readonly string[] }, beforeSeq: number | undefined, limit: number): Promise<OutboxSummary[]> {
      // One index range per store (store_id, seq) and one for mail of no store, each read newest first and merged
      // here: a merchant with few messages on a large instance reads only their own rows.
      const before = beforeSeq ?? Number.MAX_SAFE_INTEGER;
      const hidden = reader.hiddenKinds.length ? sql` AND kind NOT IN (${sql.join([...reader.hiddenKinds])})` : sql``;
      const rows: OutboxSummary[] = [];
      for (const id of reader.ownerOf) {
        rows.push(...(await all<OutboxSummary>(db, sql`SELECT ${SUMMARY} FROM mail_outbox WHERE store_id = ${id} AND seq < ${before} ORDER BY seq DESC LIMIT ${limit}`)));
      }
      for (const id of reader.memberOf) {
        rows.push(...(await all<OutboxSummary>(db, sql`SELECT ${SUMMARY} FROM mail_outbox WHERE store_id = ${id} AND seq < ${before}${hidden} ORDER BY seq DESC LIMIT ${limit}`)));
      }
      if (reader.operator) {
        rows.push(...(await all<OutboxSummary>(db, sql`SELECT ${SUMMARY} FROM mail_outbox WHERE store_id IS NULL AND seq < ${before} ORDER BY seq DESC LIMIT ${limit}`)));
      }
      return rows.sort((a, b) => b.seq - a.seq).slice(0, limit);
    },

    /** Messages per status (all stores), for logs and tests. */
    async statusCounts(): Promise<Record<MailStatus, number>> {
      const counts: Record<MailStatus, number> = { queued: 0, sending: 0, sent: 0, failed: 0, kept: 0 };
      for (const r of await all<{ status: MailStatus; n: number }>(db, sql`SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status`)) counts[r.status] = r.n;
      return counts;
    },

    /** The earliest `next_attempt_ms` / `lease_until_ms` of work still to do, or null when there is none. */
    async nextDueMs(): Promise<number | null> {
      return (
        (await value<number | null>(db, sql`SELECT MIN(CASE status WHEN 'queued' THEN next_attempt_ms ELSE lease_until_ms END) AS m FROM mail_outbox WHERE status IN ('queued', 'sending')`)) ?? null
      );
    },
  };
}
export type MailRepo = ReturnType<typeof mailRepo>;

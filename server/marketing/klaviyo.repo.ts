/**
 * SQL of the Klaviyo connection (migration 111, docs/klaviyo.md): the sealed private API key per store, the outbox
 * of calls (`klaviyo_outbox`, filled by triggers and by an erasure) and the reads that shape each call. Times are
 * epoch milliseconds; every statement names the store or a key only the store's rows carry.
 */
import { all, forUpdate, one, run, sql, value, type Db } from "../db/database.ts";

export type KlaviyoJobKind = "event" | "profile" | "deletion";
export type KlaviyoJobStatus = "queued" | "sending" | "delivered" | "failed" | "skipped";

/** A row of the outbox. */
export type KlaviyoJobRow = {
  seq: number;
  job_id: string;
  store_id: string;
  kind: KlaviyoJobKind;
  name: string;
  resource_id: string | null;
  email: string;
  detail_json: string | null;
  status: KlaviyoJobStatus;
  attempts: number;
  next_attempt_ms: number;
  lease_until_ms: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_ms: number;
  delivered_ms: number | null;
};

/** A claimed job with the store's sealed key. */
export type ClaimedKlaviyoJob = KlaviyoJobRow & { api_key_sealed: string | null };

/** Create the Klaviyo data module over `db`. */
export function klaviyoRepo(db: Db) {
  return {
    /** The store's sealed key and its last four characters, or undefined when not connected. */
    async account(storeId: string): Promise<{ api_key_sealed: string; key_hint: string; updated_ms: number } | undefined> {
      return one(db, sql`SELECT api_key_sealed, key_hint, updated_ms FROM klaviyo_accounts WHERE store_id = ${storeId}`);
    },

    /** Store (or replace) the store's sealed key. */
    async setAccount(storeId: string, sealed: string, hint: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO klaviyo_accounts (store_id, api_key_sealed, key_hint, updated_ms) VALUES (${storeId}, ${sealed}, ${hint}, ${nowMs})
        ON CONFLICT (store_id) DO UPDATE SET api_key_sealed = excluded.api_key_sealed, key_hint = excluded.key_hint, updated_ms = excluded.updated_ms`,
      );
    },

    /** Disconnect: the key goes, queued jobs are dropped (nothing can send them). */
    async deleteAccount(storeId: string): Promise<void> {
      await run(db, sql`DELETE FROM klaviyo_accounts WHERE store_id = ${storeId}`);
      await run(db, sql`DELETE FROM klaviyo_outbox WHERE store_id = ${storeId} AND status IN ('queued', 'sending')`);
    },

    /** Queue a job due at `nowMs` (a deletion after an erasure). */
    async enqueue(job: { jobId: string; storeId: string; kind: KlaviyoJobKind; name: string; email: string; resourceId?: string | null; detailJson?: string | null }, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO klaviyo_outbox (job_id, store_id, kind, name, resource_id, email, detail_json, next_attempt_ms, created_ms)
        VALUES (${job.jobId}, ${job.storeId}, ${job.kind}, ${job.name}, ${job.resourceId ?? null}, ${job.email}, ${job.detailJson ?? null}, ${nowMs}, ${nowMs})`,
      );
    },

    /**
     * Delete every job of the store about `email` (any case), sent or not: an erased shopper's address does not stay
     * in the outbox or its log. @returns how many were deleted.
     */
    async forgetEmail(storeId: string, email: string): Promise<number> {
      return (await run(db, sql`DELETE FROM klaviyo_outbox WHERE store_id = ${storeId} AND lower(email) = ${email.toLowerCase()}`)).changes;
    },

    /**
     * Claim up to `limit` jobs due at `nowMs` (queued and due, or `sending` with an expired lease): each becomes
     * `sending` until `leaseUntilMs`, its attempt counted. Call inside a transaction. Exactly-once claim across nodes:
     * the rows are selected FOR UPDATE SKIP LOCKED on PostgreSQL (another node's claims are skipped), and SQLite's
     * write transaction serialises claims; the lease is committed before any request is sent.
     */
    async claimDue(nowMs: number, leaseUntilMs: number, limit: number): Promise<ClaimedKlaviyoJob[]> {
      const due = await all<KlaviyoJobRow>(
        db,
        sql`SELECT * FROM klaviyo_outbox
        WHERE (status = 'queued' AND next_attempt_ms <= ${nowMs}) OR (status = 'sending' AND lease_until_ms <= ${nowMs})
        ORDER BY next_attempt_ms, seq LIMIT ${limit}${forUpdate(db, { skipLocked: true })}`,
      );
      const claimed: ClaimedKlaviyoJob[] = [];
      for (const row of due) {
        await run(db, sql`UPDATE klaviyo_outbox SET status = 'sending', lease_until_ms = ${leaseUntilMs}, attempts = attempts + 1 WHERE seq = ${row.seq}`);
        const key = await value<string | null>(db, sql`SELECT api_key_sealed FROM klaviyo_accounts WHERE store_id = ${row.store_id}`);
        claimed.push({ ...row, status: "sending", attempts: row.attempts + 1, lease_until_ms: leaseUntilMs, api_key_sealed: key ?? null });
      }
      return claimed;
    },

    /**
     * Record the outcome of an attempt this sender holds (the conditional UPDATE on the lease: only the holder's
     * outcome is recorded). `nextAttemptMs` set: queued again. @returns false when the claim was lost.
     */
    async recordOutcome(
      seq: number,
      leaseUntilMs: number,
      o: { status: Exclude<KlaviyoJobStatus, "sending">; nextAttemptMs: number | null; statusCode: number | null; error: string | null; nowMs: number },
    ): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE klaviyo_outbox SET status = ${o.status}, next_attempt_ms = COALESCE(CAST(${o.nextAttemptMs} AS bigint), next_attempt_ms), lease_until_ms = NULL,
          last_status_code = ${o.statusCode}, last_error = ${o.error}, delivered_ms = ${o.status === "delivered" ? o.nowMs : null}
        WHERE seq = ${seq} AND status = 'sending' AND lease_until_ms = ${leaseUntilMs}`,
          )
        ).changes === 1
      );
    },

    /** Replace a finished deletion job's address by its hashed key (the erased shopper's address leaves the log). */
    async scrubEmail(seq: number, key: string): Promise<void> {
      await run(db, sql`UPDATE klaviyo_outbox SET email = ${key} WHERE seq = ${seq}`);
    },

    /** The earliest time there is work, or null. */
    async nextDueMs(): Promise<number | null> {
      return (
        (await value<number | null>(db, sql`SELECT min(CASE status WHEN 'queued' THEN next_attempt_ms ELSE lease_until_ms END) AS m FROM klaviyo_outbox WHERE status IN ('queued', 'sending')`)) ?? null
      );
    },

    /** The store's jobs, newest first, before `beforeSeq` (keyset): the delivery log. */
    async list(storeId: string, beforeSeq: number | undefined, limit: number): Promise<KlaviyoJobRow[]> {
      return all<KlaviyoJobRow>(db, sql`SELECT * FROM klaviyo_outbox WHERE store_id = ${storeId} AND seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER} ORDER BY seq DESC LIMIT ${limit}`);
    },

    /** Delete finished jobs created before `beforeMs` (retention). @returns how many. */
    async prune(beforeMs: number): Promise<number> {
      return (await run(db, sql`DELETE FROM klaviyo_outbox WHERE created_ms < ${beforeMs} AND status IN ('delivered', 'failed', 'skipped')`)).changes;
    },

    // ---- Reads that shape the calls (read-only) ----

    async review(storeId: string, reviewId: string) {
      return one<{
        review_id: string;
        rating: number;
        title: string;
        body: string;
        verified_status: string;
        media_count: number;
        created_ms: number;
        product_id: string;
        product_name: string | null;
        product_url: string | null;
        product_image_url: string | null;
      }>(
        db,
        sql`
        SELECT r.review_id, r.rating, r.title, r.body, r.verified_status, r.media_count, r.created_ms, r.product_id, p.name AS product_name, p.url AS product_url, p.image_url AS product_image_url
        FROM reviews r LEFT JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id WHERE r.store_id = ${storeId} AND r.review_id = ${reviewId}`,
      );
    },

    async question(storeId: string, questionId: string) {
      return one<{ question_id: string; body: string; created_ms: number; product_id: string; product_name: string | null; product_url: string | null }>(
        db,
        sql`
        SELECT q.question_id, q.body, q.created_ms, q.product_id, p.name AS product_name, p.url AS product_url
        FROM questions q LEFT JOIN products p ON p.store_id = q.store_id AND p.product_id = q.product_id WHERE q.store_id = ${storeId} AND q.question_id = ${questionId}`,
      );
    },

    async transaction(storeId: string, transactionId: string) {
      return one<{ transaction_id: string; type: string; points: number; balance_after: number; description: string; coupon_code: string | null; reward_code: string | null; created_ms: number }>(
        db,
        sql`
        SELECT t.transaction_id, t.type, t.points, t.balance_after, t.description, t.coupon_code, t.created_ms,
          (SELECT w.code FROM loyalty_rewards w WHERE w.store_id = t.store_id AND w.transaction_id = t.transaction_id ORDER BY w.created_ms LIMIT 1) AS reward_code
        FROM loyalty_transactions t WHERE t.store_id = ${storeId} AND t.transaction_id = ${transactionId}`,
      );
    },

    async surveyResponse(storeId: string, responseId: string) {
      return one<{ survey_response_id: string; survey_id: string; survey_name: string | null; nps_score: number | null; nps_category: string | null; created_ms: number }>(
        db,
        sql`
        SELECT r.survey_response_id, r.survey_id, s.name AS survey_name, r.nps_score, r.nps_category, r.created_ms
        FROM survey_responses r LEFT JOIN surveys s ON s.survey_id = r.survey_id WHERE r.store_id = ${storeId} AND r.survey_response_id = ${responseId}`,
      );
    },

    /** A VIP tier's name, or null. */
    async tierName(storeId: string, tierId: string | null): Promise<string | null> {
      if (!tierId) return null;
      return (await value<string>(db, sql`SELECT name FROM loyalty_vip_tiers WHERE store_id = ${storeId} AND vip_tier_id = ${tierId}`)) ?? null;
    },

    /** The shopper's loyalty standing (the enrolled customer with this address), or undefined. */
    async loyaltyOf(storeId: string, email: string) {
      return one<{ loyalty_customer_id: string; balance: number; lifetime_points: number; tier_name: string | null; status: string }>(
        db,
        sql`
        SELECT c.loyalty_customer_id, c.balance, c.lifetime_points, t.name AS tier_name, c.status
        FROM loyalty_customers c LEFT JOIN loyalty_vip_tiers t ON t.vip_tier_id = c.vip_tier_id
        WHERE c.store_id = ${storeId} AND lower(c.email) = ${email.toLowerCase()} ORDER BY c.created_ms DESC LIMIT 1`,
      );
    },

    /** When the address last wrote a review in the store (ms), or null. `reviewer_email IS NOT NULL` lets both engines use the partial index loyalty_reviews_email. */
    async lastReviewMs(storeId: string, email: string): Promise<number | null> {
      return (
        (await value<number | null>(db, sql`SELECT max(created_ms) AS m FROM reviews WHERE store_id = ${storeId} AND reviewer_email IS NOT NULL AND lower(reviewer_email) = ${email.toLowerCase()}`)) ??
        null
      );
    },
  };
}
export type KlaviyoRepo = ReturnType<typeof klaviyoRepo>;

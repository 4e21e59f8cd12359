/**
 * SQL of outgoing webhooks (migration 080): subscriptions and their event types, the event outbox the
 * triggers fill, deliveries (the persisted queue) and the attempt log. Times are epoch milliseconds;
 * every statement names the store or a key only the store's own rows carry.
 *
 * Delivery statuses: `queued` (waiting for `next_attempt_ms`), `sending` (claimed until `lease_until_ms`),
 * `delivered` (a 2xx answer), `failed` (attempts used up, or the subscription was disabled).
 */
import { all, dialect, one, run, sql, value, values, type Db } from "../db/database.ts";
import type { TransactionRow } from "../loyalty/loyalty.repo.ts";

export type SubscriptionRow = {
  subscription_id: string;
  store_id: string;
  url: string;
  description: string;
  secret_encrypted: string;
  secret_prefix: string;
  status: "enabled" | "disabled";
  disabled_reason: string | null;
  disabled_ms: number | null;
  consecutive_failures: number;
  failing_since_ms: number | null;
  created_ms: number;
  updated_ms: number;
  /** Comma-separated event types (from webhook_subscription_events). */
  event_types: string;
};

export type EventRow = {
  seq: number;
  event_id: string;
  store_id: string;
  event_type: string;
  resource_id: string;
  snapshot_json: string | null;
  payload_json: string | null;
  created_ms: number;
  dispatched_ms: number | null;
};

export type DeliveryStatus = "queued" | "sending" | "delivered" | "failed";

/** A claimed delivery with what sending it needs. */
export type ClaimedDelivery = {
  seq: number;
  delivery_id: string;
  subscription_id: string;
  store_id: string;
  attempts: number;
  lease_until_ms: number;
  event_id: string;
  event_type: string;
  payload_json: string;
  url: string;
  secret_encrypted: string;
};

/** A delivery as the admin log lists it. */
export type DeliveryLogRow = {
  seq: number;
  delivery_id: string;
  subscription_id: string;
  url: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_ms: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  replay_of: string | null;
  created_ms: number;
  delivered_ms: number | null;
};

export type AttemptRow = { attempt: number; attempted_ms: number; status_code: number | null; latency_ms: number; error: string | null };

/** A subscription row with its event types (comma-separated) in one column. */
const subscriptionSelect = (db: Db) =>
  sql`SELECT s.*, COALESCE((SELECT ${sql.raw(dialect(db) === "postgres" ? "string_agg(e.event_type, ',')" : "group_concat(e.event_type, ',')")}
    FROM webhook_subscription_events e WHERE e.subscription_id = s.subscription_id), '') AS event_types
  FROM webhook_subscriptions s`;

/** Create the webhooks data module over `db`. */
export function webhooksRepo(db: Db) {
  const SUBSCRIPTION = subscriptionSelect(db);
  const postgres = dialect(db) === "postgres";
  const setEventTypes = async (storeId: string, subscriptionId: string, eventTypes: readonly string[]) => {
    await run(db, sql`DELETE FROM webhook_subscription_events WHERE subscription_id = ${subscriptionId}`);
    for (const type of eventTypes) await run(db, sql`INSERT INTO webhook_subscription_events (store_id, event_type, subscription_id) VALUES (${storeId}, ${type}, ${subscriptionId})`);
  };

  return {
    // ---- Subscriptions ----

    /** Insert a subscription and its event types (call inside a transaction). */
    async insertSubscription(
      row: Omit<SubscriptionRow, "event_types" | "status" | "disabled_reason" | "disabled_ms" | "consecutive_failures" | "failing_since_ms">,
      eventTypes: readonly string[],
    ): Promise<void> {
      await run(
        db,
        sql`INSERT INTO webhook_subscriptions (subscription_id, store_id, url, description, secret_encrypted, secret_prefix, created_ms, updated_ms)
         VALUES (${row.subscription_id}, ${row.store_id}, ${row.url}, ${row.description}, ${row.secret_encrypted}, ${row.secret_prefix}, ${row.created_ms}, ${row.updated_ms})`,
      );
      await setEventTypes(row.store_id, row.subscription_id, eventTypes);
    },

    /** The store's subscriptions, oldest first. */
    async listSubscriptions(storeId: string): Promise<SubscriptionRow[]> {
      return all<SubscriptionRow>(db, sql`${SUBSCRIPTION} WHERE s.store_id = ${storeId} ORDER BY s.created_ms, s.subscription_id`);
    },

    /** How many subscriptions the store has. On PostgreSQL inside a transaction, locks the store's row first (`lockStore`). */
    async countSubscriptions(storeId: string): Promise<number> {
      return (await value<number>(db, sql`SELECT count(*) AS n FROM webhook_subscriptions WHERE store_id = ${storeId}`)) ?? 0;
    },

    /**
     * Lock the store's row until the transaction ends (PostgreSQL; SQLite's write transaction already holds the
     * database's write lock): concurrent creations of one store's subscriptions count one after the other.
     */
    async lockStore(storeId: string): Promise<void> {
      if (postgres) await run(db, sql`SELECT 1 FROM stores WHERE store_id = ${storeId} FOR UPDATE`);
    },

    async getSubscription(storeId: string, subscriptionId: string): Promise<SubscriptionRow | undefined> {
      return one<SubscriptionRow>(db, sql`${SUBSCRIPTION} WHERE s.store_id = ${storeId} AND s.subscription_id = ${subscriptionId}`);
    },

    /** Change URL, description and event types (call inside a transaction). @returns false when not the store's. */
    async updateSubscription(storeId: string, subscriptionId: string, change: { url: string; description: string; eventTypes: readonly string[] }, nowMs: number): Promise<boolean> {
      const changed =
        (
          await run(
            db,
            sql`UPDATE webhook_subscriptions SET url = ${change.url}, description = ${change.description}, updated_ms = ${nowMs} WHERE store_id = ${storeId} AND subscription_id = ${subscriptionId}`,
          )
        ).changes === 1;
      if (changed) await setEventTypes(storeId, subscriptionId, change.eventTypes);
      return changed;
    },

    /** Turn a subscription on again (its failure count restarts). */
    async enable(storeId: string, subscriptionId: string, nowMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE webhook_subscriptions SET status = 'enabled', disabled_reason = NULL, disabled_ms = NULL, consecutive_failures = 0, failing_since_ms = NULL, updated_ms = ${nowMs}
         WHERE store_id = ${storeId} AND subscription_id = ${subscriptionId}`,
          )
        ).changes === 1
      );
    },

    /** Turn a subscription off with `reason`; its queued deliveries fail (call inside a transaction). */
    async disable(storeId: string, subscriptionId: string, reason: string, nowMs: number): Promise<boolean> {
      // Exactly-once: the conditional UPDATE (status = 'enabled') lets one disabling through.
      const changed =
        (
          await run(
            db,
            sql`UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ${reason}, disabled_ms = ${nowMs}, updated_ms = ${nowMs} WHERE store_id = ${storeId} AND subscription_id = ${subscriptionId} AND status = 'enabled'`,
          )
        ).changes === 1;
      if (changed) {
        await run(
          db,
          sql`UPDATE webhook_deliveries SET status = 'failed', last_error = 'subscription disabled', lease_until_ms = NULL WHERE subscription_id = ${subscriptionId} AND status = 'queued'`,
        );
      }
      return changed;
    },

    async deleteSubscription(storeId: string, subscriptionId: string): Promise<boolean> {
      return (await run(db, sql`DELETE FROM webhook_subscriptions WHERE store_id = ${storeId} AND subscription_id = ${subscriptionId}`)).changes === 1;
    },

    async setSecret(storeId: string, subscriptionId: string, secretEncrypted: string, secretPrefix: string, nowMs: number): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`UPDATE webhook_subscriptions SET secret_encrypted = ${secretEncrypted}, secret_prefix = ${secretPrefix}, updated_ms = ${nowMs} WHERE store_id = ${storeId} AND subscription_id = ${subscriptionId}`,
          )
        ).changes === 1
      );
    },

    /** Record a successful delivery to the subscription: its failure count restarts. */
    async noteSuccess(subscriptionId: string): Promise<void> {
      await run(db, sql`UPDATE webhook_subscriptions SET consecutive_failures = 0, failing_since_ms = NULL WHERE subscription_id = ${subscriptionId} AND consecutive_failures > 0`);
    },

    /** Record a failed attempt. @returns the failure count and since when it has been failing. */
    async noteFailure(subscriptionId: string, nowMs: number): Promise<{ consecutive_failures: number; failing_since_ms: number } | undefined> {
      // One UPDATE … RETURNING: the increment and the count read are one atomic step (no lost update across nodes).
      return one<{ consecutive_failures: number; failing_since_ms: number }>(
        db,
        sql`UPDATE webhook_subscriptions SET consecutive_failures = consecutive_failures + 1, failing_since_ms = COALESCE(failing_since_ms, ${nowMs})
         WHERE subscription_id = ${subscriptionId} RETURNING consecutive_failures, failing_since_ms`,
      );
    },

    // ---- Events ----

    /** Events not dispatched yet, oldest first. */
    async undispatched(limit: number): Promise<EventRow[]> {
      return all<EventRow>(db, sql`SELECT * FROM webhook_events WHERE dispatched_ms IS NULL ORDER BY seq LIMIT ${limit}`);
    },

    /**
     * Dispatch an event (call inside a transaction): store its body and queue one delivery per enabled
     * subscription of the store to its type, due at `nowMs`. @returns the deliveries queued.
     */
    async dispatch(event: EventRow, payloadJson: string, nowMs: number, newId: () => string): Promise<number> {
      // Exactly-once across nodes: the conditional UPDATE (dispatched_ms IS NULL) lets one dispatcher through; on
      // PostgreSQL a second one waits for the first's row lock, then finds the row dispatched and queues nothing.
      if ((await run(db, sql`UPDATE webhook_events SET payload_json = ${payloadJson}, dispatched_ms = ${nowMs} WHERE seq = ${event.seq} AND dispatched_ms IS NULL`)).changes !== 1) return 0;
      const subscribers = await values<string>(
        db,
        sql`SELECT s.subscription_id FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
         WHERE e.store_id = ${event.store_id} AND e.event_type = ${event.event_type} AND s.status = 'enabled' ORDER BY s.created_ms`,
      );
      for (const id of subscribers) {
        await run(
          db,
          sql`INSERT INTO webhook_deliveries (delivery_id, event_seq, subscription_id, store_id, status, next_attempt_ms, created_ms) VALUES (${newId()}, ${event.seq}, ${id}, ${event.store_id}, 'queued', ${nowMs}, ${nowMs})`,
        );
      }
      return subscribers.length;
    },

    // ---- Deliveries ----

    /**
     * Claim up to `limit` deliveries due at `nowMs` (queued and due, or `sending` with an expired lease) of
     * enabled subscriptions: each becomes `sending` until `leaseUntilMs`, its attempt counted. Call inside a transaction.
     * Exactly-once claim: on PostgreSQL the deliveries are selected `FOR UPDATE OF d SKIP LOCKED` (rows another node
     * is claiming are skipped); SQLite's write transaction serialises claims.
     */
    async claimDue(nowMs: number, leaseUntilMs: number, limit: number): Promise<ClaimedDelivery[]> {
      const due = await all<ClaimedDelivery>(
        db,
        sql`SELECT d.seq, d.delivery_id, d.subscription_id, d.store_id, d.attempts, e.event_id, e.event_type, e.payload_json, s.url, s.secret_encrypted
         FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         WHERE ((d.status = 'queued' AND d.next_attempt_ms <= ${nowMs}) OR (d.status = 'sending' AND d.lease_until_ms <= ${nowMs})) AND s.status = 'enabled'
         ORDER BY d.next_attempt_ms, d.seq LIMIT ${limit}${postgres ? sql` FOR UPDATE OF d SKIP LOCKED` : sql``}`,
      );
      for (const row of due) {
        await run(db, sql`UPDATE webhook_deliveries SET status = 'sending', lease_until_ms = ${leaseUntilMs}, attempts = attempts + 1 WHERE seq = ${row.seq}`);
        row.attempts += 1;
        row.lease_until_ms = leaseUntilMs;
      }
      return due;
    },

    /** Log an attempt (the delivery log). */
    async insertAttempt(deliverySeq: number, storeId: string, attempt: number, a: Omit<AttemptRow, "attempt">): Promise<void> {
      await run(
        db,
        sql`INSERT INTO webhook_attempts (delivery_seq, attempt, store_id, attempted_ms, status_code, latency_ms, error) VALUES (${deliverySeq}, ${attempt}, ${storeId}, ${a.attempted_ms}, ${a.status_code}, ${a.latency_ms}, ${a.error})
         ON CONFLICT (delivery_seq, attempt) DO UPDATE SET store_id = excluded.store_id, attempted_ms = excluded.attempted_ms, status_code = excluded.status_code,
           latency_ms = excluded.latency_ms, error = excluded.error`,
      );
    },

    /** Record the outcome of an attempt this sender holds: delivered, queued again for `nextAttemptMs`, or failed (null). @returns false when the claim was lost. */
    async recordOutcome(
      seq: number,
      leaseUntilMs: number,
      o: { delivered: boolean; nextAttemptMs: number | null; statusCode: number | null; latencyMs: number; error: string | null; nowMs: number },
    ): Promise<boolean> {
      const status: DeliveryStatus = o.delivered ? "delivered" : o.nextAttemptMs === null ? "failed" : "queued";
      return (
        (
          await run(
            db,
            sql`UPDATE webhook_deliveries SET status = ${status}, next_attempt_ms = COALESCE(CAST(${o.nextAttemptMs} AS bigint), next_attempt_ms), lease_until_ms = NULL, last_status_code = ${o.statusCode}, last_latency_ms = ${o.latencyMs},
           last_error = ${o.error}, delivered_ms = ${o.delivered ? sql`${o.nowMs}` : sql`delivered_ms`}
         WHERE seq = ${seq} AND status = 'sending' AND lease_until_ms = ${leaseUntilMs}`,
          )
        ).changes === 1
      );
    },

    /** A delivery of the store by its ID. */
    async getDelivery(storeId: string, deliveryId: string): Promise<{ seq: number; delivery_id: string; event_seq: number; subscription_id: string } | undefined> {
      return one(db, sql`SELECT seq, delivery_id, event_seq, subscription_id FROM webhook_deliveries WHERE store_id = ${storeId} AND delivery_id = ${deliveryId}`);
    },

    /** Queue a new delivery of an event already dispatched (a replay). */
    async insertReplay(storeId: string, of: { delivery_id: string; event_seq: number; subscription_id: string }, deliveryId: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO webhook_deliveries (delivery_id, event_seq, subscription_id, store_id, status, next_attempt_ms, created_ms, replay_of) VALUES (${deliveryId}, ${of.event_seq}, ${of.subscription_id}, ${storeId}, 'queued', ${nowMs}, ${nowMs}, ${of.delivery_id})`,
      );
    },

    /** The store's deliveries, newest first, before `beforeSeq` (keyset). */
    async listDeliveries(storeId: string, beforeSeq: number | undefined, limit: number): Promise<DeliveryLogRow[]> {
      return all<DeliveryLogRow>(
        db,
        sql`SELECT d.seq, d.delivery_id, d.subscription_id, s.url, e.event_id, e.event_type, d.status, d.attempts, d.next_attempt_ms, d.last_status_code,
           d.last_latency_ms, d.last_error, d.replay_of, d.created_ms, d.delivered_ms
         FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         WHERE d.store_id = ${storeId} AND d.seq < ${beforeSeq ?? Number.MAX_SAFE_INTEGER} ORDER BY d.seq DESC LIMIT ${limit}`,
      );
    },

    /** The attempts of a delivery, first first. */
    async attemptsOf(storeId: string, deliverySeq: number): Promise<AttemptRow[]> {
      return all<AttemptRow>(
        db,
        sql`SELECT attempt, attempted_ms, status_code, latency_ms, error FROM webhook_attempts WHERE store_id = ${storeId} AND delivery_seq = ${deliverySeq} ORDER BY attempt`,
      );
    },

    /** The earliest time there is work (an undispatched event: now), or null. */
    async nextDueMs(): Promise<number | null> {
      if (await one(db, sql`SELECT 1 AS x FROM webhook_events WHERE dispatched_ms IS NULL LIMIT 1`)) return 0;
      return (
        (await value<number | null>(
          db,
          sql`SELECT min(CASE d.status WHEN 'queued' THEN d.next_attempt_ms ELSE d.lease_until_ms END) AS m FROM webhook_deliveries d
         WHERE d.status IN ('queued', 'sending')`,
        )) ?? null
      );
    },

    /**
     * Delete events dispatched before `beforeMs` (the queue's clock) that have nothing left to send, with
     * their deliveries and attempt log (retention). @returns how many events were deleted.
     */
    async prune(beforeMs: number): Promise<number> {
      return (
        await run(
          db,
          sql`DELETE FROM webhook_events WHERE dispatched_ms < ${beforeMs}
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = webhook_events.seq AND d.status IN ('queued', 'sending'))`,
        )
      ).changes;
    },

    /**
     * Delete the store's events whose body mentions `email` (any case), with their deliveries and log, so an
     * erased shopper's address does not stay in the outbox. @returns how many events were deleted.
     */
    async forgetEmail(storeId: string, email: string): Promise<number> {
      const pattern = `%${JSON.stringify(email.toLowerCase())
        .slice(1, -1)
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return (await run(db, sql`DELETE FROM webhook_events WHERE store_id = ${storeId} AND lower(payload_json) LIKE ${pattern} ESCAPE '\\'`)).changes;
    },

    /** The e-mail addresses of the store's team (every member). */
    async teamEmails(storeId: string): Promise<string[]> {
      return values<string>(db, sql`SELECT u.email FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id WHERE m.store_id = ${storeId} ORDER BY u.email`);
    },

    // ---- Resources, for event bodies (read-only) ----

    /** A review's reviewer e-mail (not in the storefront's review columns). */
    async reviewerEmail(storeId: string, reviewId: string): Promise<string | null> {
      return (await value<string | null>(db, sql`SELECT reviewer_email FROM reviews WHERE store_id = ${storeId} AND review_id = ${reviewId}`)) ?? null;
    },

    /** A loyalty transaction of the store by its ID. */
    async loyaltyTransaction(storeId: string, transactionId: string): Promise<TransactionRow | undefined> {
      return one<TransactionRow>(db, sql`SELECT * FROM loyalty_transactions WHERE store_id = ${storeId} AND transaction_id = ${transactionId}`);
    },
  };
}
export type WebhooksRepo = ReturnType<typeof webhooksRepo>;

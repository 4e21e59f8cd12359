/**
 * SQL of outgoing webhooks (migration 080): subscriptions and their event types, the event outbox the
 * triggers fill, deliveries (the persisted queue) and the attempt log. Times are epoch milliseconds;
 * every statement names the store or a key only the store's own rows carry.
 *
 * Delivery statuses: `queued` (waiting for `next_attempt_ms`), `sending` (claimed until `lease_until_ms`),
 * `delivered` (a 2xx answer), `failed` (attempts used up, or the subscription was disabled).
 */
import { dialect, type Db } from "../db/database.ts";
import type { TransactionRow } from "../loyalty/loyalty.repo.ts";

export type SubscriptionRow = {
  subscription_id: string; store_id: string; url: string; description: string; secret_encrypted: string; secret_prefix: string;
  status: "enabled" | "disabled"; disabled_reason: string | null; disabled_ms: number | null;
  consecutive_failures: number; failing_since_ms: number | null; created_ms: number; updated_ms: number;
  /** Comma-separated event types (from webhook_subscription_events). */
  event_types: string;
};

export type EventRow = {
  seq: number; event_id: string; store_id: string; event_type: string; resource_id: string;
  snapshot_json: string | null; payload_json: string | null; created_ms: number; dispatched_ms: number | null;
};

export type DeliveryStatus = "queued" | "sending" | "delivered" | "failed";

/** A claimed delivery with what sending it needs. */
export type ClaimedDelivery = {
  seq: number; delivery_id: string; subscription_id: string; store_id: string; attempts: number; lease_until_ms: number;
  event_id: string; event_type: string; payload_json: string; url: string; secret_encrypted: string;
};

/** A delivery as the admin log lists it. */
export type DeliveryLogRow = {
  seq: number; delivery_id: string; subscription_id: string; url: string; event_id: string; event_type: string; status: DeliveryStatus;
  attempts: number; next_attempt_ms: number; last_status_code: number | null; last_latency_ms: number | null; last_error: string | null;
  replay_of: string | null; created_ms: number; delivered_ms: number | null;
};

export type AttemptRow = { attempt: number; attempted_ms: number; status_code: number | null; latency_ms: number; error: string | null };

/** A subscription row with its event types (comma-separated) in one column. */
const subscriptionSelect = (db: Db) =>
  `SELECT s.*, COALESCE((SELECT ${dialect(db) === "postgres" ? "string_agg(e.event_type, ',')" : "group_concat(e.event_type, ',')"}
    FROM webhook_subscription_events e WHERE e.subscription_id = s.subscription_id), '') AS event_types
  FROM webhook_subscriptions s`;

/** Create the webhooks data module over `db`. */
export function webhooksRepo(db: Db) {
  const SUBSCRIPTION = subscriptionSelect(db);
  const postgres = dialect(db) === "postgres";
  const setEventTypes = (storeId: string, subscriptionId: string, eventTypes: readonly string[]) => {
    db.prepare("DELETE FROM webhook_subscription_events WHERE subscription_id = ?").run(subscriptionId);
    const insert = db.prepare("INSERT INTO webhook_subscription_events (store_id, event_type, subscription_id) VALUES (?, ?, ?)");
    for (const type of eventTypes) insert.run(storeId, type, subscriptionId);
  };

  return {
    // ---- Subscriptions ----

    /** Insert a subscription and its event types (call inside a transaction). */
    insertSubscription(row: Omit<SubscriptionRow, "event_types" | "status" | "disabled_reason" | "disabled_ms" | "consecutive_failures" | "failing_since_ms">, eventTypes: readonly string[]): void {
      db.prepare(
        `INSERT INTO webhook_subscriptions (subscription_id, store_id, url, description, secret_encrypted, secret_prefix, created_ms, updated_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(row.subscription_id, row.store_id, row.url, row.description, row.secret_encrypted, row.secret_prefix, row.created_ms, row.updated_ms);
      setEventTypes(row.store_id, row.subscription_id, eventTypes);
    },

    /** The store's subscriptions, oldest first. */
    listSubscriptions(storeId: string): SubscriptionRow[] {
      return db.prepare(`${SUBSCRIPTION} WHERE s.store_id = ? ORDER BY s.created_ms, s.subscription_id`).all(storeId) as SubscriptionRow[];
    },

    countSubscriptions(storeId: string): number {
      return db.prepare("SELECT count(*) FROM webhook_subscriptions WHERE store_id = ?").pluck().get(storeId) as number;
    },

    getSubscription(storeId: string, subscriptionId: string): SubscriptionRow | undefined {
      return db.prepare(`${SUBSCRIPTION} WHERE s.store_id = ? AND s.subscription_id = ?`).get(storeId, subscriptionId) as SubscriptionRow | undefined;
    },

    /** Change URL, description and event types (call inside a transaction). @returns false when not the store's. */
    updateSubscription(storeId: string, subscriptionId: string, change: { url: string; description: string; eventTypes: readonly string[] }, nowMs: number): boolean {
      const changed = db.prepare("UPDATE webhook_subscriptions SET url = ?, description = ?, updated_ms = ? WHERE store_id = ? AND subscription_id = ?")
        .run(change.url, change.description, nowMs, storeId, subscriptionId).changes === 1;
      if (changed) setEventTypes(storeId, subscriptionId, change.eventTypes);
      return changed;
    },

    /** Turn a subscription on again (its failure count restarts). */
    enable(storeId: string, subscriptionId: string, nowMs: number): boolean {
      return db.prepare(
        `UPDATE webhook_subscriptions SET status = 'enabled', disabled_reason = NULL, disabled_ms = NULL, consecutive_failures = 0, failing_since_ms = NULL, updated_ms = ?
         WHERE store_id = ? AND subscription_id = ?`,
      ).run(nowMs, storeId, subscriptionId).changes === 1;
    },

    /** Turn a subscription off with `reason`; its queued deliveries fail (call inside a transaction). */
    disable(storeId: string, subscriptionId: string, reason: string, nowMs: number): boolean {
      const changed = db.prepare(
        "UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ?, disabled_ms = ?, updated_ms = ? WHERE store_id = ? AND subscription_id = ? AND status = 'enabled'",
      ).run(reason, nowMs, nowMs, storeId, subscriptionId).changes === 1;
      if (changed) {
        db.prepare("UPDATE webhook_deliveries SET status = 'failed', last_error = 'subscription disabled', lease_until_ms = NULL WHERE subscription_id = ? AND status = 'queued'")
          .run(subscriptionId);
      }
      return changed;
    },

    deleteSubscription(storeId: string, subscriptionId: string): boolean {
      return db.prepare("DELETE FROM webhook_subscriptions WHERE store_id = ? AND subscription_id = ?").run(storeId, subscriptionId).changes === 1;
    },

    setSecret(storeId: string, subscriptionId: string, secretEncrypted: string, secretPrefix: string, nowMs: number): boolean {
      return db.prepare("UPDATE webhook_subscriptions SET secret_encrypted = ?, secret_prefix = ?, updated_ms = ? WHERE store_id = ? AND subscription_id = ?")
        .run(secretEncrypted, secretPrefix, nowMs, storeId, subscriptionId).changes === 1;
    },

    /** Record a successful delivery to the subscription: its failure count restarts. */
    noteSuccess(subscriptionId: string): void {
      db.prepare("UPDATE webhook_subscriptions SET consecutive_failures = 0, failing_since_ms = NULL WHERE subscription_id = ? AND consecutive_failures > 0").run(subscriptionId);
    },

    /** Record a failed attempt. @returns the failure count and since when it has been failing. */
    noteFailure(subscriptionId: string, nowMs: number): { consecutive_failures: number; failing_since_ms: number } | undefined {
      db.prepare("UPDATE webhook_subscriptions SET consecutive_failures = consecutive_failures + 1, failing_since_ms = COALESCE(failing_since_ms, ?) WHERE subscription_id = ?")
        .run(nowMs, subscriptionId);
      return db.prepare("SELECT consecutive_failures, failing_since_ms FROM webhook_subscriptions WHERE subscription_id = ?").get(subscriptionId) as
        { consecutive_failures: number; failing_since_ms: number } | undefined;
    },

    // ---- Events ----

    /** Events not dispatched yet, oldest first. */
    undispatched(limit: number): EventRow[] {
      return db.prepare("SELECT * FROM webhook_events WHERE dispatched_ms IS NULL ORDER BY seq LIMIT ?").all(limit) as EventRow[];
    },

    /**
     * Dispatch an event (call inside a transaction): store its body and queue one delivery per enabled
     * subscription of the store to its type, due at `nowMs`. @returns the deliveries queued.
     */
    dispatch(event: EventRow, payloadJson: string, nowMs: number, newId: () => string): number {
      if (db.prepare("UPDATE webhook_events SET payload_json = ?, dispatched_ms = ? WHERE seq = ? AND dispatched_ms IS NULL").run(payloadJson, nowMs, event.seq).changes !== 1) return 0;
      const subscribers = db.prepare(
        `SELECT s.subscription_id FROM webhook_subscription_events e JOIN webhook_subscriptions s ON s.subscription_id = e.subscription_id
         WHERE e.store_id = ? AND e.event_type = ? AND s.status = 'enabled' ORDER BY s.created_ms`,
      ).pluck().all(event.store_id, event.event_type) as string[];
      const insert = db.prepare(
        "INSERT INTO webhook_deliveries (delivery_id, event_seq, subscription_id, store_id, status, next_attempt_ms, created_ms) VALUES (?, ?, ?, ?, 'queued', ?, ?)",
      );
      for (const id of subscribers) insert.run(newId(), event.seq, id, event.store_id, nowMs, nowMs);
      return subscribers.length;
    },

    // ---- Deliveries ----

    /**
     * Claim up to `limit` deliveries due at `nowMs` (queued and due, or `sending` with an expired lease) of
     * enabled subscriptions: each becomes `sending` until `leaseUntilMs`, its attempt counted. Call inside a transaction.
     * On PostgreSQL the deliveries are selected `FOR UPDATE OF d SKIP LOCKED`: rows another node is claiming are skipped.
     */
    claimDue(nowMs: number, leaseUntilMs: number, limit: number): ClaimedDelivery[] {
      const due = db.prepare(
        `SELECT d.seq, d.delivery_id, d.subscription_id, d.store_id, d.attempts, e.event_id, e.event_type, e.payload_json, s.url, s.secret_encrypted
         FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         WHERE ((d.status = 'queued' AND d.next_attempt_ms <= ?) OR (d.status = 'sending' AND d.lease_until_ms <= ?)) AND s.status = 'enabled'
         ORDER BY d.next_attempt_ms, d.seq LIMIT ?${postgres ? " FOR UPDATE OF d SKIP LOCKED" : ""}`,
      ).all(nowMs, nowMs, limit) as ClaimedDelivery[];
      const claim = db.prepare("UPDATE webhook_deliveries SET status = 'sending', lease_until_ms = ?, attempts = attempts + 1 WHERE seq = ?");
      for (const row of due) {
        claim.run(leaseUntilMs, row.seq);
        row.attempts += 1;
        row.lease_until_ms = leaseUntilMs;
      }
      return due;
    },

    /** Log an attempt (the delivery log). */
    insertAttempt(deliverySeq: number, storeId: string, attempt: number, a: Omit<AttemptRow, "attempt">): void {
      db.prepare(
        `INSERT INTO webhook_attempts (delivery_seq, attempt, store_id, attempted_ms, status_code, latency_ms, error) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (delivery_seq, attempt) DO UPDATE SET store_id = excluded.store_id, attempted_ms = excluded.attempted_ms, status_code = excluded.status_code,
           latency_ms = excluded.latency_ms, error = excluded.error`,
      )
        .run(deliverySeq, attempt, storeId, a.attempted_ms, a.status_code, a.latency_ms, a.error);
    },

    /** Record the outcome of an attempt this sender holds: delivered, queued again for `nextAttemptMs`, or failed (null). @returns false when the claim was lost. */
    recordOutcome(seq: number, leaseUntilMs: number, o: { delivered: boolean; nextAttemptMs: number | null; statusCode: number | null; latencyMs: number; error: string | null; nowMs: number }): boolean {
      const status: DeliveryStatus = o.delivered ? "delivered" : o.nextAttemptMs === null ? "failed" : "queued";
      return db.prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_ms = COALESCE(?, next_attempt_ms), lease_until_ms = NULL, last_status_code = ?, last_latency_ms = ?,
           last_error = ?, delivered_ms = CASE WHEN ? = 1 THEN ? ELSE delivered_ms END
         WHERE seq = ? AND status = 'sending' AND lease_until_ms = ?`,
      ).run(status, o.nextAttemptMs, o.statusCode, o.latencyMs, o.error, o.delivered ? 1 : 0, o.nowMs, seq, leaseUntilMs).changes === 1;
    },

    /** A delivery of the store by its ID. */
    getDelivery(storeId: string, deliveryId: string): { seq: number; delivery_id: string; event_seq: number; subscription_id: string } | undefined {
      return db.prepare("SELECT seq, delivery_id, event_seq, subscription_id FROM webhook_deliveries WHERE store_id = ? AND delivery_id = ?").get(storeId, deliveryId) as never;
    },

    /** Queue a new delivery of an event already dispatched (a replay). */
    insertReplay(storeId: string, of: { delivery_id: string; event_seq: number; subscription_id: string }, deliveryId: string, nowMs: number): void {
      db.prepare(
        "INSERT INTO webhook_deliveries (delivery_id, event_seq, subscription_id, store_id, status, next_attempt_ms, created_ms, replay_of) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)",
      ).run(deliveryId, of.event_seq, of.subscription_id, storeId, nowMs, nowMs, of.delivery_id);
    },

    /** The store's deliveries, newest first, before `beforeSeq` (keyset). */
    listDeliveries(storeId: string, beforeSeq: number | undefined, limit: number): DeliveryLogRow[] {
      return db.prepare(
        `SELECT d.seq, d.delivery_id, d.subscription_id, s.url, e.event_id, e.event_type, d.status, d.attempts, d.next_attempt_ms, d.last_status_code,
           d.last_latency_ms, d.last_error, d.replay_of, d.created_ms, d.delivered_ms
         FROM webhook_deliveries d JOIN webhook_events e ON e.seq = d.event_seq JOIN webhook_subscriptions s ON s.subscription_id = d.subscription_id
         WHERE d.store_id = ? AND d.seq < ? ORDER BY d.seq DESC LIMIT ?`,
      ).all(storeId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as DeliveryLogRow[];
    },

    /** The attempts of a delivery, first first. */
    attemptsOf(storeId: string, deliverySeq: number): AttemptRow[] {
      return db.prepare("SELECT attempt, attempted_ms, status_code, latency_ms, error FROM webhook_attempts WHERE store_id = ? AND delivery_seq = ? ORDER BY attempt")
        .all(storeId, deliverySeq) as AttemptRow[];
    },

    /** The earliest time there is work (an undispatched event: now), or null. */
    nextDueMs(): number | null {
      if (db.prepare("SELECT 1 FROM webhook_events WHERE dispatched_ms IS NULL LIMIT 1").get()) return 0;
      return db.prepare(
        `SELECT min(CASE d.status WHEN 'queued' THEN d.next_attempt_ms ELSE d.lease_until_ms END) FROM webhook_deliveries d
         WHERE d.status IN ('queued', 'sending')`,
      ).pluck().get() as number | null;
    },

    /**
     * Delete events dispatched before `beforeMs` (the queue's clock) that have nothing left to send, with
     * their deliveries and attempt log (retention). @returns how many events were deleted.
     */
    prune(beforeMs: number): number {
      return db.prepare(
        `DELETE FROM webhook_events WHERE dispatched_ms < ?
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = webhook_events.seq AND d.status IN ('queued', 'sending'))`,
      ).run(beforeMs).changes;
    },

    /**
     * Delete the store's events whose body mentions `email` (any case), with their deliveries and log, so an
     * erased shopper's address does not stay in the outbox. @returns how many events were deleted.
     */
    forgetEmail(storeId: string, email: string): number {
      const pattern = `%${JSON.stringify(email.toLowerCase()).slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return db.prepare("DELETE FROM webhook_events WHERE store_id = ? AND lower(payload_json) LIKE ? ESCAPE '\\'").run(storeId, pattern).changes;
    },

    /** The e-mail addresses of the store's team (every member). */
    teamEmails(storeId: string): string[] {
      return db.prepare("SELECT u.email FROM store_memberships m JOIN merchant_users u ON u.user_id = m.user_id WHERE m.store_id = ? ORDER BY u.email").pluck().all(storeId) as string[];
    },

    // ---- Resources, for event bodies (read-only) ----

    /** A review's reviewer e-mail (not in the storefront's review columns). */
    reviewerEmail(storeId: string, reviewId: string): string | null {
      return (db.prepare("SELECT reviewer_email FROM reviews WHERE store_id = ? AND review_id = ?").pluck().get(storeId, reviewId) as string | null | undefined) ?? null;
    },

    /** A loyalty transaction of the store by its ID. */
    loyaltyTransaction(storeId: string, transactionId: string) {
      return db.prepare("SELECT * FROM loyalty_transactions WHERE store_id = ? AND transaction_id = ?").get(storeId, transactionId) as TransactionRow | undefined;
    },
  };
}
export type WebhooksRepo = ReturnType<typeof webhooksRepo>;

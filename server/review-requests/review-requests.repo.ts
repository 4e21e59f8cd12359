/**
 * Review requests (SQL; migration 078): settings per store, one request per order with its products,
 * hashed link tokens, unsubscribed addresses, and the funnel counts. Every query names the store or a
 * request ID that belongs to one. Callers wrap multi-statement writes in `transaction`.
 */
import { all, dialect, forUpdate, one, run, sql, type Db } from "../db/database.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";

export type RequestStatus = "scheduled" | "sent" | "completed" | "cancelled" | "skipped";
export type RequestStep = "request" | "reminder";

export type RequestRow = {
  request_id: string;
  store_id: string;
  order_id: string;
  email: string;
  customer_name: string | null;
  locale: string | null;
  fulfilled_ms: number;
  created_ms: number;
  status: RequestStatus;
  skip_reason: string | null;
  next_step: RequestStep | null;
  due_ms: number | null;
  sent_ms: number | null;
  reminded_ms: number | null;
  opened_ms: number | null;
  cancelled_ms: number | null;
};
export type RequestProductRow = { product_id: string; position: number; review_id: string | null; reviewed_ms: number | null; name: string; image_url: string | null; url: string | null };
export type TokenRow = { token_hash: string; request_id: string; store_id: string; purpose: "review" | "unsubscribe"; product_id: string | null; created_ms: number; expires_ms: number };

/** Create the review-requests data module over `db`. */
export function reviewRequestsRepo(db: Db) {
  const postgres = dialect(db) === "postgres";
  /** The UTC day (YYYY-MM-DD) of an epoch-ms column (a code-owned column name). */
  const day = (column: string) => sql.raw(postgres ? `to_char(to_timestamp(${column} / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : `date(${column} / 1000, 'unixepoch')`);
  /** The columns `setState` may write (code-owned names for sql.raw). */
  const STATE_COLUMNS = new Set(["status", "skip_reason", "next_step", "due_ms", "sent_ms", "reminded_ms", "cancelled_ms"]);
  return {
    /** The stored settings JSON of a store, or undefined (defaults apply). */
    async settingsJson(storeId: string): Promise<string | undefined> {
      return (await one<{ settings_json: string }>(db, sql`SELECT settings_json FROM review_request_settings WHERE store_id = ${storeId}`))?.settings_json;
    },
    async saveSettings(storeId: string, json: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO review_request_settings (store_id, settings_json, updated_ms) VALUES (${storeId}, ${json}, ${nowMs})
         ON CONFLICT (store_id) DO UPDATE SET settings_json = excluded.settings_json, updated_ms = excluded.updated_ms`,
      );
    },

    /**
     * Insert a request unless the store already has one for the order (exactly-once per order: the unique
     * (store_id, order_id) with ON CONFLICT DO NOTHING). @returns whether it was inserted.
     */
    async insertRequest(r: Omit<RequestRow, "sent_ms" | "reminded_ms" | "opened_ms" | "cancelled_ms">): Promise<boolean> {
      return (
        (
          await run(
            db,
            sql`INSERT INTO review_requests (request_id, store_id, order_id, email, customer_name, locale, fulfilled_ms, created_ms, status, skip_reason, next_step, due_ms)
         VALUES (${r.request_id}, ${r.store_id}, ${r.order_id}, ${r.email}, ${r.customer_name}, ${r.locale}, ${r.fulfilled_ms}, ${r.created_ms}, ${r.status}, ${r.skip_reason}, ${r.next_step}, ${r.due_ms})
         ON CONFLICT (store_id, order_id) DO NOTHING`,
          )
        ).changes === 1
      );
    },
    async insertProduct(requestId: string, storeId: string, productId: string, position: number): Promise<void> {
      await run(db, sql`INSERT INTO review_request_products (request_id, store_id, product_id, position) VALUES (${requestId}, ${storeId}, ${productId}, ${position}) ON CONFLICT DO NOTHING`);
    },
    /** The store's request for an order; `lock`: inside a transaction, lock its row until it ends (PostgreSQL `FOR UPDATE`). */
    async byOrder(storeId: string, orderId: string, options: { lock?: boolean } = {}): Promise<RequestRow | undefined> {
      return one<RequestRow>(db, sql`SELECT * FROM review_requests WHERE store_id = ${storeId} AND order_id = ${orderId}${options.lock ? forUpdate(db) : sql``}`);
    },
    /** A request by its ID; `lock`: inside a transaction, lock its row until it ends (PostgreSQL `FOR UPDATE`). */
    async get(requestId: string, options: { lock?: boolean } = {}): Promise<RequestRow | undefined> {
      return one<RequestRow>(db, sql`SELECT * FROM review_requests WHERE request_id = ${requestId}${options.lock ? forUpdate(db) : sql``}`);
    },
    /**
     * The request to work on, with a step due at `nowMs`, in the caller's write transaction (the schedule's claim).
     * Exactly-once across nodes: on PostgreSQL the row is locked `FOR UPDATE SKIP LOCKED`: undefined when another
     * node's transaction is on it (that node sends the step; this one moves on). Undefined too when nothing is due
     * any more (a node that locks it after the other committed sees the step moved on).
     */
    async claimDue(requestId: string, nowMs: number): Promise<RequestRow | undefined> {
      return one<RequestRow>(db, sql`SELECT * FROM review_requests WHERE request_id = ${requestId} AND next_step IS NOT NULL AND due_ms <= ${nowMs}${postgres ? sql` FOR UPDATE SKIP LOCKED` : sql``}`);
    },
    /** IDs of requests with a step due at or before `nowMs`, oldest first. */
    async dueIds(nowMs: number, limit: number): Promise<string[]> {
      return (await all<{ request_id: string }>(db, sql`SELECT request_id FROM review_requests WHERE next_step IS NOT NULL AND due_ms <= ${nowMs} ORDER BY due_ms LIMIT ${limit}`)).map(
        (r) => r.request_id,
      );
    },
    /** The request's products with their names and images, in order. */
    async products(requestId: string): Promise<RequestProductRow[]> {
      return all<RequestProductRow>(
        db,
        sql`SELECT rp.product_id, rp.position, rp.review_id, rp.reviewed_ms, p.name, p.image_url, p.url
         FROM review_request_products rp JOIN review_requests r ON r.request_id = rp.request_id
         JOIN products p ON p.store_id = r.store_id AND p.product_id = rp.product_id
         WHERE rp.request_id = ${requestId} ORDER BY rp.position`,
      );
    },
    /** Whether `email` (lower-case) wrote any review of the product in the store, whatever its status. */
    async hasReviewed(storeId: string, productId: string, email: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS x FROM reviews WHERE store_id = ${storeId} AND reviewer_email = ${email} AND product_id = ${productId} LIMIT 1`)) !== undefined;
    },
    async setState(requestId: string, patch: Partial<Pick<RequestRow, "status" | "skip_reason" | "next_step" | "due_ms" | "sent_ms" | "reminded_ms" | "cancelled_ms">>): Promise<void> {
      const cols = (Object.keys(patch) as (keyof typeof patch)[]).filter((c) => STATE_COLUMNS.has(c));
      if (cols.length === 0) return;
      await run(db, sql`UPDATE review_requests SET ${sql.join(cols.map((c) => sql`${sql.raw(c)} = ${patch[c] ?? null}`))} WHERE request_id = ${requestId}`);
    },
    /** Record the first opening of one of the request's links. */
    async markOpened(requestId: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE review_requests SET opened_ms = ${nowMs} WHERE request_id = ${requestId} AND opened_ms IS NULL`);
    },

    async insertToken(t: TokenRow): Promise<void> {
      await run(
        db,
        sql`INSERT INTO review_request_tokens (token_hash, request_id, store_id, purpose, product_id, created_ms, expires_ms) VALUES (${t.token_hash}, ${t.request_id}, ${t.store_id}, ${t.purpose}, ${t.product_id}, ${t.created_ms}, ${t.expires_ms})`,
      );
    },
    async token(hash: string): Promise<TokenRow | undefined> {
      return one<TokenRow>(db, sql`SELECT * FROM review_request_tokens WHERE token_hash = ${hash}`);
    },
    /**
     * Claim a product of a request for one review (single use): sets `review_id` to `claim` when it is
     * still free (exactly-once: a conditional UPDATE). @returns whether this caller got it.
     */
    async claimProduct(requestId: string, productId: string, claim: string): Promise<boolean> {
      return (await run(db, sql`UPDATE review_request_products SET review_id = ${claim} WHERE request_id = ${requestId} AND product_id = ${productId} AND review_id IS NULL`)).changes === 1;
    },
    /** Give a claimed product back (the review was not written). */
    async releaseProduct(requestId: string, productId: string, claim: string): Promise<void> {
      await run(db, sql`UPDATE review_request_products SET review_id = NULL WHERE request_id = ${requestId} AND product_id = ${productId} AND review_id = ${claim}`);
    },
    /** Record the review written for a claimed product. */
    async completeProduct(requestId: string, productId: string, claim: string, reviewId: string, nowMs: number): Promise<void> {
      await run(db, sql`UPDATE review_request_products SET review_id = ${reviewId}, reviewed_ms = ${nowMs} WHERE request_id = ${requestId} AND product_id = ${productId} AND review_id = ${claim}`);
    },

    /** Whether the address unsubscribed from the store (also after its erasure: kept as `erasedAddressKey`). */
    async isUnsubscribed(storeId: string, email: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS x FROM review_request_unsubscribes WHERE store_id = ${storeId} AND email IN (${email}, ${erasedAddressKey(email)})`)) !== undefined;
    },
    /** @returns whether the address was newly unsubscribed. */
    async unsubscribe(storeId: string, email: string, nowMs: number): Promise<boolean> {
      return (await run(db, sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (${storeId}, ${email}, ${nowMs}) ON CONFLICT DO NOTHING`)).changes === 1;
    },
    /** Stop every request of the address in the store that has a step left (unsubscribed). @returns how many. */
    async skipPendingFor(storeId: string, email: string, reason: string): Promise<number> {
      return (
        await run(
          db,
          sql`UPDATE review_requests SET next_step = NULL, due_ms = NULL, status = CASE WHEN status = 'scheduled' THEN 'skipped' ELSE 'completed' END, skip_reason = ${reason}
         WHERE store_id = ${storeId} AND email = ${email} AND next_step IS NOT NULL`,
        )
      ).changes;
    },

    /** Per UTC day since `sinceMs`: requests first sent, requests whose link was first opened, reviews written through links. */
    async funnel(storeId: string, sinceMs: number): Promise<{ day: string; sent: number; opened: number; reviewed: number }[]> {
      const rows = await all<{ day: string; kind: "sent" | "opened" | "reviewed"; n: number }>(
        db,
        sql`SELECT ${day("sent_ms")} AS day, 'sent' AS kind, count(*) AS n FROM review_requests WHERE store_id = ${storeId} AND sent_ms >= ${sinceMs} GROUP BY 1
         UNION ALL
         SELECT ${day("opened_ms")}, 'opened', count(*) FROM review_requests WHERE store_id = ${storeId} AND opened_ms >= ${sinceMs} GROUP BY 1
         UNION ALL
         SELECT ${day("reviewed_ms")}, 'reviewed', count(*) FROM review_request_products WHERE store_id = ${storeId} AND reviewed_ms >= ${sinceMs} GROUP BY 1`,
      );
      const days = new Map<string, { day: string; sent: number; opened: number; reviewed: number }>();
      for (const r of rows) {
        const d = days.get(r.day) ?? { day: r.day, sent: 0, opened: 0, reviewed: 0 };
        d[r.kind] = r.n;
        days.set(r.day, d);
      }
      return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
    },
    /**
     * Demo history (review-requests.demo.ts): one completed request per generated demo order (`source` demo-generated,
     * platforms.demo.ts) whose buyer wrote the order's real review: sent 3 days after fulfilment, opened 5 minutes
     * before the review was written, reviewed when it was. Idempotent (one request per order).
     * @returns the number of requests added.
     */
    async generateDemoHistory(storeId: string, reviewSource: string): Promise<number> {
      const from = sql`FROM order_headers o
        JOIN reviews r ON r.store_id = o.store_id AND r.source = ${reviewSource} AND o.order_id = 'demo-' || r.source_key
        WHERE o.store_id = ${storeId} AND o.source = 'demo-generated' AND o.fulfilled_ms IS NOT NULL
          AND r.created_ms - 300000 > o.fulfilled_ms + 3 * 86400000`;
      const n = (
        await run(
          db,
          sql`INSERT INTO review_requests (request_id, store_id, order_id, email, customer_name, locale, fulfilled_ms, created_ms, status, next_step, due_ms, sent_ms, opened_ms)
         SELECT 'demo-request-' || r.source_key, o.store_id, o.order_id, o.email, NULL, 'en', o.fulfilled_ms, o.fulfilled_ms, 'completed', NULL, NULL,
                o.fulfilled_ms + 3 * 86400000, r.created_ms - 300000 ${from}
         ON CONFLICT (store_id, order_id) DO NOTHING`,
        )
      ).changes;
      await run(
        db,
        sql`INSERT INTO review_request_products (request_id, store_id, product_id, position, review_id, reviewed_ms)
         SELECT 'demo-request-' || r.source_key, o.store_id, r.product_id, 0, r.review_id, r.created_ms ${from}
         ON CONFLICT DO NOTHING`,
      );
      return n;
    },
    /** Up to `limit` of the store's products, those with a picture first (the preview's sample). */
    async sampleProducts(storeId: string, limit: number): Promise<{ name: string; image_url: string | null }[]> {
      return all<{ name: string; image_url: string | null }>(db, sql`SELECT name, image_url FROM products WHERE store_id = ${storeId} ORDER BY image_url IS NULL, product_id LIMIT ${limit}`);
    },
    /** How many of the store's requests are in each status. */
    async statusCounts(storeId: string): Promise<Record<string, number>> {
      const rows = await all<{ status: string; n: number }>(db, sql`SELECT status, count(*) AS n FROM review_requests WHERE store_id = ${storeId} GROUP BY status`);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
  };
}
export type ReviewRequestsRepo = ReturnType<typeof reviewRequestsRepo>;

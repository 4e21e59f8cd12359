/**
 * Review requests (SQL; migration 078): settings per store, one request per order with its products,
 * hashed link tokens, unsubscribed addresses, and the funnel counts. Every query names the store or a
 * request ID that belongs to one. Callers wrap multi-statement writes in `transaction`.
 */
import { dialect, type Db } from "../db/database.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";

export type RequestStatus = "scheduled" | "sent" | "completed" | "cancelled" | "skipped";
export type RequestStep = "request" | "reminder";

export type RequestRow = {
  request_id: string; store_id: string; order_id: string; email: string; customer_name: string | null; locale: string | null;
  fulfilled_ms: number; created_ms: number; status: RequestStatus; skip_reason: string | null; next_step: RequestStep | null;
  due_ms: number | null; sent_ms: number | null; reminded_ms: number | null; opened_ms: number | null; cancelled_ms: number | null;
};
export type RequestProductRow = { product_id: string; position: number; review_id: string | null; reviewed_ms: number | null; name: string; image_url: string | null; url: string | null };
export type TokenRow = { token_hash: string; request_id: string; store_id: string; purpose: "review" | "unsubscribe"; product_id: string | null; created_ms: number; expires_ms: number };

/** Create the review-requests data module over `db`. */
export function reviewRequestsRepo(db: Db) {
  const postgres = dialect(db) === "postgres";
  /** The UTC day (YYYY-MM-DD) of an epoch-ms column. */
  const day = (column: string) => (postgres ? `to_char(to_timestamp(${column} / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : `date(${column} / 1000, 'unixepoch')`);
  return {
    /** The stored settings JSON of a store, or undefined (defaults apply). */
    settingsJson(storeId: string): string | undefined {
      return db.prepare<[string], { settings_json: string }>("SELECT settings_json FROM review_request_settings WHERE store_id = ?").get(storeId)?.settings_json;
    },
    saveSettings(storeId: string, json: string, nowMs: number): void {
      db.prepare(
        `INSERT INTO review_request_settings (store_id, settings_json, updated_ms) VALUES (?, ?, ?)
         ON CONFLICT (store_id) DO UPDATE SET settings_json = excluded.settings_json, updated_ms = excluded.updated_ms`,
      ).run(storeId, json, nowMs);
    },

    /** Insert a request unless the store already has one for the order. @returns whether it was inserted. */
    insertRequest(r: Omit<RequestRow, "sent_ms" | "reminded_ms" | "opened_ms" | "cancelled_ms">): boolean {
      return db.prepare(
        `INSERT INTO review_requests (request_id, store_id, order_id, email, customer_name, locale, fulfilled_ms, created_ms, status, skip_reason, next_step, due_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (store_id, order_id) DO NOTHING`,
      ).run(r.request_id, r.store_id, r.order_id, r.email, r.customer_name, r.locale, r.fulfilled_ms, r.created_ms, r.status, r.skip_reason, r.next_step, r.due_ms).changes === 1;
    },
    insertProduct(requestId: string, storeId: string, productId: string, position: number): void {
      db.prepare("INSERT INTO review_request_products (request_id, store_id, product_id, position) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
        .run(requestId, storeId, productId, position);
    },
    byOrder(storeId: string, orderId: string): RequestRow | undefined {
      return db.prepare<[string, string], RequestRow>("SELECT * FROM review_requests WHERE store_id = ? AND order_id = ?").get(storeId, orderId);
    },
    get(requestId: string): RequestRow | undefined {
      return db.prepare<[string], RequestRow>("SELECT * FROM review_requests WHERE request_id = ?").get(requestId);
    },
    /**
     * The request to work on, with a step due at `nowMs`, in the caller's write transaction (the schedule's claim).
     * On PostgreSQL the row is locked `FOR UPDATE SKIP LOCKED`: undefined when another node's transaction is on it
     * (that node sends the step; this one moves on). Undefined too when nothing is due any more.
     */
    claimDue(requestId: string, nowMs: number): RequestRow | undefined {
      const due = "SELECT * FROM review_requests WHERE request_id = ? AND next_step IS NOT NULL AND due_ms <= ?";
      return db.prepare<[string, number], RequestRow>(postgres ? `${due} FOR UPDATE SKIP LOCKED` : due).get(requestId, nowMs);
    },
    /** IDs of requests with a step due at or before `nowMs`, oldest first. */
    dueIds(nowMs: number, limit: number): string[] {
      return db.prepare<[number, number], { request_id: string }>(
        "SELECT request_id FROM review_requests WHERE next_step IS NOT NULL AND due_ms <= ? ORDER BY due_ms LIMIT ?",
      ).all(nowMs, limit).map((r) => r.request_id);
    },
    /** The request's products with their names and images, in order. */
    products(requestId: string): RequestProductRow[] {
      return db.prepare<[string], RequestProductRow>(
        `SELECT rp.product_id, rp.position, rp.review_id, rp.reviewed_ms, p.name, p.image_url, p.url
         FROM review_request_products rp JOIN review_requests r ON r.request_id = rp.request_id
         JOIN products p ON p.store_id = r.store_id AND p.product_id = rp.product_id
         WHERE rp.request_id = ? ORDER BY rp.position`,
      ).all(requestId);
    },
    /** Whether `email` (lower-case) wrote any review of the product in the store, whatever its status. */
    hasReviewed(storeId: string, productId: string, email: string): boolean {
      return db.prepare<[string, string, string], { 1: number }>("SELECT 1 FROM reviews WHERE store_id = ? AND reviewer_email = ? AND product_id = ? LIMIT 1")
        .get(storeId, email, productId) !== undefined;
    },
    setState(requestId: string, patch: Partial<Pick<RequestRow, "status" | "skip_reason" | "next_step" | "due_ms" | "sent_ms" | "reminded_ms" | "cancelled_ms">>): void {
      const cols = Object.keys(patch) as (keyof typeof patch)[];
      if (cols.length === 0) return;
      db.prepare(`UPDATE review_requests SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE request_id = ?`).run(...cols.map((c) => patch[c] ?? null), requestId);
    },
    /** Record the first opening of one of the request's links. */
    markOpened(requestId: string, nowMs: number): void {
      db.prepare("UPDATE review_requests SET opened_ms = ? WHERE request_id = ? AND opened_ms IS NULL").run(nowMs, requestId);
    },

    insertToken(t: TokenRow): void {
      db.prepare("INSERT INTO review_request_tokens (token_hash, request_id, store_id, purpose, product_id, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(t.token_hash, t.request_id, t.store_id, t.purpose, t.product_id, t.created_ms, t.expires_ms);
    },
    token(hash: string): TokenRow | undefined {
      return db.prepare<[string], TokenRow>("SELECT * FROM review_request_tokens WHERE token_hash = ?").get(hash);
    },
    /**
     * Claim a product of a request for one review (single use): sets `review_id` to `claim` when it is
     * still free. @returns whether this caller got it.
     */
    claimProduct(requestId: string, productId: string, claim: string): boolean {
      return db.prepare("UPDATE review_request_products SET review_id = ? WHERE request_id = ? AND product_id = ? AND review_id IS NULL").run(claim, requestId, productId).changes === 1;
    },
    /** Give a claimed product back (the review was not written). */
    releaseProduct(requestId: string, productId: string, claim: string): void {
      db.prepare("UPDATE review_request_products SET review_id = NULL WHERE request_id = ? AND product_id = ? AND review_id = ?").run(requestId, productId, claim);
    },
    /** Record the review written for a claimed product. */
    completeProduct(requestId: string, productId: string, claim: string, reviewId: string, nowMs: number): void {
      db.prepare("UPDATE review_request_products SET review_id = ?, reviewed_ms = ? WHERE request_id = ? AND product_id = ? AND review_id = ?").run(reviewId, nowMs, requestId, productId, claim);
    },

    /** Whether the address unsubscribed from the store (also after its erasure: kept as `erasedAddressKey`). */
    isUnsubscribed(storeId: string, email: string): boolean {
      return db.prepare<[string, string, string], { 1: number }>("SELECT 1 FROM review_request_unsubscribes WHERE store_id = ? AND email IN (?, ?)")
        .get(storeId, email, erasedAddressKey(email)) !== undefined;
    },
    /** @returns whether the address was newly unsubscribed. */
    unsubscribe(storeId: string, email: string, nowMs: number): boolean {
      return db.prepare("INSERT INTO review_request_unsubscribes (store_id, email, created_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING").run(storeId, email, nowMs).changes === 1;
    },
    /** Stop every request of the address in the store that has a step left (unsubscribed). @returns how many. */
    skipPendingFor(storeId: string, email: string, reason: string): number {
      return db.prepare(
        `UPDATE review_requests SET next_step = NULL, due_ms = NULL, status = CASE WHEN status = 'scheduled' THEN 'skipped' ELSE 'completed' END, skip_reason = ?
         WHERE store_id = ? AND email = ? AND next_step IS NOT NULL`,
      ).run(reason, storeId, email).changes;
    },

    /** Per UTC day since `sinceMs`: requests first sent, requests whose link was first opened, reviews written through links. */
    funnel(storeId: string, sinceMs: number): { day: string; sent: number; opened: number; reviewed: number }[] {
      const rows = db.prepare<[string, number, string, number, string, number], { day: string; kind: "sent" | "opened" | "reviewed"; n: number }>(
        `SELECT ${day("sent_ms")} AS day, 'sent' AS kind, count(*) AS n FROM review_requests WHERE store_id = ? AND sent_ms >= ? GROUP BY 1
         UNION ALL
         SELECT ${day("opened_ms")}, 'opened', count(*) FROM review_requests WHERE store_id = ? AND opened_ms >= ? GROUP BY 1
         UNION ALL
         SELECT ${day("reviewed_ms")}, 'reviewed', count(*) FROM review_request_products WHERE store_id = ? AND reviewed_ms >= ? GROUP BY 1`,
      ).all(storeId, sinceMs, storeId, sinceMs, storeId, sinceMs);
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
    generateDemoHistory(storeId: string, reviewSource: string): number {
      const from = `FROM order_headers o
        JOIN reviews r ON r.store_id = o.store_id AND r.source = @source AND o.order_id = 'demo-' || r.source_key
        WHERE o.store_id = @storeId AND o.source = 'demo-generated' AND o.fulfilled_ms IS NOT NULL
          AND r.created_ms - 300000 > o.fulfilled_ms + 3 * 86400000`;
      const params = { storeId, source: reviewSource };
      const n = db.prepare(
        `INSERT INTO review_requests (request_id, store_id, order_id, email, customer_name, locale, fulfilled_ms, created_ms, status, next_step, due_ms, sent_ms, opened_ms)
         SELECT 'demo-request-' || r.source_key, o.store_id, o.order_id, o.email, NULL, 'en', o.fulfilled_ms, o.fulfilled_ms, 'completed', NULL, NULL,
                o.fulfilled_ms + 3 * 86400000, r.created_ms - 300000 ${from}
         ON CONFLICT (store_id, order_id) DO NOTHING`,
      ).run(params).changes;
      db.prepare(
        `INSERT INTO review_request_products (request_id, store_id, product_id, position, review_id, reviewed_ms)
         SELECT 'demo-request-' || r.source_key, o.store_id, r.product_id, 0, r.review_id, r.created_ms ${from}
         ON CONFLICT DO NOTHING`,
      ).run(params);
      return n;
    },
    /** Up to `limit` of the store's products, those with a picture first (the preview's sample). */
    sampleProducts(storeId: string, limit: number): { name: string; image_url: string | null }[] {
      return db.prepare<[string, number], { name: string; image_url: string | null }>("SELECT name, image_url FROM products WHERE store_id = ? ORDER BY image_url IS NULL, product_id LIMIT ?").all(storeId, limit);
    },
    /** How many of the store's requests are in each status. */
    statusCounts(storeId: string): Record<string, number> {
      const rows = db.prepare<[string], { status: string; n: number }>("SELECT status, count(*) AS n FROM review_requests WHERE store_id = ? GROUP BY status").all(storeId);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
  };
}
export type ReviewRequestsRepo = ReturnType<typeof reviewRequestsRepo>;

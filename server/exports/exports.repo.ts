/**
 * SQL of the CSV exports (docs/exports.md): one keyset page of each exported listing, oldest first, with
 * the filters applied in SQL. Pages follow the indexes of migration 080 (`exports_*`) and
 * `order_headers_recent`; a filter narrows the rows each page reads, never the order. Times in ms;
 * `fromMs` inclusive, `toMs` exclusive.
 */
import { all, dialect, sql, type Db } from "../db/database.ts";

export type DateRange = { fromMs?: number; toMs?: number };
export type ReviewExportFilter = DateRange & { status?: string; productId?: string; rating?: number };
export type QuestionExportFilter = DateRange & { status?: string; productId?: string };
export type CustomerExportFilter = DateRange & { status?: string };
export type TransactionExportFilter = DateRange & { type?: string; loyaltyCustomerId?: string };
export type OrderExportFilter = DateRange & { status?: string };

export type ReviewExportRow = {
  review_id: string;
  product_id: string;
  product_name: string | null;
  status: string;
  rating: number;
  title: string;
  body: string;
  reviewer_name: string;
  reviewer_email: string | null;
  verified_status: string;
  is_recommended: number | null;
  is_incentivized: number;
  helpful_count: number;
  unhelpful_count: number;
  media_count: number;
  language_code: string | null;
  reply_body: string | null;
  reply_created_ms: number | null;
  created_ms: number;
  updated_ms: number | null;
  rejection_reason: string | null;
  rejection_note: string | null;
  moderation_note: string | null;
};
export type QuestionExportRow = {
  question_id: string;
  product_id: string;
  product_name: string | null;
  status: string;
  body: string;
  asker_name: string;
  asker_email: string | null;
  created_ms: number;
  answer_count: number;
  published_answer_count: number;
  store_answer: string | null;
};
export type CustomerExportRow = {
  loyalty_customer_id: string;
  platform_customer_id: string;
  email: string | null;
  status: string;
  balance: number;
  lifetime_points: number;
  vip_tier_name: string | null;
  enrollment_channel: string | null;
  enrolled_ms: number | null;
  created_ms: number;
};
export type TransactionExportRow = {
  seq: number;
  transaction_id: string;
  loyalty_customer_id: string;
  platform_customer_id: string | null;
  email: string | null;
  type: string;
  points: number;
  balance_after: number;
  description: string;
  earning_rule_id: string | null;
  redemption_rule_id: string | null;
  order_id: string | null;
  coupon_code: string | null;
  created_ms: number;
};
export type OrderHeaderExportRow = {
  order_id: string;
  order_name: string | null;
  status: string;
  email: string;
  customer_name: string | null;
  platform_customer_id: string | null;
  currency: string | null;
  subtotal: number | null;
  ordered_ms: number;
  fulfilled_ms: number | null;
  cancelled_ms: number | null;
  source: string | null;
};
export type OrderLineExportRow = { order_id: string; product_id: string; variant_id: string | null; title: string | null; quantity: number | null; price: number | null };

// `CAST(${v} AS ...) IS NULL`: PostgreSQL cannot type a bare `$1 IS NULL` parameter (SQLite does not mind).
// `col` is always a code-owned column name.
const RANGE = (col: string, f: DateRange) => {
  const c = sql.raw(col);
  const from = f.fromMs ?? null;
  const to = f.toMs ?? null;
  return sql`(CAST(${from} AS BIGINT) IS NULL OR ${c} >= ${from}) AND (CAST(${to} AS BIGINT) IS NULL OR ${c} < ${to})`;
};
const EQ = (col: string, v: string | number | undefined) => sql`(CAST(${v ?? null} AS TEXT) IS NULL OR ${sql.raw(col)} = ${v ?? null})`;

/** Create the exports data module over `db`. */
export function exportsRepo(db: Db) {
  const pg = dialect(db) === "postgres";
  /** SQLite's index hint for a page's keyset order; PostgreSQL has no hints (its planner follows the same indexes). */
  const indexedBy = (index: string) => sql.raw(pg ? "" : `INDEXED BY ${index}`);
  return {
    /** Reviews of any status after `(created_ms, review_id)`. */
    async reviews(storeId: string, f: ReviewExportFilter, after: [number, string] | undefined, limit: number): Promise<ReviewExportRow[]> {
      return all<ReviewExportRow>(
        db,
        sql`SELECT r.review_id, r.product_id, p.name AS product_name, r.status, r.rating, r.title, r.body, r.reviewer_name, r.reviewer_email, r.verified_status,
           r.is_recommended, r.is_incentivized, r.helpful_count, r.unhelpful_count, r.media_count, r.language_code, r.reply_body, r.reply_created_ms,
           r.created_ms, r.updated_ms, r.rejection_reason, r.rejection_note, r.moderation_note
         FROM reviews r ${indexedBy("exports_reviews")} LEFT JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
         WHERE r.store_id = ${storeId} AND (r.created_ms, r.review_id) > (${after?.[0] ?? -1}, ${after?.[1] ?? ""}) AND ${RANGE("r.created_ms", f)} AND ${EQ("r.status", f.status)} AND ${EQ("r.product_id", f.productId)} AND ${EQ("r.rating", f.rating)}
         ORDER BY r.created_ms, r.review_id LIMIT ${limit}`,
      );
    },

    /** Questions of any status after `(created_ms, question_id)`, with their answer counts and latest published store answer. */
    async questions(storeId: string, f: QuestionExportFilter, after: [number, string] | undefined, limit: number): Promise<QuestionExportRow[]> {
      return all<QuestionExportRow>(
        db,
        sql`SELECT q.question_id, q.product_id, p.name AS product_name, q.status, q.body, q.asker_name, q.asker_email, q.created_ms,
           (SELECT count(*) FROM answers a WHERE a.question_id = q.question_id) AS answer_count,
           (SELECT count(*) FROM answers a WHERE a.question_id = q.question_id AND a.status = 'published') AS published_answer_count,
           (SELECT a.body FROM answers a WHERE a.question_id = q.question_id AND a.is_store_answer = 1 AND a.status = 'published' ORDER BY a.created_ms DESC LIMIT 1) AS store_answer
         FROM questions q ${indexedBy("exports_questions")} LEFT JOIN products p ON p.store_id = q.store_id AND p.product_id = q.product_id
         WHERE q.store_id = ${storeId} AND (q.created_ms, q.question_id) > (${after?.[0] ?? -1}, ${after?.[1] ?? ""}) AND ${RANGE("q.created_ms", f)} AND ${EQ("q.status", f.status)} AND ${EQ("q.product_id", f.productId)}
         ORDER BY q.created_ms, q.question_id LIMIT ${limit}`,
      );
    },

    /** Loyalty customers after `(created_ms, loyalty_customer_id)`, with their VIP tier's name. */
    async loyaltyCustomers(storeId: string, f: CustomerExportFilter, after: [number, string] | undefined, limit: number): Promise<CustomerExportRow[]> {
      return all<CustomerExportRow>(
        db,
        sql`SELECT c.loyalty_customer_id, c.platform_customer_id, c.email, c.status, c.balance, c.lifetime_points, t.name AS vip_tier_name,
           c.enrollment_channel, c.enrolled_ms, c.created_ms
         FROM loyalty_customers c ${indexedBy("exports_loyalty_customers")} LEFT JOIN loyalty_vip_tiers t ON t.vip_tier_id = c.vip_tier_id
         WHERE c.store_id = ${storeId} AND (c.created_ms, c.loyalty_customer_id) > (${after?.[0] ?? -1}, ${after?.[1] ?? ""}) AND ${RANGE("c.created_ms", f)} AND ${EQ("c.status", f.status)}
         ORDER BY c.created_ms, c.loyalty_customer_id LIMIT ${limit}`,
      );
    },

    /** Ledger transactions after `seq` (commit order), with the customer's platform ID and e-mail. */
    async loyaltyTransactions(storeId: string, f: TransactionExportFilter, after: number | undefined, limit: number): Promise<TransactionExportRow[]> {
      return all<TransactionExportRow>(
        db,
        sql`SELECT x.seq, x.transaction_id, x.loyalty_customer_id, c.platform_customer_id, c.email, x.type, x.points, x.balance_after, x.description,
           x.earning_rule_id, x.redemption_rule_id, x.order_id, x.coupon_code, x.created_ms
         FROM loyalty_transactions x ${indexedBy("exports_loyalty_transactions")} LEFT JOIN loyalty_customers c ON c.loyalty_customer_id = x.loyalty_customer_id
         WHERE x.store_id = ${storeId} AND x.seq > ${after ?? 0} AND ${RANGE("x.created_ms", f)} AND ${EQ("x.type", f.type)} AND ${EQ("x.loyalty_customer_id", f.loyaltyCustomerId)}
         ORDER BY x.seq LIMIT ${limit}`,
      );
    },

    /** Order headers after `(ordered_ms, order_id)`. */
    async orderHeaders(storeId: string, f: OrderExportFilter, after: [number, string] | undefined, limit: number): Promise<OrderHeaderExportRow[]> {
      return all<OrderHeaderExportRow>(
        db,
        sql`SELECT h.order_id, h.order_name, h.status, h.email, h.customer_name, h.platform_customer_id, h.currency, h.subtotal, h.ordered_ms,
           h.fulfilled_ms, h.cancelled_ms, h.source
         FROM order_headers h ${indexedBy("order_headers_recent")}
         WHERE h.store_id = ${storeId} AND (h.ordered_ms, h.order_id) > (${after?.[0] ?? -1}, ${after?.[1] ?? ""}) AND ${RANGE("h.ordered_ms", f)} AND ${EQ("h.status", f.status)}
         ORDER BY h.ordered_ms, h.order_id LIMIT ${limit}`,
      );
    },

    /** The lines of the store's orders `orderIds`. */
    async orderLines(storeId: string, orderIds: readonly string[]): Promise<OrderLineExportRow[]> {
      if (orderIds.length === 0) return [];
      const ids = JSON.stringify(orderIds);
      return all<OrderLineExportRow>(
        db,
        sql`SELECT order_id, product_id, variant_id, title, quantity, price FROM orders
         WHERE store_id = ${storeId} AND order_id IN (SELECT value FROM ${pg ? sql`jsonb_array_elements_text(CAST(${ids} AS jsonb))` : sql`json_each(${ids})`}) ORDER BY order_id, product_id`,
      );
    },
  };
}
export type ExportsRepo = ReturnType<typeof exportsRepo>;

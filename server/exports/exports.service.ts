/**
 * CSV exports of a store (issue #24 item 4, docs/exports.md): reviews, questions, loyalty customers,
 * loyalty transactions and orders, with the filters of server/contract/exports.ts, as streamed CSV
 * (csv-stream.ts, the one CSV writer: keyset batches of 500 rows, RFC 4180 quoting, formula-safe cells).
 * Used by the enterprise API (`GET /enterprise/exports/<name>.csv`) and the admin's Exports page. Dates
 * in ISO 8601 UTC.
 */
import type { ExportName, LoyaltyCustomersExportQuery, LoyaltyTransactionsExportQuery, OrdersExportQuery, QuestionsExportQuery, ReviewsExportQuery } from "../contract/exports.ts";
import { isoFromMs } from "../shared/iso-date.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { csvStream } from "./csv-stream.ts";
import type { ExportsRepo, OrderHeaderExportRow, OrderLineExportRow } from "./exports.repo.ts";

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : isoFromMs(ms));
const bool = (v: number | null) => (v === null ? null : v === 1);

/** An export ready to send: its file name and its byte stream. */
export type CsvExport = { filename: string; stream: ReadableStream<Uint8Array> };

/** The queries of each export, by name. */
export type ExportQueries = {
  reviews: ReviewsExportQuery;
  questions: QuestionsExportQuery;
  loyalty_customers: LoyaltyCustomersExportQuery;
  loyalty_transactions: LoyaltyTransactionsExportQuery;
  orders: OrdersExportQuery;
};

/** Create the service. `batchSize`: rows read per batch (default 500). */
export function exportsService(deps: { repo: ExportsRepo; stores: StoresRepo; batchSize?: number }) {
  const { repo } = deps;
  const batchSize = deps.batchSize ?? 500;
  /** A product filter given as the product key (`shopify-123`) or the platform's ID (`platform`: the store's). */
  const productOf = (platform: string | undefined, key: string | undefined) => {
    if (key === undefined) return undefined;
    return platform && key.startsWith(`${platform}-`) ? key.slice(platform.length + 1) : key;
  };
  const keyOfProduct = (platform: string | undefined) => (productId: string) => `${platform ?? ""}-${productId}`;
  const filename = (storeId: string, name: string) => `chorus-${name.replace(/_/g, "-")}-${new Date().toISOString().slice(0, 10)}.csv`;

  const builders: { [N in ExportName]: (storeId: string, q: ExportQueries[N], platform: string | undefined) => ReadableStream<Uint8Array> } = {
    reviews(storeId, q, platform) {
      const filter = { fromMs: q.from, toMs: q.to, status: q.status, productId: productOf(platform, q.productId), rating: q.rating };
      const productKey = keyOfProduct(platform);
      return csvStream({
        batchSize,
        header: [
          "reviewId",
          "productId",
          "productName",
          "status",
          "rating",
          "title",
          "body",
          "reviewerName",
          "reviewerEmail",
          "verifiedStatus",
          "isRecommended",
          "isIncentivized",
          "helpfulCount",
          "unhelpfulCount",
          "mediaCount",
          "languageCode",
          "reply",
          "replyDate",
          "dateCreated",
          "dateUpdated",
          "rejectionReason",
          "rejectionNote",
          "moderationNote",
        ],
        fetch: (after: [number, string] | undefined, limit) => repo.reviews(storeId, filter, after, limit),
        keyOf: (r) => [r.created_ms, r.review_id] as [number, string],
        cells: (r) => [
          r.review_id,
          productKey(r.product_id),
          r.product_name,
          r.status,
          r.rating,
          r.title,
          r.body,
          r.reviewer_name,
          r.reviewer_email,
          r.verified_status,
          bool(r.is_recommended),
          r.is_incentivized === 1,
          r.helpful_count,
          r.unhelpful_count,
          r.media_count,
          r.language_code,
          r.reply_body,
          iso(r.reply_created_ms),
          iso(r.created_ms),
          iso(r.updated_ms),
          r.rejection_reason,
          r.rejection_note,
          r.moderation_note,
        ],
      });
    },
    questions(storeId, q, platform) {
      const filter = { fromMs: q.from, toMs: q.to, status: q.status, productId: productOf(platform, q.productId) };
      const productKey = keyOfProduct(platform);
      return csvStream({
        batchSize,
        header: ["questionId", "productId", "productName", "status", "body", "askerName", "askerEmail", "answerCount", "publishedAnswerCount", "storeAnswer", "dateCreated"],
        fetch: (after: [number, string] | undefined, limit) => repo.questions(storeId, filter, after, limit),
        keyOf: (r) => [r.created_ms, r.question_id] as [number, string],
        cells: (r) => [
          r.question_id,
          productKey(r.product_id),
          r.product_name,
          r.status,
          r.body,
          r.asker_name,
          r.asker_email,
          r.answer_count,
          r.published_answer_count,
          r.store_answer,
          iso(r.created_ms),
        ],
      });
    },
    loyalty_customers(storeId, q) {
      const filter = { fromMs: q.from, toMs: q.to, status: q.status };
      return csvStream({
        batchSize,
        header: ["loyaltyCustomerId", "platformCustomerId", "email", "status", "balance", "lifetimePoints", "vipTierName", "enrollmentChannel", "dateEnrolled", "dateCreated"],
        fetch: (after: [number, string] | undefined, limit) => repo.loyaltyCustomers(storeId, filter, after, limit),
        keyOf: (r) => [r.created_ms, r.loyalty_customer_id] as [number, string],
        cells: (r) => [r.loyalty_customer_id, r.platform_customer_id, r.email, r.status, r.balance, r.lifetime_points, r.vip_tier_name, r.enrollment_channel, iso(r.enrolled_ms), iso(r.created_ms)],
      });
    },
    loyalty_transactions(storeId, q) {
      const filter = { fromMs: q.from, toMs: q.to, type: q.type, loyaltyCustomerId: q.loyaltyCustomerId };
      return csvStream({
        batchSize,
        header: [
          "transactionId",
          "loyaltyCustomerId",
          "platformCustomerId",
          "email",
          "type",
          "points",
          "balanceAfter",
          "description",
          "earningRuleId",
          "redemptionRuleId",
          "orderId",
          "couponCode",
          "dateCreated",
        ],
        fetch: (after: number | undefined, limit) => repo.loyaltyTransactions(storeId, filter, after, limit),
        keyOf: (r) => r.seq,
        cells: (r) => [
          r.transaction_id,
          r.loyalty_customer_id,
          r.platform_customer_id,
          r.email,
          r.type,
          r.points,
          r.balance_after,
          r.description,
          r.earning_rule_id,
          r.redemption_rule_id,
          r.order_id,
          r.coupon_code,
          iso(r.created_ms),
        ],
      });
    },
    orders(storeId, q, platform) {
      const filter = { fromMs: q.from, toMs: q.to, status: q.status };
      const productKey = keyOfProduct(platform);
      type Line = { h: OrderHeaderExportRow; l: OrderLineExportRow | null };
      // A page is a page of orders, written one row per line (an order without lines: one row).
      let lastHeader: OrderHeaderExportRow | undefined;
      return csvStream<Line, [number, string]>({
        batchSize,
        header: [
          "orderId",
          "orderName",
          "status",
          "email",
          "customerName",
          "platformCustomerId",
          "currency",
          "subtotal",
          "dateOrdered",
          "dateFulfilled",
          "dateCancelled",
          "source",
          "productId",
          "variantId",
          "title",
          "quantity",
          "price",
        ],
        fetch: async (after, limit) => {
          const headers = await repo.orderHeaders(storeId, filter, after, limit);
          const lines = new Map<string, OrderLineExportRow[]>();
          for (const l of await repo.orderLines(
            storeId,
            headers.map((h) => h.order_id),
          ))
            lines.set(l.order_id, [...(lines.get(l.order_id) ?? []), l]);
          lastHeader = headers[headers.length - 1];
          // At least one row per order: a full page of orders is never a short batch, so the stream goes on.
          return headers.flatMap((h): Line[] => (lines.get(h.order_id) ?? [null]).map((l) => ({ h, l })));
        },
        keyOf: () => [lastHeader!.ordered_ms, lastHeader!.order_id],
        cells: ({ h, l }) => [
          h.order_id,
          h.order_name,
          h.status,
          h.email,
          h.customer_name,
          h.platform_customer_id,
          h.currency,
          h.subtotal,
          iso(h.ordered_ms),
          iso(h.fulfilled_ms),
          iso(h.cancelled_ms),
          h.source,
          l ? productKey(l.product_id) : null,
          l?.variant_id,
          l?.title,
          l?.quantity,
          l?.price,
        ],
      });
    },
  };

  return {
    /** The CSV export `name` of the store with the (parsed) filters `query`; rows are read batch by batch as the stream is pulled. */
    async csv<N extends ExportName>(storeId: string, name: N, query: ExportQueries[N]): Promise<CsvExport> {
      const platform = (await deps.stores.get(storeId))?.platform;
      return { filename: filename(storeId, name), stream: builders[name](storeId, query, platform) };
    },
  };
}
export type ExportsService = ReturnType<typeof exportsService>;

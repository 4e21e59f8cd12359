/**
 * Shopper data (SQL only; issue 24 item 1): everything a store holds about one e-mail address, and its erasure.
 * The tables and columns that carry a shopper's address:
 * - reviews.reviewer_email (with their media, translations, votes on them and AI analysis: cascades);
 * - questions.asker_email, answers.author_email;
 * - survey_responses.customer_email, and e-mail answers inside answered_questions_json;
 * - loyalty_customers.email (the ledger is append-only: the customer is anonymised, never deleted);
 * - order_headers.email and orders.email (order lines);
 * - mail_outbox.to_address (read here; deleted by the mail module, server/mail); review_requests.email (with
 *   their products and link tokens: cascades).
 * review_request_unsubscribes is kept on erasure, under the address's hash (shared/erased-address.ts): it is what
 * stops further mail to the address.
 * Review votes are keyed by hashed visitor IDs and cannot be attributed to an address.
 * Addresses compare lower-cased and trimmed.
 */
import { dialect, type Db } from "../db/database.ts";
import { erasedAddressKey } from "../shared/erased-address.ts";

/** One store's rows about one shopper, as stored (JSON-ready). */
export type ShopperHoldings = {
  reviews: Record<string, unknown>[];
  reviewMedia: { media_id: string; review_id: string; type: "image" | "video"; status: string; created_ms: number }[];
  questions: Record<string, unknown>[];
  answers: Record<string, unknown>[];
  surveyResponses: Record<string, unknown>[];
  loyaltyCustomers: Record<string, unknown>[];
  loyaltyTransactions: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  orderLines: Record<string, unknown>[];
  mail: Record<string, unknown>[];
  reviewRequests: Record<string, unknown>[];
  unsubscribes: Record<string, unknown>[];
};

/** What an erasure removed or anonymised (record counts), and what must follow it outside the database. */
export type ErasureResult = {
  counts: {
    reviews: number; mediaItems: number; questions: number; answers: number; surveyResponses: number;
    loyaltyCustomersAnonymised: number; orders: number; orderLines: number; reviewRequests: number;
  };
  /** Media items whose files are to be deleted once the transaction committed. */
  mediaIds: string[];
  /** Products whose reviews changed: their AI content is regenerated. */
  productIds: string[];
  /** Groups of those products. */
  groupIds: string[];
};

/** Survey responses of the shopper: by the response's customer address, or an e-mail question answered with it. */
const SURVEY_MATCH = {
  sqlite: `store_id = @storeId AND (lower(trim(customer_email)) = @email OR EXISTS (
  SELECT 1 FROM json_each(answered_questions_json) a
  WHERE json_extract(a.value, '$.type') = 'email' AND lower(trim(json_extract(a.value, '$.answer'))) = @email))`,
  postgres: `store_id = @storeId AND (lower(trim(customer_email)) = @email OR EXISTS (
  SELECT 1 FROM jsonb_array_elements(answered_questions_json::jsonb) a
  WHERE a->>'type' = 'email' AND lower(trim(a->>'answer')) = @email))`,
};

/** Create the shopper-data module over `db`. */
export function privacyRepo(db: Db) {
  const all = <T = Record<string, unknown>>(sql: string, args: Record<string, unknown>) => db.prepare(sql).all(args) as T[];
  const run = (sql: string, args: Record<string, unknown>) => db.prepare(sql).run(args).changes;
  const surveyMatch = SURVEY_MATCH[dialect(db)];

  return {
    /** Every row of `storeId` about `email` (normalised), in the shape stored. Reads in one snapshot when called inside a read transaction. */
    holdings(storeId: string, email: string): ShopperHoldings {
      const a = { storeId, email };
      const reviews = all(
        `SELECT review_id, product_id, variant_id, variant_name, rating, title, body, created_ms, updated_ms, is_recommended, is_incentivized,
                language_code, status, reviewer_name, reviewer_email, verified_status, reviewer_country_code, reviewer_country_name,
                reviewer_zone_code, reply_body, reply_created_ms, product_attributes_json, attributes_with_rating_json, source, helpful_count, unhelpful_count
         FROM reviews WHERE store_id = @storeId AND lower(reviewer_email) = @email ORDER BY created_ms`, a);
      const reviewMedia = all<ShopperHoldings["reviewMedia"][number]>(
        `SELECT m.media_id, m.review_id, m.type, m.status, m.created_ms FROM review_media m
         JOIN reviews r ON r.review_id = m.review_id
         WHERE r.store_id = @storeId AND lower(r.reviewer_email) = @email ORDER BY m.created_ms`, a);
      const loyaltyCustomers = all(`SELECT * FROM loyalty_customers WHERE store_id = @storeId AND lower(email) = @email`, a);
      const orders = all(`SELECT * FROM order_headers WHERE store_id = @storeId AND email = @email ORDER BY ordered_ms`, a);
      return {
        reviews, reviewMedia,
        questions: all(`SELECT question_id, product_id, body, asker_name, asker_email, status, created_ms FROM questions WHERE store_id = @storeId AND lower(asker_email) = @email ORDER BY created_ms`, a),
        answers: all(`SELECT answer_id, question_id, body, author_name, author_email, status, created_ms FROM answers WHERE store_id = @storeId AND lower(author_email) = @email ORDER BY created_ms`, a),
        surveyResponses: all(
          `SELECT survey_response_id, survey_id, channel_survey_id, answered_questions_json, customer_id, customer_email, email_marketing_opt_in,
                  remote_order_id, reward_type, reward_description, reward_value, created_ms
           FROM survey_responses WHERE ${surveyMatch} ORDER BY created_ms`, a),
        loyaltyCustomers,
        loyaltyTransactions: all(
          `SELECT t.transaction_id, t.loyalty_customer_id, t.type, t.points, t.balance_after, t.description, t.coupon_code, t.order_id, t.created_ms
           FROM loyalty_transactions t JOIN loyalty_customers c ON c.loyalty_customer_id = t.loyalty_customer_id
           WHERE c.store_id = @storeId AND lower(c.email) = @email ORDER BY t.seq`, a),
        orders,
        orderLines: all(`SELECT * FROM orders WHERE store_id = @storeId AND email = @email ORDER BY ordered_ms, order_id, product_id`, a),
        mail: all(`SELECT message_id, kind, to_address, subject, text, status, created_ms, sent_ms FROM mail_outbox WHERE store_id = @storeId AND lower(trim(to_address)) = @email ORDER BY seq`, a),
        reviewRequests: all(`SELECT request_id, order_id, email, customer_name, locale, status, fulfilled_ms, created_ms, sent_ms, reminded_ms, opened_ms FROM review_requests WHERE store_id = @storeId AND email = @email ORDER BY created_ms`, a),
        unsubscribes: all(`SELECT * FROM review_request_unsubscribes WHERE store_id = @storeId AND email = @email`, a),
      };
    },

    /**
     * Erase `email`'s data in `storeId` (call inside a transaction): delete their reviews (media rows,
     * translations, votes and AI analysis cascade; aggregates follow by trigger), questions, answers, survey
     * responses, orders, order lines and review requests; anonymise their loyalty customer (address
     * and platform customer ID replaced; the append-only ledger and balance stay as they are) and their
     * unsubscribe from review requests (kept under `erasedAddressKey`).
     */
    erase(storeId: string, email: string): ErasureResult {
      const a = { storeId, email };
      const mediaIds = all<{ media_id: string }>(
        `SELECT m.media_id FROM review_media m JOIN reviews r ON r.review_id = m.review_id WHERE r.store_id = @storeId AND lower(r.reviewer_email) = @email`, a,
      ).map((r) => r.media_id);
      const touched = all<{ product_id: string; group_id: string | null }>(
        `SELECT DISTINCT product_id, group_id FROM reviews WHERE store_id = @storeId AND lower(reviewer_email) = @email`, a,
      );
      const reviews = run(`DELETE FROM reviews WHERE store_id = @storeId AND lower(reviewer_email) = @email`, a);
      const answers = run(`DELETE FROM answers WHERE store_id = @storeId AND lower(author_email) = @email`, a);
      const questions = run(`DELETE FROM questions WHERE store_id = @storeId AND lower(asker_email) = @email`, a);
      const surveyResponses = run(`DELETE FROM survey_responses WHERE ${surveyMatch}`, a);
      const loyaltyCustomersAnonymised = run(
        `UPDATE loyalty_customers SET email = NULL, platform_customer_id = 'erased:' || loyalty_customer_id
         WHERE store_id = @storeId AND lower(email) = @email`, a);
      const orderLines = run(
        `DELETE FROM orders WHERE store_id = @storeId AND (email = @email OR order_id IN (SELECT order_id FROM order_headers WHERE store_id = @storeId AND email = @email))`, a);
      const orders = run(`DELETE FROM order_headers WHERE store_id = @storeId AND email = @email`, a);
      const reviewRequests = run(`DELETE FROM review_requests WHERE store_id = @storeId AND email = @email`, a);
      // The unsubscribe stays, keyed by the address's hash instead of the address.
      run(`INSERT INTO review_request_unsubscribes (store_id, email, created_ms)
           SELECT store_id, @hash, created_ms FROM review_request_unsubscribes WHERE store_id = @storeId AND email = @email
           ON CONFLICT DO NOTHING`, { ...a, hash: erasedAddressKey(email) });
      run(`DELETE FROM review_request_unsubscribes WHERE store_id = @storeId AND email = @email`, a);
      return {
        counts: { reviews, mediaItems: mediaIds.length, questions, answers, surveyResponses, loyaltyCustomersAnonymised, orders, orderLines, reviewRequests },
        mediaIds,
        productIds: [...new Set(touched.map((t) => t.product_id))],
        groupIds: [...new Set(touched.flatMap((t) => (t.group_id ? [t.group_id] : [])))],
      };
    },

    /** Addresses the store holds for a platform customer ID (loyalty customers and orders). */
    emailsOfPlatformCustomer(storeId: string, platformCustomerId: string): string[] {
      return all<{ email: string }>(
        `SELECT lower(email) AS email FROM loyalty_customers WHERE store_id = @storeId AND platform_customer_id = @id AND email IS NOT NULL
         UNION SELECT email FROM order_headers WHERE store_id = @storeId AND platform_customer_id = @id AND email != ''`, { storeId, id: platformCustomerId },
      ).map((r) => r.email);
    },

    /** Every shopper address the store holds (for erasing a whole shop's shopper data). */
    shopperEmails(storeId: string): string[] {
      return all<{ email: string }>(
        `SELECT lower(trim(reviewer_email)) AS email FROM reviews WHERE store_id = @storeId AND reviewer_email IS NOT NULL
         UNION SELECT lower(trim(asker_email)) FROM questions WHERE store_id = @storeId AND asker_email IS NOT NULL
         UNION SELECT lower(trim(author_email)) FROM answers WHERE store_id = @storeId AND author_email IS NOT NULL
         UNION SELECT lower(trim(customer_email)) FROM survey_responses WHERE store_id = @storeId AND customer_email IS NOT NULL
         UNION SELECT lower(email) FROM loyalty_customers WHERE store_id = @storeId AND email IS NOT NULL
         UNION SELECT email FROM order_headers WHERE store_id = @storeId AND email != ''
         UNION SELECT email FROM orders WHERE store_id = @storeId AND email != ''
         UNION SELECT lower(trim(to_address)) FROM mail_outbox WHERE store_id = @storeId
         UNION SELECT email FROM review_requests WHERE store_id = @storeId`, { storeId },
      ).map((r) => r.email).filter((e) => e !== "");
    },

    /** Record an export, erasure or platform data request in the audit log (never the address or the data). */
    audit(row: { requestId: string; storeId: string; kind: "export" | "erasure" | "data-request"; actor: string; counts: Record<string, number>; createdMs: number }): void {
      db.prepare("INSERT INTO privacy_requests (request_id, store_id, kind, actor, counts_json, created_ms) VALUES (?, ?, ?, ?, ?, ?)")
        .run(row.requestId, row.storeId, row.kind, row.actor, JSON.stringify(row.counts), row.createdMs);
    },

    /** The store's latest audited requests, newest first. */
    recentRequests(storeId: string, limit: number): { requestId: string; kind: "export" | "erasure" | "data-request"; actor: string; counts: Record<string, number>; createdMs: number }[] {
      return db.prepare<[string, number], { request_id: string; kind: "export" | "erasure" | "data-request"; actor: string; counts_json: string; created_ms: number }>(
        "SELECT request_id, kind, actor, counts_json, created_ms FROM privacy_requests WHERE store_id = ? ORDER BY created_ms DESC, request_id DESC LIMIT ?",
      ).all(storeId, limit).map((r) => ({ requestId: r.request_id, kind: r.kind, actor: r.actor, counts: JSON.parse(r.counts_json) as Record<string, number>, createdMs: r.created_ms }));
    },
  };
}
export type PrivacyRepo = ReturnType<typeof privacyRepo>;

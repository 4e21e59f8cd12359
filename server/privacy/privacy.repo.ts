/**
 * Shopper data (SQL only; issue 24 item 1): everything a store holds about one e-mail address, and its erasure.
 * The tables and columns that carry a shopper's address:
 * - reviews.reviewer_email (with their media, translations, votes on them and AI analysis: cascades);
 * - questions.asker_email, answers.author_email;
 * - survey_responses.customer_email, and e-mail answers inside answered_questions_json;
 * - loyalty_customers.email (the ledger is append-only: the customer is anonymised, never deleted), with the
 *   customer's loyalty_rewards (issued rewards are kept with the anonymised customer, their platform error text
 *   cleared; rewards that failed on the shop platform, which took no points, are deleted);
 * - order_headers.email and orders.email (order lines);
 * - mail_outbox.to_address (read here; deleted by the mail module, server/mail); review_requests.email (with
 *   their products and link tokens: cascades);
 * - referral_senders.email and referral_friends.email (docs/loyalty.md "Referrals"): both are anonymised, never
 *   deleted (the address becomes `erased:<id>`): a friend's discount already created on the shop platform stays valid
 *   and the sender's rewards stay on the ledger; an erased sender's link is retired (the hosted page answers 404, a
 *   friend's order through it rewards nobody, and a sender coupon still pending is never created);
 * - customer_profile_answers.email_key (docs/surveys.md "Customer profiles"): deleted.
 * review_request_unsubscribes is kept on erasure, under the address's hash (shared/erased-address.ts): it is what
 * stops further mail to the address.
 * Review votes are keyed by hashed visitor IDs and cannot be attributed to an address.
 * Addresses compare lower-cased and trimmed.
 */
import { all, dialect, run, sql, type Db, type RawBuilder } from "../db/database.ts";
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
  loyaltyRewards: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  orderLines: Record<string, unknown>[];
  mail: Record<string, unknown>[];
  reviewRequests: Record<string, unknown>[];
  unsubscribes: Record<string, unknown>[];
  referralSenders: Record<string, unknown>[];
  referralFriends: Record<string, unknown>[];
  profileAnswers: Record<string, unknown>[];
};

/** The address an erasure leaves on a referral row (`erased:` and the row's ID): no e-mail, never matched again. */
export const ERASED_PREFIX = "erased:";

/** What an erasure removed or anonymised (record counts), and what must follow it outside the database. */
export type ErasureResult = {
  counts: {
    reviews: number;
    mediaItems: number;
    questions: number;
    answers: number;
    surveyResponses: number;
    loyaltyCustomersAnonymised: number;
    loyaltyRewardsDeleted: number;
    orders: number;
    orderLines: number;
    reviewRequests: number;
    referralSendersAnonymised: number;
    referralFriendsAnonymised: number;
    profileAnswers: number;
  };
  /** Media items whose files are to be deleted once the transaction committed. */
  mediaIds: string[];
  /** Products whose reviews changed: their AI content is regenerated. */
  productIds: string[];
  /** Groups of those products. */
  groupIds: string[];
};

/** Survey responses of the shopper: by the response's customer address, or an e-mail question answered with it. */
const surveyMatch = (db: Db, storeId: string, email: string): RawBuilder<unknown> =>
  dialect(db) === "postgres"
    ? sql`store_id = ${storeId} AND (lower(trim(customer_email)) = ${email} OR EXISTS (
  SELECT 1 FROM jsonb_array_elements(answered_questions_json::jsonb) a
  WHERE a->>'type' = 'email' AND lower(trim(a->>'answer')) = ${email}))`
    : sql`store_id = ${storeId} AND (lower(trim(customer_email)) = ${email} OR EXISTS (
  SELECT 1 FROM json_each(answered_questions_json) a
  WHERE json_extract(a.value, '$.type') = 'email' AND lower(trim(json_extract(a.value, '$.answer'))) = ${email}))`;

type Row = Record<string, unknown>;

/** Create the shopper-data module over `db`. */
export function privacyRepo(db: Db) {
  const changes = async (query: RawBuilder<unknown>) => (await run(db, query)).changes;

  return {
    /** Every row of `storeId` about `email` (normalised), in the shape stored. Reads in one snapshot when called inside a read transaction. */
    async holdings(storeId: string, email: string): Promise<ShopperHoldings> {
      const reviews = await all<Row>(
        db,
        sql`SELECT review_id, product_id, variant_id, variant_name, rating, title, body, created_ms, updated_ms, is_recommended, is_incentivized,
                language_code, status, reviewer_name, reviewer_email, verified_status, reviewer_country_code, reviewer_country_name,
                reviewer_zone_code, reply_body, reply_created_ms, product_attributes_json, attributes_with_rating_json, source, helpful_count, unhelpful_count
         FROM reviews WHERE store_id = ${storeId} AND reviewer_email IS NOT NULL AND lower(reviewer_email) = ${email} ORDER BY created_ms`,
      );
      const reviewMedia = await all<ShopperHoldings["reviewMedia"][number]>(
        db,
        sql`SELECT m.media_id, m.review_id, m.type, m.status, m.created_ms FROM review_media m
         JOIN reviews r ON r.review_id = m.review_id
         WHERE r.store_id = ${storeId} AND lower(r.reviewer_email) = ${email} ORDER BY m.created_ms`,
      );
      const loyaltyCustomers = await all<Row>(db, sql`SELECT * FROM loyalty_customers WHERE store_id = ${storeId} AND lower(email) = ${email}`);
      const orders = await all<Row>(db, sql`SELECT * FROM order_headers WHERE store_id = ${storeId} AND email = ${email} ORDER BY ordered_ms`);
      return {
        reviews,
        reviewMedia,
        questions: await all<Row>(
          db,
          sql`SELECT question_id, product_id, body, asker_name, asker_email, status, created_ms FROM questions WHERE store_id = ${storeId} AND lower(asker_email) = ${email} ORDER BY created_ms`,
        ),
        answers: await all<Row>(
          db,
          sql`SELECT answer_id, question_id, body, author_name, author_email, status, created_ms FROM answers WHERE store_id = ${storeId} AND lower(author_email) = ${email} ORDER BY created_ms`,
        ),
        surveyResponses: await all<Row>(
          db,
          sql`SELECT survey_response_id, survey_id, channel_survey_id, answered_questions_json, customer_id, customer_email, email_marketing_opt_in,
                  remote_order_id, reward_type, reward_description, reward_value, created_ms
           FROM survey_responses WHERE ${surveyMatch(db, storeId, email)} ORDER BY created_ms`,
        ),
        loyaltyCustomers,
        loyaltyTransactions: await all<Row>(
          db,
          sql`SELECT t.transaction_id, t.loyalty_customer_id, t.type, t.points, t.balance_after, t.description, t.coupon_code, t.order_id, t.created_ms
           FROM loyalty_transactions t JOIN loyalty_customers c ON c.loyalty_customer_id = t.loyalty_customer_id
           WHERE c.store_id = ${storeId} AND lower(c.email) = ${email} ORDER BY t.seq`,
        ),
        loyaltyRewards: await all<Row>(
          db,
          sql`SELECT w.code, w.loyalty_customer_id, w.redemption_rule_id, w.reward_type, w.reward_value, w.points_cost, w.platform, w.state,
                  w.transaction_id, w.error, w.created_ms, w.updated_ms
           FROM loyalty_rewards w JOIN loyalty_customers c ON c.store_id = w.store_id AND c.loyalty_customer_id = w.loyalty_customer_id
           WHERE c.store_id = ${storeId} AND lower(c.email) = ${email} ORDER BY w.created_ms, w.code`,
        ),
        orders,
        orderLines: await all<Row>(db, sql`SELECT * FROM orders WHERE store_id = ${storeId} AND email = ${email} ORDER BY ordered_ms, order_id, product_id`),
        mail: await all<Row>(
          db,
          sql`SELECT message_id, kind, to_address, subject, text, status, created_ms, sent_ms FROM mail_outbox WHERE store_id = ${storeId} AND lower(trim(to_address)) = ${email} ORDER BY seq`,
        ),
        reviewRequests: await all<Row>(
          db,
          sql`SELECT request_id, order_id, email, customer_name, locale, status, fulfilled_ms, created_ms, sent_ms, reminded_ms, opened_ms FROM review_requests WHERE store_id = ${storeId} AND email = ${email} ORDER BY created_ms`,
        ),
        unsubscribes: await all<Row>(db, sql`SELECT * FROM review_request_unsubscribes WHERE store_id = ${storeId} AND email = ${email}`),
        referralSenders: await all<Row>(db, sql`SELECT referral_sender_id, email, created_ms FROM referral_senders WHERE store_id = ${storeId} AND email = ${email}`),
        referralFriends: await all<Row>(
          db,
          sql`SELECT code, referral_sender_id, email, discount_type, discount_value, minimum_order, platform, state, created_ms FROM referral_friends
           WHERE store_id = ${storeId} AND email = ${email} ORDER BY created_ms`,
        ),
        profileAnswers: await all<Row>(
          db,
          sql`SELECT profile_question_id, question_text, answer_json, survey_response_id, updated_ms FROM customer_profile_answers
           WHERE store_id = ${storeId} AND email_key = ${email} ORDER BY question_text, profile_question_id`,
        ),
      };
    },

    /**
     * Erase `email`'s data in `storeId` (call inside a transaction): delete their reviews (media rows,
     * translations, votes and AI analysis cascade; aggregates follow by trigger), questions, answers, survey
     * responses, orders, order lines, review requests and failed loyalty rewards; anonymise their loyalty customer (address
     * and platform customer ID replaced; the append-only ledger and balance stay as they are), their referral
     * link and friend discount (address replaced by `erased:<id>`; the erased sender's pending coupon rewards are
     * marked `reversed`, so none is created for an address that is gone) and their unsubscribe from review requests
     * (kept under `erasedAddressKey`); delete their customer profile answers. `nowMs`: the erasure's time (epoch ms).
     */
    async erase(storeId: string, email: string, nowMs: number): Promise<ErasureResult> {
      const mediaIds = (
        await all<{ media_id: string }>(db, sql`SELECT m.media_id FROM review_media m JOIN reviews r ON r.review_id = m.review_id WHERE r.store_id = ${storeId} AND lower(r.reviewer_email) = ${email}`)
      ).map((r) => r.media_id);
      const touched = await all<{ product_id: string; group_id: string | null }>(
        db,
        sql`SELECT DISTINCT product_id, group_id FROM reviews WHERE store_id = ${storeId} AND reviewer_email IS NOT NULL AND lower(reviewer_email) = ${email}`,
      );
      const reviews = await changes(sql`DELETE FROM reviews WHERE store_id = ${storeId} AND reviewer_email IS NOT NULL AND lower(reviewer_email) = ${email}`);
      const answers = await changes(sql`DELETE FROM answers WHERE store_id = ${storeId} AND lower(author_email) = ${email}`);
      const questions = await changes(sql`DELETE FROM questions WHERE store_id = ${storeId} AND lower(asker_email) = ${email}`);
      // Profile answers first (they also cascade with their responses; a newer response may have replaced the link).
      const profileAnswers = await changes(sql`DELETE FROM customer_profile_answers WHERE store_id = ${storeId} AND email_key = ${email}`);
      const surveyResponses = await changes(sql`DELETE FROM survey_responses WHERE ${surveyMatch(db, storeId, email)}`);
      // Referrals: the friend's discount may already be on the shop platform (it stays valid there), and the sender's
      // rewards are on the ledger: rows stay, the address goes. A retired sender's pending coupons are never created.
      await run(
        db,
        sql`UPDATE referral_rewards SET state = 'reversed', updated_ms = ${nowMs} WHERE store_id = ${storeId} AND state = 'pending' AND reward_type <> 'points'
           AND referral_sender_id IN (SELECT referral_sender_id FROM referral_senders WHERE store_id = ${storeId} AND email = ${email})`,
      );
      const referralSendersAnonymised = await changes(sql`UPDATE referral_senders SET email = CAST(${ERASED_PREFIX} AS text) || referral_sender_id WHERE store_id = ${storeId} AND email = ${email}`);
      const referralFriendsAnonymised = await changes(sql`UPDATE referral_friends SET email = CAST(${ERASED_PREFIX} AS text) || code WHERE store_id = ${storeId} AND email = ${email}`);
      // Rewards of the customer: failed ones took no points and are deleted; the others stay with the anonymised customer
      // (their codes are on the ledger, and a pending one is the reconciler's), without the platform's error text.
      const theirs = sql`store_id = ${storeId} AND loyalty_customer_id IN (SELECT loyalty_customer_id FROM loyalty_customers WHERE store_id = ${storeId} AND lower(email) = ${email})`;
      const loyaltyRewardsDeleted = await changes(sql`DELETE FROM loyalty_rewards WHERE ${theirs} AND state = 'failed'`);
      await run(db, sql`UPDATE loyalty_rewards SET error = NULL WHERE ${theirs}`);
      const loyaltyCustomersAnonymised = await changes(sql`UPDATE loyalty_customers SET email = NULL, birthday = NULL, birthday_set_ms = NULL, platform_customer_id = 'erased:' || loyalty_customer_id
         WHERE store_id = ${storeId} AND lower(email) = ${email}`);
      const orderLines = await changes(
        sql`DELETE FROM orders WHERE store_id = ${storeId} AND (email = ${email} OR order_id IN (SELECT order_id FROM order_headers WHERE store_id = ${storeId} AND email = ${email}))`,
      );
      const orders = await changes(sql`DELETE FROM order_headers WHERE store_id = ${storeId} AND email = ${email}`);
      const reviewRequests = await changes(sql`DELETE FROM review_requests WHERE store_id = ${storeId} AND email = ${email}`);
      // The unsubscribe stays, keyed by the address's hash instead of the address.
      await run(
        db,
        sql`INSERT INTO review_request_unsubscribes (store_id, email, created_ms)
           SELECT store_id, CAST(${erasedAddressKey(email)} AS text), created_ms FROM review_request_unsubscribes WHERE store_id = ${storeId} AND email = ${email}
           ON CONFLICT DO NOTHING`,
      );
      await run(db, sql`DELETE FROM review_request_unsubscribes WHERE store_id = ${storeId} AND email = ${email}`);
      return {
        counts: {
          reviews,
          mediaItems: mediaIds.length,
          questions,
          answers,
          surveyResponses,
          loyaltyCustomersAnonymised,
          loyaltyRewardsDeleted,
          orders,
          orderLines,
          reviewRequests,
          referralSendersAnonymised,
          referralFriendsAnonymised,
          profileAnswers,
        },
        mediaIds,
        productIds: [...new Set(touched.map((t) => t.product_id))],
        groupIds: [...new Set(touched.flatMap((t) => (t.group_id ? [t.group_id] : [])))],
      };
    },

    /** Addresses the store holds for a platform customer ID (loyalty customers and orders). */
    async emailsOfPlatformCustomer(storeId: string, platformCustomerId: string): Promise<string[]> {
      return (
        await all<{ email: string }>(
          db,
          sql`SELECT lower(email) AS email FROM loyalty_customers WHERE store_id = ${storeId} AND platform_customer_id = ${platformCustomerId} AND email IS NOT NULL
         UNION SELECT email FROM order_headers WHERE store_id = ${storeId} AND platform_customer_id = ${platformCustomerId} AND email != ''`,
        )
      ).map((r) => r.email);
    },

    /** Every shopper address the store holds (for erasing a whole shop's shopper data). */
    async shopperEmails(storeId: string): Promise<string[]> {
      return (
        await all<{ email: string }>(
          db,
          sql`SELECT lower(trim(reviewer_email)) AS email FROM reviews WHERE store_id = ${storeId} AND reviewer_email IS NOT NULL
         UNION SELECT lower(trim(asker_email)) FROM questions WHERE store_id = ${storeId} AND asker_email IS NOT NULL
         UNION SELECT lower(trim(author_email)) FROM answers WHERE store_id = ${storeId} AND author_email IS NOT NULL
         UNION SELECT lower(trim(customer_email)) FROM survey_responses WHERE store_id = ${storeId} AND customer_email IS NOT NULL
         UNION SELECT lower(email) FROM loyalty_customers WHERE store_id = ${storeId} AND email IS NOT NULL
         UNION SELECT email FROM order_headers WHERE store_id = ${storeId} AND email != ''
         UNION SELECT email FROM orders WHERE store_id = ${storeId} AND email != ''
         UNION SELECT lower(trim(to_address)) FROM mail_outbox WHERE store_id = ${storeId}
         UNION SELECT email FROM review_requests WHERE store_id = ${storeId}
         UNION SELECT email FROM referral_senders WHERE store_id = ${storeId} AND email NOT LIKE ${`${ERASED_PREFIX}%`}
         UNION SELECT email FROM referral_friends WHERE store_id = ${storeId} AND email NOT LIKE ${`${ERASED_PREFIX}%`}
         UNION SELECT email_key FROM customer_profile_answers WHERE store_id = ${storeId}`,
        )
      )
        .map((r) => r.email)
        .filter((e) => e !== "");
    },

    /** Record an export, erasure or platform data request in the audit log (never the address or the data). */
    async audit(row: { requestId: string; storeId: string; kind: "export" | "erasure" | "data-request"; actor: string; counts: Record<string, number>; createdMs: number }): Promise<void> {
      await run(
        db,
        sql`INSERT INTO privacy_requests (request_id, store_id, kind, actor, counts_json, created_ms) VALUES (${row.requestId}, ${row.storeId}, ${row.kind}, ${row.actor}, ${JSON.stringify(row.counts)}, ${row.createdMs})`,
      );
    },

    /** The store's latest audited requests, newest first. */
    async recentRequests(
      storeId: string,
      limit: number,
    ): Promise<{ requestId: string; kind: "export" | "erasure" | "data-request"; actor: string; counts: Record<string, number>; createdMs: number }[]> {
      return (
        await all<{ request_id: string; kind: "export" | "erasure" | "data-request"; actor: string; counts_json: string; created_ms: number }>(
          db,
          sql`SELECT request_id, kind, actor, counts_json, created_ms FROM privacy_requests WHERE store_id = ${storeId} ORDER BY created_ms DESC, request_id DESC LIMIT ${limit}`,
        )
      ).map((r) => ({ requestId: r.request_id, kind: r.kind, actor: r.actor, counts: JSON.parse(r.counts_json) as Record<string, number>, createdMs: r.created_ms }));
    },
  };
}
export type PrivacyRepo = ReturnType<typeof privacyRepo>;

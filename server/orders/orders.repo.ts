/**
 * Orders (SQL): a header per order (`order_headers`: number, buyer, platform customer, status, dates) and
 * its lines (`orders`: one row per order and product). Orders come from the shop platform's webhooks
 * (server/platforms/), the orders CSV import and POST /enterprise/orders. E-mails are stored trimmed and
 * lower-case. An e-mail that matches an order is a hint for the merchant, not a proof of purchase: it never
 * makes a review `verified-buyer` by itself (issue 19, finding 6). The proofs are a signed review-request
 * link naming the order, the platform's signed-in shopper whose customer ID has an order of the product
 * (`orderOfCustomer`), an import whose source marked the purchase verified, or the merchant's confirmation
 * (server/reviews/submissions.service.ts).
 */
import { all, dialect, one, run, sql, transaction, type Db } from "../db/database.ts";

export type OrderLine = { orderId: string; productId: string; email: string; orderedMs: number; source?: string };
export type OrderStatus = "ordered" | "fulfilled" | "cancelled";

/** An order as a platform sends it (normalised by server/platforms/). Product IDs are the platform's, without prefix. */
export type PlatformOrder = {
  orderId: string;
  orderName: string | null;
  /** Trimmed, lower-case; '' when the order has none. */
  email: string;
  platformCustomerId: string | null;
  customerName: string | null;
  locale: string | null;
  currency: string | null;
  /** Currency units (points-per-spend earns on it); null when the platform sent none. */
  subtotal: number | null;
  orderedMs: number;
  source: string;
  lines: { productId: string; variantId: string | null; title: string | null; price: number | null; quantity: number }[];
  /** Discount codes the order used (referrals: docs/loyalty.md "Referrals"); not stored with the order. */
  discountCodes?: string[];
};

export type OrderHeaderRow = {
  store_id: string;
  order_id: string;
  order_name: string | null;
  email: string;
  platform_customer_id: string | null;
  customer_name: string | null;
  locale: string | null;
  currency: string | null;
  subtotal: number | null;
  status: OrderStatus;
  ordered_ms: number;
  fulfilled_ms: number | null;
  cancelled_ms: number | null;
  updated_ms: number;
  source: string | null;
};
export type OrderLineRow = { product_id: string; variant_id: string | null; title: string | null; price: number | null; quantity: number | null; product_name: string | null };
export type OrderListRow = OrderHeaderRow & { lines_json: string };

/** Normalise an e-mail for matching: trimmed, lower-case. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Create the orders data module over `db`. Every function returns a promise. */
export function ordersRepo(db: Db) {
  // PostgreSQL: no rowid (line order is the row_seq identity of PostgreSQL migration 007), no INDEXED BY, JSON by json_agg.
  const pg = dialect(db) === "postgres";
  const getHeader = (storeId: string, orderId: string) => one<OrderHeaderRow>(db, sql`SELECT * FROM order_headers WHERE store_id = ${storeId} AND order_id = ${orderId}`);
  return {
    /**
     * Insert order lines of a store in one transaction; existing (order, product) lines are kept. Each new
     * order gets a header (status `ordered`).
     * @returns the number of lines inserted.
     */
    importOrders(storeId: string, lines: OrderLine[]): Promise<number> {
      return transaction(db, async () => {
        let n = 0;
        for (const l of lines) {
          const email = normaliseEmail(l.email);
          n += (
            await run(
              db,
              sql`INSERT INTO orders (store_id, order_id, product_id, email, ordered_ms, source) VALUES (${storeId}, ${l.orderId}, ${l.productId}, ${email}, ${l.orderedMs}, ${l.source ?? null})
             ON CONFLICT (store_id, order_id, product_id) DO NOTHING`,
            )
          ).changes;
          await run(
            db,
            sql`INSERT INTO order_headers (store_id, order_id, email, ordered_ms, updated_ms, source) VALUES (${storeId}, ${l.orderId}, ${email}, ${l.orderedMs}, ${l.orderedMs}, ${l.source ?? null})
             ON CONFLICT (store_id, order_id) DO NOTHING`,
          );
        }
        return n;
      });
    },
    /**
     * Whether `email` (any case) has an imported order of `productId` (platform ID, no prefix) in the store.
     * Anyone who knows a buyer's address can type it: not a proof of purchase on its own.
     */
    async isVerifiedBuyer(storeId: string, email: string, productId: string): Promise<boolean> {
      return (await one(db, sql`SELECT 1 AS one FROM orders WHERE store_id = ${storeId} AND email = ${normaliseEmail(email)} AND product_id = ${productId} LIMIT 1`)) !== undefined;
    },
    /**
     * Insert or update an order and its lines (caller's transaction). A known order keeps its status and
     * dates; its buyer fields and lines are updated (a product's line is added or replaced, never removed).
     * @returns true when the order was new (exactly one of concurrent calls for one order: the header's unique
     *   (store, order) key decides, `ON CONFLICT DO NOTHING`).
     */
    async upsertOrder(storeId: string, order: PlatformOrder, nowMs: number): Promise<boolean> {
      const email = normaliseEmail(order.email);
      const isNew =
        (
          await run(
            db,
            sql`INSERT INTO order_headers (store_id, order_id, order_name, email, platform_customer_id, customer_name, locale, currency, subtotal, ordered_ms, updated_ms, source)
         VALUES (${storeId}, ${order.orderId}, ${order.orderName}, ${email}, ${order.platformCustomerId}, ${order.customerName}, ${order.locale}, ${order.currency}, ${order.subtotal}, ${order.orderedMs}, ${nowMs}, ${order.source})
         ON CONFLICT (store_id, order_id) DO NOTHING`,
          )
        ).changes === 1;
      if (!isNew) {
        await run(
          db,
          sql`UPDATE order_headers SET order_name = ${order.orderName}, email = ${email}, platform_customer_id = ${order.platformCustomerId}, customer_name = ${order.customerName},
            locale = ${order.locale}, currency = ${order.currency}, subtotal = ${order.subtotal}, updated_ms = ${nowMs}
          WHERE store_id = ${storeId} AND order_id = ${order.orderId}`,
        );
      }
      for (const l of order.lines) {
        await run(
          db,
          sql`INSERT INTO orders (store_id, order_id, product_id, email, ordered_ms, source, variant_id, title, price, quantity)
           VALUES (${storeId}, ${order.orderId}, ${l.productId}, ${email}, ${order.orderedMs}, ${order.source}, ${l.variantId}, ${l.title}, ${l.price}, ${l.quantity})
           ON CONFLICT (store_id, order_id, product_id) DO UPDATE SET email = excluded.email, variant_id = excluded.variant_id,
             title = excluded.title, price = excluded.price, quantity = excluded.quantity`,
        );
      }
      return isNew;
    },
    /** The order's header, or undefined. */
    getOrder: (storeId: string, orderId: string): Promise<OrderHeaderRow | undefined> => getHeader(storeId, orderId),
    /** The order's lines (with the product's current name), in the order they were stored. */
    lines: (storeId: string, orderId: string): Promise<OrderLineRow[]> =>
      all<OrderLineRow>(
        db,
        sql`SELECT o.product_id, o.variant_id, o.title, o.price, o.quantity, p.name AS product_name
         FROM orders o LEFT JOIN products p ON p.store_id = o.store_id AND p.product_id = o.product_id
        WHERE o.store_id = ${storeId} AND o.order_id = ${orderId} ORDER BY ${sql.raw(pg ? "o.row_seq" : "o.rowid")}`,
      ),
    /** `ordered` → `fulfilled` at `fulfilledMs`. @returns true when the status changed (false: already fulfilled or cancelled, or unknown). */
    markFulfilled: async (storeId: string, orderId: string, fulfilledMs: number, nowMs: number): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE order_headers SET status = 'fulfilled', fulfilled_ms = ${fulfilledMs}, updated_ms = ${nowMs}
        WHERE store_id = ${storeId} AND order_id = ${orderId} AND status = 'ordered'`,
        )
      ).changes === 1,
    /** Any status → `cancelled` at `cancelledMs`. @returns true when the status changed. */
    markCancelled: async (storeId: string, orderId: string, cancelledMs: number, nowMs: number): Promise<boolean> =>
      (
        await run(
          db,
          sql`UPDATE order_headers SET status = 'cancelled', cancelled_ms = ${cancelledMs}, updated_ms = ${nowMs}
        WHERE store_id = ${storeId} AND order_id = ${orderId} AND status <> 'cancelled'`,
        )
      ).changes === 1,
    /**
     * The first order (not cancelled) of the platform customer that contains `productId`, or undefined:
     * the proof behind a signed-in shopper's verified-buyer review.
     */
    orderOfCustomer: async (storeId: string, platformCustomerId: string, productId: string): Promise<string | undefined> =>
      (
        await one<{ order_id: string }>(
          db,
          sql`SELECT h.order_id FROM order_headers h ${pg ? sql`` : sql`INDEXED BY order_headers_customer`}
         JOIN orders o ON o.store_id = h.store_id AND o.order_id = h.order_id AND o.product_id = ${productId}
        WHERE h.store_id = ${storeId} AND h.platform_customer_id = ${platformCustomerId} AND h.status <> 'cancelled'
        ORDER BY h.ordered_ms LIMIT 1`,
        )
      )?.order_id,
    /**
     * Generated demo orders (source `demo-generated`, docs/platforms.md): for every `every`-th imported review
     * of `reviewSource` (by its row number), one fulfilled order of that review's product, placed 7 to 27 days
     * before the review and fulfilled 2 days after being placed, by `demo-buyer-<row>@example.com`; those
     * reviews become `verified-buyer` (the generator is the source that vouches for the purchase, as an import
     * marking rows verified does). Idempotent (order IDs `demo-<row>`). Caller's transaction.
     * @returns the number of orders created.
     */
    async generateDemoOrders(storeId: string, reviewSource: string, every: number, nowMs: number): Promise<number> {
      // The review's row number: SQLite's CAST reads the leading digits; PostgreSQL's would fail on others, so only all-digit keys.
      const row = sql.raw(pg ? "CAST(CASE WHEN r.source_key ~ '^[0-9]{1,15}$' THEN r.source_key END AS BIGINT)" : "CAST(r.source_key AS INTEGER)");
      const picked = sql`FROM reviews r JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
        WHERE r.store_id = ${storeId} AND r.source = ${reviewSource} AND ${sql.raw(pg ? "r.source_key ~ '^[0-9]'" : "r.source_key GLOB '[0-9]*'")} AND ${row} % ${every} = 0`;
      const placed = sql`r.created_ms - (7 + ${row} % 21) * 86400000`;
      const n = (
        await run(
          db,
          sql`INSERT INTO order_headers (store_id, order_id, order_name, email, status, currency, ordered_ms, fulfilled_ms, updated_ms, source)
         SELECT r.store_id, 'demo-' || r.source_key, '#D' || (10000 + ${row}), 'demo-buyer-' || r.source_key || '@example.com',
                'fulfilled', 'USD', ${placed}, ${placed} + 2 * 86400000, ${nowMs}, 'demo-generated' ${picked}
         ON CONFLICT (store_id, order_id) DO NOTHING`,
        )
      ).changes;
      await run(
        db,
        sql`INSERT INTO orders (store_id, order_id, product_id, email, ordered_ms, source, title, quantity)
         SELECT r.store_id, 'demo-' || r.source_key, r.product_id, 'demo-buyer-' || r.source_key || '@example.com', ${placed}, 'demo-generated', p.name, 1 ${picked}
         ON CONFLICT (store_id, order_id, product_id) DO NOTHING`,
      );
      await run(db, sql`UPDATE reviews SET verified_status = 'verified-buyer' WHERE review_id IN (SELECT r.review_id ${picked}) AND verified_status = 'unverified'`);
      return n;
    },
    /** A keyset page of the store's orders, newest first (`after` = [ordered_ms, order_id] of the previous page's last row). */
    page(storeId: string, after: [number, string] | null, limit: number): Promise<OrderListRow[]> {
      return all<OrderListRow>(
        db,
        sql`SELECT h.*, (SELECT ${sql.raw(
          pg
            ? "COALESCE(json_agg(json_build_object('productId', o.product_id, 'title', COALESCE(o.title, p.name, o.product_id), 'quantity', o.quantity) ORDER BY o.row_seq)::text, '[]')"
            : "json_group_array(json_object('productId', o.product_id, 'title', COALESCE(o.title, p.name, o.product_id), 'quantity', o.quantity))",
        )}
                    FROM orders o LEFT JOIN products p ON p.store_id = o.store_id AND p.product_id = o.product_id
                   WHERE o.store_id = h.store_id AND o.order_id = h.order_id) AS lines_json
       FROM order_headers h
      WHERE h.store_id = ${storeId} ${after ? sql`AND (h.ordered_ms < ${after[0]} OR (h.ordered_ms = ${after[0]} AND h.order_id < ${after[1]}))` : sql``}
      ORDER BY h.ordered_ms DESC, h.order_id DESC LIMIT ${limit}`,
      );
    },
  };
}
export type OrdersRepo = ReturnType<typeof ordersRepo>;

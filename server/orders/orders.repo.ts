/**
 * Imported orders (SQL). An order line is (store, order ID, product ID, buyer e-mail, date); e-mails are
 * stored trimmed and lower-case. An e-mail that matches an order is a hint for the merchant, not a proof
 * of purchase: it never makes a review `verified-buyer` by itself (issue 19, finding 6). The proofs are a
 * signed review-request link naming the order, the platform's signed-in shopper token, or the merchant's
 * confirmation (server/reviews/submissions.service.ts).
 */
import type { Db } from "../db/database.ts";

export type OrderLine = { orderId: string; productId: string; email: string; orderedMs: number; source?: string };

/** Normalise an e-mail for matching: trimmed, lower-case. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Create the orders data module over `db`. */
export function ordersRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO orders (store_id, order_id, product_id, email, ordered_ms, source) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (store_id, order_id, product_id) DO NOTHING`,
  );
  const bought = db.prepare<[string, string, string], { 1: number }>(
    "SELECT 1 FROM orders WHERE store_id = ? AND email = ? AND product_id = ? LIMIT 1",
  );
  return {
    /**
     * Insert order lines of a store in one transaction; existing (order, product) lines are kept.
     * @returns the number of lines inserted.
     */
    importOrders(storeId: string, lines: OrderLine[]): number {
      let n = 0;
      db.transaction(() => {
        for (const l of lines) n += insert.run(storeId, l.orderId, l.productId, normaliseEmail(l.email), l.orderedMs, l.source ?? null).changes;
      }).immediate();
      return n;
    },
    /**
     * Whether `email` (any case) has an imported order of `productId` (platform ID, no prefix) in the store.
     * Anyone who knows a buyer's address can type it: not a proof of purchase on its own.
     */
    isVerifiedBuyer(storeId: string, email: string, productId: string): boolean {
      return bought.get(storeId, normaliseEmail(email), productId) !== undefined;
    },
  };
}
export type OrdersRepo = ReturnType<typeof ordersRepo>;

/**
 * Orders as the API, the importers and the admin see them (`POST /enterprise/orders`, docs/writes.md, Endpoints;
 * issue #22 item 6): order lines stored once per (order, product) with a header per order. Order lines are
 * evidence for the merchant, never a proof of purchase on their own (an e-mail match verifies nothing; issue #19).
 */
import { keysetPage } from "../shared/keyset-pager.ts";
import type { OrderLine, OrdersRepo, OrderStatus } from "./orders.repo.ts";

/** An order in the admin's list. Dates ISO 8601; `items` with the line's title (or the product's name). */
export type AdminOrder = {
  orderId: string;
  orderName: string | null;
  email: string;
  customerName: string | null;
  status: OrderStatus;
  dateOrdered: string;
  dateFulfilled: string | null;
  dateCancelled: string | null;
  source: string | null;
  items: { productId: string; title: string; quantity: number | null }[];
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Create the orders service over its repo; `secret` signs the admin list's page cursors. */
export function ordersService(deps: { repo: OrdersRepo; secret?: string }) {
  const { repo } = deps;
  return {
    /**
     * Store order lines of a store in one transaction; lines already stored (same order and product) are kept.
     * @param lines product IDs are the platform's, without prefix; `orderedMs` epoch ms.
     * @returns how many lines were new.
     */
    importOrders(storeId: string, lines: OrderLine[]): Promise<number> {
      return repo.importOrders(storeId, lines);
    },

    /**
     * The store's orders, newest first, `limit` per page (keyset: `after` is the previous page's `next`).
     * @throws ApiError 400 for a cursor that is not this list's.
     */
    async adminOrders(storeId: string, q: { after?: string; limit: number }): Promise<{ orders: AdminOrder[]; next?: string }> {
      const { rows, next } = await keysetPage({
        secret: deps.secret ?? "",
        context: `admin-orders|${storeId}`,
        cursor: q.after,
        shape: ["number", "string"],
        limit: q.limit,
        fetch: (after: [number, string] | undefined, limitPlusOne: number) => repo.page(storeId, after ?? null, limitPlusOne),
        keyOf: (r) => [r.ordered_ms, r.order_id] as [number, string],
      });
      const orders = rows.map((r): AdminOrder => ({
        orderId: r.order_id,
        orderName: r.order_name,
        email: r.email,
        customerName: r.customer_name,
        status: r.status,
        dateOrdered: iso(r.ordered_ms)!,
        dateFulfilled: iso(r.fulfilled_ms),
        dateCancelled: iso(r.cancelled_ms),
        source: r.source,
        items: JSON.parse(r.lines_json) as AdminOrder["items"],
      }));
      return next ? { orders, next } : { orders };
    },
  };
}
export type OrdersService = ReturnType<typeof ordersService>;

/**
 * Orders as the API and the importers see them (decisions.md §5 `POST /enterprise/orders`): order lines
 * stored once per (order, product). Order lines are evidence for the merchant, never a proof of purchase
 * on their own (an e-mail match verifies nothing; issue #19).
 */
import type { OrderLine, OrdersRepo } from "./orders.repo.ts";

/** Create the orders service over its repo. */
export function ordersService(deps: { repo: OrdersRepo }) {
  const { repo } = deps;
  return {
    /**
     * Store order lines of a store in one transaction; lines already stored (same order and product) are kept.
     * @param lines product IDs are the platform's, without prefix; `orderedMs` epoch ms.
     * @returns how many lines were new.
     */
    importOrders(storeId: string, lines: OrderLine[]): number {
      return repo.importOrders(storeId, lines);
    },
  };
}
export type OrdersService = ReturnType<typeof ordersService>;

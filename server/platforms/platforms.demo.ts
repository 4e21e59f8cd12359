/**
 * Demo orders (issue #22 "Done when"): the demo store gets generated orders for some of its reviewers,
 * derived from the real reviews (same product, placed 7 to 27 days before the review), so verified-buyer
 * badges, the orders list and the review-request funnel have real-looking content. They are marked
 * `source: "demo-generated"` (docs/platforms.md) and their reviews `verified-buyer`: the generator vouches
 * for the purchase as an import whose source marked rows verified does.
 */
import { transaction } from "../db/database.ts";
import type { DemoSeeder } from "../demo/seeder.ts";

/** One review in `DEMO_ORDER_EVERY` (by row number of the reviews file) gets an order. */
export const DEMO_ORDER_EVERY = 4;

/** The seeder for the demo store `storeId`, whose reviews were imported from `reviewsFile` (the import's source name). */
export const platformDemoSeeder = (storeId: string, reviewsFile: string): DemoSeeder => ({
  name: "orders",
  async run({ services, log }) {
    const started = performance.now();
    const n = await transaction(services.db, () => services.ordersData.generateDemoOrders(storeId, reviewsFile, DEMO_ORDER_EVERY, Date.now()));
    log(`Generated ${n} demo orders (source demo-generated) for reviewers of real reviews; their reviews are verified-buyer (${Math.round(performance.now() - started)} ms).`);
  },
});

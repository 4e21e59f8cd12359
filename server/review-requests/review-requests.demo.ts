/**
 * Demo review-request history (issue #22 "Done when": the funnel has real-looking content): one completed
 * request per generated demo order (platforms.demo.ts, which derives orders from real reviews), sent three days
 * after fulfilment, opened just before and reviewed when the order's real review was written. Generated, and
 * documented as such (docs/review-requests.md "Demo store"): every demo order comes from a review, so the demo
 * funnel converts every request it shows; the store's review requests stay off.
 */
import { transaction } from "../db/database.ts";
import type { DemoSeeder } from "../demo/seeder.ts";

/** The seeder for the demo store `storeId`, whose reviews were imported from `reviewsFile`; runs after the demo orders. */
export const reviewRequestsDemoSeeder = (storeId: string, reviewsFile: string): DemoSeeder => ({
  name: "review-requests",
  async run({ services, log }) {
    const n = await transaction(services.db, () => services.reviewRequests.generateDemoHistory(storeId, reviewsFile));
    log(`Generated ${n} demo review requests (sent, opened and reviewed) from the demo orders' real reviews.`);
  },
});

/**
 * Names of content scopes (server/db/content-scopes.ts, decision 0007). An operation's answer names the
 * scopes it read (`reply(data, { scopes })`, server/api/operation.ts); the response cache keeps the answer
 * until a commit changes one of them.
 */

/**
 * Scope names; the triggers in server/db/content-scopes.ts build the same strings in SQL. The scope of
 * unmapped tables, `*` (`ANY_SCOPE`), is defined there, beside the triggers that write it.
 */
export const contentScope = {
  /** The store's settings and review groups: every cached answer of the store reads them. */
  store: (storeId: string) => `store:${storeId}`,
  /** A product: its reviews and everything about them, questions, aggregate, AI content. */
  product: (storeId: string, productId: string) => `product:${storeId}:${productId}`,
  /** A review group: the same for the group. */
  group: (storeId: string, groupId: string) => `group:${storeId}:${groupId}`,
  /** Any review content of the store (store-wide listings, media and aggregate). */
  storeReviews: (storeId: string) => `reviews:${storeId}`,
  /** The store's loyalty program, customers and transactions. */
  loyalty: (storeId: string) => `loyalty:${storeId}`,
  /** The store's widget settings (texts, colours, which widgets show). */
  widgets: (storeId: string) => `widgets:${storeId}`,
  /** The store's surveys, their questions, channel surveys and responses. */
  surveys: (storeId: string) => `surveys:${storeId}`,
};

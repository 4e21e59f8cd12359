/**
 * Names of content scopes (server/db/content-scopes.ts, decision 0007) and the internal response header a
 * storefront loader declares them in. The HTTP layer reads the header to decide which commits make the
 * cached answer stale, and strips it: it never reaches a client.
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
};

/** Internal response header: the content scopes an answer read, each URI-encoded, space-separated. */
export const CONTENT_SCOPES_HEADER = "x-chorus-content-scopes";

/** The header value for `scopes` (ASCII whatever the IDs hold). */
export const scopesHeaderValue = (scopes: readonly string[]) => scopes.map(encodeURIComponent).join(" ");

/** The scopes in a header value, or null when there is none (the answer may have read anything). */
export function parseScopesHeader(value: string | null | undefined): string[] | null {
  if (!value) return null;
  try {
    return value.split(" ").map(decodeURIComponent);
  } catch {
    return null; // not ours: treat as unscoped
  }
}

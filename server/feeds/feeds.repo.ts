/**
 * Product feed data (SQL, issue #38, docs/google-shopping.md): product identifiers per product and variant, the
 * feed token per store, the published reviews of the Google Product Reviews feed in keyset batches, and the
 * per-product coverage the admin shows. Every query names the store.
 */
import { all, one, run, sql, type Db } from "../db/database.ts";

/** Who wrote an identifier row: a platform webhook replaces only its own rows. */
export type IdentifierSource = "shopify" | "csv" | "signed-webhook";
/** Identifiers of a product (`variantId` '' or undefined) or of one of its variants. Empty strings are stored as NULL. */
export type ProductIdentifiers = { productId: string; variantId?: string; gtin?: string | null; mpn?: string | null; sku?: string | null; brand?: string | null };
export type IdentifierRow = { product_id: string; variant_id: string; gtin: string | null; mpn: string | null; sku: string | null; brand: string | null };

/** One published review of the feed, with its product and (when it came from a review request) the order. */
export type FeedReviewRow = {
  review_id: string;
  product_id: string;
  rating: number;
  title: string;
  body: string;
  reviewer_name: string;
  created_ms: number;
  product_name: string;
  product_url: string | null;
  order_id: string | null;
};

/** Per product with published reviews: what the feed can say about it (admin, docs/google-shopping.md "Coverage"). */
export type CoverageRow = {
  product_id: string;
  name: string;
  url: string | null;
  reviewCount: number;
  withContent: number;
  gtins: number;
  mpns: number;
  skus: number;
  brands: number;
};

const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === "" ? null : v.trim());

/** Create the feed data module over `db`. Every function returns a promise. */
export function feedsRepo(db: Db) {
  return {
    /**
     * Replace the identifiers a source wrote for a product (caller's transaction): its rows of that source go,
     * `rows` come in (a row of another source for the same variant is overwritten: the latest word wins).
     */
    async replaceIdentifiers(storeId: string, productId: string, source: IdentifierSource, rows: readonly ProductIdentifiers[], nowMs: number): Promise<void> {
      await run(db, sql`DELETE FROM product_identifiers WHERE store_id = ${storeId} AND product_id = ${productId} AND source = ${source}`);
      for (const r of rows) await this.upsertIdentifiers(storeId, { ...r, productId }, source, nowMs);
    },
    /** Insert or update one product's or variant's identifiers (fields left undefined are kept on update). */
    async upsertIdentifiers(storeId: string, r: ProductIdentifiers, source: IdentifierSource, nowMs: number): Promise<void> {
      const keep = (field: "gtin" | "mpn" | "sku" | "brand") => (r[field] === undefined ? 1 : 0);
      await run(
        db,
        sql`INSERT INTO product_identifiers (store_id, product_id, variant_id, gtin, mpn, sku, brand, source, updated_ms)
        VALUES (${storeId}, ${r.productId}, ${r.variantId ?? ""}, ${blank(r.gtin)}, ${blank(r.mpn)}, ${blank(r.sku)}, ${blank(r.brand)}, ${source}, ${nowMs})
        ON CONFLICT (store_id, product_id, variant_id) DO UPDATE SET
          gtin = CASE WHEN ${keep("gtin")} = 1 THEN product_identifiers.gtin ELSE excluded.gtin END,
          mpn = CASE WHEN ${keep("mpn")} = 1 THEN product_identifiers.mpn ELSE excluded.mpn END,
          sku = CASE WHEN ${keep("sku")} = 1 THEN product_identifiers.sku ELSE excluded.sku END,
          brand = CASE WHEN ${keep("brand")} = 1 THEN product_identifiers.brand ELSE excluded.brand END,
          source = excluded.source, updated_ms = excluded.updated_ms`,
      );
    },
    /** The identifier rows of some products (one feed batch's products). */
    identifiersOf: (storeId: string, productIds: readonly string[]): Promise<IdentifierRow[]> =>
      productIds.length === 0
        ? Promise.resolve([])
        : all<IdentifierRow>(
            db,
            sql`SELECT product_id, variant_id, gtin, mpn, sku, brand FROM product_identifiers
        WHERE store_id = ${storeId} AND product_id IN (${sql.join([...productIds])}) ORDER BY product_id, variant_id`,
          ),
    /**
     * At most `limit` published reviews after the keyset position `after` ([created_ms, review_id], oldest first):
     * one query per batch over the partial index `reviews_store_date`.
     */
    feedReviews: (storeId: string, after: readonly [number, string] | undefined, limit: number): Promise<FeedReviewRow[]> =>
      all<FeedReviewRow>(
        db,
        sql`SELECT r.review_id, r.product_id, r.rating, r.title, r.body, r.reviewer_name, r.created_ms,
          p.name AS product_name, p.url AS product_url,
          (SELECT rq.order_id FROM review_request_products rp JOIN review_requests rq ON rq.request_id = rp.request_id
            WHERE rp.store_id = r.store_id AND rp.review_id = r.review_id LIMIT 1) AS order_id
        FROM reviews r JOIN products p ON p.store_id = r.store_id AND p.product_id = r.product_id
        WHERE r.store_id = ${storeId} AND r.status = 'published'
          ${after ? sql`AND (r.created_ms > ${after[0]} OR (r.created_ms = ${after[0]} AND r.review_id > ${after[1]}))` : sql``}
        ORDER BY r.created_ms, r.review_id LIMIT ${limit}`,
      ),
    /** Every product with published reviews: review counts and how many identifiers of each kind it has. */
    coverage: (storeId: string): Promise<CoverageRow[]> =>
      all<CoverageRow>(
        db,
        sql`SELECT p.product_id, p.name, p.url, c."reviewCount", c."withContent",
          COALESCE(i.gtins, 0) AS gtins, COALESCE(i.mpns, 0) AS mpns, COALESCE(i.skus, 0) AS skus, COALESCE(i.brands, 0) AS brands
        FROM (SELECT product_id, COUNT(*) AS "reviewCount", SUM(CASE WHEN TRIM(body) <> '' THEN 1 ELSE 0 END) AS "withContent"
                FROM reviews WHERE store_id = ${storeId} AND status = 'published' GROUP BY product_id) c
        JOIN products p ON p.store_id = ${storeId} AND p.product_id = c.product_id
        LEFT JOIN (SELECT product_id, COUNT(gtin) AS gtins, COUNT(mpn) AS mpns, COUNT(sku) AS skus, COUNT(brand) AS brands
                     FROM product_identifiers WHERE store_id = ${storeId} GROUP BY product_id) i ON i.product_id = c.product_id
        ORDER BY c."reviewCount" DESC, p.product_id`,
      ),
    /** Which of `productIds` the store has (a CSV line of another product is reported, not stored). */
    knownProducts: async (storeId: string, productIds: readonly string[]): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < productIds.length; i += 500) {
        const chunk = productIds.slice(i, i + 500);
        out.push(...(await all<{ product_id: string }>(db, sql`SELECT product_id FROM products WHERE store_id = ${storeId} AND product_id IN (${sql.join([...chunk])})`)).map((r) => r.product_id));
      }
      return out;
    },
    /** The store's sealed feed token, or undefined. */
    token: async (storeId: string): Promise<string | undefined> => (await one<{ token_sealed: string }>(db, sql`SELECT token_sealed FROM feed_tokens WHERE store_id = ${storeId}`))?.token_sealed,
    /**
     * Store a first token unless one exists (exactly once across nodes: the primary key with ON CONFLICT DO NOTHING;
     * the loser reads the winner's). @returns whether this call stored it.
     */
    createToken: async (storeId: string, sealed: string, nowMs: number): Promise<boolean> =>
      (await run(db, sql`INSERT INTO feed_tokens (store_id, token_sealed, created_ms) VALUES (${storeId}, ${sealed}, ${nowMs}) ON CONFLICT (store_id) DO NOTHING`)).changes === 1,
    /** Replace the store's token (rotation): the old URL stops working at once. */
    async setToken(storeId: string, sealed: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`INSERT INTO feed_tokens (store_id, token_sealed, created_ms) VALUES (${storeId}, ${sealed}, ${nowMs})
        ON CONFLICT (store_id) DO UPDATE SET token_sealed = excluded.token_sealed, created_ms = excluded.created_ms`,
      );
    },
  };
}
export type FeedsRepo = ReturnType<typeof feedsRepo>;

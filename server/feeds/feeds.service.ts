/**
 * Product feeds for Google Shopping (issue #38, docs/google-shopping.md): the Google Product Reviews feed of a
 * store behind a secret URL, its token (created on first use, rotated on request), the per-product coverage the
 * admin shows, and product identifiers from a CSV file.
 *
 * The token is 32 random bytes (base64url) sealed at rest with the installation key (platforms/secret-box.ts: it
 * must be shown again in the admin and in `GET /enterprise/settings`, so it cannot be a hash), and a presented
 * token is compared in constant time (SHA-256 of both, `timingSafeEqual`).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { ApiError, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { CoverageRow, FeedsRepo, IdentifierRow, ProductIdentifiers } from "./feeds.repo.ts";
import { feedStream, type FeedReview } from "./google-product-reviews.ts";
import { merchantFeedStream } from "./google-merchant-reviews.ts";
import type { StoreReviewsRepo } from "../store-reviews/store-reviews.repo.ts";

/** Reviews read per batch of the feed. */
export const FEED_BATCH_SIZE = 500;
/** Largest identifiers CSV accepted, in bytes (about 100,000 rows). */
export const IDENTIFIERS_CSV_MAX_BYTES = 8 * 1024 * 1024;

/** The feeds section of the store settings (GET /enterprise/settings). */
export const feedSettingsSchema = z
  .object({
    googleProductReviewsUrl: z
      .string()
      .meta({ description: "The Google Product Reviews feed (schema 2.4) of the store, with its secret token: paste it into Merchant Center's scheduled fetch. Built from PUBLIC_URL." }),
    googleMerchantReviewsUrl: z.string().meta({
      description: "The merchant review feed (Google seller ratings, schema 5.0) of the store's published store reviews, with the same secret token. Built from PUBLIC_URL.",
    }),
  })
  .meta({ id: "FeedSettings" });
/** A change to the feeds section (PATCH /enterprise/settings). */
export const feedSettingsPatch = z
  .object({
    rotateGoogleProductReviewsToken: z
      .literal(true)
      .optional()
      .meta({ description: "`true`: a new secret token; the old feed URL stops working at once (answer 401). Update the URL in Merchant Center." }),
  })
  .strict();
export type FeedSettings = z.output<typeof feedSettingsSchema>;
export type FeedSettingsPatch = z.output<typeof feedSettingsPatch>;

/**
 * Whether `code` is a GTIN (GTIN-8, UPC-A 12, EAN-13 or GTIN-14 digits) with a valid GS1 check digit (the last
 * digit: weights 3 and 1 from the right, the sum a multiple of 10).
 */
export function isGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  let sum = 0;
  for (let i = code.length - 2, w = 3; i >= 0; i--, w = 4 - w) sum += Number(code[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(code[code.length - 1]);
}

/** What the feed lacks for one product, and how many of its published reviews Google can take. */
export type ProductCoverage = {
  productId: string;
  name: string;
  reviewCount: number;
  acceptedCount: number;
  /** `gtin-or-brand-mpn`: neither a GTIN nor brand plus MPN; `product-url`: no product page; `content`: reviews without text. */
  lacks: ("gtin-or-brand-mpn" | "product-url" | "content")[];
};
export type FeedCoverage = { products: ProductCoverage[]; reviewCount: number; acceptedCount: number; inFeedCount: number; productsLacking: number };

/** One line of the identifiers CSV that was not taken, with why (line numbers count the header as 1). */
export type CsvLineError = { line: number; message: string };
export type IdentifiersImport = { imported: number; errors: CsvLineError[] };

const csvRow = z.object({
  productId: z.string().trim().min(1, "productId is required").max(100),
  variantId: z.string().trim().max(100).optional(),
  gtin: z
    .string()
    .trim()
    .max(14)
    .optional()
    .refine((v) => !v || isGtin(v), "gtin must be 8, 12, 13 or 14 digits with a valid check digit"),
  mpn: z.string().trim().max(70).optional(),
  sku: z.string().trim().max(100).optional(),
  brand: z.string().trim().max(70).optional(),
});

/**
 * A page URL for a product the platform gave none (`productKey`: `{platform}-{id}`), or null: the caller's
 * (the demo store's own product pages, app/lib/feeds.server.ts).
 */
export type ProductPageFallback = (storeId: string, productKey: string, origin: string) => string | null;

/** Create the service. `batchSize`: reviews read per feed batch (default FEED_BATCH_SIZE). */
export function feedsService(deps: {
  db: Db;
  repo: FeedsRepo;
  stores: StoresRepo;
  box: SecretBox;
  /** Store reviews and the shop's address, for the merchant review feed (server/store-reviews). */
  storeReviews?: Pick<StoreReviewsRepo, "feedReviews">;
  shopUrl?: (storeId: string) => Promise<string | null>;
  now?: () => number;
  batchSize?: number;
}) {
  const { db, repo, box } = deps;
  const now = deps.now ?? Date.now;
  const batchSize = deps.batchSize ?? FEED_BATCH_SIZE;

  /** The store's token in clear, created on first use. */
  async function tokenOf(storeId: string): Promise<string> {
    const sealed = await repo.token(storeId);
    if (sealed) {
      try {
        return box.open(sealed);
      } catch {
        // sealed under another installation key: a new token below
      }
    }
    const fresh = randomBytes(32).toString("base64url");
    if (sealed) await repo.setToken(storeId, box.seal(fresh), now());
    else if (!(await repo.createToken(storeId, box.seal(fresh), now()))) return tokenOf(storeId); // another node created it first
    return fresh;
  }
  const digest = (s: string) => createHash("sha256").update(s).digest();
  const productUrlOf = (fallback: ProductPageFallback | undefined, storeId: string, platform: string, origin: string, productId: string, url: string | null) =>
    url ?? fallback?.(storeId, `${platform}-${productId}`, origin) ?? null;
  /** The store of a feed request with a valid token. @throws ApiError 404 unknown store (or no feed URL yet), 401 a missing or wrong token. */
  async function checkedStore(storeId: string, token: string | undefined) {
    const store = await deps.stores.get(storeId);
    const sealed = store ? await repo.token(storeId) : undefined;
    if (!store || !sealed) throw notFound("No feed for this store", "feed_not_found");
    let expected: string;
    try {
      expected = box.open(sealed);
    } catch {
      throw new ApiError(401, "The feed token is not valid: copy the feed URL from the admin again", "invalid_feed_token");
    }
    if (!token || !timingSafeEqual(digest(expected), digest(token))) {
      throw new ApiError(401, "The feed token is missing or not valid: copy the feed URL from the admin or GET /enterprise/settings", "invalid_feed_token");
    }
    return store;
  }
  const identifiable = (c: Pick<CoverageRow, "gtins" | "brands" | "mpns">) => c.gtins > 0 || (c.brands > 0 && c.mpns > 0);

  return {
    /** The feed's full URL with the token; `origin` is PUBLIC_URL's origin (never the Host header). */
    async googleProductReviewsUrl(storeId: string, origin: string): Promise<string> {
      return `${origin}/v1/stores/${encodeURIComponent(storeId)}/feeds/google-product-reviews.xml?token=${await tokenOf(storeId)}`;
    },
    /** The merchant review feed's full URL (the same token as the Product Reviews feed). */
    async googleMerchantReviewsUrl(storeId: string, origin: string): Promise<string> {
      return `${origin}/v1/stores/${encodeURIComponent(storeId)}/feeds/google-merchant-reviews.xml?token=${await tokenOf(storeId)}`;
    },
    /** A new token: the old URL answers 401 from now on. @throws ApiError 404 unknown store. */
    async rotateToken(storeId: string): Promise<void> {
      if (!(await deps.stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      await repo.setToken(storeId, box.seal(randomBytes(32).toString("base64url")), now());
    },
    /** The feeds section of the settings. */
    async settings(storeId: string, origin: string): Promise<FeedSettings> {
      return { googleProductReviewsUrl: await this.googleProductReviewsUrl(storeId, origin), googleMerchantReviewsUrl: await this.googleMerchantReviewsUrl(storeId, origin) };
    },
    /** Apply a feeds settings patch. */
    async updateSettings(storeId: string, patch: FeedSettingsPatch): Promise<void> {
      if (feedSettingsPatch.parse(patch).rotateGoogleProductReviewsToken) await this.rotateToken(storeId);
    },

    /**
     * GET /v1/stores/{store}/feeds/google-product-reviews.xml: the store's Google Product Reviews feed as a byte
     * stream (google-product-reviews.ts). @throws ApiError 404 unknown store (or one that never made a feed URL),
     * 401 a missing or wrong token.
     */
    async googleProductReviews(storeId: string, token: string | undefined, origin: string, fallback?: ProductPageFallback): Promise<ReadableStream<Uint8Array>> {
      const store = await checkedStore(storeId, token);
      let after: [number, string] | undefined;
      return feedStream(store.name, async () => {
        const rows = await repo.feedReviews(storeId, after, batchSize);
        if (rows.length) after = [rows[rows.length - 1].created_ms, rows[rows.length - 1].review_id];
        const ids = new Map<string, IdentifierRow[]>();
        for (const r of await repo.identifiersOf(storeId, [...new Set(rows.map((r) => r.product_id))])) ids.set(r.product_id, [...(ids.get(r.product_id) ?? []), r]);
        const reviews: FeedReview[] = [];
        for (const row of rows) {
          const productUrl = productUrlOf(fallback, storeId, store.platform, origin, row.product_id, row.product_url);
          if (!productUrl || !row.body.trim()) continue; // Google requires content and a product page (coverage counts these)
          reviews.push({ row, identifiers: ids.get(row.product_id) ?? [], productUrl });
        }
        return { reviews, done: rows.length < batchSize };
      });
    },

    /**
     * GET /v1/stores/{store}/feeds/google-merchant-reviews.xml: the store's merchant review feed (Google seller
     * ratings) as a byte stream (google-merchant-reviews.ts): every published store review with text, oldest
     * first. The merchant's URL is the shop's address (sign-up), else `origin`.
     * @throws ApiError 404 unknown store (or one that never made a feed URL), 401 a missing or wrong token.
     */
    async googleMerchantReviews(storeId: string, token: string | undefined, origin: string): Promise<ReadableStream<Uint8Array>> {
      const store = await checkedStore(storeId, token);
      const shopUrl = (await deps.shopUrl?.(storeId)) ?? origin;
      let after: [number, string] | undefined;
      return merchantFeedStream({ id: storeId, name: store.name, url: shopUrl }, async () => {
        const rows = deps.storeReviews ? await deps.storeReviews.feedReviews(storeId, after, batchSize) : [];
        if (rows.length) after = [rows[rows.length - 1].created_ms, rows[rows.length - 1].review_id];
        return { rows, done: rows.length < batchSize };
      });
    },

    /** Per product with published reviews: what the feed lacks and how many reviews Google can take (admin). */
    async coverage(storeId: string, origin: string, fallback?: ProductPageFallback): Promise<FeedCoverage> {
      const platform = (await deps.stores.get(storeId))?.platform ?? "";
      let inFeed = 0;
      const products = (await repo.coverage(storeId)).map((c): ProductCoverage => {
        const hasUrl = !!productUrlOf(fallback, storeId, platform, origin, c.product_id, c.url);
        if (hasUrl) inFeed += Number(c.withContent);
        const lacks: ProductCoverage["lacks"] = [];
        if (!identifiable(c)) lacks.push("gtin-or-brand-mpn");
        if (!hasUrl) lacks.push("product-url");
        if (Number(c.withContent) < Number(c.reviewCount)) lacks.push("content");
        return {
          productId: c.product_id,
          name: c.name,
          reviewCount: Number(c.reviewCount),
          lacks,
          acceptedCount: identifiable(c) && hasUrl ? Number(c.withContent) : 0,
        };
      });
      const sum = (f: (p: ProductCoverage) => number) => products.reduce((n, p) => n + f(p), 0);
      return {
        products,
        reviewCount: sum((p) => p.reviewCount),
        acceptedCount: sum((p) => p.acceptedCount),
        inFeedCount: inFeed,
        productsLacking: products.filter((p) => p.lacks.includes("gtin-or-brand-mpn")).length,
      };
    },

    /**
     * Product identifiers from a CSV file (docs/google-shopping.md "Product identifiers"): a header line naming
     * `productId` and any of `variantId`, `gtin`, `mpn`, `sku`, `brand`; one product or variant per line. Valid
     * lines are stored in one transaction (an empty cell keeps the stored value); the others are reported.
     * @throws ApiError 400 when the file is not CSV, is too large or lacks the `productId` column.
     */
    async importIdentifiersCsv(storeId: string, csv: string | Buffer): Promise<IdentifiersImport> {
      const store = await deps.stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      if (Buffer.byteLength(csv) > IDENTIFIERS_CSV_MAX_BYTES) throw new ApiError(400, "The file is larger than 8 MB", "file_too_large");
      let records: Record<string, string>[];
      try {
        records = parse(csv, { columns: (h: string[]) => h.map((c) => c.trim()), bom: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as Record<string, string>[];
      } catch (error) {
        throw new ApiError(400, `The file is not valid CSV: ${(error as Error).message}`, "invalid_csv");
      }
      if (records.length && !("productId" in records[0])) throw new ApiError(400, "The first line must name the columns, with productId among them", "invalid_csv");
      const errors: CsvLineError[] = [];
      const rows: { line: number; ids: ProductIdentifiers }[] = [];
      records.forEach((record, i) => {
        const parsed = csvRow.safeParse(Object.fromEntries(Object.entries(record).filter(([, v]) => v !== "")));
        if (!parsed.success) {
          errors.push({ line: i + 2, message: parsed.error.issues.map((x) => x.message).join("; ") });
          return;
        }
        const p = parsed.data;
        const productId = p.productId.startsWith(`${store.platform}-`) ? p.productId.slice(store.platform.length + 1) : p.productId;
        rows.push({ line: i + 2, ids: { productId, variantId: p.variantId ?? "", gtin: p.gtin, mpn: p.mpn, sku: p.sku, brand: p.brand } });
      });
      let imported = 0;
      await transaction(db, async () => {
        imported = 0;
        const known = new Set(await repo.knownProducts(storeId, [...new Set(rows.map((r) => r.ids.productId))]));
        for (const r of rows) {
          if (!known.has(r.ids.productId)) {
            errors.push({ line: r.line, message: `unknown product ${r.ids.productId}` });
            continue;
          }
          await repo.upsertIdentifiers(storeId, r.ids, "csv", now());
          imported++;
        }
      });
      errors.sort((a, b) => a.line - b.line);
      return { imported, errors };
    },
  };
}
export type FeedsService = ReturnType<typeof feedsService>;

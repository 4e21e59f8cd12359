/**
 * Schema.org structured data (JSON-LD) of a product's reviews, for search engines' review snippets
 * (issue #25; Google Search Central, "Review snippet" structured data): one `Product` with its
 * `aggregateRating` and up to 10 `Review` items. Pure: the caller reads the product row, the aggregate and
 * the first reviews from the same scope the widgets show, so the stars in search results agree with the page.
 *
 * Rules followed (Google's review-snippet guidelines):
 * - nothing at all when the product has no published reviews (no zero ratings);
 * - product scope only: store-wide or group listings are never marked up as one product's reviews
 *   (self-serving store reviews are not product reviews);
 * - `ratingValue` rounded exactly as the widgets show it (server/contract/rating.ts), with `bestRating` 5 and
 *   `worstRating` 1; `reviewCount` is the published count of `review_aggregate`.
 */
import { roundRating } from "../contract/rating.ts";
import type { Review } from "../contract/storefront.ts";

/** At most this many `Review` items per product (Google shows one; more only repeat the page). */
export const STRUCTURED_DATA_REVIEWS = 10;

/** The product fields the markup names (from the products table, kept real by the platform connection). */
export type StructuredDataProduct = { name: string; url?: string; imageUrl?: string; productKey: string };

/** JSON-LD `Product` (a plain JSON object, `@context` included). */
export type ProductJsonLd = {
  "@context": "https://schema.org";
  "@type": "Product";
  name: string;
  sku: string;
  url?: string;
  image?: string;
  aggregateRating: { "@type": "AggregateRating"; ratingValue: number; reviewCount: number; bestRating: 5; worstRating: 1 };
  review: ReviewJsonLd[];
};
type ReviewJsonLd = {
  "@type": "Review";
  author: { "@type": "Person"; name: string };
  datePublished: string;
  name?: string;
  reviewBody?: string;
  reviewRating: { "@type": "Rating"; ratingValue: number; bestRating: 5; worstRating: 1 };
};

/**
 * A review's `body` as typed: the storefront serves it HTML-safe (`&`, `<`, `>` as entities, docs/api.md, Okendo-compatible;
 * server/contract/html-text.ts); JSON-LD carries plain text (its script escapes `<` itself: jsonLdScript).
 */
const plainText = (text: string): string => text.replace(/&(?:amp|lt|gt);/g, (e) => ({ "&amp;": "&", "&lt;": "<", "&gt;": ">" })[e]!);

/** An absolute http(s) URL, else undefined (a relative or odd URL in a product row is left out, not guessed). */
function absoluteUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The product's JSON-LD, or null when it has no published reviews.
 * @param aggregate `reviewCount` and unrounded `averageRating` (0..5) of the product's review_aggregate
 * @param reviews the first published reviews in the widgets' default order (only the first 10 are used)
 */
export function productJsonLd(product: StructuredDataProduct, aggregate: { reviewCount: number; averageRating: number }, reviews: readonly Review[]): ProductJsonLd | null {
  if (aggregate.reviewCount <= 0) return null;
  const url = absoluteUrl(product.url);
  const image = absoluteUrl(product.imageUrl);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    sku: product.productKey,
    ...(url ? { url } : {}),
    ...(image ? { image } : {}),
    aggregateRating: { "@type": "AggregateRating", ratingValue: roundRating(aggregate.averageRating), reviewCount: aggregate.reviewCount, bestRating: 5, worstRating: 1 },
    review: reviews.slice(0, STRUCTURED_DATA_REVIEWS).map((r) => ({
      "@type": "Review",
      author: { "@type": "Person", name: r.reviewer.displayName },
      datePublished: r.dateCreated.slice(0, 10),
      ...(r.title ? { name: r.title } : {}),
      ...(r.body ? { reviewBody: plainText(r.body) } : {}),
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    })),
  };
}

/** `<script type="application/ld+json">` holding `data`; `<` escaped so no text in it can end the script. */
export function jsonLdScript(data: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

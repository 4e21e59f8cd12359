/**
 * Google's Product Reviews feed, schema version 2.4 (docs/google-shopping.md "The feed"), written as a byte stream
 * one keyset batch at a time: memory holds one batch of reviews whatever the store's size, a slow reader slows
 * the reads, and a reader that goes away cancels them.
 *
 * Element order follows Google's schema (`feed`: version, aggregator, publisher, reviews; `review`: review_id,
 * reviewer, review_timestamp, title, content, review_url, ratings, products, is_spam, collection_method,
 * transaction_id). Text and attributes are escaped by fast-xml-parser's XMLBuilder; characters XML 1.0 cannot
 * hold at all (C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone surrogates) are dropped first.
 *
 * A review goes into the feed when Google's required elements can be filled: non-empty text (`content`) and a
 * product page (`product_url`, also the base of `review_url`). Others are counted by coverage (feeds.service.ts).
 */
import { XMLBuilder } from "fast-xml-parser";
import { isoFromMs } from "../shared/iso-date.ts";
import type { FeedReviewRow, IdentifierRow } from "./feeds.repo.ts";

/** The schema version the feed declares. */
export const GOOGLE_FEED_VERSION = "2.4";
/** Where Google publishes the schema (named in the root element, as its sample feed does). */
export const GOOGLE_FEED_SCHEMA_URL = "http://www.google.com/shopping/reviews/schema/product/2.4/product_reviews.xsd";

// eslint-disable-next-line no-control-regex -- matching the control characters XML 1.0 forbids is the point
const INVALID_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** `text` without the characters XML 1.0 cannot represent. */
export const xmlSafe = (text: string): string => text.replace(INVALID_XML, "");

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, suppressBooleanAttributes: false, processEntities: true });

/** A review ready to write: the row, its product's identifiers and the product page URL (absolute). */
export type FeedReview = { row: FeedReviewRow; identifiers: readonly IdentifierRow[]; productUrl: string };

/** The distinct non-null values of one identifier kind, in row order. */
const distinct = (rows: readonly IdentifierRow[], field: "gtin" | "mpn" | "sku" | "brand") => [...new Set(rows.map((r) => r[field]).filter((v): v is string => !!v))].map(xmlSafe);

/** Whether a reviewer name hides the person (empty, or the "Anonymous…" the importers write). */
export const isAnonymousName = (name: string) => !name.trim() || /^anonymous\b/i.test(name.trim());

/** The `<review>` object of one review (XMLBuilder's shape: `@_` attributes, `#text` content). */
function reviewElement({ row, identifiers, productUrl }: FeedReview) {
  const ids = { gtins: distinct(identifiers, "gtin"), mpns: distinct(identifiers, "mpn"), skus: distinct(identifiers, "sku"), brands: distinct(identifiers, "brand") };
  const productIds: Record<string, unknown> = {};
  if (ids.gtins.length) productIds.gtins = { gtin: ids.gtins };
  if (ids.mpns.length) productIds.mpns = { mpn: ids.mpns };
  if (ids.skus.length) productIds.skus = { sku: ids.skus };
  if (ids.brands.length) productIds.brands = { brand: ids.brands };
  const anonymous = isAnonymousName(row.reviewer_name);
  const title = xmlSafe(row.title).trim();
  const review: Record<string, unknown> = {
    review_id: row.review_id,
    reviewer: { name: { "#text": anonymous ? "Anonymous" : xmlSafe(row.reviewer_name).trim(), "@_is_anonymous": anonymous ? "true" : "false" } },
    review_timestamp: isoFromMs(row.created_ms),
    ...(title ? { title } : {}),
    content: xmlSafe(row.body).trim(),
    review_url: { "#text": `${productUrl}#review-${encodeURIComponent(row.review_id)}`, "@_type": "singleton" },
    ratings: { overall: { "#text": String(row.rating), "@_min": "1", "@_max": "5" } },
    products: {
      product: {
        ...(Object.keys(productIds).length ? { product_ids: productIds } : {}),
        product_name: xmlSafe(row.product_name),
        product_url: productUrl,
      },
    },
    is_spam: "false",
    collection_method: row.order_id ? "post_fulfillment" : "unsolicited",
    ...(row.order_id ? { transaction_id: xmlSafe(row.order_id) } : {}),
  };
  return review;
}

/** The XML of some reviews (a run of `<review>` elements). */
export const reviewsXml = (reviews: readonly FeedReview[]): string => (reviews.length ? (builder.build({ review: reviews.map(reviewElement) }) as string) : "");

/** The feed's opening: declaration, root, version, aggregator (Chorus), publisher (the store). */
export function feedHead(publisherName: string): string {
  const head = builder.build({ version: GOOGLE_FEED_VERSION, aggregator: { name: "Chorus" }, publisher: { name: xmlSafe(publisherName) } }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="${GOOGLE_FEED_SCHEMA_URL}">${head}`;
}
/** The feed's closing. */
export const FEED_TAIL = "</feed>\n";

/** One batch of a feed stream; `done`: the last one. */
export type FeedBatch = { reviews: FeedReview[]; done: boolean };

/**
 * The feed as a byte stream: the head, then the batches of `nextBatch` (called once per pull, the next pull only
 * after its promise settled; `done` ends the feed) inside `<reviews>` (left out when there is no review: Google's
 * `reviews` holds one or more), then the tail. highWaterMark 1: one batch in memory.
 */
export function feedStream(publisherName: string, nextBatch: () => Promise<FeedBatch>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  let ended = false;
  let opened = false;
  /** The batch's XML, after `<reviews>` when it is the first with a review. */
  const open = (xml: string) => {
    if (!xml || opened) return xml;
    opened = true;
    return `<reviews>${xml}`;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(feedHead(publisherName)));
          return;
        }
        // Batches until one has something to write (a pull that enqueues nothing is not called again).
        while (!ended) {
          const { reviews, done } = await nextBatch();
          const xml = open(reviewsXml(reviews));
          if (done) {
            ended = true;
            controller.enqueue(encoder.encode(xml + (opened ? "</reviews>" : "") + FEED_TAIL));
            controller.close();
          } else if (xml) {
            controller.enqueue(encoder.encode(xml));
            return;
          }
        }
      },
    },
    { highWaterMark: 1 },
  );
}

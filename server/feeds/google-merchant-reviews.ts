/**
 * Google's merchant review feed, schema 5.0 (docs/google-shopping.md "Seller ratings"): the store's published
 * store reviews for Google seller ratings, written as a byte stream one keyset batch at a time like the Product
 * Reviews feed (google-product-reviews.ts): memory holds one batch whatever the store's size.
 *
 * Shape (Google's element order): `feed` (namespace `http://schemas.google.com/merchant_reviews/5.0`) with
 * `merchants/merchant id=…` (name, merchant_url) and `reviews/review id=… mid=…` (reviewer_name,
 * create_timestamp, last_update_timestamp, title, content, ratings/overall min=1 max=5, collection_method:
 * `after_fulfillment` for a review from a review request's order, else `unsolicited`). An anonymous reviewer has
 * no `reviewer_name` (the element is optional); a review without text is left out (`content` is required).
 */
import { XMLBuilder } from "fast-xml-parser";
import { isoFromMs } from "../shared/iso-date.ts";
import type { StoreReviewRow } from "../store-reviews/store-reviews.repo.ts";
import { isAnonymousName, xmlSafe } from "./google-product-reviews.ts";

/** The namespace the feed declares. */
export const MERCHANT_REVIEWS_NAMESPACE = "http://schemas.google.com/merchant_reviews/5.0";
/** Where Google publishes the schema (named in `xsi:schemaLocation`, as Google asks). */
export const MERCHANT_REVIEWS_SCHEMA_URL = "http://www.gstatic.com/productsearch/static/reviews/5.0/merchant_reviews.xsd";

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, processEntities: true });

/** The merchant of the feed: `id` (the store ID: stable across feeds), name and shop address. */
export type FeedMerchant = { id: string; name: string; url: string };

/** The `<review>` object of one store review. */
function reviewElement(row: StoreReviewRow, merchantId: string) {
  const title = xmlSafe(row.title).trim();
  return {
    "@_id": row.review_id,
    "@_mid": merchantId,
    ...(isAnonymousName(row.reviewer_name) ? {} : { reviewer_name: xmlSafe(row.reviewer_name).trim() }),
    create_timestamp: isoFromMs(row.created_ms),
    last_update_timestamp: isoFromMs(Math.max(row.updated_ms, row.created_ms)),
    ...(title ? { title } : {}),
    content: xmlSafe(row.body).trim(),
    ratings: { overall: { "#text": String(row.rating), "@_min": "1", "@_max": "5" } },
    collection_method: row.order_id ? "after_fulfillment" : "unsolicited",
  };
}

/** The XML of some store reviews (a run of `<review>` elements; reviews without text are left out). */
export const merchantReviewsXml = (rows: readonly StoreReviewRow[], merchantId: string): string => {
  const kept = rows.filter((r) => r.body.trim());
  return kept.length ? (builder.build({ review: kept.map((r) => reviewElement(r, merchantId)) }) as string) : "";
};

/** The feed's opening: declaration, root with Google's namespace and schema location, and the merchant. */
export function merchantFeedHead(merchant: FeedMerchant): string {
  const merchants = builder.build({ merchants: { merchant: { "@_id": merchant.id, name: xmlSafe(merchant.name), merchant_url: merchant.url } } }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="${MERCHANT_REVIEWS_NAMESPACE}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${MERCHANT_REVIEWS_NAMESPACE} ${MERCHANT_REVIEWS_SCHEMA_URL}">${merchants}`;
}

/**
 * The feed as a byte stream: the head, then the batches of `nextBatch` (called once per pull, the next only after
 * its promise settled; `done` ends the feed) inside `<reviews>` (left out when no review has text), then `</feed>`.
 * highWaterMark 1: one batch in memory.
 */
export function merchantFeedStream(merchant: FeedMerchant, nextBatch: () => Promise<{ rows: StoreReviewRow[]; done: boolean }>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  let opened = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(merchantFeedHead(merchant)));
          return;
        }
        for (;;) {
          const { rows, done } = await nextBatch();
          let xml = merchantReviewsXml(rows, merchant.id);
          if (xml && !opened) {
            opened = true;
            xml = `<reviews>${xml}`;
          }
          if (done) {
            controller.enqueue(encoder.encode(`${xml}${opened ? "</reviews>" : ""}</feed>\n`));
            controller.close();
            return;
          }
          if (xml) {
            controller.enqueue(encoder.encode(xml));
            return;
          }
        }
      },
    },
    { highWaterMark: 1 },
  );
}

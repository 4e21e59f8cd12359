/**
 * Google's merchant review feed, schema 5.0 (Google seller ratings), transcribed from Google's documentation
 * ("Merchant Review Feeds", XML Schema: the element tables of `feed`, `merchants`, `merchant`, `reviews`,
 * `review`, `ratings`) into zod, over fast-xml-parser's output of a feed (`parseMerchantFeed`). "Required (1)"
 * is a required key, "Optional" an optional one; types: xs:string (non-empty where Google says so),
 * xs:dateTime, xs:anyURI, xs:decimal, the `collection_method` enumeration. Element order (xs:sequence) is
 * checked by `checkMerchantOrder`; review IDs unique and every `mid` naming a merchant of the feed by
 * `validateMerchantFeed`.
 */
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";

const REPEATED = new Set(["merchant", "review", "deleted_merchant", "deleted_review"]);

/** Parse a feed: attributes as `@_name`, text as `#text` where an element has attributes, every value a string. */
export function parseMerchantFeed(xml: string): unknown {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    textNodeName: "#text",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (name) => REPEATED.has(name),
  }).parse(xml, true);
}

const nonEmpty = z.string().refine((s) => s.trim().length > 0, "must not be empty");
const dateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, "must be an xs:dateTime");
const anyUri = z.string().refine((s) => URL.canParse(s) && /^https?:/.test(s), "must be an absolute http(s) URI");
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, "must be an xs:decimal");
/** Google's `Id`: unique and stable across feeds. */
const id = nonEmpty;

/** A rating: its value with `min` and `max` (required; max greater than min, the value between them). */
const rating = z
  .object({ "#text": decimal, "@_min": decimal, "@_max": decimal })
  .strict()
  .refine((r) => Number(r["@_max"]) > Number(r["@_min"]) && Number(r["#text"]) >= Number(r["@_min"]) && Number(r["#text"]) <= Number(r["@_max"]), "the rating must lie in min..max");

/** `<merchant id>`: name (required), merchant_url (required), rating_url, create_timestamp, last_update_timestamp. */
const merchant = z
  .object({
    "@_id": id,
    name: nonEmpty,
    merchant_url: anyUri,
    rating_url: anyUri.optional(),
    create_timestamp: dateTime.optional(),
    last_update_timestamp: dateTime.optional(),
  })
  .strict();

/**
 * `<review id mid>`: reviewer_name, create_timestamp (required), last_update_timestamp, country_code (ISO 3166
 * alpha-2), title, content (required), ratings (required: overall required, customer_service and the other
 * sub-ratings optional), collection_method (`unsolicited`, `after_fulfillment`, `point_of_sale`).
 */
const review = z
  .object({
    "@_id": id,
    "@_mid": id,
    reviewer_name: nonEmpty.optional(),
    create_timestamp: dateTime,
    last_update_timestamp: dateTime.optional(),
    country_code: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional(),
    title: nonEmpty.optional(),
    content: nonEmpty,
    ratings: z
      .object({
        overall: rating,
        customer_service: rating.optional(),
        shipping: rating.optional(),
        returns: rating.optional(),
        pricing: rating.optional(),
        website: rating.optional(),
      })
      .strict(),
    collection_method: z.enum(["unsolicited", "after_fulfillment", "point_of_sale"]).optional(),
  })
  .strict();

const deletedItem = z.object({ "@_id": id, last_update_timestamp: dateTime }).strict();

/** `<feed>` with Google's fixed namespace attributes; every container optional, each holding one or more items. */
export const merchantFeedSchema = z
  .object({
    "?xml": z.object({ "@_version": z.literal("1.0"), "@_encoding": z.literal("UTF-8") }),
    feed: z
      .object({
        "@_xmlns": z.literal("http://schemas.google.com/merchant_reviews/5.0"),
        "@_xmlns:xsi": z.literal("http://www.w3.org/2001/XMLSchema-instance"),
        "@_xsi:schemaLocation": z.string().regex(/^http:\/\/schemas\.google\.com\/merchant_reviews\/5\.0 https?:\/\/www\.gstatic\.com\/productsearch\/static\/reviews\/5\.0\/merchant_reviews\.xsd$/),
        merchants: z
          .object({ merchant: z.array(merchant).min(1) })
          .strict()
          .optional(),
        deleted_merchants: z
          .object({ deleted_merchant: z.array(deletedItem).min(1) })
          .strict()
          .optional(),
        reviews: z
          .object({ review: z.array(review).min(1) })
          .strict()
          .optional(),
        deleted_reviews: z
          .object({ deleted_review: z.array(deletedItem).min(1) })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type MerchantFeed = z.output<typeof merchantFeedSchema>;

const ORDER: Record<string, string[]> = {
  feed: ["merchants", "deleted_merchants", "reviews", "deleted_reviews"],
  merchant: ["name", "merchant_url", "rating_url", "create_timestamp", "last_update_timestamp"],
  review: ["reviewer_name", "create_timestamp", "last_update_timestamp", "country_code", "title", "content", "ratings", "collection_method"],
};

/** Check the element order of the raw XML against the schema's sequences (the parser's objects lose it). */
export function checkMerchantOrder(xml: string): void {
  for (const [parent, children] of Object.entries(ORDER)) {
    const blocks = xml.match(new RegExp(`<${parent}[ >][\\s\\S]*?</${parent}>`, "g")) ?? [];
    for (const block of blocks) {
      const inner = block.slice(block.indexOf(">") + 1);
      const seen = [...inner.matchAll(/<([a-z_]+)[ >/]/g)].map((m) => m[1]).filter((n) => children.includes(n));
      const positions = seen.map((n) => children.indexOf(n));
      if (positions.some((p, i) => i > 0 && p < positions[i - 1])) throw new Error(`<${parent}> children out of order: ${seen.join(", ")}`);
    }
  }
}

/** Validate a parsed feed (throws with zod's issues); review IDs must be unique and name a merchant of the feed. */
export function validateMerchantFeed(parsed: unknown, xml?: string): MerchantFeed {
  const feed = merchantFeedSchema.parse(parsed);
  if (xml) checkMerchantOrder(xml);
  const ids = feed.feed.reviews?.review.map((r) => r["@_id"]) ?? [];
  if (new Set(ids).size !== ids.length) throw new Error("review ids are not unique");
  const merchants = new Set(feed.feed.merchants?.merchant.map((m) => m["@_id"]) ?? []);
  for (const r of feed.feed.reviews?.review ?? []) if (!merchants.has(r["@_mid"])) throw new Error(`review ${r["@_id"]} names an unknown merchant ${r["@_mid"]}`);
  return feed;
}

/**
 * Google's Product Reviews feed, schema 2.4, transcribed from Google's documentation ("Product Review Feeds",
 * XML Schema Reference: the element tables of `feed`, `aggregator`, `publisher`, `reviews`, `review`, `reviewer`,
 * `ratings`, `products`, `product`, `product_ids`) into zod, over fast-xml-parser's output of a feed
 * (`parseGoogleFeed`). Occurrence "Required (1)" is a required key, "Optional" an optional one; element types:
 * xs:string (non-empty where Google says so), xs:dateTime, xs:anyURI, xs:boolean, xs:decimal, enumerations.
 * Element order (the schema's xs:sequence) is checked by `checkOrder`; review_id uniqueness (the feed's
 * uniqueness constraint) by `validateGoogleFeed`.
 */
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";

const REPEATED = new Set(["review", "product", "gtin", "mpn", "sku", "brand", "asin", "pro", "con", "reviewer_image"]);

/** Parse a feed: attributes as `@_name`, text as `#text` where an element has attributes, every value a string. */
export function parseGoogleFeed(xml: string): unknown {
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
const boolean = z.enum(["true", "false", "1", "0"]);
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, "must be an xs:decimal");
/** Text of an element that may carry attributes. */
const textOf = <A extends z.ZodRawShape>(text: z.ZodType<string>, attributes: A) => z.union([text, z.object({ "#text": text, ...attributes }).strict()]);

const nameType = z.object({ name: nonEmpty }).strict();
const idList = <K extends string>(key: K) => z.object({ [key]: z.array(nonEmpty).min(1) } as Record<K, z.ZodArray<typeof nonEmpty>>).strict();

/** `<product_ids>`: every list optional, each of at least one value. */
const productIds = z
  .object({
    gtins: idList("gtin").optional(),
    mpns: idList("mpn").optional(),
    skus: idList("sku").optional(),
    brands: idList("brand").optional(),
    asins: idList("asin").optional(),
  })
  .strict();

/** `<product>`: product_ids (optional), product_name (optional), product_url (required, xs:anyURI). */
const product = z.object({ product_ids: productIds.optional(), product_name: z.string().optional(), product_url: anyUri }).strict();

/** `<review>`, the elements of Google's table in their order. */
export const googleReview = z
  .object({
    review_id: nonEmpty,
    reviewer: z.object({ name: textOf(nonEmpty, { "@_is_anonymous": boolean.optional() }), reviewer_id: nonEmpty.optional() }).strict(),
    review_timestamp: dateTime,
    title: z.string().optional(),
    content: nonEmpty,
    pros: z
      .object({ pro: z.array(nonEmpty) })
      .strict()
      .optional(),
    cons: z
      .object({ con: z.array(nonEmpty) })
      .strict()
      .optional(),
    review_url: z.object({ "#text": anyUri, "@_type": z.enum(["singleton", "group"]) }).strict(),
    reviewer_images: z
      .object({ reviewer_image: z.array(z.object({ url: anyUri }).strict()) })
      .strict()
      .optional(),
    ratings: z
      .object({
        overall: z
          .object({ "#text": decimal, "@_min": z.string().regex(/^\d+$/), "@_max": z.string().regex(/^\d+$/) })
          .strict()
          .refine((o) => Number(o["@_min"]) <= Number(o["#text"]) && Number(o["#text"]) <= Number(o["@_max"]), "overall must lie between min and max"),
      })
      .strict(),
    products: z.object({ product: z.array(product).min(1) }).strict(),
    is_spam: boolean.optional(),
    collection_method: z.enum(["unsolicited", "post_fulfillment"]).optional(),
    transaction_id: nonEmpty.optional(),
  })
  .strict();
export const REVIEW_ORDER = Object.keys(googleReview.shape);

/** The whole document: `<feed>` with version, aggregator (optional), publisher, reviews (optional). */
export const googleFeed = z
  .object({
    "?xml": z.unknown().optional(),
    feed: z
      .object({
        "@_xmlns:vc": z.string().optional(),
        "@_xmlns:xsi": z.string().optional(),
        "@_xsi:noNamespaceSchemaLocation": z.string().optional(),
        version: z.literal("2.4"),
        aggregator: nameType.optional(),
        publisher: z.object({ name: nonEmpty, favicon: anyUri.optional() }).strict(),
        reviews: z
          .object({ review: z.array(googleReview) })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();
export type GoogleFeed = z.output<typeof googleFeed>;

/** Whether `keys` appear in the order of `order` (a subsequence). */
export function inOrder(keys: readonly string[], order: readonly string[]): boolean {
  let at = 0;
  for (const k of keys.filter((k) => !k.startsWith("@_"))) {
    const i = order.indexOf(k, at);
    if (i < 0) return false;
    at = i + 1;
  }
  return true;
}

/** Validate a parsed feed: the schema, element order in `<feed>` and each `<review>`, unique review IDs. @returns the feed. @throws on the first problem. */
export function validateGoogleFeed(parsed: unknown): GoogleFeed {
  const feed = googleFeed.parse(parsed);
  const root = (parsed as { feed: Record<string, unknown> }).feed;
  if (!inOrder(Object.keys(root), ["version", "aggregator", "publisher", "reviews"])) throw new Error(`feed children out of order: ${Object.keys(root).join(", ")}`);
  const raw = (root.reviews as { review?: Record<string, unknown>[] } | undefined)?.review ?? [];
  const ids = new Set<string>();
  raw.forEach((r, i) => {
    if (!inOrder(Object.keys(r), REVIEW_ORDER)) throw new Error(`review ${i}: elements out of order: ${Object.keys(r).join(", ")}`);
    const id = String(r.review_id);
    if (ids.has(id)) throw new Error(`review_id ${id} is not unique`);
    ids.add(id);
  });
  return feed;
}

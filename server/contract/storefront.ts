/**
 * Storefront reviews contract: zod schemas for every query parameter and the TypeScript shapes of
 * every response (docs/api.md: Endpoints and scopes, Query parameters and limits, Responses, Errors). One source: routes parse with these,
 * widgets `import type` the shapes.
 */
import { z } from "zod";

/** `locale` codes: list A and list B, both accepted, case as written (docs/api.md, Query parameters and limits). */
import { REVIEW_TEXT_LOCALES as LOCALES } from "./review-locales.ts";
export { LOCALES };

/**
 * docs/api.md, Query parameters and limits: the seven review orders, plus `unhelpful desc` (most unhelpful votes first, Okendo's
 * "Least Helpful"; docs/api.md, Okendo-compatible); default `date desc`.
 */
export const REVIEW_ORDERS = ["date desc", "date asc", "rating desc", "rating asc", "helpful desc", "helpful asc", "has_media desc", "unhelpful desc"] as const;
export type ReviewOrder = (typeof REVIEW_ORDERS)[number];

/** docs/api.md, Query parameters and limits: storefront list limits 1..25, default 25. */
export const STOREFRONT_MAX_LIMIT = 25;

const limitParam = (max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > max) {
        ctx.addIssue({ code: "custom", message: `limit must be an integer from 1 to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** `lastEvaluated`: a URL-encoded JSON object (already URL-decoded by URLSearchParams). */
export const lastEvaluatedParam = z.string().max(2048, "lastEvaluated is too long").optional();

const listReviewsBaseQuery = z.object({
  limit: limitParam(STOREFRONT_MAX_LIMIT, STOREFRONT_MAX_LIMIT),
  orderBy: z.enum(REVIEW_ORDERS, { error: `orderBy must be one of: ${REVIEW_ORDERS.join(", ")}` }).default("date desc"),
  locale: z
    .string()
    .optional()
    .refine((v) => v === undefined || LOCALES.includes(v), {
      message: `locale must be one of: ${LOCALES.join(", ")}`,
    }),
  lastEvaluated: lastEvaluatedParam,
  /** Only reviews in which this keyword (of reviews_keywords) was identified; case-insensitive. */
  keyword: z.string().trim().toLowerCase().min(1, "keyword must not be empty").max(100, "keyword must be at most 100 characters").optional(),
});
export type ListReviewsQuery = z.output<typeof listReviewsQuery> & { attributeFilters?: AttributeFilter[] };

/**
 * A product attribute filter (docs/api.md, Okendo-compatible; Okendo's `shopperAttributes` / `generalAttributes`): `Title,option1,option2,...`,
 * the attribute's title then one or more of its options (a review matches with any of them). Repeat the
 * parameter to filter on several attributes (a review must match each). Parsed by `parseAttributeFilters`.
 */
const attributeFilterParam = (name: string) =>
  z.string().max(1000, `${name} is too long`).optional().meta({
    description: "Only reviews whose product attribute `Title` has one of the options: `Title,option1,option2` (repeatable, up to 5; see `GET …/attributes`).",
  });

/** `media` filter values: any published photo or video, photos only, videos only. */
export const REVIEW_MEDIA_FILTERS = ["any", "photos", "videos"] as const;
export type ReviewMediaFilter = (typeof REVIEW_MEDIA_FILTERS)[number];
/** Longest `search` text, in UTF-16 code units (characters as JavaScript counts them). */
export const REVIEW_SEARCH_MAX_CHARS = 100;

/**
 * The words of a shopper's search text, as the review index (migration 084, unicode61) would split them:
 * runs of letters, digits and marks with at least one letter or digit; everything else (spaces, punctuation,
 * emoji) separates words.
 * A word keeps its inner apostrophes or hyphens out: "don't" is "don" and "t", as in the index.
 */
export function reviewSearchWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? []).filter((w) => /[\p{L}\p{N}]/u.test(w));
}

export const listReviewsQuery = listReviewsBaseQuery.extend({
  shopperAttributes: attributeFilterParam("shopperAttributes"),
  generalAttributes: attributeFilterParam("generalAttributes"),
  /** Star levels, comma-separated (`5`, `4,5`): a review matches any. Parsed to distinct levels, ascending. */
  rating: z
    .string()
    .transform((value, ctx) => {
      const parts = value.split(",").map((p) => p.trim());
      if (parts.length > 5 || parts.some((p) => !/^[1-5]$/.test(p))) {
        ctx.addIssue({ code: "custom", message: "rating must be star levels from 1 to 5, comma-separated (e.g. rating=5 or rating=4,5)" });
        return z.NEVER;
      }
      return [...new Set(parts.map(Number))].sort((a, b) => a - b);
    })
    .optional()
    .meta({ description: "Only reviews with one of these star ratings: levels 1 to 5, comma-separated, e.g. `5` or `4,5`." }),
  media: z
    .enum(REVIEW_MEDIA_FILTERS, { error: `media must be one of: ${REVIEW_MEDIA_FILTERS.join(", ")}` })
    .optional()
    .meta({ description: "Only reviews with at least one published media item: `any`, `photos` (images) or `videos`." }),
  verified: z
    .enum(["true", "false"], { error: "verified must be true or false" })
    .optional()
    .meta({ description: "`true`: only reviews by verified buyers (`verifiedStatus` `verified-buyer`); `false`: no filter." }),
  search: z
    .string()
    .min(1, "search must not be empty")
    .max(REVIEW_SEARCH_MAX_CHARS, `search must be at most ${REVIEW_SEARCH_MAX_CHARS} characters`)
    .refine((v) => reviewSearchWords(v).length > 0, { message: "search must contain at least one letter or digit" })
    .optional()
    .meta({
      description:
        "Full-text search over review title and body (1 to 100 characters): reviews containing every word, stemmed (`fits` finds `fit`), " +
        "accents ignored; the text is never query syntax. The order stays `orderBy`; each review then carries `highlights`.",
    }),
});
export type AttributeFilter = { title: string; options: string[] };
/** At most this many attribute filters, options per filter, and characters per title or option. */
export const ATTRIBUTE_FILTER_LIMITS = { filters: 5, options: 20, chars: 100 } as const;

/**
 * The attribute filters of a request's query (every `shopperAttributes` and `generalAttributes` value; both
 * filter the review's `productAttributes`, the one attribute list Chorus keeps).
 * @returns the filters, or an error message for a malformed one (the caller answers 400).
 */
export function parseAttributeFilters(search: URLSearchParams): AttributeFilter[] | string {
  const out: AttributeFilter[] = [];
  for (const name of ["shopperAttributes", "generalAttributes"]) {
    for (const raw of search.getAll(name)) {
      const parts = raw.split(",").map((p) => p.trim());
      const [title, ...options] = parts;
      if (!title || options.length === 0 || options.some((o) => o === "")) return `${name} must be "Title,option1,option2,..." (a title and at least one option, none empty)`;
      if (options.length > ATTRIBUTE_FILTER_LIMITS.options) return `${name} may list at most ${ATTRIBUTE_FILTER_LIMITS.options} options`;
      if (parts.some((p) => p.length > ATTRIBUTE_FILTER_LIMITS.chars)) return `${name}: titles and options are at most ${ATTRIBUTE_FILTER_LIMITS.chars} characters`;
      out.push({ title, options: [...new Set(options)] });
    }
  }
  if (out.length > ATTRIBUTE_FILTER_LIMITS.filters) return `at most ${ATTRIBUTE_FILTER_LIMITS.filters} attribute filters`;
  return out;
}

/**
 * Query of the AI summary and keyword reads (docs/ai.md, Languages): `locale`, the page's language tag (`de`,
 * `pt-BR`, `ja`): the summary's sentences and the topic names in that language (one of the 16 widget languages by
 * the widgets' own rule, else English).
 */
export const aiContentQuery = z.object({
  locale: z
    .string()
    .max(35, "locale must be a language tag of at most 35 characters")
    .regex(/^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{1,8})*$/, "locale must be a language tag such as de, pt-BR or ja")
    .optional()
    .meta({ description: "The page's language tag: the summary's sentences and the topic names in that language (docs/ai.md, Languages)." }),
});

export const listPageQuery = z.object({
  limit: limitParam(STOREFRONT_MAX_LIMIT, STOREFRONT_MAX_LIMIT),
  lastEvaluated: lastEvaluatedParam,
});
export type ListPageQuery = z.output<typeof listPageQuery>;

/**
 * Question orders (docs/api.md, Okendo-compatible): the values Okendo's clients send. `date desc` (default), `date asc`,
 * `helpful desc` and `unhelpful desc` order by date or votes (newest first on ties); `rating desc`,
 * `rating asc` and `has_media desc` have no meaning for questions and list newest first.
 */
export const QUESTION_ORDERS = [...REVIEW_ORDERS] as const;
export type QuestionOrder = (typeof QUESTION_ORDERS)[number];
export const listQuestionsQuery = listPageQuery.extend({
  orderBy: z
    .enum(QUESTION_ORDERS, { error: `orderBy must be one of: ${QUESTION_ORDERS.join(", ")}` })
    .default("date desc")
    .meta({
      description:
        "`date desc` (default), `date asc`, `helpful desc` or `unhelpful desc`; `rating desc`, `rating asc` and `has_media desc` are accepted (Okendo's clients send them) and list newest first.",
    }),
});
export type ListQuestionsQuery = z.output<typeof listQuestionsQuery>;

/** A limit parameter with its own bounds (the enterprise listing uses 1..100). */
export const limitQueryParam = limitParam;

/** Scope of a storefront listing (docs/api.md, Endpoints and scopes): product, store or group. */
export type ReviewScope = { type: "store" } | { type: "product"; productId: string } | { type: "group"; groupId: string };

// ---- Response shapes (docs/api.md, Responses; docs/ai.md, Answers) ----
// Inferred from the zod response schemas of storefront.responses.ts (the one source; type-only, so the
// widgets that `import type` these add nothing to their bundles).

export type {
  Answer,
  KeywordTopic,
  ListQuestionsResponse,
  GetReviewResponse,
  QuestionAggregateResponse,
  ProductAttributesResponse,
  QaVoteResponse,
  ListReviewMediaResponse,
  ListReviewsResponse,
  Question,
  Review,
  ReviewAggregate,
  ReviewAggregateResponse,
  ReviewMedia,
  ReviewerLocation,
  ReviewsKeywordsResponse,
  ReviewsSummary,
  ReviewsSummaryResponse,
  VerifiedStatus,
} from "./storefront.responses.ts";

/** The one rounding rule (one decimal), defined in contract/rating.ts and shared with the widgets from there. */
export { formatRating } from "./rating.ts";

/**
 * Response schemas of the storefront reviews reads (reviews, aggregate, media, questions, AI summary and
 * keywords). The one source of these shapes: storefront.ts re-exports the inferred types (services build
 * them, widgets `import type` them) and the OpenAPI document describes the bodies from these schemas
 * (`.meta({ id })` names the component, `description` is written for integrators).
 *
 * Objects are non-strict here (parsing strips unknown keys); the contract test parses real answers with
 * every object made strict, so a field the schemas do not document fails it.
 */
import { z } from "zod";

/** An ISO 8601 UTC date-time such as `2026-05-01T12:00:00.000Z`. */
const dateTime = (description: string) => z.iso.datetime().meta({ description: `${description} ISO 8601 date-time in UTC, e.g. \`2026-05-01T12:00:00.000Z\`.` });
const count = (description: string) => z.int().min(0).meta({ description });
const nextUrl = z.string().meta({
  description:
    "Link to the next page, relative to the API root `/v1` (`/stores/{storeId}/…`; it carries `limit`, the other query parameters and the `lastEvaluated` cursor). Present only when more results exist; absent on the last page.",
});

// ---- Reviewer, media ----

export const verifiedStatusSchema = z.enum(["verified-buyer", "verified-reviewer", "unverified"]).meta({
  id: "VerifiedStatus",
  description:
    "How the reviewer was verified: `verified-buyer` (the reviewer's purchase of the product was verified), `verified-reviewer` (the reviewer was verified by other means than a purchase), or `unverified`.",
});
export type VerifiedStatus = z.infer<typeof verifiedStatusSchema>;

export const reviewerLocationSchema = z
  .object({
    country: z.object({
      code: z.string().meta({ description: "ISO 3166-1 alpha-2 country code, e.g. `GB`." }),
      name: z.string().meta({ description: "Country name in English (the code when the name is not known)." }),
    }),
    zoneCode: z.string().optional().meta({ description: "State, province or zone code within the country, e.g. `CA`." }),
  })
  .meta({ id: "ReviewerLocation", description: "Where the reviewer is, as far as they gave it: a country and optionally a zone." });
export type ReviewerLocation = z.infer<typeof reviewerLocationSchema>;

export const reviewMediaSchema = z
  .object({
    mediaId: z.string().meta({ description: "ID of the media item." }),
    reviewId: z.uuid().meta({ description: "ID of the review the item belongs to." }),
    type: z.enum(["image", "video"]),
    thumbnailUrl: z.string().meta({ description: "Absolute URL of a small rendition (for grids and carousels). For a video, its poster image." }),
    largeUrl: z.string().meta({ description: "Absolute URL of a large rendition (for a lightbox). For a video, its poster image." }),
    fullSizeUrl: z.string().meta({ description: "Absolute URL of the full-size image, or of the video file." }),
    streamUrl: z.string().optional().meta({ description: "Videos only: absolute URL to play the video from." }),
    alt: z.string().optional().meta({ description: "Alternative text describing the item." }),
    dateCreated: dateTime("When the item was uploaded."),
    rating: z.int().min(1).max(5).meta({ description: "Star rating (1 to 5) of the review the item belongs to." }),
    reviewer: z.object({ displayName: z.string().meta({ description: "The reviewer's public display name." }) }),
    streamId: z.string().meta({ description: "Okendo-compatible: the same value as `mediaId`." }),
    imageUrls: z
      .object({ largeUrl: z.string(), thumbnailUrl: z.string() })
      .optional()
      .meta({ description: "Okendo-compatible, images only: `largeUrl` and `thumbnailUrl` again, grouped as Okendo's clients read them." }),
    videoUrls: z
      .object({ fullSizeUrl: z.string(), thumbnailUrl: z.string(), videoPosterUrl: z.string() })
      .optional()
      .meta({ description: "Okendo-compatible, videos only: the video file (`fullSizeUrl`), its thumbnail and its poster image (`videoPosterUrl`)." }),
    videoPosterUrl: z.string().optional().meta({ description: "Okendo-compatible, videos only: absolute URL of the video's poster image (the same as `largeUrl`)." }),
  })
  .meta({ id: "ReviewMedia", description: "A published image or video attached to a published review." });
export type ReviewMedia = z.infer<typeof reviewMediaSchema>;

// ---- Review ----

/** A `[start, end]` range of a search highlight: UTF-16 code units, end exclusive. */
const highlightRange = z.tuple([z.int().min(0), z.int().min(0)]).meta({ description: "`[start, end]`: UTF-16 code units, end exclusive." });

/** A product attribute rated on a scale (Okendo's `attributesWithRating` shape); `value` as described. */
const ratedAttribute = (value: string) =>
  z.object({
    title: z.string().meta({ description: "Attribute name, e.g. `Fit`." }),
    type: z.string().meta({ description: "Attribute kind as the review form collected it, e.g. `range` (1 to 5) or `centered-range` (-1 to 1)." }),
    value: z.number().meta({ description: value }),
    minLabel: z.string().meta({ description: "Label of the low end of the scale, e.g. `Runs small`." }),
    midLabel: z.string().meta({ description: "Label of the middle of the scale, e.g. `True to size`." }),
    maxLabel: z.string().meta({ description: "Label of the high end of the scale, e.g. `Runs large`." }),
  });

export const reviewSchema = z
  .object({
    reviewId: z.uuid(),
    productId: z.string().meta({ description: "The product's key: the store's platform word, a hyphen and the platform's product ID, e.g. `shopify-123` (the same key as in the product paths)." }),
    productName: z.string().meta({ description: "The product's name (empty when the store has not registered the product)." }),
    productUrl: z.string().optional().meta({ description: "Link to the product page, as the store registered it." }),
    productImageUrl: z.string().optional().meta({ description: "Link to the product image, as the store registered it." }),
    variantId: z.string().optional().meta({ description: "The platform's ID of the product variant reviewed." }),
    variantName: z.string().optional().meta({ description: "Name of the product variant reviewed, e.g. `Blue / M`." }),
    rating: z.int().min(1).max(5).meta({ description: "Star rating, an integer from 1 to 5." }),
    title: z.string().meta({ description: "Review title; may be empty. Plain text: render it as text, never as HTML." }),
    body: z.string().meta({
      description:
        "Review text. In storefront answers it is safe as HTML: `&`, `<` and `>` come as `&amp;`, `&lt;` and `&gt;` (Okendo's clients insert it as HTML), so decode those three to show the text as the reviewer typed it. Webhooks and enterprise answers carry it as typed.",
    }),
    dateCreated: dateTime("When the review was written."),
    dateUpdated: dateTime("When the review was last changed (for example moderated).").optional(),
    helpfulCount: count("Number of shoppers who voted the review helpful."),
    unhelpfulCount: count("Number of shoppers who voted the review unhelpful."),
    isRecommended: z.boolean().optional().meta({ description: "Whether the reviewer recommends the product; absent when they did not say." }),
    isIncentivized: z.boolean().meta({ description: "Whether the reviewer received an incentive (for example a discount) for the review." }),
    languageCode: z.string().optional().meta({ description: "Language of the original text, detected when the review was written or imported (e.g. `en`); absent when it could not be detected." }),
    translatedLocale: z.string().optional().meta({ description: "Present only when `title` and `body` come translated: the `locale` requested. Absent when the original text is returned." }),
    reviewer: z.object({
      displayName: z.string().meta({ description: "The reviewer's public display name. No e-mail or full name is ever returned." }),
      isVerified: z.boolean().meta({ description: "Whether `verifiedStatus` is anything but `unverified`." }),
      verifiedStatus: verifiedStatusSchema,
      location: reviewerLocationSchema.optional(),
      country: reviewerLocationSchema.shape.country.optional().meta({ description: "Okendo-compatible: `location.country` again, when the reviewer gave a country." }),
    }),
    media: z.array(reviewMediaSchema).meta({ description: "The review's published images and videos (empty when it has none)." }),
    reply: z
      .object({
        body: z.string().meta({ description: "The store's public reply; in storefront answers safe as HTML like the review's `body` (`&`, `<`, `>` as entities)." }),
        dateCreated: dateTime("When the store replied."),
      })
      .optional()
      .meta({ description: "The store's public reply to the review, when it has one." }),
    productAttributes: z
      .array(
        z.object({
          title: z.string().meta({ description: "Attribute name, e.g. `Size bought`." }),
          type: z.string().meta({ description: "Attribute kind as the review form collected it (may be empty)." }),
          value: z.string().meta({ description: "The reviewer's answer, e.g. `M`." }),
        }),
      )
      .optional()
      .meta({ description: "Product attributes the reviewer filled in (e.g. size bought)." }),
    attributesWithRating: z
      .array(ratedAttribute("The reviewer's position on the scale between `minLabel` and `maxLabel`."))
      .optional()
      .meta({ description: "Product attributes the reviewer rated on a scale (e.g. fit)." }),
    highlights: z
      .object({
        title: z.array(highlightRange).optional().meta({ description: "Matched words in `title`." }),
        body: z.array(highlightRange).optional().meta({ description: "Matched words in `body` as typed (after decoding `&amp;`, `&lt;`, `&gt;`)." }),
      })
      .optional()
      .meta({
        description:
          "Only in answers to a `search`: where the searched words (stemmed matches included) occur in the review's text as the reviewer typed it. " +
          "Each range is `[start, end]` in UTF-16 code units, end exclusive, sorted and non-overlapping; a part without matches is absent. " +
          "Empty when the review comes translated (`translatedLocale`).",
      }),
  })
  .meta({ id: "Review", description: "A published product review as the storefront shows it." });
export type Review = z.infer<typeof reviewSchema>;

export const listReviewsResponseSchema = z
  .object({
    reviews: z.array(reviewSchema).meta({ description: "One page of published reviews in the requested order (at most `limit`)." }),
    nextUrl: nextUrl.optional(),
  })
  .meta({ id: "ListReviewsResponse", description: "One page of published reviews of a product, a group or the whole store." });
export type ListReviewsResponse = z.infer<typeof listReviewsResponseSchema>;

// ---- Aggregate ----

/** The number of published reviews per star level (a fresh object per use, so each use keeps its own description). */
const levelCounts = () =>
  z.object({
    level1Count: count("Number of 1-star reviews."),
    level2Count: count("Number of 2-star reviews."),
    level3Count: count("Number of 3-star reviews."),
    level4Count: count("Number of 4-star reviews."),
    level5Count: count("Number of 5-star reviews."),
  });

export const reviewAggregateSchema = z
  .object({
    reviewCount: count("Number of published reviews."),
    reviewRatingValuesTotal: count("Sum of the star ratings of the published reviews."),
    averageRating: z.number().min(0).max(5).meta({ description: "`reviewRatingValuesTotal / reviewCount`, unrounded (0 when there are no reviews). Round to one decimal for display." }),
    reviewCountByLevel: levelCounts().meta({ description: "Number of published reviews per star rating." }),
    ratingAndReviewCount: count("Okendo-compatible: the same as `reviewCount` (Chorus has no star-only ratings)."),
    ratingAndReviewValuesTotal: count("Okendo-compatible: the same as `reviewRatingValuesTotal`."),
    ratingAndReviewCountByLevel: levelCounts().meta({ description: "Okendo-compatible: the same as `reviewCountByLevel`." }),
    recommendationCount: count("Number of published reviews whose reviewer recommends the product (`isRecommended: true`)."),
    ratingCount: count("Okendo-compatible: star-only ratings without a review; always 0 (Chorus has none)."),
    productName: z.string().optional().meta({ description: "Product scope only: the product's name, when the store registered it." }),
    attributeRatings: z
      .array(ratedAttribute("The average of the reviewers' values."))
      .optional()
      .meta({ description: "Product and group scope: the average of each rated product attribute (`attributesWithRating` of the reviews); absent when no published review rated one." }),
  })
  .meta({ id: "ReviewAggregate", description: "Totals over all published reviews of the scope (zeros when it has none)." });
export type ReviewAggregate = z.infer<typeof reviewAggregateSchema>;

export const reviewAggregateResponseSchema = z
  .object({ reviewAggregate: reviewAggregateSchema })
  .meta({ id: "ReviewAggregateResponse", description: "The review aggregate of a product, a group or the whole store." });
export type ReviewAggregateResponse = z.infer<typeof reviewAggregateResponseSchema>;

// ---- Media list ----

export const listReviewMediaResponseSchema = z
  .object({
    reviewMedia: z.array(reviewMediaSchema).meta({ description: "One page of published media items, most recent first (at most `limit`)." }),
    media: z.array(reviewMediaSchema).meta({ description: "Okendo-compatible: the same items as `reviewMedia`." }),
    nextUrl: nextUrl.optional(),
  })
  .meta({ id: "ListReviewMediaResponse", description: "One page of the published review images and videos of a product, a group or the whole store." });
export type ListReviewMediaResponse = z.infer<typeof listReviewMediaResponseSchema>;

// ---- Questions and answers ----

export const answerSchema = z
  .object({
    answerId: z.string().meta({ description: "ID of the answer." }),
    body: z.string().meta({ description: "Answer text, safe as HTML like a review's `body`: `&`, `<` and `>` come as entities (decode them to show the text)." }),
    dateCreated: dateTime("When the answer was written."),
    isStoreAnswer: z.boolean().meta({ description: "Whether the store itself answered (show it as the store's answer)." }),
    author: z.object({ displayName: z.string().meta({ description: "Public display name of whoever answered." }) }),
    helpfulCount: count("Number of shoppers who voted the answer helpful."),
    unhelpfulCount: count("Number of shoppers who voted the answer unhelpful."),
  })
  .meta({ id: "Answer", description: "A published, public answer to a question." });
export type Answer = z.infer<typeof answerSchema>;

export const questionSchema = z
  .object({
    questionId: z.string().meta({ description: "ID of the question." }),
    productId: z.string().optional().meta({ description: "Key of the product asked about, e.g. `shopify-123`." }),
    body: z.string().meta({ description: "Question text. Plain text: render it as text, never as HTML." }),
    dateCreated: dateTime("When the question was asked."),
    customer: z.object({ displayName: z.string().meta({ description: "Public display name of the shopper who asked." }) }),
    author: z
      .object({ displayName: z.string().meta({ description: "The same as `customer.displayName`." }) })
      .meta({ description: "Okendo-compatible: the shopper who asked, as Okendo's clients read it." }),
    helpfulCount: count("Number of shoppers who voted they had this question too (helpful)."),
    unhelpfulCount: count("Number of shoppers who voted the question unhelpful."),
    answers: z.array(answerSchema).meta({ description: "The question's published public answers (may be empty)." }),
  })
  .meta({ id: "Question", description: "A published shopper question about a product, with its published answers." });
export type Question = z.infer<typeof questionSchema>;

export const listQuestionsResponseSchema = z
  .object({
    questions: z.array(questionSchema).meta({ description: "One page of published questions in the requested order (at most `limit`)." }),
    nextUrl: nextUrl.optional(),
  })
  .meta({ id: "ListQuestionsResponse", description: "One page of the published questions and answers of a product or a group." });
export type ListQuestionsResponse = z.infer<typeof listQuestionsResponseSchema>;

// ---- Okendo-compatible reads and votes (docs/api.md, Okendo-compatible) ----

export const getReviewResponseSchema = z.object({ review: reviewSchema }).meta({ id: "GetReviewResponse", description: "One published review of the store." });
export type GetReviewResponse = z.infer<typeof getReviewResponseSchema>;

export const questionAggregateResponseSchema = z
  .object({
    questionAggregate: z.object({ approvedQuestionCount: count("Number of published questions of the product.") }),
  })
  .meta({ id: "QuestionAggregateResponse", description: "How many published questions a product has." });
export type QuestionAggregateResponse = z.infer<typeof questionAggregateResponseSchema>;

export const productAttributesResponseSchema = z
  .object({
    productAttributes: z
      .array(
        z.object({
          title: z.string().meta({ description: "Attribute title, e.g. `Size bought`." }),
          options: z.array(z.string()).meta({ description: "The values reviewers gave, alphabetically." }),
          target: z.enum(["shopper", "general"]).meta({ description: "Always `general`: filter with `generalAttributes=Title,option` (or `shopperAttributes`, which filters the same list)." }),
        }),
      )
      .meta({ description: "The product attributes of the product's published reviews, with their values (at most 20 attributes of 50 values)." }),
  })
  .meta({ id: "ProductAttributesResponse", description: "The attributes a product's reviews can be filtered by." });
export type ProductAttributesResponse = z.infer<typeof productAttributesResponseSchema>;

export const qaVoteResponseSchema = z
  .object({
    helpfulCount: count("The item's helpful votes after this vote."),
    unhelpfulCount: count("The item's unhelpful votes after this vote."),
  })
  .meta({ id: "HelpfulVoteCounts", description: "The vote counts of the review, question or answer after the vote." });
export type QaVoteResponse = z.infer<typeof qaVoteResponseSchema>;

// ---- AI summary and keywords ----

/** The body when no summary or keywords are available: exactly `{}`. */
const emptyObject = (description: string) => z.strictObject({}).meta({ description });

export const reviewsSummarySchema = z
  .object({
    body: z.string().meta({ description: "The AI-generated summary text. Plain text." }),
    contributingReviewCount: count("Number of reviews the summary was generated from."),
    dateGenerated: dateTime("When the content was generated."),
    datePublished: dateTime("When this version of the summary was published."),
  })
  .meta({ id: "ReviewsSummary", description: "An AI-generated summary of a product's (or its group's) published reviews." });
export type ReviewsSummary = z.infer<typeof reviewsSummarySchema>;

export const reviewsSummaryResponseSchema = z
  .union([z.object({ reviewsSummary: reviewsSummarySchema }), emptyObject("No summary is available (too few reviews, or not yet published): the body is the empty object `{}`.")])
  .meta({
    id: "ReviewsSummaryResponse",
    description:
      "The product's reviews summary (its group's when the product uses group content), or `{}` when none is available. A summary generally needs around 30 or more published reviews and is served only once published.",
  });
export type ReviewsSummaryResponse = z.infer<typeof reviewsSummaryResponseSchema>;

export const keywordTopicSchema = z
  .object({
    topic: z.string().meta({ description: "Name of a general theme, e.g. `Fit`." }),
    keywords: z
      .array(
        z.object({
          name: z.string().meta({ description: "The keyword phrase." }),
          occurrences: count("How many times the keyword was identified in the reviews."),
          label: z.string().optional().meta({
            description:
              "Only with `?locale=`, only for the sizing keywords Chorus generates (`true to size`, `runs small`, `runs large`, `size up`, `size down`): the keyword in that language, to show instead of `name` (e.g. `fällt klein aus`). Filter by `name`.",
          }),
        }),
      )
      .meta({ description: "The theme's keywords." }),
  })
  .meta({ id: "KeywordTopic", description: "A theme of the reviews with the keywords identified for it." });
export type KeywordTopic = z.infer<typeof keywordTopicSchema>;

export const reviewsKeywordsResponseSchema = z
  .union([
    z.object({ reviewsKeywords: z.object({ keywordTopics: z.array(keywordTopicSchema) }) }),
    emptyObject("No keywords are available (too few reviews, or not yet processed): the body is the empty object `{}`."),
  ])
  .meta({
    id: "ReviewsKeywordsResponse",
    description: "AI-identified keyword topics of the product's reviews (its group's when the product uses group content), or `{}` when none are available.",
  });
export type ReviewsKeywordsResponse = z.infer<typeof reviewsKeywordsResponseSchema>;

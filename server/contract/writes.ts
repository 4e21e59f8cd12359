/**
 * Storefront writes contract (docs/writes.md, Endpoints): zod schemas of the review, vote and question bodies
 * with user-facing messages, the limits they enforce, and the 201/200 response shapes.
 * Routes parse with these; widgets `import type` the shapes.
 */
import { z } from "zod";

/** Limits of a review submission (bytes for files). Documented in docs/writes.md. */
export const REVIEW_LIMITS = {
  titleMax: 150,
  bodyMax: 5000,
  displayNameMax: 60,
  emailMax: 254,
  altMax: 250,
  attributesMax: 20,
  images: 5,
  videos: 1,
  imageBytes: 10 * 1024 * 1024,
  videoBytes: 100 * 1024 * 1024,
} as const;

/** Limits of a question. */
export const QUESTION_LIMITS = { bodyMin: 5, bodyMax: 1000, displayNameMax: 60, emailMax: 254 } as const;

const text = (name: string, max: number, min = 0) =>
  z
    .string({ error: `${name} must be a string` })
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(min, min === 1 ? `${name} is required` : `${name} must be at least ${min} characters`)
        .max(max, `${name} must be at most ${max} characters`),
    );

const email = z
  .string({ error: "email is required" })
  .transform((s) => s.trim())
  .pipe(z.email({ error: "email must be a valid e-mail address" }).max(REVIEW_LIMITS.emailMax, `email must be at most ${REVIEW_LIMITS.emailMax} characters`));

/** Accepts JSON booleans and form values ("true"/"false"/"on"/"1"/"0"). */
const booleanish = z
  .union([z.boolean(), z.enum(["true", "false", "on", "1", "0", ""])], { error: "isRecommended must be true or false" })
  .transform((v) => (v === "" ? undefined : v === true || v === "true" || v === "on" || v === "1"));

const productAttribute = z.object({
  title: text("productAttributes.title", 60, 1),
  type: text("productAttributes.type", 30).optional().default(""),
  value: text("productAttributes.value", 200, 1),
});

/**
 * A rated product attribute as the review form sends it: the title of one of the store's scales and the
 * shopper's answer, 1 to 5 (type and labels come from the store's configuration, submissions.service.ts).
 */
const ratedAttribute = z.object({
  title: text("attributesWithRating.title", 60, 1),
  value: z
    .union([z.number(), z.string()], { error: "attributesWithRating.value must be an integer from 1 to 5" })
    .transform((v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v))
    .pipe(
      z
        .number({ error: "attributesWithRating.value must be an integer from 1 to 5" })
        .int("attributesWithRating.value must be an integer from 1 to 5")
        .min(1, "attributesWithRating.value must be an integer from 1 to 5")
        .max(5, "attributesWithRating.value must be an integer from 1 to 5"),
    ),
});

/** A list field sent as a JSON array (a JSON string in a multipart form), of `item`s, at most `attributesMax`. */
const jsonArray = <T extends z.ZodType>(name: string, item: T) =>
  z
    .union([z.string(), z.array(z.unknown())], { error: `${name} must be a JSON array` })
    .transform((v, ctx) => {
      if (typeof v !== "string") return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: `${name} must be a JSON array` });
        return z.NEVER;
      }
    })
    .pipe(z.array(item, { error: `${name} must be a JSON array` }).max(REVIEW_LIMITS.attributesMax, `${name} may hold at most ${REVIEW_LIMITS.attributesMax} items`));

/** Honeypot: a field humans never see. Any non-empty value marks a bot (201, nothing stored). */
export const HONEYPOT_FIELD = "website";

export const reviewSubmissionBody = z.object({
  rating: z
    .union([z.number(), z.string()], { error: "rating is required: an integer from 1 to 5" })
    .transform((v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v))
    .pipe(
      z
        .number({ error: "rating must be an integer from 1 to 5" })
        .int("rating must be an integer from 1 to 5")
        .min(1, "rating must be an integer from 1 to 5")
        .max(5, "rating must be an integer from 1 to 5"),
    ),
  title: text("title", REVIEW_LIMITS.titleMax).optional().default(""),
  body: text("body", REVIEW_LIMITS.bodyMax, 1),
  displayName: text("displayName", REVIEW_LIMITS.displayNameMax, 1),
  email,
  isRecommended: booleanish.optional(),
  /** Product attributes (`[{ title, type?, value }]`); a title of one of the store's choices must answer one of its options. */
  productAttributes: jsonArray("productAttributes", productAttribute).optional(),
  /** Rated attributes (`[{ title, value: 1..5 }]`): titles of the store's scales only (issue #23 item 2). */
  attributesWithRating: jsonArray("attributesWithRating", ratedAttribute).optional(),
  variantId: text("variantId", 100).optional(),
  alt: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string().trim().max(REVIEW_LIMITS.altMax, `alt must be at most ${REVIEW_LIMITS.altMax} characters`))),
  [HONEYPOT_FIELD]: z.unknown().optional(),
});
export type ReviewSubmission = z.output<typeof reviewSubmissionBody>;

/**
 * `POST /v1/stores/{store}/store_reviews` body: a review of the shop itself (docs/google-shopping.md "Seller
 * ratings"), with the rules and limits of a product review's fields.
 */
export const storeReviewSubmissionBody = reviewSubmissionBody.pick({ rating: true, title: true, body: true, displayName: true, email: true, [HONEYPOT_FIELD]: true });
export type StoreReviewSubmission = z.output<typeof storeReviewSubmissionBody>;

export const voteBody = z.object({
  vote: z.enum(["helpful", "unhelpful"], { error: "vote must be helpful or unhelpful" }),
  visitorId: z.string({ error: "visitorId must be a string" }).min(8, "visitorId must be 8 to 128 characters").max(128, "visitorId must be 8 to 128 characters").optional(),
});
export type VoteBody = z.output<typeof voteBody>;

/**
 * Okendo's vote types (docs/api.md, Okendo-compatible), the body of `POST …/reviews/{id}/vote`, `…/questions/{id}/vote` and
 * `…/questions/{id}/answers/{id}/vote`: `upvote` / `downvote` cast a vote, `swap-to-upvote` /
 * `swap-to-downvote` move it, `upvote-cancel` / `downvote-cancel` withdraw it.
 */
export const OKENDO_VOTE_TYPES = ["upvote", "downvote", "upvote-cancel", "downvote-cancel", "swap-to-upvote", "swap-to-downvote"] as const;
export type OkendoVoteType = (typeof OKENDO_VOTE_TYPES)[number];
export const okendoVoteBody = z.object({
  voteType: z.enum(OKENDO_VOTE_TYPES, { error: `voteType must be one of: ${OKENDO_VOTE_TYPES.join(", ")}` }),
});
export type OkendoVoteBody = z.output<typeof okendoVoteBody>;

export const questionBody = z.object({
  body: text("body", QUESTION_LIMITS.bodyMax, QUESTION_LIMITS.bodyMin),
  displayName: text("displayName", QUESTION_LIMITS.displayNameMax, 1),
  email,
  [HONEYPOT_FIELD]: z.unknown().optional(),
});
export type QuestionBody = z.output<typeof questionBody>;

/**
 * Response shapes: 201 of POST …/reviews, 201 of POST …/questions, 200 of POST /reviews/{reviewId}/votes,
 * 200 of POST /enterprise/orders. Inferred from the zod schemas of writes.responses.ts (the one source).
 */
export type { AskQuestionResponse, ImportOrdersResponse, ModerationStatus, SubmitReviewResponse, VoteResponse } from "./writes.responses.ts";

/** Orders per request of `POST /enterprise/orders`. */
export const ORDERS_BATCH_MAX = 1000;

/** `POST /enterprise/orders` body: order lines for verified-buyer status (docs/writes.md). */
export const importOrdersBody = z.object({
  orders: z
    .array(
      z.object({
        orderId: z.string({ error: "orderId is required" }).trim().min(1, "orderId is required").max(100, "orderId must be at most 100 characters"),
        productId: z.string({ error: "productId is required" }).trim().min(1, "productId is required").max(100, "productId must be at most 100 characters"),
        email: z
          .string({ error: "email is required" })
          .trim()
          .pipe(z.email({ error: "email must be a valid e-mail address" })),
        dateCreated: z.iso.datetime({ error: "dateCreated must be an ISO 8601 UTC time" }).optional(),
      }),
      { error: "orders must be an array" },
    )
    .min(1, "orders must hold at least 1 order line")
    .max(ORDERS_BATCH_MAX, `orders may hold at most ${ORDERS_BATCH_MAX} order lines`),
});

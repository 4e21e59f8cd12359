/**
 * Response schemas of the storefront writes (review submission, question, helpfulness vote) and of the
 * merchant's order import. The one source of these shapes: writes.ts re-exports the inferred types
 * (services build them, widgets `import type` them) and the OpenAPI document describes the bodies from
 * these schemas (`.meta({ id })` names the component, `description` is written for integrators).
 */
import { z } from "zod";

export const moderationStatusSchema = z.enum(["pending", "published", "rejected"]).meta({
  id: "ModerationStatus",
  description: "Moderation state of shopper content: `pending` (waiting for the store's moderation; not shown on the storefront yet), `published` (shown), or `rejected` (never shown).",
});
export type ModerationStatus = z.infer<typeof moderationStatusSchema>;

export const submitReviewResponseSchema = z
  .object({
    review: z.object({
      reviewId: z.uuid().meta({ description: "ID of the new review." }),
      status: moderationStatusSchema.meta({
        description: "The new review's state, set by the store's moderation setting: `pending` until the store approves it, or `published` at once when the store publishes automatically.",
      }),
    }),
    postReviewSurvey: z
      .object({ channelSurveyId: z.uuid() })
      .optional()
      .meta({ description: 'The store\'s post-review channel survey, when one is enabled: `<chorus-review-form>` asks it in its thank-you state (docs/surveys.md "Post-review").' }),
  })
  .meta({ id: "SubmitReviewResponse", description: "The review was received (201). It appears in the storefront listings once its status is `published`." });
export type SubmitReviewResponse = z.infer<typeof submitReviewResponseSchema>;

export const askQuestionResponseSchema = z
  .object({
    question: z.object({
      questionId: z.uuid().meta({ description: "ID of the new question." }),
      status: moderationStatusSchema.meta({ description: "The new question's state: `pending` until the store publishes it." }),
    }),
  })
  .meta({ id: "AskQuestionResponse", description: "The question was received (201). It appears in the storefront listings once the store publishes it." });
export type AskQuestionResponse = z.infer<typeof askQuestionResponseSchema>;

export const voteResponseSchema = z
  .object({
    helpfulCount: z.int().min(0).meta({ description: "The review's number of helpful votes after this vote." }),
    unhelpfulCount: z.int().min(0).meta({ description: "The review's number of unhelpful votes after this vote." }),
    visitorId: z
      .string()
      .optional()
      .meta({ description: "The visitor's signed ID: send it as `visitorId` with this visitor's next votes (cross-origin requests carry no cookie), so a repeated vote is recognised." }),
  })
  .meta({ id: "VoteResponse", description: "The review's vote counts after the vote. One vote counts per visitor and review: repeating a vote changes nothing, the other vote moves it." });
export type VoteResponse = z.infer<typeof voteResponseSchema>;

export const importOrdersResponseSchema = z
  .object({
    inserted: z.int().min(0).meta({ description: "Number of order lines added. Lines already on record (same order and product) are kept and not counted." }),
  })
  .meta({ id: "ImportOrdersResponse", description: "Result of an order import (order lines by product and shopper e-mail, used to recognise buyers)." });
export type ImportOrdersResponse = z.infer<typeof importOrdersResponseSchema>;

/**
 * Operation declarations of the shopper writes (docs/writes.md, Endpoints) and the enterprise orders import:
 * review submission (JSON or multipart with photos and video), questions, and orders. Body reading
 * helpers live in writes.server.ts.
 */
import { defineOperation, reply, type OperationContext } from "../../server/api/operation.ts";
import { ApiError } from "../../server/contract/errors.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { askQuestionResponseSchema, importOrdersResponseSchema, submitReviewResponseSchema, voteResponseSchema } from "../../server/contract/writes.responses.ts";
import { SCOPE_PARAMS, storeIdParam } from "../../server/contract/params.ts";
import { importOrdersBody, okendoVoteBody, questionBody, reviewSubmissionBody, storeReviewSubmissionBody, voteBody } from "../../server/contract/writes.ts";
import { qaVoteResponseSchema } from "../../server/contract/storefront.responses.ts";
import type { VoteTarget } from "../../server/reviews/votes.service.ts";
import { z } from "zod";
import { MAX_MULTIPART_BYTES, readJsonObject, readSubmission, visitorOf } from "./writes.server.ts";

/**
 * The platform customer of a loyalty customer token sent with a submission (`Authorization: Bearer`), or
 * undefined without one. @throws ApiError 401 for a token that is not valid at this store (also when the
 * store has no loyalty program, so no token can be).
 */
async function signedInShopper(request: Request, storeId: string, services: OperationContext["services"]): Promise<{ platformCustomerId: string } | undefined> {
  const authorization = request.headers.get("authorization");
  if (!authorization?.trim()) return undefined;
  if (!(await services.loyalty.hasProgram(storeId))) throw new ApiError(401, "The customer token is not valid: this store has no loyalty program", "invalid_customer_token");
  const customer = await services.loyalty.authenticate(storeId, authorization);
  return customer ? { platformCustomerId: customer.platform_customer_id } : undefined;
}

/** POST …/products/{productKey}/reviews → 201 `{ review: { reviewId, status } }`. */
export const submitReview = defineOperation({
  id: "submitProductReview",
  method: "POST",
  api: "storefront",
  auth: "none",
  tags: ["Reviews"],
  summary: "Submit a review of a product, optionally with photos and a video",
  description:
    "JSON, or `multipart/form-data` with the same fields and up to 5 images and 1 video in the repeatable `media` field. The review is moderated as the store's settings say. " +
    "A shopper signed in to the loyalty program may send its customer token (`Authorization: Bearer`): when the shop's orders show that customer bought the product, the review is from a verified buyer. An invalid token is a 401; an e-mail address alone never verifies.",
  params: SCOPE_PARAMS.product,
  body: { schema: reviewSubmissionBody, read: "handler", contentTypes: ["application/json", "multipart/form-data"], maxBytes: MAX_MULTIPART_BYTES },
  responses: { 201: { description: "The review was received", schema: submitReviewResponseSchema }, ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
  handler: async ({ request, params, context }) => {
    const { services } = context;
    const shopper = await signedInShopper(request, params.storeId, services);
    const input = await readSubmission(request, () => services.media.tempDir());
    try {
      const submitted = await services.submissions.submitReview(params, { ...input, clientIp: context.clientIp, shopper });
      // The store's post-review survey follows the review in the form's thank-you state (docs/surveys.md "Post-review").
      const channelSurveyId = await services.surveys.channelSurveyFor(params.storeId, "post-review");
      return reply({ ...submitted, ...(channelSurveyId ? { postReviewSurvey: { channelSurveyId } } : {}) }, { status: 201 });
    } finally {
      services.submissions.cleanup(input.files);
    }
  },
});

/** POST /v1/stores/{storeId}/store_reviews → 201 `{ review: { reviewId, status } }` (docs/google-shopping.md "Seller ratings"). */
export const submitStoreReview = defineOperation({
  id: "submitStoreReview",
  method: "POST",
  api: "storefront",
  auth: "none",
  tags: ["Reviews"],
  summary: "Submit a review of the shop itself (a store review, for Google seller ratings)",
  description:
    "JSON with `rating` (1–5), `title`, `body`, `displayName` and `email`, under the same rules, limits and moderation as a product review. " +
    "Store reviews never count in product review aggregates or listings; published ones go into the store's merchant review feed.",
  params: z.object({ storeId: storeIdParam }),
  body: { schema: storeReviewSubmissionBody, read: "handler", contentTypes: ["application/json"] },
  responses: { 201: { description: "The review was received", schema: submitReviewResponseSchema.pick({ review: true }) }, ...errorResponses(400, 404, 409, 413, 415, 429) },
  handler: async ({ request, params, context }) => {
    const fields = await readJsonObject(request);
    return reply(await context.services.storeReviews.submit(params.storeId, fields, context.clientIp), { status: 201 });
  },
});

/** POST …/products/{productKey}/questions → 201 `{ question: { questionId, status: "pending" } }`. */
export const askQuestion = defineOperation({
  id: "askProductQuestion",
  method: "POST",
  api: "storefront",
  auth: "none",
  tags: ["Questions"],
  summary: "Ask a question about a product (published after moderation)",
  params: SCOPE_PARAMS.product,
  body: { schema: questionBody, read: "handler", contentTypes: ["application/json"] },
  responses: { 201: { description: "The question was received", schema: askQuestionResponseSchema }, ...errorResponses(400, 404, 413, 415, 429) },
  handler: async ({ request, params, context }) => {
    const fields = await readJsonObject(request);
    return reply(await context.services.questions.askQuestion(params, fields, context.clientIp), { status: 201 });
  },
});

/**
 * POST /enterprise/orders `{ orders: [{ orderId, productId, email, dateCreated? }] }` → 200 `{ inserted }`.
 * Existing (order, product) lines are kept; the product ID is the platform's, without prefix.
 */
export const importOrders = defineOperation({
  id: "importOrders",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags: ["Orders"],
  summary: "Import order lines (to recognise verified buyers)",
  body: { schema: importOrdersBody, read: "json", contentTypes: ["application/json"] },
  responses: { 200: { description: "How many new order lines were stored", schema: importOrdersResponseSchema }, ...errorResponses(400, 401, 413, 415) },
  handler: async ({ body, storeId, context }) => ({
    inserted: await context.services.orders.importOrders(
      storeId,
      body.orders.map((o) => ({
        orderId: o.orderId,
        productId: o.productId,
        email: o.email,
        orderedMs: o.dateCreated ? Date.parse(o.dateCreated) : Date.now(),
        source: "enterprise-api",
      })),
    ),
  }),
});

/**
 * POST /reviews/{reviewId}/votes → 200 `{ helpfulCount, unhelpfulCount, visitorId }`, `visitorId` being the
 * signed visitor value to send with the next vote. 429 over the per-address limits (docs/writes.md).
 */
export const vote = defineOperation({
  id: "voteOnReview",
  method: "POST",
  api: "storefront",
  auth: "none",
  tags: ["Reviews"],
  summary: "Vote a review helpful or not helpful",
  description: "One counted vote per visitor and per client address per review; send the `visitorId` of the previous answer to change a vote.",
  params: z.object({ storeId: storeIdParam, reviewId: z.string().min(1).max(200).meta({ description: "The review voted on." }) }),
  body: { schema: voteBody, read: "json", contentTypes: ["application/json"] },
  responses: { 200: { description: "The review's vote counts after the vote", schema: voteResponseSchema }, ...errorResponses(400, 404, 413, 415, 429) },
  handler: async ({ request, params, body, context }) => {
    const { visitorId, token, setCookie } = visitorOf(request, context.services.visitorSecret, params.storeId, body.visitorId);
    const counts = await context.services.votes.vote(params.storeId, params.reviewId, body, visitorId, context.clientIp);
    return reply({ ...counts, visitorId: token }, { headers: setCookie ? { "set-cookie": setCookie } : undefined });
  },
});

const itemId = (description: string) => z.string().min(1).max(200).meta({ description });
const OKENDO_VOTE_DESCRIPTION =
  "Okendo-compatible. `voteType`: `upvote` / `downvote` vote helpful / unhelpful, `swap-to-upvote` / `swap-to-downvote` move the vote, " +
  "`upvote-cancel` / `downvote-cancel` withdraw it. The voter is the client address (Okendo's clients send no visitor): one counted vote per address per item, " +
  "and the per-address limits of the review votes apply to new votes (429).";

/** One Okendo-compatible vote operation: `target` picks the item from the path parameters. */
const okendoVote = <P extends z.ZodObject<z.ZodRawShape>>(id: string, what: string, tag: string, params: P, target: (p: z.output<P>) => VoteTarget) =>
  defineOperation({
    id,
    method: "POST",
    api: "storefront",
    auth: "none",
    tags: [tag],
    summary: `Vote ${what} helpful or unhelpful, or withdraw the vote (Okendo-compatible)`,
    description: OKENDO_VOTE_DESCRIPTION,
    params,
    body: { schema: okendoVoteBody, read: "json", contentTypes: ["application/json"] },
    responses: { 200: { description: "The item's vote counts after the vote", schema: qaVoteResponseSchema }, ...errorResponses(400, 404, 413, 415, 429) },
    handler: async ({ params: p, body, context }) => await context.services.votes.okendoVote((p as { storeId: string }).storeId, target(p as z.output<P>), body.voteType, context.clientIp),
  });

/** POST /stores/{storeId}/reviews/{reviewId}/vote `{ voteType }`. */
export const okendoReviewVote = okendoVote("voteOnReviewOkendo", "a review", "Reviews", z.object({ storeId: storeIdParam, reviewId: itemId("The review voted on.") }), (p) => ({
  type: "review",
  reviewId: p.reviewId,
}));

/** POST /stores/{storeId}/questions/{questionId}/vote `{ voteType }`. */
export const okendoQuestionVote = okendoVote("voteOnQuestion", "a question", "Questions", z.object({ storeId: storeIdParam, questionId: itemId("The question voted on.") }), (p) => ({
  type: "question",
  questionId: p.questionId,
}));

/** POST /stores/{storeId}/questions/{questionId}/answers/{answerId}/vote `{ voteType }`. */
export const okendoAnswerVote = okendoVote(
  "voteOnAnswer",
  "an answer",
  "Questions",
  z.object({ storeId: storeIdParam, questionId: itemId("The question answered."), answerId: itemId("The answer voted on.") }),
  (p) => ({ type: "answer", questionId: p.questionId, answerId: p.answerId }),
);

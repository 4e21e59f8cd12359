/**
 * Questions and answers: the shopper's question (docs/writes.md, Questions and answers) and the data functions the admin
 * calls to answer and moderate (issue 3 item 4). Every function is scoped by store; an ID of another
 * store answers 404 like a missing one.
 *
 * Verified buyer (issue #19 finding 6, the rule of reviews/submissions.service.ts): an e-mail that
 * matches an imported order is no proof (anyone who knows a buyer's address can type it). A buyer's
 * answer is `verified-buyer` only when a trusted caller that checked a proof passes `verifiedPurchase`.
 */
import { randomUUID } from "node:crypto";
import { badRequest, notFound } from "../contract/errors.ts";
import { HONEYPOT_FIELD, questionBody, type AskQuestionResponse } from "../contract/writes.ts";
import type { ReviewsService, ScopeParams } from "../reviews/reviews.service.ts";
import type { SubmissionLimiter } from "../reviews/submission-limits.ts";
import type { VerifiedPurchase } from "../reviews/submissions.service.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { ModerationStatus, QuestionsRepo } from "./questions.repo.ts";

const ANSWER_MAX = 5000;

/** Create the questions service. */
export function questionsService(deps: { questions: QuestionsRepo; reviewsService: ReviewsService; stores: StoresRepo; limiter: SubmissionLimiter }) {
  const { questions, stores } = deps;

  async function requireQuestion(storeId: string, questionId: string) {
    const q = await questions.getQuestion(storeId, questionId);
    if (!q) throw notFound("Question not found", "question_not_found");
    return q;
  }
  function checkAnswer(body: string, authorName: string): { body: string; authorName: string } {
    const b = body.trim();
    const a = authorName.trim();
    if (!b) throw badRequest("body is required", "invalid_field");
    if (b.length > ANSWER_MAX) throw badRequest(`body must be at most ${ANSWER_MAX} characters`, "invalid_field");
    if (!a || a.length > 60) throw badRequest("authorName must be 1 to 60 characters", "invalid_field");
    return { body: b, authorName: a };
  }

  return {
    /** The `limit` products with the most published questions (for the demo storefront's index and start-up links). */
    productsWithMostQuestions(storeId: string, limit: number): ReturnType<QuestionsRepo["productsWithMostQuestions"]> {
      return deps.questions.productsWithMostQuestions(storeId, limit);
    },

    /**
     * POST /products/{platform}-{id}/questions `{ body, displayName, email }`: a question, status
     * `pending`. A filled honeypot answers the same 201 and stores nothing.
     * @throws ApiError 404 (store/product), 400 (field rule), 429 (rate limit).
     */
    async askQuestion(params: ScopeParams, fields: Record<string, unknown>, clientIp: string): Promise<AskQuestionResponse> {
      const { store, scope } = await deps.reviewsService.resolveScope(params);
      if (scope.type !== "product" || !(await stores.getProduct(store.storeId, scope.productId))) throw notFound("Product not found", "product_not_found");
      const honeypot = fields[HONEYPOT_FIELD];
      if (typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot != null) return { question: { questionId: randomUUID(), status: "pending" } };
      const parsed = questionBody.safeParse(fields);
      if (!parsed.success) throw badRequest(zodIssue(parsed.error), "invalid_field");
      await deps.limiter.consume(clientIp, parsed.data.email);
      const questionId = randomUUID();
      await questions.insertQuestion({
        questionId,
        storeId: store.storeId,
        productId: scope.productId,
        body: parsed.data.body,
        askerName: parsed.data.displayName,
        askerEmail: parsed.data.email.toLowerCase(),
        status: "pending",
        createdMs: Date.now(),
      });
      return { question: { questionId, status: "pending" } };
    },

    /**
     * Answer a question as the store (shown with "Store answer"). Status defaults to `published`
     * (the merchant wrote it); pass `pending` to hold it.
     * @param input `{ storeId, questionId, body (1..5000 chars), authorName (1..60, e.g. the store's name), status? }`
     * @returns `{ answerId }`. @throws ApiError 404 (question not in the store), 400 (body/authorName).
     */
    async answerAsStore(input: { storeId: string; questionId: string; body: string; authorName: string; status?: ModerationStatus }): Promise<{ answerId: string }> {
      await requireQuestion(input.storeId, input.questionId);
      const { body, authorName } = checkAnswer(input.body, input.authorName);
      const answerId = randomUUID();
      await questions.insertAnswer({
        answerId,
        storeId: input.storeId,
        questionId: input.questionId,
        body,
        authorName,
        isStoreAnswer: true,
        verifiedStatus: "unverified",
        status: input.status ?? "published",
        createdMs: Date.now(),
      });
      return { answerId };
    },

    /**
     * Answer a question as a shopper (not the store). The answer is `verified-buyer` only with
     * `verifiedPurchase`, a proof the trusted caller checked (see the module comment; never read from a
     * request body), else `unverified`: an `email` that matches an imported order proves nothing.
     * Status `pending` until published (setAnswerStatus).
     * @param input `{ storeId, questionId, body (1..5000), authorName (1..60), email, verifiedPurchase? }`
     * @returns `{ answerId }`. @throws ApiError 404 (question), 400 (fields).
     */
    async answerAsBuyer(input: { storeId: string; questionId: string; body: string; authorName: string; email: string; verifiedPurchase?: VerifiedPurchase }): Promise<{ answerId: string }> {
      await requireQuestion(input.storeId, input.questionId);
      const { body, authorName } = checkAnswer(input.body, input.authorName);
      const answerId = randomUUID();
      await questions.insertAnswer({
        answerId,
        storeId: input.storeId,
        questionId: input.questionId,
        body,
        authorName,
        authorEmail: input.email.trim().toLowerCase(),
        isStoreAnswer: false,
        verifiedStatus: input.verifiedPurchase ? "verified-buyer" : "unverified",
        status: "pending",
        createdMs: Date.now(),
      });
      return { answerId };
    },

    /** Publish, reject or re-queue a question. @throws ApiError 404 when the store has no such question. */
    async setQuestionStatus(storeId: string, questionId: string, status: ModerationStatus): Promise<void> {
      if (!(await questions.setQuestionStatus(storeId, questionId, status))) throw notFound("Question not found", "question_not_found");
    },

    /** Publish, reject or re-queue an answer. @throws ApiError 404 when the store has no such answer. */
    async setAnswerStatus(storeId: string, answerId: string, status: ModerationStatus): Promise<void> {
      if (!(await questions.setAnswerStatus(storeId, answerId, status))) throw notFound("Answer not found", "answer_not_found");
    },
  };
}
export type QuestionsService = ReturnType<typeof questionsService>;

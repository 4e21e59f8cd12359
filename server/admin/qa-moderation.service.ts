/**
 * Q&A moderation rules for the merchant admin (issue 7 item 3): the filtered question queue with signed
 * keyset cursors (each question with all its answers and their statuses), and publish/reject of
 * questions, single and bulk, in one transaction. Answering as the store and answer moderation use
 * `services.questions` (answerAsStore, setAnswerStatus). Every call names the store; another store's
 * question behaves like a missing one (not counted / 404).
 */
import { z } from "zod";
import { badRequest } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import { keysetPage } from "../shared/keyset-pager.ts";
import type { QaAnswerRow, QaModerationRepo, QaQueueFilter, QaQueueRow } from "./qa-moderation.repo.ts";

export const QA_PAGE_SIZE = 20;
/** Most questions in one bulk action. */
export const QA_MAX_BULK = 100;

/** The queue filter as it arrives in the admin URL (all optional; status defaults to pending). */
export const qaQuerySchema = z.object({
  status: z.enum(["pending", "published", "rejected"], { error: "status must be pending, published or rejected" }).default("pending"),
  product: z.string().trim().max(200, "product must be at most 200 characters").optional(),
  answers: z.enum(["", "pending"], { error: "answers must be pending or empty" }).optional(),
  after: z.string().max(500).optional(),
});
export type QaQuery = z.output<typeof qaQuerySchema>;

export type QaPage = { questions: (QaQueueRow & { answers: QaAnswerRow[] })[]; next?: string; filter: QaQueueFilter };

/** Create the Q&A moderation service. `secret` signs queue cursors. */
export function qaModerationService(deps: { db: Db; repo: QaModerationRepo; secret: string }) {
  const { db, repo, secret } = deps;
  const context = (storeId: string, f: QaQueueFilter) => `admin-qa|${storeId}|${f.status}|${f.productId ?? ""}|${f.answersPending ? 1 : ""}`;

  return {
    /**
     * One page of the question queue, newest first, each question with every answer (any status).
     * `q.product` may carry the platform prefix (`shopify-B00004U9JP`) or not.
     * @returns rows and, when more exist, `next` (an opaque cursor).
     * @throws ApiError 400 for a cursor not issued for this store and filter.
     */
    async queue(storeId: string, platform: string, q: QaQuery): Promise<QaPage> {
      const filter: QaQueueFilter = {
        status: q.status,
        ...(q.product ? { productId: q.product.startsWith(`${platform}-`) ? q.product.slice(platform.length + 1) : q.product } : {}),
        ...(q.answers === "pending" ? { answersPending: true } : {}),
      };
      const { rows: page, next } = await keysetPage<QaQueueRow, [number, string]>({
        secret,
        context: context(storeId, filter),
        cursor: q.after,
        shape: ["number", "string"],
        limit: QA_PAGE_SIZE,
        fetch: (after) => repo.listQueue(storeId, filter, QA_PAGE_SIZE, after), // the repo reads limit + 1 rows
        keyOf: (r) => [r.created_ms, r.question_id],
      });
      const answers = await repo.answersOf(
        storeId,
        page.map((r) => r.question_id),
      );
      const questions = page.map((r) => ({ ...r, answers: answers.filter((a) => a.question_id === r.question_id) }));
      return { questions, filter, ...(next ? { next } : {}) };
    },

    /**
     * Publish or reject questions of the store (one transaction). @returns how many changed
     * (other stores' and unknown IDs are skipped). @throws ApiError 400 when none or more than QA_MAX_BULK are given.
     */
    setStatus(storeId: string, questionIds: string[], status: "published" | "rejected"): Promise<number> {
      const ids = [...new Set(questionIds.filter(Boolean))];
      if (ids.length === 0) throw badRequest("question: choose at least one question");
      if (ids.length > QA_MAX_BULK) throw badRequest(`question: at most ${QA_MAX_BULK} questions at once`);
      return transaction(db, () => repo.setStatus(storeId, ids, status));
    },
  };
}
export type QaModerationService = ReturnType<typeof qaModerationService>;

/**
 * Q&A moderation SQL for the merchant admin (issue 7 item 3): the filtered question queue (keyset on
 * created_ms, question_id, newest first, over index questions_status), the answers of a page of
 * questions with their statuses, and bulk status changes. The store ID is in every WHERE, so another
 * store's question IDs match nothing.
 */
import type { Db } from "../db/database.ts";
import type { ModerationStatus } from "../questions/questions.repo.ts";

export type QaQueueFilter = { status: ModerationStatus; productId?: string; answersPending?: boolean };
export type QaQueueRow = {
  question_id: string; product_id: string; product_name: string; body: string; asker_name: string; asker_email: string | null;
  status: ModerationStatus; created_ms: number;
};
export type QaAnswerRow = {
  answer_id: string; question_id: string; body: string; author_name: string; author_email: string | null; is_store_answer: number;
  is_public: number; status: ModerationStatus; verified_status: string; created_ms: number;
};

const HAS_PENDING_ANSWER = "EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.question_id AND a.store_id = q.store_id AND a.status = 'pending')";

/** Create the Q&A moderation data module over `db`. */
export function qaModerationRepo(db: Db) {
  const setStatus = db.prepare("UPDATE questions SET status = ? WHERE store_id = ? AND question_id = ?");
  return {
    /**
     * One page (limit + 1 rows) of the store's questions with `filter.status` (and product, and
     * "has an answer waiting"), newest first, after the cursor key `[created_ms, question_id]`.
     */
    listQueue(storeId: string, filter: QaQueueFilter, limit: number, after?: [number, string]): QaQueueRow[] {
      const where = ["q.store_id = ?", "q.status = ?"];
      const args: (string | number)[] = [storeId, filter.status];
      if (filter.productId !== undefined) { where.push("q.product_id = ?"); args.push(filter.productId); }
      if (filter.answersPending) where.push(HAS_PENDING_ANSWER);
      if (after) { where.push("(q.created_ms, q.question_id) < (?, ?)"); args.push(after[0], after[1]); }
      return db
        .prepare(
          `SELECT q.question_id, q.product_id, p.name AS product_name, q.body, q.asker_name, q.asker_email, q.status, q.created_ms
           FROM questions q JOIN products p ON p.store_id = q.store_id AND p.product_id = q.product_id
           WHERE ${where.join(" AND ")}
           ORDER BY q.created_ms DESC, q.question_id DESC LIMIT ?`,
        )
        .all(...args, limit + 1) as QaQueueRow[];
    },

    /** Every answer (any status) of the store's questions in `questionIds`, oldest first. */
    answersOf(storeId: string, questionIds: string[]): QaAnswerRow[] {
      if (questionIds.length === 0) return [];
      return db
        .prepare(
          `SELECT answer_id, question_id, body, author_name, author_email, is_store_answer, is_public, status, verified_status, created_ms
           FROM answers WHERE store_id = ? AND question_id IN (${questionIds.map(() => "?").join(", ")}) ORDER BY created_ms, answer_id`,
        )
        .all(storeId, ...questionIds) as QaAnswerRow[];
    },

    /** Set the status of the store's questions in `questionIds`. @returns how many of the store's questions matched. */
    setStatus(storeId: string, questionIds: string[], status: ModerationStatus): number {
      let changed = 0;
      for (const id of questionIds) changed += setStatus.run(status, storeId, id).changes;
      return changed;
    },
  };
}
export type QaModerationRepo = ReturnType<typeof qaModerationRepo>;

/**
 * Q&A moderation SQL for the merchant admin (issue 7 item 3): the filtered question queue (keyset on
 * created_ms, question_id, newest first, over index questions_status), the answers of a page of
 * questions with their statuses, and bulk status changes. The store ID is in every WHERE, so another
 * store's question IDs match nothing.
 */
import { all, run, sql, type Db } from "../db/database.ts";
import type { ModerationStatus } from "../questions/questions.repo.ts";

export type QaQueueFilter = { status: ModerationStatus; productId?: string; answersPending?: boolean };
export type QaQueueRow = {
  question_id: string;
  product_id: string;
  product_name: string;
  body: string;
  asker_name: string;
  asker_email: string | null;
  status: ModerationStatus;
  created_ms: number;
};
export type QaAnswerRow = {
  answer_id: string;
  question_id: string;
  body: string;
  author_name: string;
  author_email: string | null;
  is_store_answer: number;
  is_public: number;
  status: ModerationStatus;
  verified_status: string;
  created_ms: number;
};

const HAS_PENDING_ANSWER = sql`EXISTS (SELECT 1 FROM answers a WHERE a.question_id = q.question_id AND a.store_id = q.store_id AND a.status = 'pending')`;

/** Create the Q&A moderation data module over `db`. Every function returns a promise. */
export function qaModerationRepo(db: Db) {
  return {
    /**
     * One page (limit + 1 rows) of the store's questions with `filter.status` (and product, and
     * "has an answer waiting"), newest first, after the cursor key `[created_ms, question_id]`.
     */
    listQueue(storeId: string, filter: QaQueueFilter, limit: number, after?: [number, string]): Promise<QaQueueRow[]> {
      const none = sql``;
      return all<QaQueueRow>(
        db,
        sql`SELECT q.question_id, q.product_id, p.name AS product_name, q.body, q.asker_name, q.asker_email, q.status, q.created_ms
           FROM questions q JOIN products p ON p.store_id = q.store_id AND p.product_id = q.product_id
           WHERE q.store_id = ${storeId} AND q.status = ${filter.status}
             ${filter.productId !== undefined ? sql`AND q.product_id = ${filter.productId}` : none}
             ${filter.answersPending ? sql`AND ${HAS_PENDING_ANSWER}` : none}
             ${after ? sql`AND (q.created_ms, q.question_id) < (${after[0]}, ${after[1]})` : none}
           ORDER BY q.created_ms DESC, q.question_id DESC LIMIT ${limit + 1}`,
      );
    },

    /** Every answer (any status) of the store's questions in `questionIds`, oldest first. */
    async answersOf(storeId: string, questionIds: string[]): Promise<QaAnswerRow[]> {
      if (questionIds.length === 0) return [];
      return all<QaAnswerRow>(
        db,
        sql`SELECT answer_id, question_id, body, author_name, author_email, is_store_answer, is_public, status, verified_status, created_ms
           FROM answers WHERE store_id = ${storeId} AND question_id IN (${sql.join(questionIds)}) ORDER BY created_ms, answer_id`,
      );
    },

    /** Set the status of the store's questions in `questionIds`. @returns how many of the store's questions matched. */
    async setStatus(storeId: string, questionIds: string[], status: ModerationStatus): Promise<number> {
      let changed = 0;
      for (const id of questionIds) changed += (await run(db, sql`UPDATE questions SET status = ${status} WHERE store_id = ${storeId} AND question_id = ${id}`)).changes;
      return changed;
    },
  };
}
export type QaModerationRepo = ReturnType<typeof qaModerationRepo>;

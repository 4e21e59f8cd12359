/**
 * Questions and answers: the write side (SQL). Listings stay in reviews/reviews.repo.ts.
 * Every statement names the store (docs/api.md, Endpoints and scopes).
 */
import { all, one, run, sql, type Db } from "../db/database.ts";

export type ModerationStatus = "pending" | "published" | "rejected";

export type NewQuestion = {
  questionId: string;
  storeId: string;
  productId: string;
  body: string;
  askerName: string;
  askerEmail?: string | null;
  status: ModerationStatus;
  createdMs: number;
  source?: string | null;
  sourceKey?: string | null;
};
export type NewAnswer = {
  answerId: string;
  storeId: string;
  questionId: string;
  body: string;
  authorName: string;
  authorEmail?: string | null;
  isStoreAnswer: boolean;
  verifiedStatus: "verified-buyer" | "unverified";
  isPublic?: boolean;
  status: ModerationStatus;
  createdMs: number;
  source?: string | null;
  sourceKey?: string | null;
};
export type QuestionRecord = {
  question_id: string;
  store_id: string;
  product_id: string;
  group_id: string | null;
  body: string;
  asker_name: string;
  asker_email: string | null;
  status: ModerationStatus;
  created_ms: number;
};
export type AnswerRecord = {
  answer_id: string;
  question_id: string;
  store_id: string;
  body: string;
  author_name: string;
  author_email: string | null;
  is_store_answer: number;
  is_public: number;
  status: ModerationStatus;
  verified_status: string;
  created_ms: number;
};

/** Create the questions data module over `db`. */
export function questionsRepo(db: Db) {
  return {
    /** Insert a question (the product must exist). @returns true when inserted (false: same source key exists). */
    async insertQuestion(q: NewQuestion): Promise<boolean> {
      const { changes } = await run(
        db,
        sql`
        INSERT INTO questions (question_id, store_id, product_id, group_id, body, asker_name, asker_email, status, created_ms, source, source_key)
        VALUES (${q.questionId}, ${q.storeId}, ${q.productId}, (SELECT group_id FROM products WHERE store_id = ${q.storeId} AND product_id = ${q.productId}),
          ${q.body}, ${q.askerName}, ${q.askerEmail ?? null}, ${q.status}, ${q.createdMs}, ${q.source ?? null}, ${q.sourceKey ?? null})
        ON CONFLICT DO NOTHING`,
      );
      return changes === 1;
    },
    /** Insert an answer to a question of the same store. @returns false when no such question (or the source key exists). */
    async insertAnswer(a: NewAnswer): Promise<boolean> {
      const { changes } = await run(
        db,
        sql`
        INSERT INTO answers (answer_id, question_id, store_id, body, author_name, author_email, is_store_answer, is_public, status,
          verified_status, created_ms, source, source_key)
        SELECT ${a.answerId}, q.question_id, q.store_id, ${a.body}, ${a.authorName}, ${a.authorEmail ?? null}, ${a.isStoreAnswer ? 1 : 0},
          ${a.isPublic === false ? 0 : 1}, ${a.status}, ${a.verifiedStatus}, ${a.createdMs}, ${a.source ?? null}, ${a.sourceKey ?? null}
        FROM questions q WHERE q.store_id = ${a.storeId} AND q.question_id = ${a.questionId}
        ON CONFLICT DO NOTHING`,
      );
      return changes === 1;
    },
    /** A question of the store (any status), or undefined. */
    getQuestion(storeId: string, questionId: string): Promise<QuestionRecord | undefined> {
      return one<QuestionRecord>(db, sql`SELECT * FROM questions WHERE store_id = ${storeId} AND question_id = ${questionId}`);
    },
    /** An answer of the store (any status), or undefined. */
    getAnswer(storeId: string, answerId: string): Promise<AnswerRecord | undefined> {
      return one<AnswerRecord>(db, sql`SELECT * FROM answers WHERE store_id = ${storeId} AND answer_id = ${answerId}`);
    },
    /** Answers of a question (any status), oldest first. */
    answersOf(storeId: string, questionId: string): Promise<AnswerRecord[]> {
      return all<AnswerRecord>(db, sql`SELECT * FROM answers WHERE store_id = ${storeId} AND question_id = ${questionId} ORDER BY created_ms, answer_id`);
    },
    /** @returns false when the store has no such question. */
    async setQuestionStatus(storeId: string, questionId: string, status: ModerationStatus): Promise<boolean> {
      return (await run(db, sql`UPDATE questions SET status = ${status} WHERE store_id = ${storeId} AND question_id = ${questionId}`)).changes === 1;
    },
    /** @returns false when the store has no such answer. */
    async setAnswerStatus(storeId: string, answerId: string, status: ModerationStatus): Promise<boolean> {
      return (await run(db, sql`UPDATE answers SET status = ${status} WHERE store_id = ${storeId} AND answer_id = ${answerId}`)).changes === 1;
    },
    /** Questions of a store by status, newest first (admin moderation queue). */
    listByStatus(storeId: string, status: ModerationStatus, limit: number): Promise<QuestionRecord[]> {
      return all<QuestionRecord>(
        db,
        sql`
        SELECT * FROM questions WHERE store_id = ${storeId} AND status = ${status} ORDER BY created_ms DESC, question_id DESC LIMIT ${limit}`,
      );
    },

    /** The `limit` products of a store with the most published questions (most first, then by product ID). */
    async productsWithMostQuestions(storeId: string, limit: number): Promise<{ productId: string; name: string; questionCount: number }[]> {
      const rows = await all<{ product_id: string; name: string; question_count: number }>(
        db,
        sql`
        SELECT p.product_id, p.name, q.question_count
        FROM (SELECT product_id, COUNT(*) AS question_count FROM questions WHERE store_id = ${storeId} AND status = 'published' GROUP BY product_id) q
        JOIN products p ON p.store_id = ${storeId} AND p.product_id = q.product_id
        ORDER BY q.question_count DESC, p.product_id LIMIT ${limit}`,
      );
      return rows.map((r) => ({ productId: r.product_id, name: r.name, questionCount: r.question_count }));
    },
  };
}
export type QuestionsRepo = ReturnType<typeof questionsRepo>;

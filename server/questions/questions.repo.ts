/**
 * Questions and answers: the write side (SQL). Listings stay in reviews/reviews.repo.ts.
 * Every statement names the store (docs/api.md, Endpoints and scopes).
 */
import type { Db } from "../db/database.ts";

export type ModerationStatus = "pending" | "published" | "rejected";

export type NewQuestion = {
  questionId: string; storeId: string; productId: string; body: string; askerName: string; askerEmail?: string | null;
  status: ModerationStatus; createdMs: number; source?: string | null; sourceKey?: string | null;
};
export type NewAnswer = {
  answerId: string; storeId: string; questionId: string; body: string; authorName: string; authorEmail?: string | null;
  isStoreAnswer: boolean; verifiedStatus: "verified-buyer" | "unverified"; isPublic?: boolean;
  status: ModerationStatus; createdMs: number; source?: string | null; sourceKey?: string | null;
};
export type QuestionRecord = {
  question_id: string; store_id: string; product_id: string; group_id: string | null; body: string; asker_name: string;
  asker_email: string | null; status: ModerationStatus; created_ms: number;
};
export type AnswerRecord = {
  answer_id: string; question_id: string; store_id: string; body: string; author_name: string; author_email: string | null;
  is_store_answer: number; is_public: number; status: ModerationStatus; verified_status: string; created_ms: number;
};

/** Create the questions data module over `db`. */
export function questionsRepo(db: Db) {
  const insertQuestion = db.prepare(
    `INSERT INTO questions (question_id, store_id, product_id, group_id, body, asker_name, asker_email, status, created_ms, source, source_key)
     VALUES (@questionId, @storeId, @productId, (SELECT group_id FROM products WHERE store_id = @storeId AND product_id = @productId),
       @body, @askerName, @askerEmail, @status, @createdMs, @source, @sourceKey)
     ON CONFLICT DO NOTHING`,
  );
  const insertAnswer = db.prepare(
    `INSERT INTO answers (answer_id, question_id, store_id, body, author_name, author_email, is_store_answer, is_public, status,
       verified_status, created_ms, source, source_key)
     SELECT @answerId, q.question_id, q.store_id, @body, @authorName, @authorEmail, @isStoreAnswer, @isPublic, @status,
       @verifiedStatus, @createdMs, @source, @sourceKey
     FROM questions q WHERE q.store_id = @storeId AND q.question_id = @questionId
     ON CONFLICT DO NOTHING`,
  );
  return {
    /** Insert a question (the product must exist). @returns true when inserted (false: same source key exists). */
    insertQuestion(q: NewQuestion): boolean {
      return insertQuestion.run({ ...q, askerEmail: q.askerEmail ?? null, source: q.source ?? null, sourceKey: q.sourceKey ?? null }).changes === 1;
    },
    /** Insert an answer to a question of the same store. @returns false when no such question (or the source key exists). */
    insertAnswer(a: NewAnswer): boolean {
      return insertAnswer.run({
        ...a, authorEmail: a.authorEmail ?? null, isStoreAnswer: a.isStoreAnswer ? 1 : 0, isPublic: a.isPublic === false ? 0 : 1,
        source: a.source ?? null, sourceKey: a.sourceKey ?? null,
      }).changes === 1;
    },
    /** A question of the store (any status), or undefined. */
    getQuestion(storeId: string, questionId: string): QuestionRecord | undefined {
      return db.prepare<[string, string], QuestionRecord>("SELECT * FROM questions WHERE store_id = ? AND question_id = ?").get(storeId, questionId);
    },
    /** An answer of the store (any status), or undefined. */
    getAnswer(storeId: string, answerId: string): AnswerRecord | undefined {
      return db.prepare<[string, string], AnswerRecord>("SELECT * FROM answers WHERE store_id = ? AND answer_id = ?").get(storeId, answerId);
    },
    /** Answers of a question (any status), oldest first. */
    answersOf(storeId: string, questionId: string): AnswerRecord[] {
      return db.prepare<[string, string], AnswerRecord>("SELECT * FROM answers WHERE store_id = ? AND question_id = ? ORDER BY created_ms, answer_id").all(storeId, questionId);
    },
    /** @returns false when the store has no such question. */
    setQuestionStatus(storeId: string, questionId: string, status: ModerationStatus): boolean {
      return db.prepare("UPDATE questions SET status = ? WHERE store_id = ? AND question_id = ?").run(status, storeId, questionId).changes === 1;
    },
    /** @returns false when the store has no such answer. */
    setAnswerStatus(storeId: string, answerId: string, status: ModerationStatus): boolean {
      return db.prepare("UPDATE answers SET status = ? WHERE store_id = ? AND answer_id = ?").run(status, storeId, answerId).changes === 1;
    },
    /** Questions of a store by status, newest first (admin moderation queue). */
    listByStatus(storeId: string, status: ModerationStatus, limit: number): QuestionRecord[] {
      return db.prepare<[string, string, number], QuestionRecord>(
        "SELECT * FROM questions WHERE store_id = ? AND status = ? ORDER BY created_ms DESC, question_id DESC LIMIT ?",
      ).all(storeId, status, limit);
    },

    /** The `limit` products of a store with the most published questions (most first, then by product ID). */
    productsWithMostQuestions(storeId: string, limit: number): { productId: string; name: string; questionCount: number }[] {
      return db
        .prepare<[{ storeId: string; limit: number }], { product_id: string; name: string; question_count: number }>(
          `SELECT p.product_id, p.name, q.question_count
           FROM (SELECT product_id, COUNT(*) AS question_count FROM questions WHERE store_id = @storeId AND status = 'published' GROUP BY product_id) q
           JOIN products p ON p.store_id = @storeId AND p.product_id = q.product_id
           ORDER BY q.question_count DESC, p.product_id LIMIT @limit`,
        )
        .all({ storeId, limit })
        .map((r) => ({ productId: r.product_id, name: r.name, questionCount: r.question_count }));
    },
  };
}
export type QuestionsRepo = ReturnType<typeof questionsRepo>;

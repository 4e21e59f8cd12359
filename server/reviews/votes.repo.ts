/**
 * Helpful votes (SQL), docs/writes.md, Helpful votes: one vote per visitor per review, and per-address limits
 * (issue #19 finding 5, docs/writes.md). The (review, visitor) key, the limit counts and the review's
 * counts are read and changed in the same IMMEDIATE transaction, so repeated and concurrent votes of one
 * visitor count once, a burst of new visitors from one address counts up to the limits and no further
 * (whatever the concurrency, and across processes sharing the database), and switching a vote moves it
 * from one count to the other.
 */
import { transaction, type Db } from "../db/database.ts";
import { DEFAULT_VOTE_LIMITS, voteRefusedError, type VoteLimitsConfig } from "./submission-limits.ts";

export type Vote = "helpful" | "unhelpful";
export type VoteCounts = { helpfulCount: number; unhelpfulCount: number };
/** A question or an answer voted on (Okendo-compatible votes, docs/api.md, Okendo-compatible; table qa_votes, migration 083). */
export type QaItem = { type: "question"; questionId: string } | { type: "answer"; questionId: string; answerId: string };

/** Create the votes data module over `db`; `limits` gives the current per-address rules at each vote. */
export function votesRepo(db: Db, limits: () => VoteLimitsConfig = () => DEFAULT_VOTE_LIMITS) {
  const review = db.prepare<[string, string], { helpful_count: number; unhelpful_count: number }>(
    "SELECT helpful_count, unhelpful_count FROM reviews WHERE store_id = ? AND review_id = ? AND status = 'published'",
  );
  const current = db.prepare<[string, string, string], { vote: Vote }>(
    "SELECT vote FROM review_votes WHERE store_id = ? AND review_id = ? AND visitor_hash = ?",
  );
  // New votes of an address since a time: in the store, and on one review (index review_votes_by_address).
  const byAddress = db.prepare<[string, string, number], { n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_ms) AS oldest FROM review_votes WHERE store_id = ? AND address_hash = ? AND created_ms > ?",
  );
  const byAddressOnReview = db.prepare<[string, string, number, string], { n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_ms) AS oldest FROM review_votes WHERE store_id = ? AND address_hash = ? AND created_ms > ? AND review_id = ?",
  );
  const insert = db.prepare(
    "INSERT INTO review_votes (store_id, review_id, visitor_hash, address_hash, vote, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const change = db.prepare("UPDATE review_votes SET vote = ?, updated_ms = ? WHERE store_id = ? AND review_id = ? AND visitor_hash = ?");
  const bump = db.prepare(
    `UPDATE reviews SET helpful_count = helpful_count + ?, unhelpful_count = unhelpful_count + ?
     WHERE store_id = ? AND review_id = ?`,
  );
  const removeVote = db.prepare("DELETE FROM review_votes WHERE store_id = ? AND review_id = ? AND visitor_hash = ?");

  // Questions and answers (qa_votes): the same rules over their own rows and counts.
  const qaCounts = {
    question: db.prepare<[string, string, string], { helpful_count: number; unhelpful_count: number }>(
      "SELECT helpful_count, unhelpful_count FROM questions WHERE store_id = ? AND question_id = ? AND ? = question_id AND status = 'published'",
    ),
    answer: db.prepare<[string, string, string], { helpful_count: number; unhelpful_count: number }>(
      `SELECT a.helpful_count, a.unhelpful_count FROM answers a JOIN questions q ON q.question_id = a.question_id
       WHERE a.store_id = ? AND a.answer_id = ? AND a.question_id = ? AND a.status = 'published' AND a.is_public = 1 AND q.status = 'published'`,
    ),
  };
  const qaBump = {
    question: db.prepare("UPDATE questions SET helpful_count = helpful_count + ?, unhelpful_count = unhelpful_count + ? WHERE store_id = ? AND question_id = ?"),
    answer: db.prepare("UPDATE answers SET helpful_count = helpful_count + ?, unhelpful_count = unhelpful_count + ? WHERE store_id = ? AND answer_id = ?"),
  };
  const qaCurrent = db.prepare<[string, string, string], { vote: Vote }>("SELECT vote FROM qa_votes WHERE item_type = ? AND item_id = ? AND voter_hash = ?");
  const qaByAddress = db.prepare<[string, string, number], { n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_ms) AS oldest FROM qa_votes WHERE store_id = ? AND address_hash = ? AND created_ms > ?",
  );
  const qaByAddressOnItem = db.prepare<[string, string, number, string, string], { n: number; oldest: number | null }>(
    "SELECT count(*) AS n, min(created_ms) AS oldest FROM qa_votes WHERE store_id = ? AND address_hash = ? AND created_ms > ? AND item_type = ? AND item_id = ?",
  );
  const qaInsert = db.prepare(
    "INSERT INTO qa_votes (store_id, question_id, item_type, item_id, voter_hash, address_hash, vote, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const qaChange = db.prepare("UPDATE qa_votes SET vote = ?, updated_ms = ? WHERE item_type = ? AND item_id = ? AND voter_hash = ?");
  const qaRemove = db.prepare("DELETE FROM qa_votes WHERE item_type = ? AND item_id = ? AND voter_hash = ?");
  const itemId = (item: QaItem) => (item.type === "question" ? item.questionId : item.answerId);
  const qaRead = (storeId: string, item: QaItem) => {
    const r = qaCounts[item.type].get(storeId, itemId(item), item.questionId);
    return r && { helpfulCount: r.helpful_count, unhelpfulCount: r.unhelpful_count };
  };
  const delta = (vote: Vote, sign: 1 | -1): [number, number] => (vote === "helpful" ? [sign, 0] : [0, sign]);

  return {
    /**
     * Withdraw `vote` of `visitorHash` on a published review (Okendo's `upvote-cancel` / `downvote-cancel`):
     * when the visitor's vote is `vote`, it is removed and no longer counted; otherwise nothing changes.
     * @returns the counts after, or undefined when the store has no such published review.
     */
    cancelVote(storeId: string, reviewId: string, visitorHash: string, vote: Vote): VoteCounts | undefined {
      return transaction(db, () => {
        if (!review.get(storeId, reviewId)) return undefined;
        if (current.get(storeId, reviewId, visitorHash)?.vote === vote) {
          removeVote.run(storeId, reviewId, visitorHash);
          bump.run(...delta(vote, -1), storeId, reviewId);
        }
        const r = review.get(storeId, reviewId)!;
        return { helpfulCount: r.helpful_count, unhelpfulCount: r.unhelpful_count };
      });
    },

    /**
     * Record, move (`vote` given) or withdraw (`cancel` given) a voter's vote on a published question or a
     * public published answer of a published question, with the per-address limits of `castVote` applied to
     * new votes (counted over question and answer votes). @returns the item's counts after, or undefined when
     * the store has no such item. @throws ApiError 429 as `castVote`.
     */
    qaVote(storeId: string, item: QaItem, voterHash: string, change: { vote: Vote } | { cancel: Vote }, addressHash: string | null, now = Date.now()): VoteCounts | undefined {
      return transaction(db, () => {
        if (!qaRead(storeId, item)) return undefined;
        const id = itemId(item);
        const previous = qaCurrent.get(item.type, id, voterHash)?.vote;
        if ("cancel" in change) {
          if (previous === change.cancel) {
            qaRemove.run(item.type, id, voterHash);
            qaBump[item.type].run(...delta(change.cancel, -1), storeId, id);
          }
        } else if (previous === undefined) {
          if (addressHash !== null) {
            const { perAddressPerReview, perAddress } = limits();
            const onItem = qaByAddressOnItem.get(storeId, addressHash, now - perAddressPerReview.windowMs, item.type, id)!;
            if (onItem.n >= perAddressPerReview.max) throw voteRefusedError({ refused: "review", retryAfterMs: onItem.oldest! + perAddressPerReview.windowMs - now });
            const recent = qaByAddress.get(storeId, addressHash, now - perAddress.windowMs)!;
            if (recent.n >= perAddress.max) throw voteRefusedError({ refused: "address", retryAfterMs: recent.oldest! + perAddress.windowMs - now });
          }
          qaInsert.run(storeId, item.questionId, item.type, id, voterHash, addressHash, change.vote, now, now);
          qaBump[item.type].run(...delta(change.vote, 1), storeId, id);
        } else if (previous !== change.vote) {
          qaChange.run(change.vote, now, item.type, id, voterHash);
          const d = change.vote === "helpful" ? 1 : -1;
          qaBump[item.type].run(d, -d, storeId, id);
        }
        return qaRead(storeId, item);
      });
    },

    /**
     * Record `vote` of `visitorHash` on a published review of the store, cast from the client address
     * `addressHash` (visitors.ts). Same vote again: nothing changes. Other vote: moved (a visitor's own
     * vote is never refused). A new visitor's vote is refused, and nothing changes, when the address
     * already has `perAddressPerReview.max` votes on this review in that window, or `perAddress.max` new
     * votes in the store in that window. `addressHash` null: a trusted caller (import, admin), no limits.
     * @returns the counts after the vote, or undefined when the store has no such published review.
     * @throws ApiError 429 `vote_limited` / `rate_limited` (submission-limits.ts `voteRefusedError`).
     */
    castVote(storeId: string, reviewId: string, visitorHash: string, vote: Vote, addressHash: string | null = null, now = Date.now()): VoteCounts | undefined {
      return transaction(db, () => {
        if (!review.get(storeId, reviewId)) return undefined;
        const previous = current.get(storeId, reviewId, visitorHash)?.vote;
        if (previous === undefined) {
          if (addressHash !== null) {
            const { perAddressPerReview, perAddress } = limits();
            const onReview = byAddressOnReview.get(storeId, addressHash, now - perAddressPerReview.windowMs, reviewId)!;
            if (onReview.n >= perAddressPerReview.max) throw voteRefusedError({ refused: "review", retryAfterMs: onReview.oldest! + perAddressPerReview.windowMs - now });
            const recent = byAddress.get(storeId, addressHash, now - perAddress.windowMs)!;
            if (recent.n >= perAddress.max) throw voteRefusedError({ refused: "address", retryAfterMs: recent.oldest! + perAddress.windowMs - now });
          }
          insert.run(storeId, reviewId, visitorHash, addressHash, vote, now, now);
          bump.run(vote === "helpful" ? 1 : 0, vote === "unhelpful" ? 1 : 0, storeId, reviewId);
        } else if (previous !== vote) {
          change.run(vote, now, storeId, reviewId, visitorHash);
          const d = vote === "helpful" ? 1 : -1;
          bump.run(d, -d, storeId, reviewId);
        }
        const r = review.get(storeId, reviewId)!;
        return { helpfulCount: r.helpful_count, unhelpfulCount: r.unhelpful_count };
      });
    },
    /** Number of vote rows of a review (tests, admin). */
    countVotes(storeId: string, reviewId: string): number {
      return (db.prepare("SELECT count(*) FROM review_votes WHERE store_id = ? AND review_id = ?").pluck().get(storeId, reviewId) as number);
    },
  };
}
export type VotesRepo = ReturnType<typeof votesRepo>;

/**
 * Helpful votes (SQL), decisions.md §3: one vote per visitor per review. The (review, visitor) key
 * and the review's counts change in the same IMMEDIATE transaction, so repeated and concurrent votes
 * of one visitor count once and switching a vote moves it from one count to the other.
 */
import { transaction, type Db } from "../db/database.ts";

export type Vote = "helpful" | "unhelpful";
export type VoteCounts = { helpfulCount: number; unhelpfulCount: number };

/** Create the votes data module over `db`. */
export function votesRepo(db: Db) {
  const review = db.prepare<[string, string], { helpful_count: number; unhelpful_count: number }>(
    "SELECT helpful_count, unhelpful_count FROM reviews WHERE store_id = ? AND review_id = ? AND status = 'published'",
  );
  const current = db.prepare<[string, string, string], { vote: Vote }>(
    "SELECT vote FROM review_votes WHERE store_id = ? AND review_id = ? AND visitor_hash = ?",
  );
  const insert = db.prepare("INSERT INTO review_votes (store_id, review_id, visitor_hash, vote, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?)");
  const change = db.prepare("UPDATE review_votes SET vote = ?, updated_ms = ? WHERE store_id = ? AND review_id = ? AND visitor_hash = ?");
  const bump = db.prepare(
    `UPDATE reviews SET helpful_count = helpful_count + ?, unhelpful_count = unhelpful_count + ?
     WHERE store_id = ? AND review_id = ?`,
  );
  return {
    /**
     * Record `vote` of `visitorHash` on a published review of the store.
     * Same vote again: nothing changes. Other vote: moved. @returns the counts after the vote,
     * or undefined when the store has no such published review.
     */
    castVote(storeId: string, reviewId: string, visitorHash: string, vote: Vote): VoteCounts | undefined {
      return transaction(db, () => {
        if (!review.get(storeId, reviewId)) return undefined;
        const now = Date.now();
        const previous = current.get(storeId, reviewId, visitorHash)?.vote;
        if (previous === undefined) {
          insert.run(storeId, reviewId, visitorHash, vote, now, now);
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

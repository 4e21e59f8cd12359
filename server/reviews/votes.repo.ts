/**
 * Helpful votes (SQL), docs/writes.md, Helpful votes: one vote per visitor per review, and per-address limits
 * (issue #19 finding 5, docs/writes.md). The (review, visitor) key, the limit counts and the review's
 * counts are read and changed in one transaction, so repeated and concurrent votes of one visitor count once,
 * a burst of new visitors from one address counts up to the limits and no further (whatever the concurrency,
 * and across processes and nodes sharing the database), and switching a vote moves it from one count to the other.
 *
 * Exactly-once on PostgreSQL (READ COMMITTED, no global lock): the voted item's row is locked first (`FOR UPDATE`),
 * which serialises every vote on one review (or question, answer): the visitor's earlier vote and the address's
 * votes on that item are read under it. A new vote from an address also takes a transaction-scoped advisory lock
 * keyed by (store, address), so two votes of one address on different items cannot both pass the store-wide
 * limit. Lock order is always item row, then address key: no deadlock. On SQLite the transaction's write lock
 * (BEGIN IMMEDIATE) serialises all of it.
 */
import { dialect, forUpdate, one, run, sql, transaction, value, type Db } from "../db/database.ts";
import { DEFAULT_VOTE_LIMITS, voteRefusedError, type VoteLimitsConfig } from "./submission-limits.ts";

export type Vote = "helpful" | "unhelpful";
export type VoteCounts = { helpfulCount: number; unhelpfulCount: number };
/** A question or an answer voted on (Okendo-compatible votes, docs/api.md, Okendo-compatible; table qa_votes, migration 083). */
export type QaItem = { type: "question"; questionId: string } | { type: "answer"; questionId: string; answerId: string };

type Counts = { helpful_count: number; unhelpful_count: number };
type Window = { n: number; oldest: number | null };

/** Create the votes data module over `db`; `limits` gives the current per-address rules at each vote. */
export function votesRepo(db: Db, limits: () => VoteLimitsConfig = () => DEFAULT_VOTE_LIMITS) {
  const postgres = dialect(db) === "postgres";
  const toCounts = (r: Counts): VoteCounts => ({ helpfulCount: r.helpful_count, unhelpfulCount: r.unhelpful_count });
  const delta = (vote: Vote, sign: 1 | -1): [number, number] => (vote === "helpful" ? [sign, 0] : [0, sign]);

  /** PostgreSQL: wait for, and hold until the transaction ends, the lock of an address's new votes in a store (`kind`: reviews or Q&A). */
  const lockAddress = async (kind: "review" | "qa", storeId: string, addressHash: string) => {
    if (postgres) await run(db, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${kind}-votes\n${storeId}\n${addressHash}`}, 0))`);
  };

  /** The published review's counts, its row locked until the transaction ends (PostgreSQL), or undefined. */
  const lockedReview = (storeId: string, reviewId: string) =>
    one<Counts>(
      db,
      sql`
    SELECT helpful_count, unhelpful_count FROM reviews WHERE store_id = ${storeId} AND review_id = ${reviewId} AND status = 'published'${forUpdate(db)}`,
    );
  /** Add to a review's counts. @returns the counts after. */
  const bump = async (storeId: string, reviewId: string, [helpful, unhelpful]: [number, number]) =>
    toCounts(
      (await one<Counts>(
        db,
        sql`
    UPDATE reviews SET helpful_count = helpful_count + ${helpful}, unhelpful_count = unhelpful_count + ${unhelpful}
    WHERE store_id = ${storeId} AND review_id = ${reviewId} RETURNING helpful_count, unhelpful_count`,
      ))!,
    );
  const currentVote = (storeId: string, reviewId: string, visitorHash: string) =>
    value<Vote>(
      db,
      sql`
    SELECT vote FROM review_votes WHERE store_id = ${storeId} AND review_id = ${reviewId} AND visitor_hash = ${visitorHash}`,
    );

  // Questions and answers (qa_votes): the same rules over their own rows and counts.
  const itemId = (item: QaItem) => (item.type === "question" ? item.questionId : item.answerId);
  /** The published item's counts, its row locked until the transaction ends (PostgreSQL; an answer's row, not its question's), or undefined. */
  const lockedItem = (storeId: string, item: QaItem) =>
    one<Counts>(
      db,
      item.type === "question"
        ? sql`SELECT helpful_count, unhelpful_count FROM questions WHERE store_id = ${storeId} AND question_id = ${item.questionId} AND status = 'published'${forUpdate(db)}`
        : sql`SELECT a.helpful_count, a.unhelpful_count FROM answers a JOIN questions q ON q.question_id = a.question_id
          WHERE a.store_id = ${storeId} AND a.answer_id = ${item.answerId} AND a.question_id = ${item.questionId} AND a.status = 'published'
            AND a.is_public = 1 AND q.status = 'published'${postgres ? sql` FOR UPDATE OF a` : sql``}`,
    );
  const qaBump = async (storeId: string, item: QaItem, [helpful, unhelpful]: [number, number]) =>
    toCounts(
      (await one<Counts>(
        db,
        item.type === "question"
          ? sql`UPDATE questions SET helpful_count = helpful_count + ${helpful}, unhelpful_count = unhelpful_count + ${unhelpful}
          WHERE store_id = ${storeId} AND question_id = ${item.questionId} RETURNING helpful_count, unhelpful_count`
          : sql`UPDATE answers SET helpful_count = helpful_count + ${helpful}, unhelpful_count = unhelpful_count + ${unhelpful}
          WHERE store_id = ${storeId} AND answer_id = ${item.answerId} RETURNING helpful_count, unhelpful_count`,
      ))!,
    );

  return {
    /**
     * Withdraw `vote` of `visitorHash` on a published review (Okendo's `upvote-cancel` / `downvote-cancel`):
     * when the visitor's vote is `vote`, it is removed and no longer counted; otherwise nothing changes.
     * @returns a promise of the counts after, or undefined when the store has no such published review.
     */
    cancelVote(storeId: string, reviewId: string, visitorHash: string, vote: Vote): Promise<VoteCounts | undefined> {
      return transaction(db, async () => {
        // exactly-once: row lock on the review (a concurrent cancel of the same vote waits, then finds no vote)
        const review = await lockedReview(storeId, reviewId);
        if (!review) return undefined;
        if ((await currentVote(storeId, reviewId, visitorHash)) !== vote) return toCounts(review);
        await run(db, sql`DELETE FROM review_votes WHERE store_id = ${storeId} AND review_id = ${reviewId} AND visitor_hash = ${visitorHash}`);
        return bump(storeId, reviewId, delta(vote, -1));
      });
    },

    /**
     * Record, move (`vote` given) or withdraw (`cancel` given) a voter's vote on a published question or a
     * public published answer of a published question, with the per-address limits of `castVote` applied to
     * new votes (counted over question and answer votes). @returns a promise of the item's counts after, or
     * undefined when the store has no such item. @throws ApiError 429 as `castVote`.
     */
    qaVote(storeId: string, item: QaItem, voterHash: string, change: { vote: Vote } | { cancel: Vote }, addressHash: string | null, now = Date.now()): Promise<VoteCounts | undefined> {
      return transaction(db, async () => {
        // exactly-once: row lock on the item, then (a new vote with an address) the address's advisory lock
        const counts = await lockedItem(storeId, item);
        if (!counts) return undefined;
        const id = itemId(item);
        const previous = await value<Vote>(db, sql`SELECT vote FROM qa_votes WHERE item_type = ${item.type} AND item_id = ${id} AND voter_hash = ${voterHash}`);
        if ("cancel" in change) {
          if (previous !== change.cancel) return toCounts(counts);
          await run(db, sql`DELETE FROM qa_votes WHERE item_type = ${item.type} AND item_id = ${id} AND voter_hash = ${voterHash}`);
          return qaBump(storeId, item, delta(change.cancel, -1));
        }
        if (previous === undefined) {
          if (addressHash !== null) {
            await lockAddress("qa", storeId, addressHash);
            const { perAddressPerReview, perAddress } = limits();
            const onItem = (await one<Window>(
              db,
              sql`
              SELECT count(*) AS n, min(created_ms) AS oldest FROM qa_votes
              WHERE store_id = ${storeId} AND address_hash = ${addressHash} AND created_ms > ${now - perAddressPerReview.windowMs} AND item_type = ${item.type} AND item_id = ${id}`,
            ))!;
            if (onItem.n >= perAddressPerReview.max) throw voteRefusedError({ refused: "review", retryAfterMs: onItem.oldest! + perAddressPerReview.windowMs - now });
            const recent = (await one<Window>(
              db,
              sql`
              SELECT count(*) AS n, min(created_ms) AS oldest FROM qa_votes
              WHERE store_id = ${storeId} AND address_hash = ${addressHash} AND created_ms > ${now - perAddress.windowMs}`,
            ))!;
            if (recent.n >= perAddress.max) throw voteRefusedError({ refused: "address", retryAfterMs: recent.oldest! + perAddress.windowMs - now });
          }
          await run(
            db,
            sql`
            INSERT INTO qa_votes (store_id, question_id, item_type, item_id, voter_hash, address_hash, vote, created_ms, updated_ms)
            VALUES (${storeId}, ${item.questionId}, ${item.type}, ${id}, ${voterHash}, ${addressHash}, ${change.vote}, ${now}, ${now})`,
          );
          return qaBump(storeId, item, delta(change.vote, 1));
        }
        if (previous === change.vote) return toCounts(counts);
        await run(db, sql`UPDATE qa_votes SET vote = ${change.vote}, updated_ms = ${now} WHERE item_type = ${item.type} AND item_id = ${id} AND voter_hash = ${voterHash}`);
        const d = change.vote === "helpful" ? 1 : -1;
        return qaBump(storeId, item, [d, -d]);
      });
    },

    /**
     * Record `vote` of `visitorHash` on a published review of the store, cast from the client address
     * `addressHash` (visitors.ts). Same vote again: nothing changes. Other vote: moved (a visitor's own
     * vote is never refused). A new visitor's vote is refused, and nothing changes, when the address
     * already has `perAddressPerReview.max` votes on this review in that window, or `perAddress.max` new
     * votes in the store in that window. `addressHash` null: a trusted caller (import, admin), no limits.
     * @returns a promise of the counts after the vote, or undefined when the store has no such published review.
     * @throws ApiError 429 `vote_limited` / `rate_limited` (submission-limits.ts `voteRefusedError`).
     */
    castVote(storeId: string, reviewId: string, visitorHash: string, vote: Vote, addressHash: string | null = null, now = Date.now()): Promise<VoteCounts | undefined> {
      return transaction(db, async () => {
        // exactly-once: row lock on the review, then (a new vote with an address) the address's advisory lock
        const review = await lockedReview(storeId, reviewId);
        if (!review) return undefined;
        const previous = await currentVote(storeId, reviewId, visitorHash);
        if (previous === undefined) {
          if (addressHash !== null) {
            await lockAddress("review", storeId, addressHash);
            const { perAddressPerReview, perAddress } = limits();
            // New votes of an address since a time: on this review, and in the store (index review_votes_by_address).
            const onReview = (await one<Window>(
              db,
              sql`
              SELECT count(*) AS n, min(created_ms) AS oldest FROM review_votes
              WHERE store_id = ${storeId} AND address_hash = ${addressHash} AND created_ms > ${now - perAddressPerReview.windowMs} AND review_id = ${reviewId}`,
            ))!;
            if (onReview.n >= perAddressPerReview.max) throw voteRefusedError({ refused: "review", retryAfterMs: onReview.oldest! + perAddressPerReview.windowMs - now });
            const recent = (await one<Window>(
              db,
              sql`
              SELECT count(*) AS n, min(created_ms) AS oldest FROM review_votes
              WHERE store_id = ${storeId} AND address_hash = ${addressHash} AND created_ms > ${now - perAddress.windowMs}`,
            ))!;
            if (recent.n >= perAddress.max) throw voteRefusedError({ refused: "address", retryAfterMs: recent.oldest! + perAddress.windowMs - now });
          }
          await run(
            db,
            sql`
            INSERT INTO review_votes (store_id, review_id, visitor_hash, address_hash, vote, created_ms, updated_ms)
            VALUES (${storeId}, ${reviewId}, ${visitorHash}, ${addressHash}, ${vote}, ${now}, ${now})`,
          );
          return bump(storeId, reviewId, delta(vote, 1));
        }
        if (previous === vote) return toCounts(review);
        await run(db, sql`UPDATE review_votes SET vote = ${vote}, updated_ms = ${now} WHERE store_id = ${storeId} AND review_id = ${reviewId} AND visitor_hash = ${visitorHash}`);
        const d = vote === "helpful" ? 1 : -1;
        return bump(storeId, reviewId, [d, -d]);
      });
    },
    /** Number of vote rows of a review (tests, admin). */
    async countVotes(storeId: string, reviewId: string): Promise<number> {
      return (await value<number>(db, sql`SELECT count(*) AS n FROM review_votes WHERE store_id = ${storeId} AND review_id = ${reviewId}`)) ?? 0;
    },
  };
}
export type VotesRepo = ReturnType<typeof votesRepo>;

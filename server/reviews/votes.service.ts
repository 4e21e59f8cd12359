/**
 * Helpful votes on reviews (decisions.md §3), limited per client address (issue #19 finding 5,
 * docs/writes.md "Helpful votes"): the route resolves the signed visitor (visitors.ts), this service
 * keys the visitor and the address by HMAC and casts the vote; votes.repo.ts applies the limits inside
 * the vote's transaction.
 */
import { notFound } from "../contract/errors.ts";
import type { VoteBody, VoteResponse } from "../contract/writes.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { addressHash, visitorHash } from "./visitors.ts";
import type { VotesRepo } from "./votes.repo.ts";

/** Create the votes service. `visitorSecret` keys visitor and address hashes. */
export function votesService(deps: { stores: StoresRepo; votes: VotesRepo; visitorSecret: string }) {
  return {
    /**
     * POST /reviews/{reviewId}/votes: `visitorId` is a verified signed visitor ID (visitors.ts), `clientIp`
     * the request's client address. One vote per visitor per review: the same vote again changes nothing,
     * the other vote moves it. @returns the review's counts after the vote.
     * @throws ApiError 404 (store, or no published review), 429 `vote_limited` (this address already has a
     * counted vote on the review) or `rate_limited` (too many new votes from this address).
     */
    vote(storeId: string, reviewId: string, body: VoteBody, visitorId: string, clientIp: string): VoteResponse {
      if (!deps.stores.get(storeId)) throw notFound("Store not found", "store_not_found");
      const counts = deps.votes.castVote(
        storeId, reviewId, visitorHash(deps.visitorSecret, storeId, "cookie", visitorId), body.vote, addressHash(deps.visitorSecret, storeId, clientIp),
      );
      if (!counts) throw notFound("Review not found", "review_not_found");
      return counts;
    },
  };
}
export type VotesService = ReturnType<typeof votesService>;

/**
 * Helpful votes on reviews (docs/writes.md, Helpful votes), limited per client address (issue #19 finding 5,
 * docs/writes.md "Helpful votes"): the route resolves the signed visitor (visitors.ts), this service
 * keys the visitor and the address by HMAC and casts the vote; votes.repo.ts applies the limits inside
 * the vote's transaction.
 */
import { notFound } from "../contract/errors.ts";
import type { OkendoVoteType, VoteBody, VoteResponse } from "../contract/writes.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { addressHash, visitorHash } from "./visitors.ts";
import type { QaItem, Vote, VoteCounts, VotesRepo } from "./votes.repo.ts";

/** What an Okendo vote type does (docs/api.md, Okendo-compatible): cast or move to a vote, or withdraw one. */
const OKENDO_VOTES: Record<OkendoVoteType, { vote: Vote } | { cancel: Vote }> = {
  upvote: { vote: "helpful" },
  downvote: { vote: "unhelpful" },
  "swap-to-upvote": { vote: "helpful" },
  "swap-to-downvote": { vote: "unhelpful" },
  "upvote-cancel": { cancel: "helpful" },
  "downvote-cancel": { cancel: "unhelpful" },
};

/** The item of an Okendo-compatible vote: a review, a question, or an answer of a question. */
export type VoteTarget = { type: "review"; reviewId: string } | QaItem;

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
    async vote(storeId: string, reviewId: string, body: VoteBody, visitorId: string, clientIp: string): Promise<VoteResponse> {
      if (!(await deps.stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      const counts = await deps.votes.castVote(storeId, reviewId, visitorHash(deps.visitorSecret, storeId, "cookie", visitorId), body.vote, addressHash(deps.visitorSecret, storeId, clientIp));
      if (!counts) throw notFound("Review not found", "review_not_found");
      return counts;
    },

    /**
     * Okendo-compatible votes (docs/api.md, Okendo-compatible): `POST /reviews/{id}/vote`, `/questions/{id}/vote` and
     * `/questions/{id}/answers/{id}/vote` with a `voteType`. Okendo's clients send no visitor, so the voter is
     * the client address (`addressHash`): one vote per address per item, the per-address limits of `vote`
     * apply to new votes. A cancel of a vote the address has not cast changes nothing.
     * @returns the item's counts after the vote. @throws ApiError 404 (store or no such published item), 429.
     */
    async okendoVote(storeId: string, target: VoteTarget, voteType: OkendoVoteType, clientIp: string): Promise<VoteCounts> {
      if (!(await deps.stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      const address = addressHash(deps.visitorSecret, storeId, clientIp);
      const change = OKENDO_VOTES[voteType];
      let counts: VoteCounts | undefined;
      if (target.type === "review") {
        counts = "vote" in change ? await deps.votes.castVote(storeId, target.reviewId, address, change.vote, address) : await deps.votes.cancelVote(storeId, target.reviewId, address, change.cancel);
        if (!counts) throw notFound("Review not found", "review_not_found");
      } else {
        counts = await deps.votes.qaVote(storeId, target, address, change, address);
        if (!counts) throw notFound(target.type === "question" ? "Question not found" : "Answer not found", `${target.type}_not_found`);
      }
      return counts;
    },
  };
}
export type VotesService = ReturnType<typeof votesService>;

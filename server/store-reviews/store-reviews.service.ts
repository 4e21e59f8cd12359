/**
 * Store reviews (issue #38, docs/google-shopping.md "Seller ratings"): reviews of the shop itself, for Google
 * seller ratings. Submitted like product reviews (docs/writes.md): the same field rules and limits
 * (contract/writes.ts `storeReviewSubmissionBody`), the same per-address and per-e-mail submission limiter, the
 * same honeypot (a filled one answers the same 201 and stores nothing) and the store's moderation setting
 * (`initialStatus`). A store review is `verified-buyer` only when a trusted caller passes the review request
 * it came from (the hosted review page of a signed link), never from anything in the body.
 *
 * Stored apart from product reviews (migration 113), so product aggregates, listings and the Product Reviews
 * feed never see them; the merchant review feed (feeds.service.ts) reads the published ones.
 */
import { randomUUID } from "node:crypto";
import { ApiError, badRequest, notFound } from "../contract/errors.ts";
import { HONEYPOT_FIELD, storeReviewSubmissionBody, type ModerationStatus } from "../contract/writes.ts";
import { initialStatus } from "../reviews/submissions.service.ts";
import type { SubmissionLimiter } from "../reviews/submission-limits.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { StoreReviewRow, StoreReviewsRepo, StoreReviewStatus } from "./store-reviews.repo.ts";

/** The review request a store review came from (checked by the caller: a signed link), with its order. */
export type StoreReviewRequest = { requestId: string; orderId: string | null };

/** Create the service. `now`: the clock (ms), for tests. */
export function storeReviewsService(deps: { repo: StoreReviewsRepo; stores: StoresRepo; limiter: SubmissionLimiter; now?: () => number }) {
  const { repo, stores, limiter } = deps;
  const now = deps.now ?? Date.now;
  return {
    /**
     * POST /v1/stores/{store}/store_reviews. `fields`: the JSON body; `request`: see StoreReviewRequest.
     * @returns `{ review: { reviewId, status } }` (status from the store's moderation setting).
     * @throws ApiError 404 unknown store, 400 a field breaking a rule (the description names it), 429 rate limit,
     * 409 a review request that already rated the shop.
     */
    async submit(storeId: string, fields: Record<string, unknown>, clientIp: string, request?: StoreReviewRequest): Promise<{ review: { reviewId: string; status: ModerationStatus } }> {
      const store = await stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      const honeypot = fields[HONEYPOT_FIELD];
      if (typeof honeypot === "string" ? honeypot.trim() !== "" : honeypot != null) return { review: { reviewId: randomUUID(), status: "pending" } };
      const parsed = storeReviewSubmissionBody.safeParse(fields);
      if (!parsed.success) throw badRequest(zodIssue(parsed.error), "invalid_field");
      const body = parsed.data;
      await limiter.consume(clientIp, body.email);
      const reviewId = randomUUID();
      const status = initialStatus(store.moderation, body.rating);
      const stored = await repo.insert({
        reviewId,
        storeId,
        rating: body.rating,
        title: body.title,
        body: body.body,
        reviewerName: body.displayName,
        reviewerEmail: body.email.toLowerCase(),
        verifiedStatus: request ? "verified-buyer" : "unverified",
        orderId: request?.orderId ?? null,
        requestId: request?.requestId ?? null,
        status,
        createdMs: now(),
      });
      if (!stored) throw new ApiError(409, "This review request has already rated the shop", "already_rated");
      return { review: { reviewId, status } };
    },
    /** Whether the review request `requestId` has rated the shop already (docs/review-requests.md "Rate the shop"). */
    ratedByRequest: (storeId: string, requestId: string): Promise<boolean> => repo.ratedByRequest(storeId, requestId),
    /** Publish or reject some of the store's reviews (admin moderation). @returns how many changed. */
    setStatus: (storeId: string, reviewIds: readonly string[], status: Exclude<StoreReviewStatus, "pending">): Promise<number> => repo.setStatus(storeId, reviewIds, status, now()),
    /** The store's reviews of one status, newest first (admin; at most 100). */
    list: (storeId: string, status: StoreReviewStatus): Promise<StoreReviewRow[]> => repo.list(storeId, status, 100),
  };
}
export type StoreReviewsService = ReturnType<typeof storeReviewsService>;

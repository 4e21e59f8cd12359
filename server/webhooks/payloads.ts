/**
 * The body of a webhook event (docs/webhooks.md "Payload"). Built ONCE, when the event is dispatched (by
 * the queue, normally within a second of the commit that emitted it), from the resource as it is then,
 * and stored with the event: every subscription, every retry and every replay sends the same bytes.
 *
 *   { "eventId": "evt_…", "eventType": "review.created", "dateCreated": "<when the change was committed>",
 *     "storeId": "…", "data": { "review": { … } } }
 *
 * `data` holds the resource in the API's shapes (server/contract/*.responses.ts): a review as the
 * storefront shows it plus `status` and the reviewer's e-mail (the merchant's own data); a survey response
 * as the enterprise API answers it; a loyalty customer as the storefront shows them plus
 * `platformCustomerId`, `email` and `lifetimePoints`; a transaction plus its `loyaltyCustomerId`.
 * `review.deleted`, and any event whose resource is gone by dispatch time, carry only the IDs.
 */
import type { WebhookEventType } from "../contract/webhooks.ts";
import type { LoyaltyRepo } from "../loyalty/loyalty.repo.ts";
import { toCustomer, toTransaction } from "../loyalty/shapes.ts";
import type { ReviewsRepo } from "../reviews/reviews.repo.ts";
import type { ReviewsService } from "../reviews/reviews.service.ts";
import { isoFromMs } from "../shared/iso-date.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { SurveysRepo } from "../surveys/surveys.repo.ts";
import { toSurveyResponse } from "../surveys/response-shape.ts";
import type { EventRow, WebhooksRepo } from "./webhooks.repo.ts";

export type PayloadDeps = {
  repo: WebhooksRepo;
  stores: StoresRepo;
  reviewsData: ReviewsRepo;
  reviews: ReviewsService;
  surveysData: SurveysRepo;
  loyaltyData: LoyaltyRepo;
  /** Origin of absolute media URLs (PUBLIC_URL). */
  publicOrigin: () => string;
};

/** The JSON body of `event` (see the module comment). */
export async function buildPayload(deps: PayloadDeps, event: EventRow): Promise<string> {
  const data = await resourceOf(deps, event);
  return JSON.stringify({ eventId: event.event_id, eventType: event.event_type, dateCreated: isoFromMs(event.created_ms), storeId: event.store_id, data });
}

async function resourceOf(deps: PayloadDeps, event: EventRow): Promise<Record<string, unknown>> {
  const storeId = event.store_id;
  const store = await deps.stores.get(storeId);
  const type = event.event_type as WebhookEventType;
  switch (type) {
    case "review.created":
    case "review.updated":
    case "review.deleted": {
      const row = type === "review.deleted" ? undefined : await deps.reviewsData.get(storeId, event.resource_id);
      if (!row || !store) {
        const snapshot = event.snapshot_json ? (JSON.parse(event.snapshot_json) as { product_id?: string }) : {};
        const productId = row?.product_id ?? snapshot.product_id;
        return { review: { reviewId: event.resource_id, ...(productId && store ? { productId: `${store.platform}-${productId}` } : {}) } };
      }
      const product = (await deps.reviewsData.productsOf(storeId, [row.product_id]))[0];
      const media = (await deps.reviewsData.mediaOfReviews([row.review_id])).map((m) => deps.reviews.toMedia(m, deps.publicOrigin()));
      const review = deps.reviews.toReview(store, row, product, media);
      const email = await deps.repo.reviewerEmail(storeId, row.review_id);
      return { review: { ...review, status: row.status, reviewer: { ...review.reviewer, ...(email ? { email } : {}) } } };
    }
    case "survey_response.created": {
      const row = await deps.surveysData.getResponse(storeId, event.resource_id);
      return { surveyResponse: row ? toSurveyResponse(row) : { surveyResponseId: event.resource_id } };
    }
    case "loyalty_customer.created":
    case "loyalty_customer.updated": {
      const row = await deps.loyaltyData.getCustomer(storeId, event.resource_id);
      if (!row) return { loyaltyCustomer: { loyaltyCustomerId: event.resource_id } };
      return {
        loyaltyCustomer: {
          ...toCustomer(row, await deps.loyaltyData.vipTiers(storeId)),
          platformCustomerId: row.platform_customer_id,
          ...(row.email ? { email: row.email } : {}),
          lifetimePoints: row.lifetime_points,
        },
      };
    }
    case "loyalty_earning_transaction.created":
    case "loyalty_redemption_transaction.created": {
      const row = await deps.repo.loyaltyTransaction(storeId, event.resource_id);
      return { transaction: row ? { ...toTransaction(row), loyaltyCustomerId: row.loyalty_customer_id } : { transactionId: event.resource_id } };
    }
    case "referral.friend_rewarded":
    case "referral.sender_rewarded":
      // Written by server/loyalty/referrals.ts with its data as the snapshot (the referral as it was rewarded).
      return event.snapshot_json ? (JSON.parse(event.snapshot_json) as Record<string, unknown>) : { referral: { code: event.resource_id } };
    default:
      return { id: event.resource_id };
  }
}

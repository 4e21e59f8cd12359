/**
 * The calls Chorus makes to Klaviyo (docs/klaviyo.md "What is sent"): one outbox job → one request, shaped as
 * Klaviyo's JSON:API documents them (revision KLAVIYO_REVISION):
 * - `event`: `POST /api/events/` `{ data: { type: "event", attributes: { metric: { data: { type: "metric",
 *   attributes: { name } } }, profile: { data: { type: "profile", attributes: { email } } }, properties, time,
 *   unique_id } } }`; `unique_id` is the job's ID, so a call sent twice is one event at Klaviyo.
 * - `profile`: `POST /api/profile-import/` `{ data: { type: "profile", attributes: { email, properties } } }` with
 *   the PROFILE_PROPERTIES the shopper has.
 * - `deletion`: `POST /api/data-privacy-deletion-jobs/` `{ data: { type: "data-privacy-deletion-job", attributes:
 *   { profile: { data: { type: "profile", attributes: { email } } } } } }`.
 * Built when the job is sent, from the resource as it is then; a resource gone by then (deleted, erased) → null
 * (the job is skipped).
 */
import { isoFromMs } from "../shared/iso-date.ts";
import type { KlaviyoJobRow, KlaviyoRepo } from "./klaviyo.repo.ts";

/** The API revision sent in the `revision` header. */
export const KLAVIYO_REVISION = "2024-10-15";
/** Klaviyo's API origin when KLAVIYO_API_URL is not set. */
export const KLAVIYO_DEFAULT_API_URL = "https://a.klaviyo.com";

/** The metric (event) names Chorus sends, exactly as they appear in Klaviyo. */
export const KLAVIYO_METRICS = [
  "Submitted Review",
  "Submitted Question",
  "Loyalty Points Earned",
  "Redeemed Reward",
  "Loyalty Tier Changed",
  "Answered Survey",
  "Unsubscribed From Review Requests",
] as const;
export type KlaviyoMetric = (typeof KLAVIYO_METRICS)[number];

/** The custom profile properties Chorus sets (docs/klaviyo.md "Profile properties"). */
export const PROFILE_PROPERTIES = {
  pointsBalance: "Chorus Points Balance",
  tier: "Chorus VIP Tier",
  referralLink: "Chorus Referral Link",
  lastReviewDate: "Chorus Last Review Date",
} as const;

/** What building a request needs: the reads, and the referral link of a shopper when the referrals feature has one. */
export type RequestDeps = {
  repo: KlaviyoRepo;
  /** The shopper's referral link, or null (hook for the referrals feature; absent: none is sent). */
  referralLink?: (storeId: string, email: string) => Promise<string | null>;
};

export type KlaviyoRequest = { path: string; body: Record<string, unknown> };

const profileRef = (email: string) => ({ data: { type: "profile", attributes: { email } } });

/** The request of `job`, or null when its resource is gone. */
export async function buildRequest(deps: RequestDeps, job: KlaviyoJobRow): Promise<KlaviyoRequest | null> {
  if (job.kind === "deletion") {
    return { path: "/api/data-privacy-deletion-jobs/", body: { data: { type: "data-privacy-deletion-job", attributes: { profile: profileRef(job.email) } } } };
  }
  if (job.kind === "profile") {
    const properties = await profileProperties(deps, job.store_id, job.email);
    return { path: "/api/profile-import/", body: { data: { type: "profile", attributes: { email: job.email, properties } } } };
  }
  const properties = await eventProperties(deps.repo, job);
  if (!properties) return null;
  return {
    path: "/api/events/",
    body: {
      data: {
        type: "event",
        attributes: {
          properties,
          time: isoFromMs(job.created_ms),
          unique_id: job.job_id,
          metric: { data: { type: "metric", attributes: { name: job.name } } },
          profile: profileRef(job.email),
        },
      },
    },
  };
}

/** The profile properties of the shopper (only those they have). */
async function profileProperties(deps: RequestDeps, storeId: string, email: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const loyalty = await deps.repo.loyaltyOf(storeId, email);
  if (loyalty) {
    out[PROFILE_PROPERTIES.pointsBalance] = loyalty.balance;
    out[PROFILE_PROPERTIES.tier] = loyalty.tier_name ?? "";
  }
  const link = await deps.referralLink?.(storeId, email);
  if (link) out[PROFILE_PROPERTIES.referralLink] = link;
  const last = await deps.repo.lastReviewMs(storeId, email);
  if (last !== null) out[PROFILE_PROPERTIES.lastReviewDate] = isoFromMs(last);
  return out;
}

/** The `properties` of an event job, or null when its resource is gone. */
async function eventProperties(repo: KlaviyoRepo, job: KlaviyoJobRow): Promise<Record<string, unknown> | null> {
  const storeId = job.store_id;
  const id = job.resource_id ?? "";
  switch (job.name as KlaviyoMetric) {
    case "Submitted Review": {
      const r = await repo.review(storeId, id);
      if (!r) return null;
      return {
        ReviewId: r.review_id,
        Rating: r.rating,
        Title: r.title,
        Body: r.body,
        Verified: r.verified_status === "verified-buyer",
        HasMedia: r.media_count > 0,
        ProductId: r.product_id,
        ProductName: r.product_name,
        ProductURL: r.product_url,
        ProductImageURL: r.product_image_url,
      };
    }
    case "Submitted Question": {
      const q = await repo.question(storeId, id);
      if (!q) return null;
      return { QuestionId: q.question_id, Question: q.body, ProductId: q.product_id, ProductName: q.product_name, ProductURL: q.product_url };
    }
    case "Loyalty Points Earned": {
      const t = await repo.transaction(storeId, id);
      if (!t) return null;
      return { TransactionId: t.transaction_id, Points: t.points, PointsBalance: t.balance_after, Description: t.description };
    }
    case "Redeemed Reward": {
      const t = await repo.transaction(storeId, id);
      if (!t) return null;
      return { TransactionId: t.transaction_id, PointsSpent: -t.points, PointsBalance: t.balance_after, Reward: t.description, RewardCode: t.reward_code ?? t.coupon_code };
    }
    case "Loyalty Tier Changed": {
      const change = job.detail_json ? (JSON.parse(job.detail_json) as { from: string | null; to: string | null }) : { from: null, to: null };
      return { PreviousTier: await repo.tierName(storeId, change.from), Tier: await repo.tierName(storeId, change.to) };
    }
    case "Answered Survey": {
      const s = await repo.surveyResponse(storeId, id);
      if (!s) return null;
      return { SurveyResponseId: s.survey_response_id, SurveyId: s.survey_id, SurveyName: s.survey_name, NPSScore: s.nps_score, NPSCategory: s.nps_category };
    }
    case "Unsubscribed From Review Requests":
      return {};
    default:
      return null;
  }
}

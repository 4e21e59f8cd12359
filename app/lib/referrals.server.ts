/**
 * Operation declarations of referrals (docs/loyalty.md "Referrals"): Okendo's `POST /referral_senders` (no
 * customer token, limited per client address) and the public read of the store's referral program.
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { referralProgramResponseSchema, referralSenderBody, referralSenderResponseSchema } from "../../server/contract/referrals.ts";
import { contentScope } from "../../server/shared/content-scopes.ts";

const storeParams = z.object({ storeId: storeIdParam });

/** POST /v1/stores/{storeId}/referral_senders → 200 `{ referralSenderId, shareableLinkUrl }`, the same for the same e-mail. */
export const createReferralSender = defineOperation({
  id: "createReferralSender", method: "POST", api: "storefront", auth: "none", tags: ["Referrals"], params: storeParams,
  summary: "A sender's shareable referral link (Okendo's `referral_senders`)",
  description: "No customer token is needed (as with Okendo). The same e-mail address always gets the same `referralSenderId` and link. Limited per client address (`REFERRAL_SENDERS_PER_IP_PER_HOUR`, 429 over it). 404 when the store has no referral program turned on (docs/loyalty.md \"Referrals\").",
  body: { schema: referralSenderBody, read: "json", contentTypes: ["application/json"], maxBytes: 16 * 1024 },
  responses: { 200: { description: "The sender's ID and link", schema: referralSenderResponseSchema }, ...errorResponses(400, 404, 413, 415, 429) },
  handler: async ({ params, body, context }) =>
    reply(await context.services.referralLimiter.run(context.clientIp, () => context.services.referrals.createSender(params.storeId, body.email, context.publicOrigin)), { cache: "no-store" }),
});

/** GET /v1/stores/{storeId}/referral_program: whether referrals are on, the friend's discount and the sender's reward. */
export const getReferralProgram = defineOperation({
  id: "getReferralProgram", method: "GET", api: "storefront", auth: "none", cache: "public", readsOnly: true, tags: ["Referrals"], params: storeParams,
  summary: "The store's referral program: on or off, the friend's discount and the sender's reward",
  responses: { 200: { description: "`{ referralProgram }`", schema: referralProgramResponseSchema }, ...errorResponses(400, 404) },
  handler: async ({ params, context }) =>
    reply(await context.services.referrals.publicProgram(params.storeId), { scopes: [contentScope.store(params.storeId), contentScope.loyalty(params.storeId)] }),
});

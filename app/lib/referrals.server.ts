/**
 * Operation declarations of referrals (docs/loyalty.md "Referrals"): Okendo's `POST /referral_senders` (no
 * customer token, limited per client address) and the public read of the store's referral program.
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { badRequest } from "../../server/contract/errors.ts";
import { storeIdParam } from "../../server/contract/params.ts";
import { referralProgramResponseSchema, referralSenderBody, referralSenderResponseSchema } from "../../server/contract/referrals.ts";
import { contentScope } from "../../server/shared/content-scopes.ts";

const storeParams = z.object({ storeId: storeIdParam });

/** POST /v1/stores/{storeId}/referral_senders → 200 `{ referralSenderId, shareableLinkUrl }`, the same for the same e-mail. */
export const createReferralSender = defineOperation({
  id: "createReferralSender",
  method: "POST",
  api: "storefront",
  auth: "customer-optional",
  tags: ["Referrals"],
  params: storeParams,
  summary: "A sender's shareable referral link (Okendo's `referral_senders`)",
  description:
    'No customer token is needed (as with Okendo); with a loyalty customer token (`Authorization: Bearer`) `email` may be left out and the customer\'s address is used (the `<chorus-loyalty>` panel does this). The same e-mail address always gets the same `referralSenderId` and link. New links are limited per client address (`REFERRAL_SENDERS_PER_IP_PER_HOUR`, 429 over it; asking again for an existing link is not counted). 404 when the store has no referral program turned on (docs/loyalty.md "Referrals").',
  body: { schema: referralSenderBody, read: "json", contentTypes: ["application/json"], maxBytes: 16 * 1024 },
  responses: { 200: { description: "The sender's ID and link", schema: referralSenderResponseSchema }, ...errorResponses(400, 401, 404, 413, 415, 429) },
  handler: async ({ params, body, customer, context }) => {
    const email = body.email ?? customer?.email ?? undefined;
    if (!email) throw badRequest("email is required (or send a loyalty customer token whose customer has an e-mail address)", "invalid_field");
    const { created, ...sender } = await context.services.referralLimiter.run(
      context.clientIp,
      () => context.services.referrals.createSender(params.storeId, email, context.publicOrigin),
      (r) => r.created,
    );
    return reply(sender, { cache: "no-store" });
  },
});

/** GET /v1/stores/{storeId}/referral_program: whether referrals are on, the friend's discount and the sender's reward. */
export const getReferralProgram = defineOperation({
  id: "getReferralProgram",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Referrals"],
  params: storeParams,
  summary: "The store's referral program: on or off, the friend's discount and the sender's reward",
  responses: { 200: { description: "`{ referralProgram }`", schema: referralProgramResponseSchema }, ...errorResponses(400, 404) },
  handler: async ({ params, context }) => reply(await context.services.referrals.publicProgram(params.storeId), { scopes: [contentScope.store(params.storeId), contentScope.loyalty(params.storeId)] }),
});

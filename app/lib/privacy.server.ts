/**
 * Operation declarations of shopper data requests in the enterprise API (issue 24 item 1): export and erasure
 * of everything a store holds about one e-mail address (server/privacy/privacy.service.ts).
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";

const requestBody = z
  .object({
    email: z.string().max(320).meta({ description: "The shopper's e-mail address (compared case-insensitively).", example: "shopper@example.com" }),
  })
  .strict()
  .meta({ id: "ShopperDataRequest" });

const count = (what: string) => z.int().min(0).meta({ description: what });

/** What an erasure removed: record counts per kind. */
export const erasureResponseSchema = z
  .object({
    erasure: z.object({
      reviews: count("Reviews deleted (with their media, translations and votes)."),
      mediaItems: count("Review photos and videos deleted."),
      mediaFilesDeleted: count("Media files deleted from disk."),
      questions: count("Questions deleted (with their answers)."),
      answers: count("Answers by the shopper deleted."),
      surveyResponses: count("Survey responses deleted (by customer e-mail or an e-mail answer)."),
      loyaltyCustomersAnonymised: count("Loyalty customers anonymised (e-mail and platform customer ID removed; the points ledger is kept, still balanced)."),
      loyaltyRewardsDeleted: count("Loyalty rewards that failed on the shop platform (no points taken) deleted; issued rewards stay with the anonymised customer, without the platform's error text."),
      orders: count("Orders deleted."),
      orderLines: count("Order lines deleted."),
      mail: count("E-mails to the address deleted from the outbox."),
      reviewRequests: count("Review requests deleted (with their links)."),
      referralSendersAnonymised: count("Referral links of the shopper anonymised (the address removed; the link is retired, rewards already given stay on the ledger)."),
      referralFriendsAnonymised: count("Referral friend discounts of the shopper anonymised (the address removed; a discount already created on the shop platform stays valid)."),
      profileAnswers: count("Customer profile answers deleted."),
      webhookEvents: count("Stored outgoing-webhook events mentioning the address deleted."),
      klaviyoJobs: count("Queued or logged calls to Klaviyo about the address deleted (when the store is connected to Klaviyo, its profile deletion request is queued: docs/klaviyo.md)."),
    }),
  })
  .meta({ id: "ShopperErasureResponse" });

/** POST /enterprise/customers/data_export `{ email }` → the zip archive of the shopper's data. */
export const exportShopperData = defineOperation({
  id: "exportShopperData",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags: ["Shopper data"],
  summary: "Export everything the store holds about a shopper",
  description:
    "A zip archive: `data.json` (reviews, questions, answers, survey responses, loyalty customer, transactions and rewards, orders, e-mails, review requests, referral link and friend discount, customer profile answers) and the original review photos and videos under `media/`. Audited.",
  body: { schema: requestBody, read: "json", contentTypes: ["application/json"] },
  responses: {
    200: { description: "The archive (`Content-Disposition: attachment`)", contentType: "application/zip", schema: z.string().meta({ format: "binary" }) },
    ...errorResponses(400, 401, 413, 415),
  },
  handler: async ({ body, storeId, context }) => {
    const archive = await context.services.privacy.exportArchive(storeId, body.email, "enterprise-api");
    return reply(null, { raw: { body: archive.bytes, contentType: "application/zip" }, headers: { "content-disposition": `attachment; filename="${archive.fileName}"` } });
  },
});

/** POST /enterprise/customers/erasure `{ email }` → what was erased. */
export const eraseShopperData = defineOperation({
  id: "eraseShopperData",
  method: "POST",
  api: "enterprise",
  auth: "basic",
  tags: ["Shopper data"],
  summary: "Erase everything the store holds about a shopper",
  description:
    "In one transaction: the shopper's reviews (with media files), questions, answers, survey responses, orders, e-mails and review requests are deleted; their loyalty customer is anonymised (the ledger stays balanced). Aggregates and AI content are recomputed. Idempotent; audited without the address.",
  body: { schema: requestBody, read: "json", contentTypes: ["application/json"] },
  responses: { 200: { description: "What was erased", schema: erasureResponseSchema }, ...errorResponses(400, 401, 413, 415) },
  handler: async ({ body, storeId, context }) => ({ erasure: await context.services.privacy.erase(storeId, body.email, "enterprise-api") }),
});

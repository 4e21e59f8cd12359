/**
 * Outgoing webhooks (docs/webhooks.md): the event types, the subscription requests of the enterprise API
 * and their answers. The one source of these shapes: the service builds them and the OpenAPI document
 * describes them from these schemas.
 */
import { z } from "zod";
import { loyaltyCustomerSchema, loyaltyTransactionSchema } from "./loyalty.responses.ts";
import { reviewSchema } from "./storefront.responses.ts";
import { surveyResponseSchema } from "./surveys.ts";

/**
 * Every event type a subscription may ask for, named as Okendo names them (`<resource>.<change>`). The
 * outbox triggers of migration 080 emit them; loyalty adjustments (changes by the store) have no event.
 */
export const WEBHOOK_EVENT_TYPES = [
  "review.created",
  "review.updated",
  "review.deleted",
  "survey_response.created",
  "loyalty_customer.created",
  "loyalty_customer.updated",
  "loyalty_earning_transaction.created",
  "loyalty_redemption_transaction.created",
  "loyalty_reward.created",
  "referral.friend_rewarded",
  "referral.sender_rewarded",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Most subscriptions one store may have. */
export const MAX_SUBSCRIPTIONS_PER_STORE = 20;
/** Longest subscription URL (characters). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const dateTime = (description: string) => z.iso.datetime().meta({ description: `${description} ISO 8601 date-time in UTC, e.g. \`2026-05-01T12:00:00.000Z\`.` });

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }).meta({
  id: "WebhookEventType",
  description:
    'An event type: `review.created|updated|deleted`, `survey_response.created`, `loyalty_customer.created|updated`, `loyalty_earning_transaction.created`, `loyalty_redemption_transaction.created`, `loyalty_reward.created` (sent at once when a reward is redeemed, and its answer decides whether the code is shown: docs/loyalty.md), `referral.friend_rewarded`, `referral.sender_rewarded` (docs/loyalty.md "Referrals").',
});

const urlField = z
  .string()
  .trim()
  .min(1, "url is required")
  .max(MAX_WEBHOOK_URL_LENGTH, `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
  .meta({ description: "Where deliveries are POSTed: an `https://` URL on a public address (private, loopback and link-local addresses are refused)." });
const eventTypesField = z
  .array(webhookEventTypeSchema)
  .min(1, "eventTypes must name at least one event type")
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((list) => new Set(list).size === list.length, "eventTypes must not repeat an event type")
  .meta({ description: "The event types delivered to this URL." });
const descriptionField = z.string().trim().max(200, "description must be at most 200 characters").meta({ description: "A note for the merchant, e.g. the receiving system." });

export const createWebhookSubscriptionSchema = z
  .strictObject({
    url: urlField,
    eventTypes: eventTypesField,
    description: descriptionField.optional(),
  })
  .meta({ id: "CreateWebhookSubscription" });
export type CreateWebhookSubscription = z.infer<typeof createWebhookSubscriptionSchema>;

export const updateWebhookSubscriptionSchema = z
  .strictObject({
    url: urlField.optional(),
    eventTypes: eventTypesField.optional(),
    description: descriptionField.optional(),
    status: z.enum(["enabled", "disabled"]).optional().meta({ description: "`enabled` turns a disabled subscription back on (its failure count starts again); `disabled` pauses it." }),
  })
  .meta({ id: "UpdateWebhookSubscription" });
export type UpdateWebhookSubscription = z.infer<typeof updateWebhookSubscriptionSchema>;

export const subscriptionIdParamsSchema = z.object({ subscriptionId: z.uuid({ error: "subscriptionId must be a subscription ID (a UUID)" }) });

export const webhookSubscriptionSchema = z
  .object({
    subscriptionId: z.uuid(),
    url: z.string(),
    eventTypes: z.array(webhookEventTypeSchema),
    description: z.string(),
    status: z.enum(["enabled", "disabled"]).meta({ description: "`disabled`: nothing is delivered (by the merchant, or after a day of failed deliveries: see `disabledReason`)." }),
    disabledReason: z.string().optional().meta({ description: "Why the subscription is disabled (present only when it is)." }),
    dateDisabled: dateTime("When it was disabled.").optional(),
    secretPrefix: z.string().meta({ description: "The first characters of the signing secret, to tell secrets apart (the secret itself is shown only on create and rotate)." }),
    consecutiveFailures: z.int().min(0).meta({ description: "Failed delivery attempts since the last successful one." }),
    dateCreated: dateTime("When the subscription was created."),
    dateUpdated: dateTime("When the subscription was last changed."),
  })
  .meta({ id: "WebhookSubscription", description: "A store's subscription of a URL to event types." });
export type WebhookSubscription = z.infer<typeof webhookSubscriptionSchema>;

export const webhookSubscriptionResponseSchema = z.object({ subscription: webhookSubscriptionSchema }).meta({ id: "WebhookSubscriptionResponse", description: "One subscription." });
export const webhookSubscriptionWithSecretSchema = z
  .object({
    subscription: webhookSubscriptionSchema,
    secret: z.string().meta({ description: "The signing secret (`whsec_…`). Shown only in this answer: store it to verify the `Chorus-Signature` header of each delivery." }),
  })
  .meta({ id: "WebhookSubscriptionWithSecret", description: "The subscription and its new signing secret, shown once." });
export const webhookSubscriptionsResponseSchema = z
  .object({ subscriptions: z.array(webhookSubscriptionSchema) })
  .meta({ id: "WebhookSubscriptionsResponse", description: "The store's subscriptions, oldest first." });
export const deletedWebhookSubscriptionSchema = z
  .object({ subscriptionId: z.uuid(), deleted: z.literal(true) })
  .meta({ id: "DeletedWebhookSubscription", description: "The subscription was deleted with its delivery log; nothing more is delivered to it." });

// ---- Event bodies (documented under `webhooks` in the enterprise OpenAPI document) ----

const idsOnly = <T extends z.ZodRawShape>(shape: T, what: string) => z.object(shape).meta({ description: `Only the IDs: the ${what} was deleted (or was deleted before the event was dispatched).` });
const reviewIds = idsOnly({ reviewId: z.string(), productId: z.string().optional() }, "review");
export const webhookReviewSchema = reviewSchema
  .extend({
    status: z.enum(["pending", "published", "rejected"]).meta({ description: "The review's moderation status." }),
    reviewer: reviewSchema.shape.reviewer.extend({ email: z.string().optional().meta({ description: "The reviewer's e-mail address, when known." }) }),
  })
  .meta({ id: "WebhookReview", description: "A review as the storefront shows it, with its status and the reviewer's e-mail." });
export const webhookLoyaltyCustomerSchema = loyaltyCustomerSchema
  .extend({
    platformCustomerId: z.string().meta({ description: "The shop platform's customer ID." }),
    email: z.string().optional(),
    lifetimePoints: z.int().meta({ description: "Sum of the customer's positive earnings (the VIP tier measure)." }),
  })
  .meta({ id: "WebhookLoyaltyCustomer", description: "A loyalty customer as the storefront shows them, with the merchant's fields." });
export const webhookTransactionSchema = loyaltyTransactionSchema
  .extend({ loyaltyCustomerId: z.string() })
  .meta({ id: "WebhookLoyaltyTransaction", description: "A ledger transaction with its customer." });

const DATA: Record<WebhookEventType, z.ZodType> = {
  "review.created": z.object({ review: z.union([webhookReviewSchema, reviewIds]) }),
  "review.updated": z.object({ review: z.union([webhookReviewSchema, reviewIds]) }),
  "review.deleted": z.object({ review: reviewIds }),
  "survey_response.created": z.object({ surveyResponse: z.union([surveyResponseSchema, idsOnly({ surveyResponseId: z.string() }, "survey response")]) }),
  "loyalty_customer.created": z.object({ loyaltyCustomer: z.union([webhookLoyaltyCustomerSchema, idsOnly({ loyaltyCustomerId: z.string() }, "loyalty customer")]) }),
  "loyalty_customer.updated": z.object({ loyaltyCustomer: z.union([webhookLoyaltyCustomerSchema, idsOnly({ loyaltyCustomerId: z.string() }, "loyalty customer")]) }),
  "loyalty_earning_transaction.created": z.object({ transaction: webhookTransactionSchema }),
  "loyalty_redemption_transaction.created": z.object({ transaction: webhookTransactionSchema }),
  "loyalty_reward.created": z
    .object({
      reward: z.object({
        code: z.string().meta({ description: "The code to create: unique, `CHORUS-XXXX-XXXX-XXXX`." }),
        title: z.string(),
        type: z.enum(["fixed-amount-coupon", "percentage-coupon", "free-shipping"]),
        value: z.number().meta({ description: "Currency units off, percent off (1-100), or 0 for free shipping." }),
        description: z.string(),
        usageLimit: z.literal(1),
        platformCustomerId: z.string().nullable().meta({ description: "Limit the code to this customer of the shop, when not null." }),
        email: z.string().nullable(),
        loyaltyCustomerId: z.string(),
        minimumOrderAmount: z.number().nullable().meta({ description: "Minimum order subtotal (currency units), or null." }),
        startsAt: z.string(),
        endsAt: z.string().nullable().meta({ description: "When the code expires (ISO 8601), or null." }),
      }),
    })
    .meta({
      description:
        "Sent at once, not queued: answer 2xx only once the code works at your checkout (the same `code` again must answer 2xx too). A referral's discount has an empty `loyaltyCustomerId` when no loyalty customer is behind it.",
    }),
  "referral.friend_rewarded": z
    .object({
      referral: z.object({
        referralSenderId: z.string(),
        friendEmail: z.string(),
        code: z.string().meta({ description: "The friend's discount code, created on the platform." }),
        platform: z.enum(["shopify", "woocommerce", "webhook", "demo"]),
        discount: z.object({ type: z.enum(["fixed-amount-coupon", "percentage-coupon"]), value: z.number(), minimumOrderAmount: z.number().nullable() }),
      }),
    })
    .meta({ description: "A friend opened a sender's link and got the friend discount." }),
  "referral.sender_rewarded": z
    .object({
      referral: z.object({
        referralSenderId: z.string(),
        senderEmail: z.string(),
        friendCode: z.string().meta({ description: "The friend's code the order used." }),
        orderId: z.string().meta({ description: "The friend's first order." }),
        reward: z.object({
          type: z.enum(["points", "fixed-amount-coupon", "percentage-coupon"]),
          value: z.number().meta({ description: "Points, or the coupon's currency units or percent." }),
          transactionId: z.string().nullable().optional().meta({ description: "Points: the earning transaction." }),
          loyaltyCustomerId: z.string().nullable().optional(),
          couponCode: z.string().nullable().optional().meta({ description: "A coupon: its code, created on the platform." }),
        }),
      }),
    })
    .meta({ description: "A friend's first order used their code: the sender got the referral reward." }),
};

/** The body of each event type: the envelope and its `data` (docs/webhooks.md "Payload"). */
export const WEBHOOK_EVENT_BODIES = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    z
      .object({
        eventId: z.string().meta({ description: "The event's ID (`evt_…`), also in `Chorus-Event-Id`: the same on every retry and replay." }),
        eventType: z.literal(type),
        dateCreated: dateTime("When the change was committed."),
        storeId: z.string(),
        data: DATA[type],
      })
      .meta({ description: `The \`${type}\` event.` }),
  ]),
) as unknown as Record<WebhookEventType, z.ZodType>;

/** The headers of every delivery. */
export const webhookDeliveryHeadersSchema = z.object({
  "chorus-signature": z.string().meta({ description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the subscription\'s secret (docs: verify the signature).' }),
  "chorus-event-id": z.string(),
  "chorus-event-type": webhookEventTypeSchema,
  "chorus-delivery-id": z.string().meta({ description: "This delivery's ID (a replay is a new delivery)." }),
});

/**
 * Referrals contract (docs/loyalty.md "Referrals"): the storefront's `POST /referral_senders` (Okendo's shape:
 * `{ email }` → `{ referralSenderId, shareableLinkUrl }`), the public read of the store's referral program, and
 * the program's settings (admin and `PATCH /enterprise/settings` section `referrals`). One source: routes parse
 * with these schemas, widgets `import type` the response types.
 */
import { z } from "zod";

export const REFERRAL_DISCOUNT_TYPES = ["fixed-amount-coupon", "percentage-coupon"] as const;
export const SENDER_REWARD_TYPES = ["points", "fixed-amount-coupon", "percentage-coupon"] as const;

const email = z
  .string({ error: "email is required" })
  .trim()
  .max(320, "email must be at most 320 characters")
  .pipe(z.email({ error: "email must be an e-mail address" }))
  .transform((s) => s.toLowerCase());

/** POST /v1/stores/{storeId}/referral_senders. */
export const referralSenderBody = z
  .object({
    email: email
      .optional()
      .meta({ description: "The sender's e-mail address. The same address always gets the same link. May be left out with a loyalty customer token: the customer's address is used." }),
  })
  .meta({ id: "ReferralSenderRequest" });
export type ReferralSenderBody = z.output<typeof referralSenderBody>;

export const referralSenderResponseSchema = z
  .object({
    referralSenderId: z.string().meta({ description: "The sender's ID (the same for the same e-mail address)." }),
    shareableLinkUrl: z.string().meta({ description: "The link to share: it opens the hosted page where a friend gets the friend discount." }),
  })
  .meta({ id: "ReferralSender", description: "A referral sender and the link they share (Okendo's shape)." });
export type ReferralSenderResponse = z.infer<typeof referralSenderResponseSchema>;

/** The friend's discount and the sender's reward of a program. */
export const referralOfferSchema = z.object({
  friendDiscount: z.object({
    type: z.enum(REFERRAL_DISCOUNT_TYPES),
    value: z.number().meta({ description: "Currency units off (`fixed-amount-coupon`) or percent off (`percentage-coupon`, 1–100)." }),
    minimumOrderAmount: z.number().nullable().meta({ description: "Minimum order subtotal (currency units) for the code, or null." }),
  }),
  senderReward: z.object({
    type: z.enum(SENDER_REWARD_TYPES),
    value: z.number().meta({ description: "Points (`points`), currency units off or percent off (a coupon)." }),
  }),
});

/** GET /v1/stores/{storeId}/referral_program. */
export const referralProgramResponseSchema = z
  .object({
    referralProgram: referralOfferSchema.extend({
      enabled: z.boolean().meta({ description: "Whether the store's referral program is on (links can be made and used)." }),
    }),
  })
  .meta({ id: "ReferralProgramResponse", description: "The store's referral program as a shopper sees it." });
export type ReferralProgramResponse = z.infer<typeof referralProgramResponseSchema>;

const amount = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .finite()
    .positive(`${name} must be more than 0`)
    .max(1_000_000, `${name} must be at most 1000000`);

const referralSettingsFields = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
  friendDiscountType: z.enum(REFERRAL_DISCOUNT_TYPES, { error: `friendDiscountType must be one of ${REFERRAL_DISCOUNT_TYPES.join(", ")}` }),
  friendDiscountValue: amount("friendDiscountValue"),
  friendMinimumOrder: amount("friendMinimumOrder").nullable().meta({ description: "Minimum order subtotal for the friend's code (currency units), or null for none." }),
  senderRewardType: z.enum(SENDER_REWARD_TYPES, { error: `senderRewardType must be one of ${SENDER_REWARD_TYPES.join(", ")}` }),
  senderRewardValue: amount("senderRewardValue").meta({ description: "Points (whole), or the coupon's currency units or percent." }),
});

/** The program's settings (admin form and the `referrals` settings section). */
export const referralSettingsSchema = referralSettingsFields
  .superRefine((s, ctx) => {
    for (const [type, value, path] of [
      [s.friendDiscountType, s.friendDiscountValue, "friendDiscountValue"],
      [s.senderRewardType, s.senderRewardValue, "senderRewardValue"],
    ] as const) {
      if (type === "percentage-coupon" && value > 100) ctx.addIssue({ code: "custom", path: [path], message: `${path} must be at most 100 for a percentage` });
      if (type === "points" && !Number.isInteger(value)) ctx.addIssue({ code: "custom", path: [path], message: `${path} must be a whole number of points` });
    }
  })
  .meta({ id: "ReferralSettings", description: "The referral program: on/off, the friend's discount and the sender's reward (docs/loyalty.md \"Referrals\")." });
export type ReferralSettings = z.output<typeof referralSettingsSchema>;

/** `PATCH /enterprise/settings` section `referrals`: any of the fields (checked again as a whole after merging). */
export const referralSettingsPatchSchema = referralSettingsFields.partial().strict().meta({ id: "ReferralSettingsPatch" });
export type ReferralSettingsPatch = z.output<typeof referralSettingsPatchSchema>;

/**
 * Store settings by API (issue #22 item 5): `GET /enterprise/settings` and `PATCH /enterprise/settings`
 * compose one section per module (`moderation`: server/admin/held-reviews.ts). Each section is its module's: a zod schema of what GET shows, a zod
 * schema of a PATCH (any subset of fields), and `get`/`update` on the module's service. The admin pages
 * call the same services, so both paths apply the same rules.
 *
 * Composition point: to add a section, add its two schemas to `settingsSchema`/`settingsPatchSchema` and
 * its `get`/`update` to `sections()` below. A PATCH applies every section it names in one transaction:
 * a 400 in any section changes nothing.
 */
import { z } from "zod";
import { transaction, type Db } from "../db/database.ts";
import { platformSettingsPatch, platformSettingsSchema, type PlatformsService } from "../platforms/platforms.service.ts";
import { reviewRequestSettingsPatchSchema, reviewRequestSettingsSchema } from "../review-requests/settings.ts";
import type { ReviewRequestsService } from "../review-requests/review-requests.service.ts";
import { widgetSettingsPatchSchema, widgetSettingsSchema } from "../contract/widget-settings.ts";
import type { WidgetSettingsService } from "../widget-settings/widget-settings.service.ts";
import { moderationSettings, moderationSettingsPatchSchema, moderationSettingsSchema } from "../admin/held-reviews.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import { feedSettingsPatch, feedSettingsSchema, type FeedsService } from "../feeds/feeds.service.ts";
import { marketingSettingsPatch, marketingSettingsSchema, type KlaviyoService } from "../marketing/klaviyo.service.ts";

import { shopperPagesSettings, shopperPagesSettingsPatchSchema, shopperPagesSettingsSchema } from "../stores/default-language.ts";
import { referralSettingsPatchSchema, referralSettingsSchema } from "../contract/referrals.ts";
import type { Referrals } from "../loyalty/referrals.ts";

/** The services whose sections are composed. */
export type SettingsOwners = {
  db: Db;
  platforms: PlatformsService;
  reviewRequests: ReviewRequestsService;
  widgetSettings: WidgetSettingsService;
  stores: StoresRepo;
  feeds: FeedsService;
  klaviyo: KlaviyoService;
  referrals: Referrals;
};

/** GET /enterprise/settings: every section. */
export const settingsSchema = z
  .object({
    platform: platformSettingsSchema,
    moderation: moderationSettingsSchema,
    reviewRequests: reviewRequestSettingsSchema.meta({
      id: "ReviewRequestSettings",
      description: "Review-request e-mails after fulfilment: on or off, delay, reminder, quiet hours, templates per language.",
    }),
    widgets: widgetSettingsSchema.meta({ id: "WidgetSettings", description: "Widget texts per language, colours, and which widgets show." }),
    feeds: feedSettingsSchema,
    marketing: marketingSettingsSchema,
    referrals: referralSettingsSchema,
    shopperPages: shopperPagesSettingsSchema,
  })
  .meta({ id: "StoreSettings" });

/** PATCH /enterprise/settings: the sections to change, each with the fields to change. */
export const settingsPatchSchema = z
  .object(
    {
      platform: platformSettingsPatch.optional(),
      moderation: moderationSettingsPatchSchema.optional(),
      reviewRequests: reviewRequestSettingsPatchSchema.optional(),
      widgets: widgetSettingsPatchSchema.optional(),
      feeds: feedSettingsPatch.optional(),
      marketing: marketingSettingsPatch.optional(),
      referrals: referralSettingsPatchSchema.optional(),
      shopperPages: shopperPagesSettingsPatchSchema.optional(),
    },
    { error: "the body must be an object of settings sections" },
  )
  .strict()
  .meta({ id: "StoreSettingsPatch" });

export type StoreSettings = z.output<typeof settingsSchema>;
export type StoreSettingsPatch = z.output<typeof settingsPatchSchema>;

type Section<K extends keyof StoreSettings> = {
  get(storeId: string, origin: string): Promise<StoreSettings[K]>;
  update(storeId: string, patch: NonNullable<StoreSettingsPatch[K & keyof StoreSettingsPatch]>): Promise<void>;
};

/** The sections over the services. */
function sections(services: SettingsOwners): { [K in keyof StoreSettings]: Section<K> } {
  const moderation = moderationSettings(services.stores);
  const shopperPages = shopperPagesSettings(services.stores);
  return {
    moderation: {
      get: async (storeId) => await moderation.get(storeId),
      update: async (storeId, patch) => {
        await moderation.update(storeId, patch);
      },
    },
    platform: {
      get: async (storeId, origin) => await services.platforms.settings(storeId, origin),
      update: async (storeId, patch) => {
        await services.platforms.updateSettings(storeId, patch);
      },
    },
    reviewRequests: {
      get: async (storeId) => await services.reviewRequests.get(storeId),
      update: async (storeId, patch) => {
        await services.reviewRequests.update(storeId, patch);
      },
    },
    widgets: {
      get: (storeId) => services.widgetSettings.get(storeId),
      update: async (storeId, patch) => {
        await services.widgetSettings.update(storeId, patch);
      },
    },
    feeds: {
      get: (storeId, origin) => services.feeds.settings(storeId, origin),
      update: async (storeId, patch) => {
        await services.feeds.updateSettings(storeId, patch);
      },
    },
    marketing: {
      get: (storeId) => services.klaviyo.settings(storeId),
      update: async (storeId, patch) => {
        await services.klaviyo.updateSettings(storeId, patch);
      },
    },
    referrals: { get: (storeId) => services.referrals.settings(storeId), update: (storeId, patch) => services.referrals.patchSettings(storeId, patch) },
    shopperPages: { get: (storeId) => shopperPages.get(storeId), update: (storeId, patch) => shopperPages.update(storeId, patch) },
  };
}

/** Create the settings service over the section owners' services. */
export function settingsService(services: SettingsOwners) {
  const all = sections(services);
  return {
    /** Every section of the store's settings; `origin` is the public origin of URLs in them (webhook URLs). */
    async get(storeId: string, origin: string): Promise<StoreSettings> {
      // One section after the other (inside a transaction they share one connection).
      const out: Record<string, unknown> = {};
      for (const [name, s] of Object.entries(all)) out[name] = await s.get(storeId, origin);
      return out as StoreSettings;
    },
    /** Apply a (parsed) patch in one transaction. @throws ApiError 400/404/409 from a section; nothing changes then. */
    async update(storeId: string, patch: StoreSettingsPatch): Promise<void> {
      await transaction(services.db, async () => {
        for (const [name, value] of Object.entries(patch)) {
          if (value !== undefined) await (all[name as keyof StoreSettings] as Section<keyof StoreSettings>).update(storeId, value as never);
        }
      });
    },
  };
}
export type SettingsService = ReturnType<typeof settingsService>;

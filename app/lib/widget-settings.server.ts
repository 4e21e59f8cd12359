/**
 * Operation declaration of the widgets' settings read (issue #21 item 4): the merchant's texts for the
 * shopper's language, the accent and star colours, and which widgets show. Every `chorus-*` element of a
 * store on a page shares one such request (widgets/internal/settings.ts).
 */
import { z } from "zod";
import { defineOperation, reply } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { SCOPE_PARAMS } from "../../server/contract/params.ts";
import { storefrontWidgetSettingsSchema } from "../../server/contract/widget-settings.ts";
import { widgetPlusSettingsSchema } from "../../server/contract/okendo-widget-plus.ts";
import { widgetPlusSettings } from "../../server/widget-settings/okendo-widget-plus.ts";

/** GET /v1/stores/{storeId}/widget_settings?locale= */
export const getWidgetSettings = defineOperation({
  id: "getWidgetSettings",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Widgets"],
  summary: "The store's widget settings: texts for a language, colours, which widgets show",
  description:
    "Texts: only those the merchant changed, for `locale` (the tag itself, else its language, else `en`); every other text is the widget's English default. " +
    "Colours are CSS hex colours or null (the page's or the widget's default). Revalidated on every use (`no-cache`, ETag), so a change in the admin shows on the next page view.",
  params: SCOPE_PARAMS.store,
  query: z.object({
    locale: z
      .string()
      .max(35)
      .regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, "must be a language tag like en, de or pt-BR")
      .optional()
      .meta({ description: "The shopper's language (BCP 47 tag, e.g. `de` or `pt-BR`); default `en`." }),
  }),
  responses: { 200: { description: "`{ widgetSettings }`", schema: storefrontWidgetSettingsSchema }, ...errorResponses(400, 404) },
  handler: async ({ params, query, context }) =>
    reply(
      { widgetSettings: await context.services.widgetSettings.forShoppers(params.storeId, query.locale) },
      { scopes: context.services.widgetSettings.cacheScopes(params.storeId), headers: { "cache-control": "public, no-cache" } },
    ),
});

/**
 * GET /v1/stores/{storeId}/widget_plus_settings: Okendo-compatible (issue #37 item 6, docs/okendo.md "Hydrogen"),
 * what `@okendo/shopify-hydrogen`'s `getOkendoProviderData` reads, built from the same widget settings.
 */
export const getWidgetPlusSettings = defineOperation({
  id: "getWidgetPlusSettings",
  method: "GET",
  api: "storefront",
  auth: "none",
  cache: "public",
  readsOnly: true,
  tags: ["Widgets"],
  summary: "Okendo-compatible: the settings Okendo's Hydrogen components read",
  description:
    "Okendo-compatible. `@okendo/shopify-hydrogen`'s provider reads this (with `apiDomain` set to `{chorus-host}/v1`), prints it into the page's head and injects " +
    "`/reviews-widget-plus/js/okendo-reviews.js`, which reads `reviewsHeaderConfig` back and shows Chorus's widgets in Okendo's mounts. " +
    "Built from the store's widget settings (the colours; the merchant's English texts' language). Revalidated on every use (`no-cache`, ETag).",
  params: SCOPE_PARAMS.store,
  responses: { 200: { description: "`{ reviewsHeaderConfig, cssVariables, customCss, starSymbols }`", schema: widgetPlusSettingsSchema }, ...errorResponses(404) },
  handler: async ({ params, context }) =>
    reply(widgetPlusSettings(params.storeId, await context.services.widgetSettings.forShoppers(params.storeId), context.publicOrigin), {
      scopes: context.services.widgetSettings.cacheScopes(params.storeId),
      headers: { "cache-control": "public, no-cache" },
    }),
});

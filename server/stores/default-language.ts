/**
 * The `shopperPages` settings section (docs/surveys.md "Languages of the hosted pages", docs/api.md "API descriptions (OpenAPI 3.1)"): the
 * store's default language for shopper-facing pages, one of the 16 widget languages. The hosted survey page
 * (`/s/{id}`), the hosted review page's survey (`/r/{token}`) and the survey element on a page without a language
 * speak it when the shopper's Accept-Language names none of them. The admin's settings page writes the same column.
 */
import { z } from "zod";
import { notFound } from "../contract/errors.ts";
import { UI_LOCALES } from "../contract/widget-locales.ts";
import type { StoresRepo } from "./stores.repo.ts";

const language = z.enum(UI_LOCALES, { error: `defaultLanguage must be one of ${UI_LOCALES.join(", ")}` }).meta({
  description: "The language of shopper-facing pages when the shopper's browser asks for none of the 16 widget languages (default en).",
});

/** GET: the section. */
export const shopperPagesSettingsSchema = z
  .object({ defaultLanguage: language })
  .strict()
  .meta({ id: "ShopperPagesSettings", description: "Shopper-facing pages (hosted survey and review pages, the survey element): their default language." });
export type ShopperPagesSettings = z.output<typeof shopperPagesSettingsSchema>;

/** PATCH: any subset. */
export const shopperPagesSettingsPatchSchema = z.object({ defaultLanguage: language.optional() }, { error: "shopperPages must be an object" }).strict().meta({ id: "ShopperPagesSettingsPatch" });
export type ShopperPagesSettingsPatch = z.output<typeof shopperPagesSettingsPatchSchema>;

/** The section over the stores repo. */
export function shopperPagesSettings(stores: StoresRepo) {
  return {
    /** @throws ApiError 404 when the store does not exist. */
    async get(storeId: string): Promise<ShopperPagesSettings> {
      const store = await stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      return { defaultLanguage: store.defaultLanguage };
    },
    /** Apply a parsed patch (the store's row locked while written: stores.repo.ts `updateSettings`). @throws ApiError 404 when the store does not exist. */
    async update(storeId: string, patch: ShopperPagesSettingsPatch): Promise<void> {
      if (!(await stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      if (patch.defaultLanguage) await stores.updateSettings(storeId, { defaultLanguage: patch.defaultLanguage });
    },
  };
}

/**
 * Widget settings per store (issue #21 item 4): the texts shoppers see per language, the accent and star
 * colours, which widgets show, and the product attributes the review form asks (issue #23 item 2). `get` / `update` are the `widgets` section of the store settings
 * (`/enterprise/settings`, interface 3 of the brief; schema `widgetSettingsSchema` /
 * `widgetSettingsPatchSchema` of server/contract/widget-settings.ts); `forShoppers` is the storefront read
 * the widgets make once per page (`GET /v1/stores/{storeId}/widget_settings`).
 */
import { badRequest, notFound } from "../contract/errors.ts";
import {
  widgetSettingsPatchSchema,
  widgetSettingsSchema,
  languageTagSchema,
  type FormAttribute,
  type StorefrontWidgetSettings,
  type WidgetSettings,
  type WidgetSettingsPatch,
} from "../contract/widget-settings.ts";
import { forUpdate, run, sql, transaction, type Db } from "../db/database.ts";
import { contentScope } from "../shared/content-scopes.ts";
import { zodIssue } from "../shared/zod-issue.ts";
import type { storesRepo } from "../stores/stores.repo.ts";
import type { WidgetSettingsRepo } from "./widget-settings.repo.ts";

export { widgetSettingsSchema, widgetSettingsPatchSchema };

/** Zod issue paths of a failed patch, mapped to one message each (`texts.de.reviews.writeReview` → message). */
export type FieldErrors = Record<string, string>;

/**
 * The language whose merchant texts a shopper asking for `locale` sees: the tag itself (`pt-br`), else
 * its language (`pt`), else English (`en`, the widgets' own language). Pure.
 */
export function chooseLanguage(locale: string | undefined, available: readonly string[]): string {
  const tag = (locale ?? "").toLowerCase();
  if (tag && available.includes(tag)) return tag;
  const base = tag.split("-")[0] ?? "";
  if (base && available.includes(base)) return base;
  return "en";
}

export function widgetSettingsService(deps: { db: Db; repo: WidgetSettingsRepo; stores: ReturnType<typeof storesRepo>; now?: () => number }) {
  const { db, repo, stores } = deps;
  const now = deps.now ?? Date.now;
  const requireStore = async (storeId: string) => {
    if (!(await stores.get(storeId))) throw notFound("Store not found", "store_not_found");
  };

  /** Every field error of a patch (path → message), or null when it is valid. */
  function check(patch: unknown): { data: WidgetSettingsPatch; errors: null } | { data: null; errors: FieldErrors } {
    const result = widgetSettingsPatchSchema.safeParse(patch);
    if (result.success) return { data: result.data, errors: null };
    const errors: FieldErrors = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join(".") || "widgets";
      errors[path] ??= issue.message;
    }
    return { data: null, errors };
  }

  return {
    /** @returns the whole section of `storeId`. @throws 404 for an unknown store. */
    async get(storeId: string): Promise<WidgetSettings> {
      await requireStore(storeId);
      return { texts: await repo.allTexts(storeId), ...(await repo.getSettings(storeId)), reviewForm: { attributes: await repo.formAttributes(storeId) } };
    },

    /** Every invalid field of `patch` (path → message), or null when it is valid: for forms showing errors beside fields. */
    fieldErrors(patch: unknown): FieldErrors | null {
      return check(patch).errors;
    },

    /**
     * Apply `patch` (widgetSettingsPatchSchema: only what is given changes) in one transaction.
     * @returns the section after the change. @throws 404 for an unknown store; 400 naming the first
     *   invalid field (e.g. `colors.accent: must be a CSS hex colour ...`).
     */
    async update(storeId: string, patch: unknown): Promise<WidgetSettings> {
      await requireStore(storeId);
      const result = widgetSettingsPatchSchema.safeParse(patch);
      if (!result.success) throw badRequest(zodIssue(result.error, "widgets"), "invalid_field");
      const change = result.data;
      await transaction(db, async () => {
        const t = now();
        if (change.colors || change.widgets) {
          // exactly-once: row lock on the store's row (created empty first), so two changes of different
          // colours or flags at once both keep theirs (PostgreSQL; SQLite's write transaction serialises them).
          await run(db, sql`INSERT INTO widget_settings (store_id, updated_ms) VALUES (${storeId}, ${t}) ON CONFLICT (store_id) DO NOTHING`);
          await run(db, sql`SELECT store_id FROM widget_settings WHERE store_id = ${storeId}${forUpdate(db)}`);
          const current = await repo.getSettings(storeId);
          await repo.putSettings(storeId, { colors: { ...current.colors, ...change.colors }, widgets: { ...current.widgets, ...change.widgets } }, t);
        }
        if (change.reviewForm) await repo.putFormAttributes(storeId, change.reviewForm.attributes, t);
        for (const [locale, texts] of Object.entries(change.texts ?? {})) {
          if (texts === null) {
            await repo.deleteLanguage(storeId, locale);
            continue;
          }
          for (const [id, value] of Object.entries(texts)) {
            if (value === undefined) continue;
            if (value === null) await repo.deleteText(storeId, locale, id);
            else await repo.setText(storeId, locale, id, value, t);
          }
        }
      });
      return this.get(storeId);
    },

    /** The languages the store has texts in (lower-case tags). @throws 404 for an unknown store. */
    async languages(storeId: string): Promise<string[]> {
      await requireStore(storeId);
      return repo.languages(storeId);
    },

    /**
     * What the widgets of a shopper in `locale` read: the merchant's texts of the language chosen by
     * `chooseLanguage`, colours and show flags. @throws 404 for an unknown store, 400 for a malformed locale.
     */
    async forShoppers(storeId: string, locale?: string): Promise<StorefrontWidgetSettings> {
      await requireStore(storeId);
      let tag: string | undefined;
      if (locale !== undefined && locale !== "") {
        const parsed = languageTagSchema.safeParse(locale);
        if (!parsed.success) throw badRequest(`locale: ${parsed.error.issues[0]!.message}`);
        tag = parsed.data;
      }
      const chosen = chooseLanguage(tag, await repo.languages(storeId));
      return { locale: chosen, texts: await repo.languageTexts(storeId, chosen), ...(await repo.getSettings(storeId)), reviewForm: { attributes: await repo.formAttributes(storeId) } };
    },

    /**
     * The product attributes the review form of `storeId` asks, in order (what a review submission is
     * checked against: server/reviews/submissions.service.ts). Empty for a store that configured none.
     */
    formAttributes(storeId: string): Promise<FormAttribute[]> {
      return repo.formAttributes(storeId);
    },

    /** The content scopes `forShoppers` reads (the response cache keeps its answer until one changes). */
    cacheScopes(storeId: string): string[] {
      return [contentScope.store(storeId), contentScope.widgets(storeId)];
    },
  };
}
export type WidgetSettingsService = ReturnType<typeof widgetSettingsService>;

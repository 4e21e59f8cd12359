/**
 * Widget settings of a store (SQL): one `widget_settings` row (colours, which widgets show, the review
 * form's product attributes as JSON; none = the defaults) and the merchant's texts in `widget_texts`, one row per language and text ID. Every query
 * names the store.
 */
import type { Db } from "../db/database.ts";
import { DEFAULT_WIDGET_SETTINGS, WIDGET_KEYS, type FormAttribute, type WidgetKey, type WidgetSettings } from "../contract/widget-settings.ts";

/** The column of each widget's show flag. */
const SHOW_COLUMNS: Record<WidgetKey, string> = {
  reviews: "show_reviews", starRating: "show_star_rating", media: "show_media", questions: "show_questions",
  summary: "show_summary", keywords: "show_keywords", loyalty: "show_loyalty",
};

type SettingsRow = { accent_color: string | null; star_color: string | null } & Record<string, number>;

/** Create the widget settings data module over `db`. */
export function widgetSettingsRepo(db: Db) {
  return {
    /** Colours and show flags of the store (the defaults when it has no row). */
    getSettings(storeId: string): Pick<WidgetSettings, "colors" | "widgets"> {
      const row = db.prepare<[string], SettingsRow>("SELECT * FROM widget_settings WHERE store_id = ?").get(storeId);
      if (!row) return { colors: { ...DEFAULT_WIDGET_SETTINGS.colors }, widgets: { ...DEFAULT_WIDGET_SETTINGS.widgets } };
      return {
        colors: { accent: row.accent_color, star: row.star_color },
        widgets: Object.fromEntries(WIDGET_KEYS.map((k) => [k, row[SHOW_COLUMNS[k]] === 1])) as Record<WidgetKey, boolean>,
      };
    },
    /** Write colours and show flags (the whole row). */
    putSettings(storeId: string, settings: Pick<WidgetSettings, "colors" | "widgets">, nowMs: number): void {
      const columns = WIDGET_KEYS.map((k) => SHOW_COLUMNS[k]);
      db.prepare(
        `INSERT INTO widget_settings (store_id, accent_color, star_color, ${columns.join(", ")}, updated_ms)
         VALUES (?, ?, ?, ${columns.map(() => "?").join(", ")}, ?)
         ON CONFLICT (store_id) DO UPDATE SET accent_color = excluded.accent_color, star_color = excluded.star_color,
           ${columns.map((c) => `${c} = excluded.${c}`).join(", ")}, updated_ms = excluded.updated_ms`,
      ).run(storeId, settings.colors.accent, settings.colors.star, ...WIDGET_KEYS.map((k) => (settings.widgets[k] ? 1 : 0)), nowMs);
    },
    /** The product attributes the store's review form asks, in order (none when it has no row). */
    formAttributes(storeId: string): FormAttribute[] {
      const json = db.prepare<[string], string>("SELECT review_form_attributes_json FROM widget_settings WHERE store_id = ?").pluck().get(storeId);
      return json ? (JSON.parse(json) as FormAttribute[]) : [];
    },
    /** Replace the review form's attributes (validated by the caller: formAttributesSchema). */
    putFormAttributes(storeId: string, attributes: FormAttribute[], nowMs: number): void {
      db.prepare(
        `INSERT INTO widget_settings (store_id, review_form_attributes_json, updated_ms) VALUES (?, ?, ?)
         ON CONFLICT (store_id) DO UPDATE SET review_form_attributes_json = excluded.review_form_attributes_json, updated_ms = excluded.updated_ms`,
      ).run(storeId, JSON.stringify(attributes), nowMs);
    },
    /** Every text of the store: language → text ID → text. */
    allTexts(storeId: string): Record<string, Record<string, string>> {
      const rows = db.prepare<[string], { locale: string; text_id: string; value: string }>(
        "SELECT locale, text_id, value FROM widget_texts WHERE store_id = ? ORDER BY locale, text_id",
      ).all(storeId);
      const texts: Record<string, Record<string, string>> = {};
      for (const r of rows) (texts[r.locale] ??= {})[r.text_id] = r.value;
      return texts;
    },
    /** The texts of one language (text ID → text; empty when none). */
    languageTexts(storeId: string, locale: string): Record<string, string> {
      const rows = db.prepare<[string, string], { text_id: string; value: string }>(
        "SELECT text_id, value FROM widget_texts WHERE store_id = ? AND locale = ?",
      ).all(storeId, locale);
      return Object.fromEntries(rows.map((r) => [r.text_id, r.value]));
    },
    /** The languages the store has texts in. */
    languages(storeId: string): string[] {
      return db.prepare<[string], { locale: string }>("SELECT DISTINCT locale FROM widget_texts WHERE store_id = ? ORDER BY locale").all(storeId).map((r) => r.locale);
    },
    setText(storeId: string, locale: string, textId: string, value: string, nowMs: number): void {
      db.prepare(
        `INSERT INTO widget_texts (store_id, locale, text_id, value, updated_ms) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (store_id, locale, text_id) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms
         WHERE widget_texts.value <> excluded.value`,
      ).run(storeId, locale, textId, value, nowMs);
    },
    deleteText(storeId: string, locale: string, textId: string): void {
      db.prepare("DELETE FROM widget_texts WHERE store_id = ? AND locale = ? AND text_id = ?").run(storeId, locale, textId);
    },
    deleteLanguage(storeId: string, locale: string): void {
      db.prepare("DELETE FROM widget_texts WHERE store_id = ? AND locale = ?").run(storeId, locale);
    },
  };
}
export type WidgetSettingsRepo = ReturnType<typeof widgetSettingsRepo>;

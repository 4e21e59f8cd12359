/**
 * Widget settings of a store (SQL): one `widget_settings` row (colours, which widgets show, the review
 * form's product attributes as JSON; none = the defaults) and the merchant's texts in `widget_texts`, one row per language and text ID. Every query
 * names the store.
 */
import { all, one, run, sql, value, type Db } from "../db/database.ts";
import { DEFAULT_WIDGET_SETTINGS, WIDGET_KEYS, type FormAttribute, type WidgetKey, type WidgetSettings } from "../contract/widget-settings.ts";

/** The column of each widget's show flag. */
const SHOW_COLUMNS: Record<WidgetKey, string> = {
  reviews: "show_reviews",
  starRating: "show_star_rating",
  media: "show_media",
  questions: "show_questions",
  summary: "show_summary",
  keywords: "show_keywords",
  loyalty: "show_loyalty",
};

type SettingsRow = { accent_color: string | null; star_color: string | null } & Record<string, number>;

/** Create the widget settings data module over `db`. */
export function widgetSettingsRepo(db: Db) {
  return {
    /** Colours and show flags of the store (the defaults when it has no row). */
    async getSettings(storeId: string): Promise<Pick<WidgetSettings, "colors" | "widgets">> {
      const row = await one<SettingsRow>(db, sql`SELECT * FROM widget_settings WHERE store_id = ${storeId}`);
      if (!row) return { colors: { ...DEFAULT_WIDGET_SETTINGS.colors }, widgets: { ...DEFAULT_WIDGET_SETTINGS.widgets } };
      return {
        colors: { accent: row.accent_color, star: row.star_color },
        widgets: Object.fromEntries(WIDGET_KEYS.map((k) => [k, row[SHOW_COLUMNS[k]] === 1])) as Record<WidgetKey, boolean>,
      };
    },
    /** Write colours and show flags (the whole row). */
    async putSettings(storeId: string, settings: Pick<WidgetSettings, "colors" | "widgets">, nowMs: number): Promise<void> {
      const columns = sql.raw(WIDGET_KEYS.map((k) => SHOW_COLUMNS[k]).join(", "));
      const updates = sql.raw(WIDGET_KEYS.map((k) => `${SHOW_COLUMNS[k]} = excluded.${SHOW_COLUMNS[k]}`).join(", "));
      await run(
        db,
        sql`
        INSERT INTO widget_settings (store_id, accent_color, star_color, ${columns}, updated_ms)
        VALUES (${storeId}, ${settings.colors.accent}, ${settings.colors.star}, ${sql.join(WIDGET_KEYS.map((k) => (settings.widgets[k] ? 1 : 0)))}, ${nowMs})
        ON CONFLICT (store_id) DO UPDATE SET accent_color = excluded.accent_color, star_color = excluded.star_color,
          ${updates}, updated_ms = excluded.updated_ms`,
      );
    },
    /** The product attributes the store's review form asks, in order (none when it has no row). */
    async formAttributes(storeId: string): Promise<FormAttribute[]> {
      const json = await value<string | null>(db, sql`SELECT review_form_attributes_json FROM widget_settings WHERE store_id = ${storeId}`);
      return json ? (JSON.parse(json) as FormAttribute[]) : [];
    },
    /** Replace the review form's attributes (validated by the caller: formAttributesSchema). */
    async putFormAttributes(storeId: string, attributes: FormAttribute[], nowMs: number): Promise<void> {
      await run(
        db,
        sql`
        INSERT INTO widget_settings (store_id, review_form_attributes_json, updated_ms) VALUES (${storeId}, ${JSON.stringify(attributes)}, ${nowMs})
        ON CONFLICT (store_id) DO UPDATE SET review_form_attributes_json = excluded.review_form_attributes_json, updated_ms = excluded.updated_ms`,
      );
    },
    /** Every text of the store: language → text ID → text. */
    async allTexts(storeId: string): Promise<Record<string, Record<string, string>>> {
      const rows = await all<{ locale: string; text_id: string; value: string }>(
        db,
        sql`
        SELECT locale, text_id, value FROM widget_texts WHERE store_id = ${storeId} ORDER BY locale, text_id`,
      );
      const texts: Record<string, Record<string, string>> = {};
      for (const r of rows) (texts[r.locale] ??= {})[r.text_id] = r.value;
      return texts;
    },
    /** The texts of one language (text ID → text; empty when none). */
    async languageTexts(storeId: string, locale: string): Promise<Record<string, string>> {
      const rows = await all<{ text_id: string; value: string }>(db, sql`SELECT text_id, value FROM widget_texts WHERE store_id = ${storeId} AND locale = ${locale}`);
      return Object.fromEntries(rows.map((r) => [r.text_id, r.value]));
    },
    /** The languages the store has texts in. */
    async languages(storeId: string): Promise<string[]> {
      return (await all<{ locale: string }>(db, sql`SELECT DISTINCT locale FROM widget_texts WHERE store_id = ${storeId} ORDER BY locale`)).map((r) => r.locale);
    },
    async setText(storeId: string, locale: string, textId: string, value: string, nowMs: number): Promise<void> {
      await run(
        db,
        sql`
        INSERT INTO widget_texts (store_id, locale, text_id, value, updated_ms) VALUES (${storeId}, ${locale}, ${textId}, ${value}, ${nowMs})
        ON CONFLICT (store_id, locale, text_id) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms
        WHERE widget_texts.value <> excluded.value`,
      );
    },
    async deleteText(storeId: string, locale: string, textId: string): Promise<void> {
      await run(db, sql`DELETE FROM widget_texts WHERE store_id = ${storeId} AND locale = ${locale} AND text_id = ${textId}`);
    },
    async deleteLanguage(storeId: string, locale: string): Promise<void> {
      await run(db, sql`DELETE FROM widget_texts WHERE store_id = ${storeId} AND locale = ${locale}`);
    },
  };
}
export type WidgetSettingsRepo = ReturnType<typeof widgetSettingsRepo>;

/**
 * Which language the widgets speak, and which review-translation code they send (issue #23 item 3). Pure and
 * small: the widgets bundle it (the shared chunk), the server uses it for server-rendered snippets.
 *
 * - UI language: the element's `lang`, else the closest ancestor's `lang` / `<html lang>`, resolved by
 *   `uiLocaleFor` to one of `UI_LOCALES` (exact tag, then script/region rules, then the language), else English.
 * - Review-text translation codes: ./review-locales.ts (only the reviews widget carries them).
 * - Merchant texts (widget settings, per language): `merchantTextsApply`.
 */

/** The languages the widgets ship texts for. `de` is informal German (du), `de-formal` formal (Sie); `pt` is European Portuguese. */
export const UI_LOCALES = ["en", "de", "de-formal", "fr", "es", "it", "nl", "pt", "pt-BR", "pl", "sv", "da", "ja", "ko", "zh-Hans", "zh-Hant"] as const;
export type UiLocale = (typeof UI_LOCALES)[number];

/** A BCP 47 tag's subtags, lower-cased (`_` read as `-`); [] for anything that is not tag-shaped. */
export function subtags(tag: string | null | undefined): string[] {
  const t = (tag ?? "").trim().replace(/_/g, "-").toLowerCase();
  return /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(t) && t.length <= 35 ? t.split("-") : [];
}

/** Traditional Chinese is meant: script Hant, or a Taiwan / Hong Kong / Macao region without a script. */
export const traditional = (rest: string[]) => rest.includes("hant") || (!rest.includes("hans") && rest.some((s) => s === "tw" || s === "hk" || s === "mo"));

/**
 * The UI language for a page or element language tag: `pt-BR` → `pt-BR`, `pt-AO` → `pt`, `de-AT` → `de`,
 * `de-formal` / `de-AT-formal` → `de-formal`, `zh-TW` / `zh-Hant-HK` → `zh-Hant`, `zh` / `zh-CN` → `zh-Hans`,
 * `nb` → `en` (not shipped), `""` / malformed → `en`.
 */
export function uiLocaleFor(tag: string | null | undefined): UiLocale {
  const [lang, ...rest] = subtags(tag);
  if (!lang) return "en";
  if (lang === "zh") return traditional(rest) ? "zh-Hant" : "zh-Hans";
  if (lang === "de") return rest.includes("formal") ? "de-formal" : "de";
  if (lang === "pt") return rest.includes("br") ? "pt-BR" : "pt";
  return (UI_LOCALES as readonly string[]).includes(lang) ? (lang as UiLocale) : "en";
}

/**
 * Whether the merchant's texts of a widget settings answer apply to an element: the answer's language
 * (`answerLocale`: the language whose texts the server chose for `requestedTag`, `en` when the store has none
 * for it) is the element's language, or both are English. So a merchant's English texts show on English pages
 * (and pages in a language Chorus does not ship, which show English), never mixed into a shipped translation;
 * texts a merchant wrote for a language Chorus does not ship (`ru`) replace the English there.
 */
export function merchantTextsApply(answerLocale: string, requestedTag: string, ui: UiLocale): boolean {
  const answer = subtags(answerLocale)[0] ?? "en";
  if (answer === "en") return ui === "en";
  return answer === (subtags(requestedTag)[0] ?? "en");
}

/** The text group of a text ID: `reviews.writeReview` → `reviews`. */
export const textGroupOf = (id: string): string => id.slice(0, id.indexOf("."));

/**
 * The translation part (`/widgets/i18n/<hash>/<locale>/<part>.json`, widgets/vite.config.ts) that carries text group
 * `group`: the star badge's, the loyalty widget's and the survey's their own (pages that often show only them), every review
 * and question element's one part together (`reviews`), requested once per page: one file compresses to about
 * 60% of the same texts in a file per element (#23 weight, ADR 0014).
 */
export const partOf = (group: string): string => (group === "starRating" || group === "loyalty" || group === "survey" ? group : "reviews");

/**
 * The language and words of the hosted survey page (`/s/{channelSurveyId}`, docs/surveys.md, "Shareable link"): the
 * shopper's language from the link's `?locale=`, else the browser's `Accept-Language` (by preference), else the store's
 * default language (English unless set),
 * resolved to one of the 16 widget languages (server/contract/widget-locales.ts `uiLocaleFor`); the words are the
 * `<chorus-survey>` element's own (server/contract/widget-strings/survey.ts and its translations), so the page
 * without JavaScript and the element it becomes say the same. Pure.
 */
import type { SurveyProblem } from "../contract/survey-form.ts";
import { DEFAULT_TEXTS, type TextId } from "../contract/widget-strings.ts";
import { subtags, uiLocaleFor, type UiLocale } from "../contract/widget-locales.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";

/**
 * The page's language: `locale` (the `?locale=` of the link) when it is a language tag, else the first language of
 * `acceptLanguage` (RFC 9110 section 12.5.4: highest `q` first, `q=0` never) that Chorus ships, else `fallback` (the
 * store's default language for shopper-facing pages, docs/surveys.md "Languages of the hosted pages"; `en` when not given).
 * @returns the widget language and the tag for `<html lang>` (the same: `de-formal` is a valid tag, German to a reader).
 */
export function hostedPageLanguage(locale: string | null | undefined, acceptLanguage: string | null | undefined, fallback: UiLocale = "en"): { ui: UiLocale; lang: string } {
  const pick = (ui: UiLocale) => ({ ui, lang: ui as string });
  if (locale && subtags(locale).length) return pick(uiLocaleFor(locale));
  const ranges = (acceptLanguage ?? "")
    .slice(0, 500)
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(/^\s*q=([\d.]+)\s*$/.exec(params.find((p) => /^\s*q=/.test(p)) ?? "")?.[1] ?? 1);
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((r) => r.q > 0 && subtags(r.tag).length)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const ui = uiLocaleFor(r.tag);
    if (ui !== "en" || subtags(r.tag)[0] === "en") return pick(ui);
  }
  return pick(fallback);
}

/** The text of `id` in `ui` with its `{placeholders}` filled (English when a language lacks it). */
export function hostedText(ui: UiLocale, id: TextId, vars: Record<string, string | number> = {}): string {
  const text = (ui === "en" ? undefined : TRANSLATIONS[ui][id]) ?? (DEFAULT_TEXTS as Record<string, string>)[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The text ID of each problem of a filled survey form (the same sentences `<chorus-survey>` shows). */
export const PROBLEM_TEXT_IDS: Record<SurveyProblem, TextId> = {
  required: "survey.problemRequired",
  other: "survey.problemOther",
  tooLong: "survey.problemTooLong",
  email: "survey.problemEmail",
  date: "survey.problemDate",
  country: "survey.problemCountry",
  zone: "survey.problemZone",
};

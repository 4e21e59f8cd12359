/**
 * Review-text translation (`locale` query of the reviews API, docs/ai.md, Translation): the codes the API accepts and
 * `reviewLocaleFor`, which maps any language tag to one of them or to nothing (the original text). Pure; its own
 * module so that only `<chorus-reviews>` carries the list (not every widget page: issue #23 weight budget).
 */
import { subtags, traditional } from "./widget-locales.ts";

/** Review-translation codes the reviews API accepts as `locale` (lists A and B of docs/api.md, Query parameters and limits). */
export const REVIEW_TEXT_LOCALES_A = ["zh-TW", "da", "nl", "en", "fr", "de-formal", "de-informal", "id", "it", "ja", "ko", "pl", "pt-PT", "ru", "es", "sv", "th", "vi"] as const;
export const REVIEW_TEXT_LOCALES_B = [
  "bg",
  "cs",
  "da",
  "el",
  "es",
  "fi",
  "fr",
  "hi",
  "hr",
  "hu",
  "id",
  "it",
  "ja",
  "ko",
  "lt",
  "ms",
  "nb",
  "nl",
  "pl",
  "pt-br",
  "pt-pt",
  "ro",
  "ru",
  "sk",
  "sl",
  "sr",
  "sv",
  "th",
  "tr",
  "uk",
  "vi",
  "zh-cn",
  "zh-tw",
] as const;
export const REVIEW_TEXT_LOCALES: readonly string[] = [...new Set<string>([...REVIEW_TEXT_LOCALES_A, ...REVIEW_TEXT_LOCALES_B])];

/**
 * The reviews API's `locale` code for `tag` (a widget's `locale` attribute): an accepted code as is (any case),
 * else by language: `de` / `de-AT` → `de-formal` (`de-informal` for `de-informal`), `pt` → `pt-PT`, `pt-BR` → `pt-br`,
 * `zh-Hans` / `zh-CN` → `zh-cn`, `zh-Hant` / `zh-HK` → `zh-TW`, `no` / `nn` → `nb`, `en-GB` → `en`;
 * undefined when the API has no such language (the widget then sends none: reviews in their original text).
 */
export function reviewLocaleFor(tag: string | null | undefined): string | undefined {
  const parts = subtags(tag);
  const [lang, ...rest] = parts;
  if (!lang) return undefined;
  const exact = REVIEW_TEXT_LOCALES.find((code) => code.toLowerCase() === parts.join("-"));
  if (exact) return exact;
  if (lang === "de") return rest.includes("informal") ? "de-informal" : "de-formal";
  if (lang === "pt") return rest.includes("br") ? "pt-br" : "pt-PT";
  if (lang === "zh") return traditional(rest) ? "zh-TW" : "zh-cn";
  if (lang === "no" || lang === "nn") return "nb";
  return REVIEW_TEXT_LOCALES.includes(lang) ? lang : undefined;
}

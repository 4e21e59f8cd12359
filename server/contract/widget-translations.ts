/**
 * The widgets' words in every shipped language but English (whose words are the defaults,
 * server/contract/widget-strings.ts): one file per language under ./widget-translations/, keyed by the same
 * text IDs, with the same `{placeholders}`. Plural phrases carry one text per plural category the language
 * uses (`Intl.PluralRules(locale).resolvedOptions().pluralCategories`: `.one` / `.other` in German, `.one` /
 * `.few` / `.many` / `.other` in Polish, only `.other` in Japanese); widget-translations.test.ts checks all this.
 *
 * Pure data for the server (snippets, tests) and the widget build, which writes each language's texts as a few
 * JSON files (`/widgets/i18n/<hash>/<locale>/<part>.json`, widgets/vite.config.ts; which groups each holds:
 * ./widget-locales.ts `partOf`): a page loads only the parts of its elements in its language
 * (widgets/internal/chorus-element.ts).
 */
import type { UiLocale } from "./widget-locales.ts";
import { textGroupOf } from "./widget-locales.ts";
import de from "./widget-translations/de.ts";
import deFormal from "./widget-translations/de-formal.ts";
import fr from "./widget-translations/fr.ts";
import es from "./widget-translations/es.ts";
import it from "./widget-translations/it.ts";
import nl from "./widget-translations/nl.ts";
import pt from "./widget-translations/pt.ts";
import ptBR from "./widget-translations/pt-BR.ts";
import pl from "./widget-translations/pl.ts";
import sv from "./widget-translations/sv.ts";
import da from "./widget-translations/da.ts";
import ja from "./widget-translations/ja.ts";
import ko from "./widget-translations/ko.ts";
import zhHans from "./widget-translations/zh-Hans.ts";
import zhHant from "./widget-translations/zh-Hant.ts";

/** Every shipped translation by UI language (English is the defaults table). */
export const TRANSLATIONS: Record<Exclude<UiLocale, "en">, Record<string, string>> = {
  de,
  "de-formal": deFormal,
  fr,
  es,
  it,
  nl,
  pt,
  "pt-BR": ptBR,
  pl,
  sv,
  da,
  ja,
  ko,
  "zh-Hans": zhHans,
  "zh-Hant": zhHant,
};

/** The text group of the texts several elements share (request errors, e-mail field), shipped once in each part whose elements show them. */
export const SHARED_GROUP = "common";
/** Text groups whose element never shows a shared text (no request error, no form): their parts leave them out (fewer bytes on a star-badge page). */
export const WITHOUT_SHARED = ["starRating", "summary", "keywords", "carousel"];

/**
 * The translated texts of text group `group` (plus the shared group, unless `WITHOUT_SHARED`) in `locale`:
 * what `/widgets/i18n/<hash>/<locale>/<part>.json` holds. `{}` for English.
 */
export function translationPart(locale: UiLocale, group: string): Record<string, string> {
  if (locale === "en") return {};
  const shared = WITHOUT_SHARED.includes(group) ? "" : SHARED_GROUP;
  return Object.fromEntries(Object.entries(TRANSLATIONS[locale]).filter(([id]) => textGroupOf(id) === group || textGroupOf(id) === shared));
}

/** Every text group with translations (the part files the build writes per language). */
export function textGroups(): string[] {
  return [...new Set(Object.keys(TRANSLATIONS.de).map(textGroupOf))];
}

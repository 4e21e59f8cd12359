/**
 * Every shipped language has every widget text ID with the English placeholders (a text added to
 * server/contract/widget-strings.ts without its translations fails here), plural phrases in exactly the plural
 * categories of the language (Intl.PluralRules); and the language choice / review-translation code rules.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_TEXTS, placeholdersOf } from "./widget-strings.ts";
import { TRANSLATIONS, translationPart, textGroups } from "./widget-translations.ts";
import { UI_LOCALES, merchantTextsApply, uiLocaleFor } from "./widget-locales.ts";
import { reviewLocaleFor } from "./review-locales.ts";
import { LOCALES } from "./storefront.ts";

const english = DEFAULT_TEXTS as Record<string, string>;
/** Plural phrases: IDs of the defaults ending `.one` / `.other`, by their base. */
const pluralBases = new Set(
  Object.keys(english)
    .filter((id) => /\.(one|other)$/.test(id))
    .map((id) => id.replace(/\.(one|other)$/, "")),
);
const englishOf = (id: string) => english[id] ?? english[`${id.replace(/\.(zero|one|two|few|many|other)$/, "")}.other`];

/** The IDs a language must have: every non-plural ID, and each plural base with every category of the language. */
function expectedIds(locale: string): string[] {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const ids = Object.keys(english).filter((id) => !pluralBases.has(id.replace(/\.(one|other)$/, "")));
  for (const base of pluralBases) for (const c of categories) ids.push(`${base}.${c}`);
  return ids.sort();
}

describe("widget translations", () => {
  it("ships every UI language but English (the defaults)", () => {
    expect(Object.keys(TRANSLATIONS).sort()).toEqual(UI_LOCALES.filter((l) => l !== "en").sort());
  });

  for (const [locale, texts] of Object.entries(TRANSLATIONS)) {
    it(`${locale}: every text ID (plural phrases in the language's plural categories), no others`, () => {
      expect(Object.keys(texts).sort()).toEqual(expectedIds(locale));
    });
    it(`${locale}: the English placeholders in every text, nothing empty`, () => {
      for (const [id, text] of Object.entries(texts)) {
        expect(text.trim(), id).not.toBe("");
        expect(placeholdersOf(text).sort(), `${locale} ${id}: ${text}`).toEqual(placeholdersOf(englishOf(id)!).sort());
      }
    });
  }

  it("formal German says Sie, informal du", () => {
    expect(TRANSLATIONS["de-formal"]["reviewForm.rating"]).toBe("Ihre Bewertung (Pflichtfeld)");
    expect(TRANSLATIONS.de["reviewForm.rating"]).toBe("Deine Bewertung (Pflichtfeld)");
    for (const text of Object.values(TRANSLATIONS["de-formal"])) expect(text).not.toMatch(/\b(du|dein|deine|deinen|dich|dir)\b/i);
  });

  it("splits into one part per text group, each with the shared texts", () => {
    expect(textGroups().sort()).toEqual([...new Set(Object.keys(english).map((id) => id.split(".")[0]))].sort());
    const part = translationPart("ja", "starRating");
    expect(part["starRating.count.other"]).toBe("{count}件のレビュー");
    expect(part["common.cancelled"]).toBeUndefined(); // the badge shows no request error
    expect(part["reviews.region"]).toBeUndefined();
    expect(translationPart("ja", "reviews")["common.cancelled"]).toBe("リクエストはキャンセルされました。");
    expect(translationPart("en", "starRating")).toEqual({});
  });
});

describe("UI language choice", () => {
  it.each([
    ["", "en"],
    [null, "en"],
    ["en-GB", "en"],
    ["de", "de"],
    ["de-AT", "de"],
    ["de-CH", "de"],
    ["de-formal", "de-formal"],
    ["de-AT-formal", "de-formal"],
    ["pt-BR", "pt-BR"],
    ["pt_br", "pt-BR"],
    ["pt-PT", "pt"],
    ["pt", "pt"],
    ["fr-CA", "fr"],
    ["zh", "zh-Hans"],
    ["zh-CN", "zh-Hans"],
    ["zh-Hans-SG", "zh-Hans"],
    ["zh-TW", "zh-Hant"],
    ["zh-HK", "zh-Hant"],
    ["zh-Hant", "zh-Hant"],
    ["ja-JP", "ja"],
    ["ko", "ko"],
    ["nb", "en"],
    ["ru", "en"],
    ["not a tag", "en"],
    ["x", "en"],
  ])("%s → %s", (tag, locale) => expect(uiLocaleFor(tag)).toBe(locale));
});

describe("review-translation code", () => {
  it.each([
    ["de", "de-formal"],
    ["de-AT", "de-formal"],
    ["de-formal", "de-formal"],
    ["de-informal", "de-informal"],
    ["DE-FORMAL", "de-formal"],
    ["pt", "pt-PT"],
    ["pt-BR", "pt-br"],
    ["pt-PT", "pt-PT"],
    ["zh-Hans", "zh-cn"],
    ["zh-CN", "zh-cn"],
    ["zh", "zh-cn"],
    ["zh-Hant", "zh-TW"],
    ["zh-HK", "zh-TW"],
    ["en-US", "en"],
    ["fr-CA", "fr"],
    ["no", "nb"],
    ["ja", "ja"],
    ["xx", undefined],
    ["", undefined],
    ["de formal", undefined],
    ["tlh", undefined],
  ])("%s → %s", (tag, code) => expect(reviewLocaleFor(tag)).toBe(code));

  it("only ever gives a code the reviews API accepts, for every UI language and its regions", () => {
    for (const tag of [...UI_LOCALES, "de-CH", "pt-AO", "zh-MO", "es-MX", "sv-FI", "nl-BE", "fr-CH", "it-CH", "en-AU"]) {
      const code = reviewLocaleFor(tag);
      expect(code, tag).toBeDefined();
      expect(LOCALES, tag).toContain(code);
    }
  });
});

describe("merchant texts", () => {
  it("apply in their own language; English ones only where the widgets speak English", () => {
    expect(merchantTextsApply("en", "", "en")).toBe(true);
    expect(merchantTextsApply("en", "en-GB", "en")).toBe(true);
    expect(merchantTextsApply("en", "ru", "en")).toBe(true); // a language not shipped shows English
    expect(merchantTextsApply("en", "de", "de")).toBe(false); // never mixed into the German translation
    expect(merchantTextsApply("de", "de-AT", "de")).toBe(true);
    expect(merchantTextsApply("de", "de-formal", "de-formal")).toBe(true);
    expect(merchantTextsApply("ru", "ru", "en")).toBe(true); // the merchant's own Russian
    expect(merchantTextsApply("fr", "de", "de")).toBe(false);
  });
});

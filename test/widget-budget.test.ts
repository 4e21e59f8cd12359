/**
 * Size budgets, enforced on the built bundle (`npm run build` first; `npm test` does). ADR 0014, issue #23
 * ("all widgets (one language) ≤ 35 KB gzip, the star badge page ≤ 12 KB gzip"), one language counted as what a
 * page in that language loads: in English the widget files (English texts are in the code), in any other language
 * the files plus that language's translation parts.
 * - The star badge page (loader, shared chunk, its module, and its part outside English) ≤ 12 KB gzip in English
 *   and in every shipped language: #23's target.
 * - All widgets in one language ≤ ALL_WIDGETS_CEILING (39.75 KB in English, 42.25 KB in the other languages): #23's
 *   35 KB is not met with the shopper features #23 added (ADR 0014 gives the figures); the ceilings are today's
 *   sizes with a small margin, so nothing grows unnoticed.
 * - Each language's translation parts are the ones `partOf` names, carry no text IDs for the tables' texts and
 *   read back to exactly the shipped translation; each element's `static defaults` is the table its part is ordered by.
 * - Per-element code is loaded only when the element is on the page (the loader imports nothing statically).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesForTags, languageTotals, TARGET, translatedLocales, translationFiles, WIDGETS_DIR } from "../bench/widget-sizes.ts";
import { partOf, UI_LOCALES, type UiLocale } from "../server/contract/widget-locales.ts";
import { SHARED_GROUP, textGroups, translationPart } from "../server/contract/widget-translations.ts";
import { COMMON_TEXTS, TEXT_GROUPS } from "../server/contract/widget-strings.ts";
import { partTexts } from "../widgets/internal/chorus-element.ts";
import { WIDGET_TAGS, widgetModulePath } from "../widgets/internal/registry.ts";
import { PROJECT_ROOT } from "../server/config.ts";

/**
 * ADR 0014: all widgets in one language, gzip bytes — today's size with a small margin (40,294 in English, 42,637–43,023
 * in the other languages when set); issue #23's target, 35 KB (35,840), is not met.
 */
const ALL_WIDGETS_CEILING = { english: 39.75 * 1024, otherLanguages: 42.25 * 1024 };

describe("widget weight budgets", () => {
  it("a page with only the star-rating badge loads at most 12 KB gzip, in English and with its part in every shipped language", () => {
    expect(filesForTags(["chorus-star-rating"])).toContain("chorus-star-rating.js");
    for (const locale of translatedLocales()) expect(translationFiles(locale, ["starRating"]), locale).toEqual([`i18n/${locale}/starRating.json`]);
    const totals = languageTotals();
    expect(totals.map((t) => t.locale)).toEqual(["en", ...UI_LOCALES.filter((l) => l !== "en").sort()]);
    for (const { locale, starBadgePage } of totals) expect(starBadgePage, locale).toBeLessThanOrEqual(TARGET.starBadgePage);
  });

  it("all widgets in one language stay under the ceiling of ADR 0014 (English, and each language with all its parts)", () => {
    for (const locale of translatedLocales()) expect(translationFiles(locale).length, locale).toBeGreaterThanOrEqual(3);
    for (const { locale, allWidgets } of languageTotals()) {
      expect(allWidgets, locale).toBeLessThanOrEqual(locale === "en" ? ALL_WIDGETS_CEILING.english : ALL_WIDGETS_CEILING.otherLanguages);
    }
  });

  it("translation parts carry no text IDs and read back to the shipped translation", () => {
    const groups = textGroups().filter((g) => g !== SHARED_GROUP);
    for (const locale of translatedLocales()) {
      expect(translationFiles(locale).sort(), locale).toEqual([...new Set(groups.map(partOf))].sort().map((p) => `i18n/${locale}/${p}.json`));
      for (const file of translationFiles(locale)) {
        const name = file.slice(file.lastIndexOf("/") + 1, -".json".length);
        const part: unknown = JSON.parse(readFileSync(join(WIDGETS_DIR, file), "utf8"));
        // The tables' texts by position (only plural forms English lacks go by ID, in a last object).
        for (const values of Array.isArray(part) ? [part] : Object.values(part as object)) expect(Array.isArray(values), file).toBe(true);
        for (const group of groups.filter((g) => partOf(g) === name)) {
          const table = TEXT_GROUPS.find((g) => g.texts !== COMMON_TEXTS && Object.keys(g.texts)[0]!.startsWith(`${group}.`))!.texts;
          const common = Array.isArray(part) ? {} : translationPart(locale as UiLocale, SHARED_GROUP);
          expect(partTexts(part, group, Object.keys(table), Object.keys(COMMON_TEXTS)), `${file} ${group}`).toEqual({ ...translationPart(locale as UiLocale, group), ...common });
        }
      }
    }
  });

  it("every element's English defaults are one whole table of TEXT_GROUPS, the order its parts are written in", async () => {
    const strings: Record<string, unknown> = await import("../server/contract/widget-strings.ts");
    for (const tag of WIDGET_TAGS) {
      const source = readFileSync(join(PROJECT_ROOT, "widgets", widgetModulePath(tag)), "utf8");
      const name = /static defaults = (\w+);/.exec(source)?.[1];
      expect(name, tag).toMatch(/^[A-Z_]+_TEXTS$/);
      expect(TEXT_GROUPS.some((g) => g.texts === strings[name!]), tag).toBe(true);
    }
  });

  it("the loader has no static imports: element code loads only when its element is present", () => {
    const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
    expect(loader).not.toMatch(/(^|[;}\s])import\s*[\w{*"']/);
    expect(loader).not.toMatch(/(^|[;}\s])export\s/);
    expect(filesForTags([])).toEqual(["chorus.js"]);
  });
});

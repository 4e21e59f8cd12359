/**
 * Size budgets, enforced on the built bundle (`npm run build` first; `npm test` does). Issue #37, ADR 0018: brotli, as
 * pages load the static files: the loader, each element's module and the shared chunks it imports (each once), and on a
 * page in another language each element's translation part (bench/widget-sizes.ts `pageLoad`).
 * - A product page (badge, summary, keywords, media, reviews, questions) ≤ 30 KB, all widgets (every element but the
 *   survey) ≤ 44 KB (docs/performance.md, Widget weight, says why it grew), the star badge page ≤ 12 KB, a survey page (`<chorus-survey>` alone, docs/surveys.md) ≤ 18 KB: in
 *   English and in every shipped language.
 * - Each language's translation parts are the ones `partOf` names, carry no text IDs for the tables' texts and read
 *   back to the shipped translation over English; each element's `static defaults` is the table its part is ordered by.
 * - Per-element code is loaded only when the element is on the page: the loader imports nothing statically, and an
 *   element's module and the chunks it imports hold nothing of another element's code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { i18nDir, languageTotals, loaderTable, pageLoad, PRODUCT_PAGE_TAGS, TARGET, translatedLocales, translationFiles, WIDGETS_DIR } from "../bench/widget-sizes.ts";
import { partOf, UI_LOCALES, type UiLocale } from "../server/contract/widget-locales.ts";
import { SHARED_GROUP, textGroups, translationPart } from "../server/contract/widget-translations.ts";
import { COMMON_TEXTS, TEXT_GROUPS } from "../server/contract/widget-strings.ts";
import { partTexts } from "../widgets/internal/chorus-element.ts";
import { WIDGET_TAGS, widgetModulePath } from "../widgets/internal/registry.ts";
import { PROJECT_ROOT } from "../server/config.ts";

describe("widget weight budgets (brotli)", () => {
  const totals = languageTotals();
  console.log(totals.map((t) => `${t.locale}: product page ${t.productPage} B, all widgets ${t.allWidgets} B, star badge page ${t.starBadgePage} B, survey page ${t.surveyPage} B brotli`).join("\n"));

  it("a page with only the star-rating badge loads the loader, its module and the shared chunk: at most 12 KB, in English and in every shipped language", () => {
    const { modules, chunks } = loaderTable();
    expect(pageLoad(["chorus-star-rating"]).files.map((f) => f.file)).toEqual(["chorus.js", chunks[0], modules["chorus-star-rating"]![0]]);
    expect(pageLoad(["chorus-star-rating"], "de").files.map((f) => f.file)).toEqual(["chorus.js", chunks[0], modules["chorus-star-rating"]![0], `${i18nDir()}/de/starRating.json`]);
    expect(totals.map((t) => t.locale)).toEqual(["en", ...UI_LOCALES.filter((l) => l !== "en").sort()]);
    for (const { locale, starBadgePage } of totals) expect(starBadgePage, locale).toBeLessThanOrEqual(TARGET.starBadgePage);
  });

  it("a product page's widgets load at most 30 KB, in English and in every shipped language", () => {
    expect(pageLoad(PRODUCT_PAGE_TAGS).files.length).toBe(1 + 2 + PRODUCT_PAGE_TAGS.length);
    for (const { locale, productPage } of totals) expect(productPage, locale).toBeLessThanOrEqual(TARGET.productPage);
  });

  it("all widgets load at most 44 KB, in English and in every shipped language", () => {
    for (const { locale, allWidgets } of totals) expect(allWidgets, locale).toBeLessThanOrEqual(TARGET.allWidgets);
  });

  it("a survey page (the loader, the survey element and the shared chunk) loads at most 18 KB, in English and in every shipped language", () => {
    for (const { locale, surveyPage } of totals) expect(surveyPage, locale).toBeLessThanOrEqual(TARGET.surveyPage);
  });

  it("translation parts carry no text IDs and read back to the shipped translation", () => {
    const groups = textGroups().filter((g) => g !== SHARED_GROUP);
    for (const locale of translatedLocales()) {
      expect(translationFiles(locale).sort(), locale).toEqual([...new Set(groups.map(partOf))].sort().map((p) => `${i18nDir()}/${locale}/${p}.json`));
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
      expect(
        TEXT_GROUPS.some((g) => g.texts === strings[name!]),
        tag,
      ).toBe(true);
    }
  });

  it("the loader has no static imports, and an element's files hold only its own code", () => {
    const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
    expect(loader).not.toMatch(/(^|[;}\s])import\s*[\w{*"']/);
    expect(loader).not.toMatch(/(^|[;}\s])export\s/);
    const { modules, chunks } = loaderTable();
    const code = (file: string) => readFileSync(join(WIDGETS_DIR, file), "utf8");
    // An element's code defines its tag with the `chorusElement` class decorator: `[<decorator>("<tag>")]` once built.
    const defines = (tag: string) => new RegExp(`\\[\\w+\\("${tag}"\\)\\]`);
    for (const tag of WIDGET_TAGS) {
      const [file, ...shared] = modules[tag]!;
      expect(code(file), tag).toMatch(defines(tag));
      for (const f of [file, ...shared.map((i) => chunks[i]!)]) {
        for (const other of WIDGET_TAGS.filter((o) => o !== tag)) expect(code(f), `${f} (${tag}) holds ${other}`).not.toMatch(defines(other));
      }
    }
  });
});

/**
 * Size budgets, enforced on the built bundle (`npm run build` first; `npm test` does). Issue #23 ("all widgets (one
 * language) ≤ 35 KB gzip, the star badge page ≤ 12 KB gzip"), ADR 0016: one language counted as what a page whose
 * `<html lang>` is that language loads, the loader and the combined modules it requests (their texts in that language).
 * - The star badge page (the loader and one combined module) ≤ 12 KB gzip in English and in every shipped language.
 * - All widgets (every element, the review form opened later: bench/widget-sizes.ts `allWidgetsRequests`) ≤ 35 KB
 *   gzip in English and in every shipped language.
 * - Each language's translation parts (for elements in another language than their page's) are the ones `partOf`
 *   names, carry no text IDs for the tables' texts and read back to the shipped translation over English; each
 *   element's `static defaults` is the table its part is ordered by.
 * - Per-element code is loaded only when the element is on the page: the loader imports nothing statically, and a
 *   combined module holds the code of the elements it names and nothing of the others.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { comboManifest, languageTotals, pageLoad, TARGET, translatedLocales, translationFiles, WIDGETS_DIR } from "../bench/widget-sizes.ts";
import { partOf, UI_LOCALES, type UiLocale } from "../server/contract/widget-locales.ts";
import { SHARED_GROUP, textGroups, translationPart } from "../server/contract/widget-translations.ts";
import { COMMON_TEXTS, TEXT_GROUPS } from "../server/contract/widget-strings.ts";
import { partTexts } from "../widgets/internal/chorus-element.ts";
import { WIDGET_TAGS, widgetModulePath } from "../widgets/internal/registry.ts";
import { PROJECT_ROOT } from "../server/config.ts";
import { comboSource } from "../server/widgets/combo.ts";

describe("widget weight budgets", () => {
  it("a page with only the star-rating badge loads at most 12 KB gzip, in English and in every shipped language", () => {
    expect(pageLoad([["chorus-star-rating"]]).files.map((f) => f.file)).toEqual(["chorus.js", `chunks/${comboManifest().version}.star-rating.js`]);
    const totals = languageTotals();
    expect(totals.map((t) => t.locale)).toEqual(["en", ...UI_LOCALES.filter((l) => l !== "en").sort()]);
    for (const { locale, starBadgePage } of totals) expect(starBadgePage, locale).toBeLessThanOrEqual(TARGET.starBadgePage);
  });

  it("all widgets in one language load at most 35 KB gzip (English, and a page in each shipped language)", () => {
    for (const { locale, allWidgets } of languageTotals()) expect(allWidgets, locale).toBeLessThanOrEqual(TARGET.allWidgets);
  });

  it("translation parts carry no text IDs and read back to the shipped translation over English (English parts to the English tables)", () => {
    const groups = textGroups().filter((g) => g !== SHARED_GROUP);
    for (const locale of ["en", ...translatedLocales()]) {
      expect(translationFiles(locale).sort(), locale).toEqual([...new Set(groups.map(partOf))].sort().map((p) => `i18n/${locale}/${p}.json`));
      for (const file of translationFiles(locale)) {
        const name = file.slice(file.lastIndexOf("/") + 1, -".json".length);
        const part: unknown = JSON.parse(readFileSync(join(WIDGETS_DIR, file), "utf8"));
        // The tables' texts by position (only plural forms English lacks go by ID, in a last object).
        for (const values of Array.isArray(part) ? [part] : Object.values(part as object)) expect(Array.isArray(values), file).toBe(true);
        for (const group of groups.filter((g) => partOf(g) === name)) {
          const table = TEXT_GROUPS.find((g) => g.texts !== COMMON_TEXTS && Object.keys(g.texts)[0]!.startsWith(`${group}.`))!.texts;
          const common = Array.isArray(part) ? {} : { ...COMMON_TEXTS, ...translationPart(locale as UiLocale, SHARED_GROUP) };
          expect(partTexts(part, group, Object.keys(table), Object.keys(COMMON_TEXTS)), `${file} ${group}`).toEqual({ ...table, ...translationPart(locale as UiLocale, group), ...common });
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

  it("the loader has no static imports, and a combined module holds only the elements it names", () => {
    const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
    expect(loader).not.toMatch(/(^|[;}\s])import\s*[\w{*"']/);
    expect(loader).not.toMatch(/(^|[;}\s])export\s/);
    const manifest = comboManifest();
    expect(loader).toContain(`chunks/${manifest.version}.`);
    // 200 characters of each element module's code after its text table (which a combo fills in).
    const body = (tag: string) => {
      const code = manifest.modules[manifest.tags[tag]!]!.body;
      return code.slice(code.lastIndexOf("\u0000") + 1).slice(0, 200);
    };
    for (const tag of WIDGET_TAGS) {
      const code = comboSource(manifest, `${manifest.version}.${tag.slice("chorus-".length)}.js`)!;
      for (const other of WIDGET_TAGS) expect(code.includes(body(other)), `${tag} combo holds ${other}`).toBe(other === tag);
    }
  });
});

describe("combining built modules (widgets/vite.config.ts analyse)", () => {
  it("finds an exported top-level let/var that is assigned later (the build refuses to combine it), not consts or inner variables", async () => {
    const { analyse } = await import("../widgets/vite.config.ts");
    expect([...analyse("let n=0;function bump(){n++}export{n};").reassigned]).toEqual(["n"]);
    expect([...analyse("var v=1;const set=x=>{v=x};export{v,set};").reassigned]).toEqual(["v"]);
    expect([...analyse("const c=1;function f(){let c=0;c++}export{c,f};").reassigned]).toEqual([]);
    expect([...analyse("let once=1;export{once};").reassigned]).toEqual([]);
  });

  it("finds each text table by its IDs in order, and nothing else", async () => {
    const { analyse } = await import("../widgets/vite.config.ts");
    const table = JSON.stringify(TEXT_GROUPS[0]!.texts);
    const code = `const a=${table},b={"x.y":"z"};export{a,b};`;
    const found = analyse(code).tables;
    expect(found).toHaveLength(1);
    expect(code.slice(found[0]![0], found[0]![1])).toBe(table);
  });
});

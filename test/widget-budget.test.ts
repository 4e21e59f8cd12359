/**
 * Size budgets (issue 8), enforced on the built bundle (`npm run build` first; `npm test` does):
 * all widgets together ≤ 35 KB gzip; a page with only the star-rating badge ≤ 12 KB gzip; both also in every
 * shipped language, with the translation parts that language loads (issue #23 item 3: only the language shown
 * costs bytes); per-element code is loaded only when the element is on the page (the loader imports nothing statically).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesForTags, total, translatedLocales, translationFiles, widgetFiles, WIDGETS_DIR } from "../bench/widget-sizes.ts";
import { UI_LOCALES } from "../server/contract/widget-locales.ts";

const KB = 1024;

describe("widget weight budgets", () => {
  it("all widgets together are at most 35 KB gzip", () => {
    expect(total(widgetFiles()).gzip).toBeLessThanOrEqual(35 * KB);
  });

  it("a page with only the star-rating badge loads at most 12 KB gzip", () => {
    const files = filesForTags(["chorus-star-rating"]);
    expect(files).toContain("chorus-star-rating.js");
    expect(total(files).gzip).toBeLessThanOrEqual(12 * KB);
  });

  it("in every shipped language: all widgets with all that language's texts ≤ 35 KB gzip, the star badge page with its texts ≤ 12 KB gzip", () => {
    expect(translatedLocales()).toEqual(UI_LOCALES.filter((l) => l !== "en").sort());
    const code = widgetFiles();
    const badge = filesForTags(["chorus-star-rating"]);
    for (const locale of translatedLocales()) {
      expect(translationFiles(locale).length, locale).toBeGreaterThanOrEqual(8);
      expect(total([...code, ...translationFiles(locale)]).gzip, locale).toBeLessThanOrEqual(35 * KB);
      expect(translationFiles(locale, ["starRating"]), locale).toEqual([`i18n/${locale}/starRating.json`]);
      expect(total([...badge, ...translationFiles(locale, ["starRating"])]).gzip, locale).toBeLessThanOrEqual(12 * KB);
    }
  });

  it("the loader has no static imports: element code loads only when its element is present", () => {
    const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
    expect(loader).not.toMatch(/(^|[;}\s])import\s*[\w{*"']/);
    expect(loader).not.toMatch(/(^|[;}\s])export\s/);
    expect(filesForTags([])).toEqual(["chorus.js"]);
  });
});

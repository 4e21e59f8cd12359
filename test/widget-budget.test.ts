/**
 * Size budgets, enforced on the built bundle (`npm run build` first; `npm test` does). ADR 0012: today's sizes
 * with a small margin, so nothing grows unnoticed (issue 8's 35 KB / 12 KB target is open again in #23):
 * all widgets together ≤ 37.5 KB gzip in English, ≤ 42.5 KB with one language's translation parts (which
 * load only where their element is shown); a page with only the star-rating badge ≤ 13.5 KB gzip in English
 * and in every shipped language; per-element code is loaded only when the element is on the page (the loader
 * imports nothing statically).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesForTags, total, translatedLocales, translationFiles, widgetFiles, WIDGETS_DIR } from "../bench/widget-sizes.ts";
import { UI_LOCALES } from "../server/contract/widget-locales.ts";

const KB = 1024;
/** ADR 0012. */
const BUDGET = { allWidgets: 37.5 * KB, allWidgetsWithLanguage: 42.5 * KB, starBadgePage: 13.5 * KB };

describe("widget weight budgets", () => {
  it("all widgets together are at most 37.5 KB gzip", () => {
    expect(total(widgetFiles()).gzip).toBeLessThanOrEqual(BUDGET.allWidgets);
  });

  it("a page with only the star-rating badge loads at most 13.5 KB gzip", () => {
    const files = filesForTags(["chorus-star-rating"]);
    expect(files).toContain("chorus-star-rating.js");
    expect(total(files).gzip).toBeLessThanOrEqual(BUDGET.starBadgePage);
  });

  it("in every shipped language: all widgets with all that language's texts ≤ 42.5 KB gzip, the star badge page with its texts ≤ 13.5 KB gzip", () => {
    expect(translatedLocales()).toEqual(UI_LOCALES.filter((l) => l !== "en").sort());
    const code = widgetFiles();
    const badge = filesForTags(["chorus-star-rating"]);
    for (const locale of translatedLocales()) {
      expect(translationFiles(locale).length, locale).toBeGreaterThanOrEqual(8);
      expect(total([...code, ...translationFiles(locale)]).gzip, locale).toBeLessThanOrEqual(BUDGET.allWidgetsWithLanguage);
      expect(translationFiles(locale, ["starRating"]), locale).toEqual([`i18n/${locale}/starRating.json`]);
      expect(total([...badge, ...translationFiles(locale, ["starRating"])]).gzip, locale).toBeLessThanOrEqual(BUDGET.starBadgePage);
    }
  });

  it("the loader has no static imports: element code loads only when its element is present", () => {
    const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
    expect(loader).not.toMatch(/(^|[;}\s])import\s*[\w{*"']/);
    expect(loader).not.toMatch(/(^|[;}\s])export\s/);
    expect(filesForTags([])).toEqual(["chorus.js"]);
  });
});

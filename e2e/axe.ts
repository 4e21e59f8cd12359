/**
 * Accessibility assertion for every browser test: an axe-core scan (WCAG 2.x A/AA rules) of the
 * current page, including open shadow roots, that must find no violations.
 */
import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { expect, type Page } from "@playwright/test";

/** The axe source AxeBuilder is given once axe is in the page: a script that does nothing (it is not put in again). */
const ALREADY_IN_PAGE = "void 0";

/**
 * Whether axe running in the page reaches every frame of it: each frame is of its parent's origin (none of another
 * origin, none sandboxed into an origin of its own).
 */
async function framesOfOneOrigin(page: Page): Promise<boolean> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const sameOrigin = await frame
      .evaluate(() => {
        try {
          return window.parent.document !== null;
        } catch {
          return false;
        }
      })
      .catch(() => false);
    if (!sameOrigin) return false;
  }
  return true;
}

/**
 * Scan `page` (optionally only `include` selectors) and fail listing every violation.
 *
 * When every frame is of the page's origin, axe.run scans in the page itself (AxeBuilder's legacy mode), with axe
 * put into each document once and reused by later scans of it. AxeBuilder's default runs axe in each frame and merges
 * the results in a new blank page, and puts axe's 650 KB script into the page again on every scan (about 0.2 s of
 * compiling each time): needed to reach frames of another origin, so such pages keep it; elsewhere it costs 2-3 times
 * the CPU of the scan itself (docs/performance.md "The test loop").
 */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  const inPage = await framesOfOneOrigin(page);
  if (inPage) {
    for (const frame of page.frames()) if (!(await frame.evaluate("typeof window.axe?.run === 'function'"))) await frame.evaluate(axe.source);
  }
  // Only violations are read: axe then skips collecting the details of every passing and inapplicable node. (`options`
  // replaces the run options, so it comes before `withTags`.)
  let builder = new AxeBuilder(inPage ? { page, axeSource: ALREADY_IN_PAGE } : { page }).options({ resultTypes: ["violations"] }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (inPage) builder = builder.setLegacyMode();
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(summary, "axe violations").toEqual([]);
}

/** The demo store's subscriber ID (fixed by the developers' guide). */
export const DEMO_STORE_ID = "7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6";

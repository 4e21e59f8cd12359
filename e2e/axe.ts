/**
 * Accessibility assertion for every browser test: an axe-core scan (WCAG 2.x A/AA rules) of the
 * current page, including open shadow roots, that must find no violations.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Scan `page` (optionally only `include` selectors) and fail listing every violation. */
export async function expectNoAxeViolations(page: Page, include?: string): Promise<void> {
  // Only violations are read: axe then skips collecting the details of every passing and inapplicable node. (`options`
  // replaces the run options, so it comes before `withTags`.)
  let builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(summary, "axe violations").toEqual([]);
}

/** The demo store's subscriber ID (fixed by the developers' guide). */
export const DEMO_STORE_ID = "7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6";

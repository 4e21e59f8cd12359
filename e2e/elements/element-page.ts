/**
 * One page per element test file (e2e/elements/<tag>.spec.ts): a page of the Chorus origin, served through
 * Playwright routing, that holds the real widget script (/widgets/chorus.js, the loader of docs/widgets.md)
 * and the markup under test, over the demo store's real data seeded by playwright.config.ts.
 */
import { expect, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "../axe.ts";

export { DEMO_STORE_ID };

/** The demo product with reviews, photos, a summary, topics and questions. */
export const PRODUCT = "shopify-1078";

/** Options of `openElementPage`: the page's `lang` and extra CSS (e.g. a background). */
export type PageOptions = { lang?: string; css?: string };

/**
 * Serve `body` (inside `<main>` under an `<h1>`) at `/e2e/element-page` on the Chorus origin with the
 * widget script, open it, and resolve once every `chorus-*` element in it is defined and out of its
 * `state="loading"` (docs/widgets.md, Reserved space: the element's `state` attribute).
 */
export async function openElementPage(page: Page, body: string, options: PageOptions = {}): Promise<void> {
  const html = `<!doctype html><html lang="${options.lang ?? "en"}"><head><meta charset="utf-8"><title>Element test page</title>
<style>body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; background: #fff; color: #111; } ${options.css ?? ""}</style>
<script async src="/widgets/chorus.js"></script></head><body><main><h1>A product</h1>${body}</main></body></html>`;
  await page.route("**/e2e/element-page", (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await page.goto("/e2e/element-page");
  await waitForElements(page);
}

/** Resolve once every `chorus-*` element on the page is defined, has rendered and is not loading. */
export async function waitForElements(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          [...document.querySelectorAll("*")]
            .filter((e) => e.localName.startsWith("chorus-"))
            .filter((e) => !customElements.get(e.localName) || (e as unknown as { hasUpdated?: boolean }).hasUpdated !== true || e.getAttribute("state") === "loading")
            .map((e) => e.localName),
        ),
      { timeout: 30_000 },
    )
    .toEqual([]);
}

/** The axe scan (WCAG 2.1 A/AA, shadow roots included) of `selector` alone: no violations. */
export async function expectElementAccessible(page: Page, selector: string): Promise<void> {
  await expect(page.locator(selector).first()).toBeVisible();
  await expectNoAxeViolations(page, selector);
}

/**
 * Wait (up to 150 s) until the server's AI worker has written the demo product's summary and topics, which it
 * does shortly after the demo import (docs/ai.md): the summary and keywords elements render nothing before.
 */
export async function waitForAiContent(baseURL: string): Promise<void> {
  const scope = `${baseURL}/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}`;
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) {
    const [summary, keywords] = await Promise.all([fetch(`${scope}/reviews_summary`), fetch(`${scope}/reviews_keywords`)].map(async (r) => Object.keys(await (await r).json()).length));
    if (summary && keywords) return;
  }
}

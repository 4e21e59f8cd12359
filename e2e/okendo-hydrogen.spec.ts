/**
 * Okendo's Hydrogen components against Chorus (issue #37 item 6, docs/okendo.md "Hydrogen") in Chromium: the published
 * package `@okendo/shopify-hydrogen` 2.6.2 (a devDependency, unchanged; its peers are Hydrogen 2025.1 and Remix's
 * react-router 6), bundled with esbuild from e2e/okendo/hydrogen-app.mjs. The spec server-renders its
 * `OkendoProvider`, `OkendoStarRating` (with the product's Chorus star-rating snippet as the metafield),
 * `OkendoReviews` and `OkendoReviewsCarousel` with React's `renderToString` (the provider's data from the package's
 * own `getOkendoProviderData`, `apiDomain` = Chorus's host + `/v1`) and serves the page from a shop origin of its own;
 * the page hydrates it (e2e/okendo/hydrogen-entry.mjs). The merchant's Chorus host is `chorus.test` (the package
 * always speaks https): Chromium's requests to it are routed to this server, and so are the server render's.
 * Checked: the settings fetch answers 200 in Chromium, the provider injects `okendo-reviews.js` from `cdnDomain`,
 * the three mounts become Chorus elements showing the demo product's real reviews (the API's average, count and
 * first page) and the store's carousel, no console error (a hydration mismatch would be one), axe clean.
 */
import { expect, test } from "@playwright/test";
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ReviewAggregateResponse } from "../server/contract/storefront.ts";
import { formatRating } from "../widgets/internal/rating.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { PRODUCT, waitForElements } from "./elements/element-page.ts";
import { startShopOrigin, type ShopOrigin } from "./shop-origin.ts";

/** The merchant's Chorus host as the package sees it (`https://` + this), routed to the e2e server. */
const CHORUS_HOST = "chorus.test";
const PRODUCT_GID = `gid://shopify/Product/${PRODUCT.replace("shopify-", "")}`;

type AppModule = {
  render(props: Record<string, unknown>): string;
  providerData(subscriberId: string, apiDomain: string): Promise<Record<string, unknown> | null>;
};

let shop: ShopOrigin;
let dir: string;
let app: AppModule;
let client = "";

const esbuildOptions = { bundle: true, logLevel: "silent", define: { "process.env.NODE_ENV": '"production"' } } as const;

test.beforeAll(async () => {
  shop = await startShopOrigin();
  dir = mkdtempSync(join(tmpdir(), "chorus-hydrogen-"));
  // The server side: one ES module with React, react-dom/server and the package (one copy of React).
  await build({
    ...esbuildOptions,
    entryPoints: [join(process.cwd(), "e2e/okendo/hydrogen-app.mjs")],
    platform: "node",
    format: "esm",
    outfile: join(dir, "app.mjs"),
    // react-dom/server (CommonJS) requires Node's built-ins.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  app = (await import(pathToFileURL(join(dir, "app.mjs")).href)) as AppModule;
  const out = await build({ ...esbuildOptions, entryPoints: [join(process.cwd(), "e2e/okendo/hydrogen-entry.mjs")], platform: "browser", format: "iife", target: "es2020", write: false });
  client = out.outputFiles[0]!.text;
});

test.afterAll(async () => {
  await shop.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Run `work` with Node's fetch sending `https://chorus.test/...` to the e2e server (the server render's requests). */
async function withChorusHost<T>(baseURL: string, work: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => original(String(input instanceof Request ? input.url : input).replace(`https://${CHORUS_HOST}`, baseURL), init);
  try {
    return await work();
  } finally {
    globalThis.fetch = original;
  }
}

test("Okendo's Hydrogen components, server-rendered and hydrated, show Chorus's reviews of the demo product", async ({ page, baseURL, request }) => {
  test.setTimeout(180_000); // two esbuild bundles' worth of page, a whole page's axe scan
  // The server render, as a Hydrogen loader and route would do it.
  const okendoProviderData = await withChorusHost(baseURL!, () => app.providerData(DEMO_STORE_ID, `${CHORUS_HOST}/v1`));
  expect(okendoProviderData, "getOkendoProviderData read the settings").toMatchObject({ reviewsHeaderConfig: { subscriberId: DEMO_STORE_ID } });
  const snippet = await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/snippets/star-rating`);
  expect(snippet.status()).toBe(200);
  const props = { cdnDomain: CHORUS_HOST, productId: PRODUCT_GID, productTitle: "A demo product", starRatingSnippet: await snippet.text() };
  const html = app.render({ ...props, okendoProviderData });
  expect(html).toContain('<script id="oke-reviews-settings" type="application/json">');
  expect(html).toContain('<style id="oke-css-vars">');
  expect(html).toContain(`data-oke-reviews-product-id="${PRODUCT}"`);
  const json = JSON.stringify({ subscriberId: DEMO_STORE_ID, apiDomain: `${CHORUS_HOST}/v1`, ...props }).replace(/</g, "\\u003c");
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A Hydrogen storefront</title><link rel="icon" href="data:,"></head>
    <body><div id="root">${html}</div><script>window.__hydrogenTest = ${json};</script><script>${client.replace(/<\/script/gi, "<\\/script")}</script></body></html>`;

  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.route(`https://${CHORUS_HOST}/**`, async (route) => {
    const response = await route.fetch({ url: route.request().url().replace(`https://${CHORUS_HOST}`, baseURL!) });
    await route.fulfill({ response });
  });
  const settings = page.waitForResponse(`https://${CHORUS_HOST}/v1/stores/${DEMO_STORE_ID}/widget_plus_settings`);
  const loader = page.waitForResponse(`https://${CHORUS_HOST}/reviews-widget-plus/js/okendo-reviews.js`);
  await page.goto(shop.url("/products/a-demo-product"));

  // The provider's settings fetch, from the shop's origin, and the loader it injects.
  expect((await settings).status()).toBe(200);
  expect((await loader).status()).toBe(200);
  await expect(page.locator(`head script[src="https://${CHORUS_HOST}/reviews-widget-plus/js/okendo-reviews.js"]`)).toHaveCount(1);
  expect(await page.evaluate(() => typeof (window as unknown as { okeWidgetApi?: { initWidget?: unknown } }).okeWidgetApi?.initWidget)).toBe("function");

  // The mounts, upgraded: the star rating keeps its server-rendered snippet; the reviews and the carousel are created.
  await waitForElements(page);
  const { reviewAggregate } = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/review_aggregate`)).json()) as ReviewAggregateResponse;
  const badge = page.locator(`[data-oke-star-rating] > chorus-star-rating[product-id="${PRODUCT}"]`);
  await expect(badge).toHaveAttribute("server-rendered", "");
  await expect(badge.getByRole("img")).toHaveAccessibleName(`Rated ${formatRating(reviewAggregate.averageRating)} out of 5, ${reviewAggregate.reviewCount.toLocaleString("en")} reviews`);
  const reviews = page.locator(`[data-oke-widget] > chorus-reviews[store-id="${DEMO_STORE_ID}"][product-id="${PRODUCT}"]`);
  const firstPage = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/reviews?limit=3&orderBy=date%20desc`)).json()) as { reviews: { reviewId: string; title?: string }[] };
  expect(firstPage.reviews.length).toBe(3);
  for (const review of firstPage.reviews) await expect(reviews.locator(`article[data-review-id="${review.reviewId}"]`)).toBeVisible();
  const carousel = page.locator(`[data-oke-carousel] > chorus-reviews-carousel[store-id="${DEMO_STORE_ID}"]`);
  expect((await carousel.getAttribute("product-id")) ?? "", "the whole store's carousel").toBe("");
  await expect(carousel.locator("[part=status]")).toHaveText(/^1 of \d+$/);

  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});

/**
 * Layout shift of a merchant's page on another origin with the script-tag widgets (issue #37 item 2), in
 * Chromium against the seeded demo store, for a product with reviews: the README's snippet (script tag, the
 * reservation `<style>`, `<chorus-star-rating>` and `<chorus-reviews>`, then a paragraph) must stay at
 * CLS ≤ 0.01, and a page with only the bare script tag and the elements (a heading, the star badge, a
 * paragraph, the reviews; no CSS of its own) at CLS ≤ 0.05 (docs/widgets.md, No layout shift and no long tasks).
 * Each at 1x CPU, at 4x CPU and with a 100 ms round trip added to every request; the figures are printed.
 */
import { expect, test, type Page } from "@playwright/test";
import { WIDGET_RESERVATIONS } from "../server/contract/widget-reservations.ts";
import { DEMO_STORE_ID } from "./axe.ts";
import { startShopOrigin, type ShopOrigin } from "./shop-origin.ts";

const PRODUCT = "shopify-1078";
let shop: ShopOrigin;

/** The two page shapes, given the Chorus origin. */
const PAGES = {
  readme: (origin: string) => `<script async src="${origin}/widgets/chorus.js"></script>
<style>
${WIDGET_RESERVATIONS.starRating}
${WIDGET_RESERVATIONS.reviews}
</style>
<h1>Dress #1078</h1>
<chorus-star-rating store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-star-rating>
<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>
<p>Free returns within 30 days. Machine washable at 30 °C.</p>`,
  bare: (origin: string) => `<h1>Dress #1078</h1>
<chorus-star-rating store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-star-rating>
<p>Free returns within 30 days. Machine washable at 30 °C.</p>
<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>
<script async src="${origin}/widgets/chorus.js"></script>`,
} as const;
const LIMITS = { readme: 0.01, bare: 0.05 } as const;
const CONDITIONS = { "1x": { cpu: 1, rttMs: 0 }, "4x": { cpu: 4, rttMs: 0 }, "100 ms RTT": { cpu: 1, rttMs: 100 } } as const;

test.beforeAll(async () => {
  shop = await startShopOrigin();
});
test.afterAll(() => shop.close());

/** Load `html` on the shop's origin under `condition` and return the page's CLS once the widgets have rendered their data. */
async function measure(page: Page, html: string, condition: { cpu: number; rttMs: number }): Promise<{ cls: number; shifts: unknown[] }> {
  const cdp = await page.context().newCDPSession(page);
  if (condition.cpu > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: condition.cpu });
  if (condition.rttMs) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: condition.rttMs, downloadThroughput: -1, uploadThroughput: -1 });
  }
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: unknown[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (e.hadRecentInput) continue;
        w.__cls += e.value;
        w.__shifts.push({ value: e.value, at: Math.round(e.startTime) });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A merchant's product</title></head><body>${html}</body></html>`;
  await page.goto(shop.url("/products/dress"));
  await expect(page.locator("chorus-reviews article[part=card]").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("chorus-star-rating")).toHaveAttribute("state", "ready");
  await expect(page.locator("chorus-reviews [part=average]")).toBeVisible();
  await page.waitForTimeout(500);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(() => ({ cls: (window as unknown as { __cls: number }).__cls, shifts: (window as unknown as { __shifts: unknown[] }).__shifts }));
}

for (const [shape, build] of Object.entries(PAGES) as [keyof typeof PAGES, (typeof PAGES)[keyof typeof PAGES]][]) {
  for (const [name, condition] of Object.entries(CONDITIONS)) {
    test(`${shape} page, ${name}: CLS ≤ ${LIMITS[shape]}`, async ({ page, baseURL }) => {
      test.setTimeout(90_000);
      const { cls, shifts } = await measure(page, build(baseURL!), condition);
      console.log(`CLS ${shape} ${name}: ${cls.toFixed(4)} ${JSON.stringify(shifts)}`);
      expect(cls, JSON.stringify(shifts)).toBeLessThanOrEqual(LIMITS[shape]);
    });
  }
}

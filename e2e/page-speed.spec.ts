/**
 * Page-speed budget of issue 8, item 3, as a behaviour (timings stay in bench/widgets.bench.ts):
 * the Chorus widgets cause no layout shift on the demo product page. Every widget reserves its space
 * while loading and keeps it, so the page never moves when data arrives (docs/widgets.md, "No layout shift").
 *
 * The demo page itself is static HTML, so any layout shift on it is caused by the widgets; the test still
 * names the shifted nodes (LayoutShift `sources[].node`, through shadow roots) so a failure says which
 * element moved.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const PRODUCT_PAGE = "/demo/products/shopify-1078"; // the demo product with the most reviews, photos and an AI summary

type Shift = { value: number; sources: string[] };

/** Before any page script: record every layout shift without recent input, with the moved nodes. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    const name = (node: Node | null): string => {
      const path: string[] = [];
      let n: Element | null = node && (node.nodeType === 1 ? (node as Element) : node.parentElement);
      while (n) {
        path.unshift(n.localName + (n.getAttribute("part") ? `[part=${n.getAttribute("part")}]` : ""));
        if (n.localName.startsWith("chorus-")) break;
        const root = n.getRootNode();
        n = n.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
      }
      return path.join(" > ") || "(removed node)";
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node: Node | null }[] })[]) {
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => name(s.node)) });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** Wait until every widget on the page has rendered its data (or its empty state). */
async function waitForAllWidgets(page: Page): Promise<void> {
  const reviews = page.locator("chorus-reviews article[part=card]");
  await expect(reviews).toHaveCount(25);
  await expect(page.locator("chorus-star-rating")).toHaveAttribute("state", /^(ready|empty)$/);
  await expect(page.locator("chorus-reviews-summary")).toHaveAttribute("state", /^(ready|empty)$/);
  await expect(page.locator("chorus-reviews-keywords")).toHaveAttribute("state", /^(ready|empty)$/);
  await expect(page.locator("chorus-review-media")).toHaveAttribute("state", /^(ready|empty)$/);
  await expect(page.locator("chorus-questions")).toHaveAttribute("state", /^(ready|empty)$/);
  // Two more frames, so the shifts of the last render are reported.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The product's AI summary and topics are written by the server's AI worker shortly after the demo import.
 * Wait for them: a product without them shows neither and keeps no space for them (issue #23 item 5), which
 * would move the gallery up on a fresh server (docs/widgets.md, "Empty products").
 */
test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  const scope = `/v1/stores/${DEMO_STORE_ID}/products/shopify-1078`;
  await expect
    .poll(async () => (await Promise.all([`${scope}/reviews_summary`, `${scope}/reviews_keywords`].map(async (u) => Object.keys(await (await request.get(u)).json()).length))).join(), {
      timeout: 200_000,
      intervals: [1000],
    })
    .toBe("1,1");
});

/**
 * When the CPU is slow (4x throttling, or a machine shared with other work) each element's static module upgrades on
 * its own (docs/decisions/0018-widget-code-as-static-modules.md), and a server-rendered node replaced by its element's first render can move by a fraction of a pixel before it goes (a shift of
 * about 0.000005 from a "(removed node)" in some loads): no visible movement. The bound is a thousandth of CLS,
 * a tenth of the 0.01 a page with the snippets may have; anything a shopper could see fails.
 */
const INVISIBLE_CLS = 0.001;

/** No shift a shopper could see: the page's CLS under INVISIBLE_CLS, and only replaced server-rendered nodes moved. */
function expectNoVisibleShift(shifts: Shift[]): void {
  const cls = shifts.reduce((sum, s) => sum + s.value, 0);
  expect(cls, `layout shifts: ${JSON.stringify(shifts, null, 1)}`).toBeLessThan(INVISIBLE_CLS);
  expect(
    shifts.filter((s) => !s.sources.every((source) => source === "(removed node)")),
    "only replaced server-rendered nodes may move, and only invisibly",
  ).toEqual([]);
}

test("the Chorus widgets cause no visible layout shift on a product page (CLS under 0.001, only replaced nodes)", async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto(PRODUCT_PAGE);
  await waitForAllWidgets(page);
  expectNoVisibleShift(await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts));
  await expectNoAxeViolations(page);
});

test("no visible layout shift at 4x CPU slowdown either (widgets upgrade and render in a different order)", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await recordLayoutShifts(page);
  await page.goto(PRODUCT_PAGE);
  await waitForAllWidgets(page);
  expectNoVisibleShift(await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts));
});

// Common desktop screens, where the summary, the keyword topics and the media strip are all in view from the start.
for (const viewport of [
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
]) {
  test(`no visible layout shift on a ${viewport.width}×${viewport.height} screen either`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await recordLayoutShifts(page);
    await page.goto(PRODUCT_PAGE);
    await waitForAllWidgets(page);
    expectNoVisibleShift(await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts));
  });
}

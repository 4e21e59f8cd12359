/**
 * Widgets on any theme and on an empty product (issue #23 items 4 and 5), in Chromium against the seeded
 * demo store. A merchant page on another origin (a second local server) carries the integration snippet
 * (app/lib/widget-snippet.ts: script, reservation CSS and every widget's element) and sets only its own
 * background and text colour, no `--chorus-*` variable:
 * - white, black and mid-grey (#777) pages: axe (WCAG 2.1 A/AA) finds no violation with every widget rendered and
 *   the review form open, and the sort control's text contrasts (≥ 4.5:1) with the background behind it,
 *   as do the options of its menu;
 * - a page that opts into `color-scheme: light dark`, shown to a shopper who prefers dark: the widgets'
 *   text is light, axe finds nothing;
 * - a product without reviews: one compact invitation ("No reviews yet" and "Write a review"), nothing of
 *   the summary, topics, media or star badge, no "No … yet" text about AI content or media, little height.
 */
import { expect, test, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { widgetSnippet } from "../app/lib/widget-snippet.ts";
import { WIDGET_KEYS, type WidgetKey } from "../server/contract/widget-keys.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const ALL = Object.fromEntries(WIDGET_KEYS.map((k) => [k, true])) as Record<WidgetKey, boolean>;
const PRODUCT_TAGS = ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media", "chorus-reviews", "chorus-questions"];
/** A product key of the demo store's platform that has no reviews, questions or media. */
const EMPTY_PRODUCT = "shopify-999999999";

let shop: Server;
let shopOrigin = "";
/** Merchant pages by path: `/{theme}/{productKey}`. */
const pages = new Map<string, string>();

const THEMES = {
  white: "html { background: #fff; color: #111; }",
  black: "html { background: #000; color: #eee; }",
  grey: "html { background: #777; color: #000; }",
  // Opts into the shopper's colour scheme: the system colours, nothing else.
  scheme: "html { color-scheme: light dark; background: Canvas; color: CanvasText; }",
  // A theme that lays the elements out itself (as the demo pages do): an empty element still takes no space.
  styled: "html { background: #fff; color: #111; } chorus-star-rating, chorus-reviews-summary, chorus-reviews-keywords, chorus-review-media, chorus-questions { display: block; margin: 1rem 0; }",
} as const;

function merchantPage(css: string, snippet: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A merchant's product</title><style>body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; } ${css}</style></head>
<body><main><h1>A product</h1>\n${snippet}\n</main></body></html>`;
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  // The server's AI worker writes the product's summary and topics shortly after the demo import: wait for them.
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) {
    const scope = `${baseURL}/v1/stores/${DEMO_STORE_ID}/products/shopify-1078`;
    const [summary, keywords] = await Promise.all([fetch(`${scope}/reviews_summary`), fetch(`${scope}/reviews_keywords`)].map(async (r) => Object.keys(await (await r).json()).length));
    if (summary && keywords) break;
  }
  shop = createServer((req, res) => {
    const body = pages.get(req.url ?? "");
    res.writeHead(body ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(body ?? "not found");
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  for (const productKey of ["shopify-1078", EMPTY_PRODUCT]) {
    const snippet = widgetSnippet({ origin: baseURL!, storeId: DEMO_STORE_ID, productKey, shown: ALL });
    for (const [theme, css] of Object.entries(THEMES)) pages.set(`/${theme}/${productKey}`, merchantPage(css, snippet));
  }
});

test.afterAll(() => new Promise<void>((resolve) => shop.close(() => resolve())));

/** Wait until every element has left its loading state. */
async function waitForWidgets(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          (tags) =>
            tags.filter((t) => {
              const el = document.querySelector(t);
              return !el || !customElements.get(t) || el.getAttribute("state") === "loading";
            }),
          [...PRODUCT_TAGS],
        ),
      { timeout: 30_000 },
    )
    .toEqual([]);
  await page.waitForTimeout(300);
}

/** WCAG contrast ratio of two `rgb(...)`/`rgba(...)`/`color(srgb ...)` colours (the first blended over the second when translucent). */
function contrast(fg: number[], bg: number[]): number {
  const blend = fg.slice(0, 3).map((c, i) => c * fg[3]! + bg[i]! * (1 - fg[3]!));
  const lum = (rgb: number[]) => {
    const [r, g, b] = rgb.map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [a, b] = [lum(blend), lum(bg.slice(0, 3))].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}

/**
 * The sort `<select>`'s text colour and the background behind it (its own, else the first ancestor's across
 * the shadow boundary that is not transparent, else the page's canvas), and the same for its first option
 * (the menu Chromium draws uses the option's colours). Colours as [r, g, b, alpha] in 0..255 and 0..1.
 */
async function sortColours(page: Page): Promise<{ select: number[][]; option: number[][] }> {
  return page.evaluate(() => {
    const probe = document.createElement("div");
    document.body.append(probe);
    // Any CSS colour (rgb, color(srgb …), oklch …) as the sRGB pixel a 1×1 canvas paints with it.
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const parse = (value: string): number[] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = value;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const backgroundOf = (start: Element): number[] => {
      for (let el: Element | null = start; el; el = el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null) {
        const bg = parse(getComputedStyle(el).backgroundColor);
        if (bg[3]! > 0) return bg;
      }
      probe.style.background = "Canvas";
      return parse(getComputedStyle(probe).backgroundColor);
    };
    const select = document.querySelector("chorus-reviews")!.shadowRoot!.querySelector("select")!;
    const option = select.querySelector("option")!;
    const result = {
      select: [parse(getComputedStyle(select).color), backgroundOf(select)],
      option: [parse(getComputedStyle(option).color), parse(getComputedStyle(option).backgroundColor)],
    };
    probe.remove();
    return result;
  });
}

for (const theme of ["white", "black", "grey"] as const) {
  test(`every widget on a ${theme} page with no --chorus-* variables: axe finds nothing, the sort control is readable`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`${shopOrigin}/${theme}/shopify-1078`);
    await expect(page.locator("chorus-reviews [part=card]").first()).toBeVisible({ timeout: 30_000 });
    await waitForWidgets(page);
    await expect(page.locator("chorus-reviews-summary [part=summary]")).toBeVisible();
    await expect(page.locator("chorus-reviews-keywords [part=topics]")).toBeVisible();
    await expect(page.locator("chorus-review-media [part=grid]")).toBeVisible();
    await expect(page.locator("chorus-loyalty [part=card]")).toBeVisible();
    // The review form too.
    await page.locator("chorus-reviews [part=write-review]").click();
    await expect(page.locator("chorus-review-form form")).toBeVisible();
    await expectNoAxeViolations(page);

    const { select, option } = await sortColours(page);
    expect(contrast(select[0]!, select[1]!), `sort text ${select[0]} on ${select[1]}`).toBeGreaterThanOrEqual(4.5);
    expect(contrast(option[0]!, option[1]!), `sort option ${option[0]} on ${option[1]}`).toBeGreaterThanOrEqual(4.5);
  });
}

test("a page that opts into light and dark follows a shopper who prefers dark", async ({ page }) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`${shopOrigin}/scheme/shopify-1078`);
  await expect(page.locator("chorus-reviews [part=card]").first()).toBeVisible({ timeout: 30_000 });
  await waitForWidgets(page);
  await expectNoAxeViolations(page);
  // Light text on the dark canvas, in the cards and in the sort control.
  const { select } = await sortColours(page);
  expect(
    select[0]!.slice(0, 3).every((c) => c > 180),
    `sort text ${select[0]}`,
  ).toBe(true);
  expect(contrast(select[0]!, select[1]!)).toBeGreaterThanOrEqual(4.5);
  const cardText = await page
    .locator("chorus-reviews [part=body]")
    .first()
    .evaluate((el) => getComputedStyle(el).color);
  expect(cardText).toMatch(/^rgb\((2[0-9]{2}|1[89][0-9]), /);
});

test("a product without reviews: one compact invitation, nothing about missing AI content or media", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${shopOrigin}/styled/${EMPTY_PRODUCT}`);
  await waitForWidgets(page);
  const states = await page.evaluate((tags) => tags.map((t) => `${t}=${document.querySelector(t)!.getAttribute("state")}`), PRODUCT_TAGS);
  expect(states).toEqual(["chorus-star-rating=empty", "chorus-reviews-summary=empty", "chorus-reviews-keywords=empty", "chorus-review-media=empty", "chorus-reviews=empty", "chorus-questions=empty"]);
  // One invitation: "No reviews yet" and the button; no sort control, no list.
  const invite = page.locator("chorus-reviews [part=empty]");
  await expect(invite).toHaveCount(1);
  await expect(invite).toContainText("No reviews yet");
  await expect(invite.getByRole("button", { name: "Write a review" })).toBeVisible();
  await expect(page.locator("chorus-reviews select")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Ask a question" })).toBeVisible();
  for (const tag of ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media"]) await expect(page.locator(tag)).toBeHidden();
  // No text about what is missing.
  const text = await page.evaluate((tags) => tags.map((t) => document.querySelector(t)!.shadowRoot!.textContent).join(" "), PRODUCT_TAGS);
  expect(text).not.toMatch(/No (AI summary|review topics|customer photos|questions)|yet\./);
  // Small: the product widgets together are a few lines high.
  const heights = await page.evaluate((tags) => tags.map((t) => document.querySelector(t)!.getBoundingClientRect().height), PRODUCT_TAGS);
  console.log("empty product widget heights", PRODUCT_TAGS.map((t, i) => `${t} ${heights[i]}`).join(", "));
  expect(heights.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(160);
  expect(heights.slice(0, 4), "star, summary, topics, media").toEqual([0, 0, 0, 0]);
  await expectNoAxeViolations(page);
  // The invitation opens the review form.
  await invite.getByRole("button", { name: "Write a review" }).click();
  await expect(page.locator("chorus-review-form form")).toBeVisible();
});

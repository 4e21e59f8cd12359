/**
 * Widgets speak the shop's language (issue #23 item 3), in Chromium against the seeded demo store. Merchant
 * pages on another origin (a second local server) carry the integration snippet (app/lib/widget-snippet.ts)
 * with every widget of a reviewed product:
 * - `<html lang="de">`: German words (star badge, sort control, buttons, questions), German dates; the loader loads
 *   the same static modules as on any page, and each element its German translation part, one request per part
 *   (`/widgets/i18n/<hash>/de/<part>.json`, ADR 0018); axe finds no violation;
 * - `<html lang="ja">`: the same in Japanese; an element inside `lang="pt-BR"` speaks Brazilian Portuguese, from
 *   its own part (`/widgets/i18n/<hash>/pt-BR/starRating.json`);
 * - `<chorus-reviews locale="de">` (review-text translation) asks the API for `de-formal` and shows the list
 *   (it used to show the API's 400 in place of the list); an unsupported language sends no locale and shows
 *   the reviews in their original text.
 */
import { expect, test, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { widgetSnippet } from "../app/lib/widget-snippet.ts";
import { WIDGET_KEYS, type WidgetKey } from "../server/contract/widget-keys.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const ALL = Object.fromEntries(WIDGET_KEYS.map((k) => [k, true])) as Record<WidgetKey, boolean>;
const PRODUCT = "shopify-1078";

let shop: Server;
let shopOrigin = "";
const pages = new Map<string, string>();

const page_ = (lang: string, body: string) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Product</title><style>body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }</style></head><body><main><h1>Product</h1>\n${body}\n</main></body></html>`;

test.beforeAll(async ({ baseURL }) => {
  shop = createServer((req, res) => {
    const body = pages.get(req.url ?? "");
    res.writeHead(body ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(body ?? "not found");
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  const snippet = widgetSnippet({ origin: baseURL!, storeId: DEMO_STORE_ID, productKey: PRODUCT, shown: ALL });
  pages.set("/de", page_("de", snippet));
  pages.set("/ja", page_("ja", `${snippet}\n<div lang="pt-BR"><chorus-star-rating id="pt" store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-star-rating></div>`));
  const script = `<script async src="${baseURL}/widgets/chorus.js"></script>`;
  pages.set(
    "/review-locale",
    page_("en", `${script}\n<chorus-reviews id="de" locale="de" page-size="3" store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>\n<chorus-reviews id="tlh" locale="tlh" page-size="3" store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>`),
  );
});
test.afterAll(() => new Promise<void>((resolve) => shop.close(() => resolve())));

/**
 * Open a merchant page, recording the translation parts (`<locale>/<part>.json`, the build's folder left out) and the
 * modules (paths) it requests; resolves when the reviews show.
 */
async function open(page: Page, path: string): Promise<{ parts: string[]; modules: string[] }> {
  const parts: string[] = [];
  const modules: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/widgets/i18n/")) parts.push(url.pathname.replace(/^\/widgets\/i18n\/[\w-]{8}\//, ""));
    if (url.pathname.startsWith("/widgets/chunks/")) modules.push(url.pathname + url.search);
  });
  await page.goto(`${shopOrigin}${path}`);
  await expect(page.locator("chorus-reviews [part=card]").first()).toBeVisible();
  return { parts, modules };
}

test("German UI: German words and dates, each German part once, axe", async ({ page }) => {
  const { parts, modules } = await open(page, "/de");
  await expect(page.locator("chorus-star-rating [part=badge]").first()).toHaveAttribute("aria-label", /^Bewertet mit \d,\d von 5, [\d.]+ Bewertungen$/);
  const reviews = page.locator("chorus-reviews");
  await expect(reviews.getByText("Bewertungen sortieren nach")).toBeVisible();
  await expect(reviews.getByRole("button", { name: "Bewertung schreiben" })).toBeVisible();
  await expect(reviews.locator("[part=date]").first()).toHaveText(/^\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}$/);
  await expect(page.locator("chorus-questions").getByRole("button", { name: "Frage stellen" })).toBeVisible();
  // (The loyalty widget's earning rules, e.g. "Write a review", are the store's own names, not widget words.)
  await expect(page.locator("chorus-star-rating, chorus-reviews, chorus-questions, chorus-review-media, chorus-reviews-summary").getByText(/Write a review|Sort reviews by|Ask a question|Newest|Load more/)).toHaveCount(0);
  // The static modules (no language in their URL), and each German part once.
  expect(modules.length).toBeGreaterThanOrEqual(3);
  for (const module of modules) expect(module).toMatch(/^\/widgets\/chunks\/[\w-]+\.js$/);
  expect(new Set(modules).size).toBe(modules.length);
  expect(parts.sort()).toEqual(["de/loyalty.json", "de/reviews.json", "de/starRating.json"]);
  await expectNoAxeViolations(page);
});

test("Japanese UI: Japanese words and dates, an element inside lang=pt-BR in Portuguese, axe", async ({ page }) => {
  const { parts, modules } = await open(page, "/ja");
  await expect(page.locator("chorus-star-rating:not(#pt) [part=badge]").first()).toHaveAttribute("aria-label", /^5段階中\d\.\dの評価、[\d,]+件のレビュー$/);
  const reviews = page.locator("chorus-reviews");
  await expect(reviews.getByText("レビューの並べ替え")).toBeVisible();
  await expect(reviews.getByRole("button", { name: "レビューを書く" })).toBeVisible();
  await expect(reviews.locator("[part=date]").first()).toHaveText(/^\d{4}年\d{1,2}月\d{1,2}日$/);
  await expect(page.locator("chorus-questions").getByRole("button", { name: "質問する" })).toBeVisible();
  await expect(page.locator("#pt [part=badge]")).toHaveAttribute("aria-label", /^Nota \d,\d de 5, [\d.]+ avaliações$/);
  // Japanese from the Japanese parts; the pt-BR element loads its own part in Brazilian Portuguese.
  for (const module of modules) expect(module).toMatch(/^\/widgets\/chunks\/[\w-]+\.js$/);
  expect(parts.sort()).toEqual(["ja/loyalty.json", "ja/reviews.json", "ja/starRating.json", "pt-BR/starRating.json"]);
  await expectNoAxeViolations(page);
});

test("review-text translation: locale=de asks for de-formal and shows the list; an unsupported language shows the original text", async ({ page }) => {
  const lists: string[] = [];
  page.on("request", (r) => {
    if (/\/reviews\?/.test(r.url())) lists.push(r.url());
  });
  await page.goto(`${shopOrigin}/review-locale`);
  for (const id of ["#de", "#tlh"]) {
    await expect(page.locator(`${id} [part=card]`)).toHaveCount(3);
    await expect(page.locator(id).getByText(/could not be loaded/)).toHaveCount(0);
  }
  const locales = lists.map((u) => new URL(u).searchParams.get("locale"));
  expect(locales.sort()).toEqual(["de-formal", null]);
});

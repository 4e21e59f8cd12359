/**
 * Widgets speak the shop's language (issue #23 item 3), in Chromium against the seeded demo store. Merchant
 * pages on another origin (a second local server) carry the integration snippet (app/lib/widget-snippet.ts)
 * with every widget of a reviewed product:
 * - `<html lang="de">`: German words (star badge, sort control, buttons, questions), German dates; the loader loads
 *   the same static modules as on any page, and each element its German translation part, one request per part
 *   (`/widgets/i18n/<hash>/de/<part>.json`, ADR 0018); axe finds no violation;
 * - `<html lang="ja">`: the same in Japanese; an element inside `lang="pt-BR"` speaks Brazilian Portuguese, from
 *   its own part (`/widgets/i18n/<hash>/pt-BR/starRating.json`);
 * - no English UI phrase on the German and the Japanese page, the AI summary and topic names included: every text of
 *   every element (shadow roots, aria-labels, placeholders) is compared with the English catalogue (the widgets'
 *   defaults and the summary's English templates, docs/ai.md "Languages"); the shoppers' and the merchant's own
 *   words (review and question texts, names, keywords, loyalty rule names, attribute titles) are left out;
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
import { DEFAULT_TEXTS } from "../server/contract/widget-strings.ts";
import { SUMMARY_TEXTS } from "../server/ai/summary-texts.ts";

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
    page_(
      "en",
      `${script}\n<chorus-reviews id="de" locale="de" page-size="3" store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>\n<chorus-reviews id="tlh" locale="tlh" page-size="3" store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>`,
    ),
  );
});
test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  // the AI summary is generated in the background after start-up (the most-reviewed product first)
  await expect
    .poll(async () => Object.keys(await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/reviews_summary`)).json()).length, { timeout: 200_000, intervals: [2000] })
    .toBe(1);
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
  await expect(
    page.locator("chorus-star-rating, chorus-reviews, chorus-questions, chorus-review-media, chorus-reviews-summary").getByText(/Write a review|Sort reviews by|Ask a question|Newest|Load more/),
  ).toHaveCount(0);
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

/**
 * The English catalogue as phrases: every widget default and English summary template, cut at its `{placeholders}`;
 * pieces of two or more words are looked for anywhere in a text, one-word pieces only as a whole text.
 */
function englishCatalogue(): { phrases: string[]; words: Set<string> } {
  const en = SUMMARY_TEXTS.en;
  const texts = [...Object.values(DEFAULT_TEXTS), en.rating.one!, en.rating.other, en.recommend, en.praised, en.criticised, en.noComplaint, ...Object.values(en.topics)];
  const pieces = texts
    .flatMap((t) => t.split(/\{\w+\}/))
    .map((p) => p.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, ""))
    .filter((p) => /\p{L}{2}/u.test(p));
  return { phrases: [...new Set(pieces.filter((p) => /\s/.test(p)))], words: new Set(pieces.filter((p) => !/\s/.test(p))) };
}

/**
 * Every UI text of the page's Chorus elements (text nodes in their shadow roots, aria-labels, placeholders, titles,
 * alt texts), without the shoppers' and the merchant's own words and without words quoted in the summary.
 */
async function uiTexts(page: Page, quote: [string, string]): Promise<{ text: string; where: string }[]> {
  return page.evaluate((quote) => {
    // parts that hold a shopper's or the merchant's words, not the widgets'
    const own = new Set(["title", "reviewer", "reply", "answer", "question", "attributes", "attribute-scale", "match", "chip", "product", "meta-name", "lightbox-review"]);
    const out: { text: string; where: string }[] = [];
    const partOf = (el: Element | null): string[] => {
      for (let e = el; e; e = e.parentElement) if (e.getAttribute("part")) return e.getAttribute("part")!.split(/\s+/);
      return [];
    };
    const shoppers = (el: Element, host: string): boolean => {
      const parts = partOf(el);
      if (parts.includes("count") || el.closest(".visually-hidden")) return false;
      if (parts.some((p) => own.has(p))) return true;
      if (parts.includes("body") && host !== "chorus-reviews-summary") return true;
      // loyalty: the store's earning rules and rewards are its own names (shown in list items and headings of rules)
      if (host === "chorus-loyalty" && el.closest("li")) return true;
      // the review form's product attributes (titles and options) are the store's own
      if (el.closest("fieldset.attribute, .attribute, [data-attribute]")) return true;
      return false;
    };
    const walk = (root: ShadowRoot | Element, host: string) => {
      const nodes = root.querySelectorAll("*");
      for (const el of nodes) {
        if (el.shadowRoot) walk(el.shadowRoot, el.localName);
        for (const attr of ["aria-label", "placeholder", "title", "alt"]) {
          const v = el.getAttribute(attr);
          if (v && !shoppers(el, host)) out.push({ text: v, where: `${host} ${el.localName}[${attr}]` });
        }
        if (el.localName === "style" || el.localName === "script") continue;
        for (const child of el.childNodes) {
          if (child.nodeType !== 3 || !child.textContent?.trim() || shoppers(el, host)) continue;
          let text = child.textContent.trim();
          if (host === "chorus-reviews-summary")
            text = text
              .split(quote[0])
              .map((s, i) => (i ? s.slice(s.indexOf(quote[1]) + 1) : s))
              .join("");
          out.push({ text, where: `${host} ${el.localName}.${partOf(el).join(".")}` });
        }
      }
    };
    for (const el of document.querySelectorAll("*")) if (el.localName.startsWith("chorus-") && el.shadowRoot) walk(el.shadowRoot, el.localName);
    return out;
  }, quote);
}

for (const lang of ["de", "ja"] as const) {
  test(`no English UI phrase on a ${lang === "de" ? "German" : "Japanese"} page with every element, the AI summary and topic names included`, async ({ page }) => {
    await open(page, `/${lang}`);
    const summary = page.locator("chorus-reviews-summary [part=body]");
    await expect(summary).toBeVisible();
    await expect(page.locator("chorus-reviews-keywords [part=topic] h3").first()).toBeVisible();
    await expect(page.locator("chorus-questions").getByRole("button").first()).toBeVisible();
    // the summary's own language: its first sentence from the language's template, numbers formatted for it
    await expect(summary).toHaveText(lang === "de" ? /^Durchschnittliche Bewertung: \d,\d von 5 aus 1\.\d{3} Bewertungen\./ : /^平均評価：5点中\d\.\d点（レビュー1,\d{3}件）。/);
    await expect(page.locator("chorus-reviews-keywords [part=topic] h3").first()).toHaveText(new RegExp(`^(${Object.values(SUMMARY_TEXTS[lang].topics).join("|")})$`));
    const { phrases, words } = englishCatalogue();
    // the media's own alt texts (the store's or shopper's words) inside the media buttons' labels are not UI words
    const media = (await (await page.request.get(`${test.info().project.use.baseURL}/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/review_media?limit=25`)).json()) as { media?: { alt?: string }[] };
    const alts = (media.media ?? []).map((m) => m.alt).filter((a): a is string => !!a);
    const texts = (await uiTexts(page, SUMMARY_TEXTS[lang].quote)).map((t) => ({ ...t, text: alts.reduce((x, a) => x.replace(a, ""), t.text) }));
    expect(texts.length).toBeGreaterThan(40);
    const english = texts.filter(({ text }) => words.has(text.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "")) || phrases.some((p) => text.includes(p)));
    expect(english).toEqual([]);
  });
}

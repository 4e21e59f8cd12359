/**
 * How the loader (/widgets/chorus.js, widgets/index.ts) loads the widgets' code: combined modules (ADR 0016,
 * server/widgets/combo.ts), in Chromium against the real server, recording every request the page makes:
 * - a page with only the star badge loads the loader and one combo, `chunks/<version>.star-rating.js`, nothing else;
 * - the elements found together come in ONE combo named by their short names sorted and `+`-joined; an element
 *   added later comes in a second combo `<its name>~<the first level>`; nothing is requested or defined twice;
 * - opening "Write a review" loads `review-form~<the page's chain>` once;
 * - a German page (`<html lang="de">`) gets `?lang=de` combos holding German texts and requests no translation
 *   part; an element inside `lang="en"` on it requests the English part and speaks English;
 * - a combo that fails to load logs the loader's error, and an element of the same tag added later loads.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID } from "./axe.ts";

const PRODUCT = "shopify-1078";
const PAGE = "/__widget-loading";
const attrs = `store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"`;

/** What a test records of its page: every request below /widgets/ (full URLs, in order) and the console errors (but the photos'). */
type Recorded = { widgets: string[]; errors: string[] };

/**
 * Open a page of the Chorus origin in language `lang` holding `body` and the bare script tag, recording its
 * widget requests and console errors (page errors too: a second `customElements.define` throws).
 */
async function openPage(page: Page, body: string, lang = "en"): Promise<Recorded> {
  const recorded: Recorded = { widgets: [], errors: [] };
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/widgets/")) recorded.widgets.push(r.url());
  });
  page.on("console", (m) => {
    // (Shoppers' photos come from PUBLIC_URL, `localhost`, which Chromium blocks on this `127.0.0.1` page: not the loader's.)
    if (m.type() === "error" && !`${m.text()} ${m.location().url}`.includes("/media/")) recorded.errors.push(m.text());
  });
  page.on("pageerror", (e) => recorded.errors.push(String(e)));
  await page.route(`**${PAGE}`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Widget loading</title>
<script async src="/widgets/chorus.js"></script></head><body><main><h1>Product</h1>${body}</main></body></html>`,
    }),
  );
  await page.goto(PAGE);
  return recorded;
}

/** The paths (with query) of the requests recorded, origin left out. */
const paths = (urls: string[]) => urls.map((u) => u.slice(new URL(u).origin.length));

/** The build's version the server serves (combo.json, written by the widget build). */
async function comboVersion(page: Page): Promise<string> {
  const res = await page.request.get("/widgets/combo.json");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { version: string }).version;
}

test("a page with only the star badge loads the loader and one combo, star-rating, and nothing else", async ({ page }) => {
  const version = await comboVersion(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating>`);
  await expect(page.locator("chorus-star-rating [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5, [\d,]+ reviews$/);
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", `/widgets/chunks/${version}.star-rating.js?lang=en`]);
  expect(recorded.errors).toEqual([]);
});

test("the elements found together load as ONE combo; an element added later loads as a second level; nothing twice", async ({ page }) => {
  const version = await comboVersion(page);
  // In the page's order (not sorted): the combo's name sorts them.
  const recorded = await openPage(
    page,
    `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews-summary ${attrs}></chorus-reviews-summary>
<chorus-reviews ${attrs} page-size="3"></chorus-reviews><chorus-questions ${attrs}></chorus-questions>`,
  );
  await expect(page.locator("chorus-star-rating [part=badge]")).toBeVisible();
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  await expect(page.locator("chorus-reviews-summary")).toHaveAttribute("state", /ready|empty/);
  await expect(page.locator("chorus-questions").getByRole("button", { name: "Ask a question" })).toBeVisible();
  const first = "questions+reviews+reviews-summary+star-rating";
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", `/widgets/chunks/${version}.${first}.js?lang=en`]);

  // A loyalty widget added to the page later: its own level above the first, holding only what is not loaded yet.
  await page.evaluate((store) => {
    const el = document.createElement("chorus-loyalty");
    el.setAttribute("store-id", store);
    document.querySelector("main")!.append(el);
  }, DEMO_STORE_ID);
  await expect(page.locator("chorus-loyalty [part=card]")).toBeVisible();
  expect(paths(recorded.widgets)).toEqual([
    "/widgets/chorus.js",
    `/widgets/chunks/${version}.${first}.js?lang=en`,
    `/widgets/chunks/${version}.loyalty~${first}.js?lang=en`,
  ]);
  // Every element defined (once: a second define would have thrown), still working after the second combo.
  const defined = await page.evaluate(() =>
    ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews", "chorus-questions", "chorus-loyalty"].map((tag) => Boolean(customElements.get(tag))),
  );
  expect(defined).toEqual([true, true, true, true, true]);
  await expect(page.locator("chorus-star-rating [part=badge]")).toBeVisible();
  expect(new Set(recorded.widgets).size).toBe(recorded.widgets.length);
  expect(recorded.errors).toEqual([]);
});

test("opening 'Write a review' loads review-form above the page's chain, once", async ({ page }) => {
  const version = await comboVersion(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews ${attrs} page-size="3"></chorus-reviews>`);
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", `/widgets/chunks/${version}.reviews+star-rating.js?lang=en`]);
  expect(await page.evaluate(() => Boolean(customElements.get("chorus-review-form")))).toBe(false);

  const write = page.locator("chorus-reviews [part=write-review]");
  await write.click();
  await expect(page.locator("chorus-review-form form")).toBeVisible();
  const opened = [
    "/widgets/chorus.js",
    `/widgets/chunks/${version}.reviews+star-rating.js?lang=en`,
    `/widgets/chunks/${version}.review-form~reviews+star-rating.js?lang=en`,
  ];
  expect(paths(recorded.widgets)).toEqual(opened);

  // Closed and opened again: the form's code is there; nothing more is requested.
  await write.click();
  await expect(page.locator("chorus-review-form form")).toHaveCount(0);
  await write.click();
  await expect(page.locator("chorus-review-form form")).toBeVisible();
  expect(paths(recorded.widgets)).toEqual(opened);
  expect(recorded.errors).toEqual([]);
});

test("a German page: combos for lang=de with German words, no translation part", async ({ page }) => {
  const version = await comboVersion(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews ${attrs} page-size="3"></chorus-reviews>`, "de");
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  await expect(page.locator("chorus-star-rating [part=badge]")).toHaveAttribute("aria-label", /^Bewertet mit \d,\d von 5, [\d.]+ Bewertungen$/);
  await expect(page.locator("chorus-reviews").getByRole("button", { name: "Bewertung schreiben" })).toBeVisible();
  await expect(page.locator("chorus-reviews").getByText("Bewertungen sortieren nach")).toBeVisible();
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", `/widgets/chunks/${version}.reviews+star-rating.js?lang=de`]);
  expect(recorded.widgets.filter((u) => u.includes("/widgets/i18n/"))).toEqual([]);
  expect(recorded.errors).toEqual([]);
});

test("an element inside lang=en on a German page requests the English part and speaks English; the others German", async ({ page }) => {
  const version = await comboVersion(page);
  const recorded = await openPage(
    page,
    `<chorus-star-rating id="de" ${attrs}></chorus-star-rating><div lang="en"><chorus-star-rating id="en" ${attrs}></chorus-star-rating></div>`,
    "de",
  );
  await expect(page.locator("#de [part=badge]")).toHaveAttribute("aria-label", /^Bewertet mit \d,\d von 5, [\d.]+ Bewertungen$/);
  await expect(page.locator("#en [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5, [\d,]+ reviews$/);
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", `/widgets/chunks/${version}.star-rating.js?lang=de`, "/widgets/i18n/en/starRating.json"]);
  expect(recorded.errors).toEqual([]);
});

test("a combo that fails to load: the loader logs it, and an element of that tag added later loads", async ({ page }) => {
  const version = await comboVersion(page);
  let failed = 0;
  await page.route("**/widgets/chunks/**", (route) => (failed++ ? route.continue() : route.abort("connectionrefused")));
  const recorded = await openPage(page, `<chorus-star-rating id="one" ${attrs}></chorus-star-rating>`);
  const url = `${new URL(page.url()).origin}/widgets/chunks/${version}.star-rating.js?lang=en`;
  await expect.poll(() => recorded.errors).toContain(`[chorus] could not load ${url}`);
  expect(await page.evaluate(() => Boolean(customElements.get("chorus-star-rating")))).toBe(false);

  // The loader forgot the failed tag: a star badge added now requests its code again, and both badges show.
  await page.evaluate((html) => document.querySelector("main")!.insertAdjacentHTML("beforeend", html), `<chorus-star-rating id="two" ${attrs}></chorus-star-rating>`);
  await expect(page.locator("#two [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5/);
  await expect(page.locator("#one [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5/);
  expect(recorded.widgets.filter((u) => u.includes("/widgets/chunks/"))).toEqual([url, url]);
  expect(failed).toBe(2);
});

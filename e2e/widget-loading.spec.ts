/**
 * How the loader (/widgets/chorus.js, widgets/index.ts) loads the widgets' code: static modules (ADR 0018,
 * server/widgets/static.ts), in Chromium against the real server, recording every request the page makes:
 * - a page with only the star badge loads the loader, the badge's module and the shared chunk, each once, the two
 *   hashed files kept a year (`immutable`) and sent as brotli; a modulepreload hint names the shared chunk;
 * - the elements found together load their modules and the shared chunks they import, each once; an element added
 *   later loads then, only its own module; nothing is requested or defined twice;
 * - opening "Write a review" loads the review form's module once;
 * - a German page (`<html lang="de">`) loads the German translation parts of its elements and shows German; an
 *   element inside `lang="en"` on it requests no part and speaks English;
 * - a module that fails to load logs the loader's error, and an element of the same tag added later loads.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID } from "./axe.ts";

const PRODUCT = "shopify-1078";
const PAGE = "/__widget-loading";
const attrs = `store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"`;

/** What a test records of its page: every request below /widgets/ (full URLs, in order), their responses' headers, and the console errors (but the photos'). */
type Recorded = { widgets: string[]; headers: Map<string, Record<string, string>>; errors: string[] };

/**
 * Open a page of the Chorus origin in language `lang` holding `body` and the bare script tag, recording its
 * widget requests and console errors (page errors too: a second `customElements.define` throws).
 */
async function openPage(page: Page, body: string, lang = "en"): Promise<Recorded> {
  const recorded: Recorded = { widgets: [], headers: new Map(), errors: [] };
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/widgets/")) recorded.widgets.push(r.url());
  });
  page.on("response", async (r) => {
    if (new URL(r.url()).pathname.startsWith("/widgets/")) recorded.headers.set(new URL(r.url()).pathname, await r.allHeaders());
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

/** The loader's file table as the server sends it (widgets/index.ts `MODULES`, `CHUNKS`): paths below the origin. */
async function files(page: Page): Promise<{ module: (tag: string) => string; chunk: (i: number) => string; i18n: string }> {
  const res = await page.request.get("/widgets/chorus.js");
  expect(res.ok()).toBe(true);
  const loader = await res.text();
  const modules = JSON.parse(/(\{"chorus-[^}]*\})/.exec(loader)![1]!) as Record<string, [string, ...number[]]>;
  const chunks = JSON.parse(/(\["chunks\/[\w-]+\.js"(?:,"chunks\/[\w-]+\.js")*\])/.exec(loader)![1]!) as string[];
  // The translation parts' folder is named in the shared chunk.
  const shared = await (await page.request.get(`/widgets/${chunks[0]}`)).text();
  return { module: (tag) => `/widgets/${modules[tag]![0]}`, chunk: (i) => `/widgets/${chunks[i]}`, i18n: `/widgets/${/(i18n\/[\w-]{8})\//.exec(shared)![1]}` };
}

/** The modulepreload hints on the page (paths). */
const hints = (page: Page) => page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>("link[rel=modulepreload]")].map((l) => new URL(l.href).pathname));

test("a page with only the star badge loads the loader, the badge's module and the shared chunk, each once, immutable, brotli", async ({ page }) => {
  const f = await files(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating>`);
  await expect(page.locator("chorus-star-rating [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5, [\d,]+ reviews$/);
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", f.chunk(0), f.module("chorus-star-rating")]);
  expect(await hints(page)).toEqual([f.chunk(0)]);
  for (const path of [f.chunk(0), f.module("chorus-star-rating")]) {
    const headers = recorded.headers.get(path)!;
    expect(headers["cache-control"], path).toBe("public, max-age=31536000, immutable");
    expect(headers["content-encoding"], path).toBe("br");
    expect(headers.vary, path).toMatch(/Accept-Encoding/i);
  }
  expect(recorded.headers.get("/widgets/chorus.js")!["cache-control"]).toBe("public, max-age=300");
  expect(recorded.errors).toEqual([]);
});

test("the elements found together load their modules and shared chunks, each once; an element added later loads then; nothing twice", async ({ page }) => {
  const f = await files(page);
  const tags = ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews", "chorus-questions"];
  const recorded = await openPage(
    page,
    `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews-summary ${attrs}></chorus-reviews-summary>
<chorus-reviews ${attrs} page-size="3"></chorus-reviews><chorus-questions ${attrs}></chorus-questions>`,
  );
  await expect(page.locator("chorus-star-rating [part=badge]")).toBeVisible();
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  await expect(page.locator("chorus-reviews-summary")).toHaveAttribute("state", /ready|empty/);
  await expect(page.locator("chorus-questions").getByRole("button", { name: "Ask a question" })).toBeVisible();
  const first = ["/widgets/chorus.js", f.chunk(0), f.chunk(1), ...tags.map(f.module)];
  expect(paths(recorded.widgets).sort()).toEqual([...first].sort());
  expect((await hints(page)).sort()).toEqual([f.chunk(0), f.chunk(1)].sort());

  // A loyalty widget added to the page later: only its own module is requested (its chunks are loaded).
  await page.evaluate((store) => {
    const el = document.createElement("chorus-loyalty");
    el.setAttribute("store-id", store);
    document.querySelector("main")!.append(el);
  }, DEMO_STORE_ID);
  await expect(page.locator("chorus-loyalty [part=card]")).toBeVisible();
  expect(paths(recorded.widgets).sort()).toEqual([...first, f.module("chorus-loyalty")].sort());
  expect(paths(recorded.widgets).at(-1)).toBe(f.module("chorus-loyalty"));
  // Every element defined (once: a second define would have thrown), still working after the second load.
  const defined = await page.evaluate(() => ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews", "chorus-questions", "chorus-loyalty"].map((tag) => Boolean(customElements.get(tag))));
  expect(defined).toEqual([true, true, true, true, true]);
  await expect(page.locator("chorus-star-rating [part=badge]")).toBeVisible();
  expect(new Set(recorded.widgets).size).toBe(recorded.widgets.length);
  expect(recorded.errors).toEqual([]);
});

test("opening 'Write a review' loads the review form's module, once", async ({ page }) => {
  const f = await files(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews ${attrs} page-size="3"></chorus-reviews>`);
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  const first = ["/widgets/chorus.js", f.chunk(0), f.chunk(1), f.module("chorus-star-rating"), f.module("chorus-reviews")];
  expect(paths(recorded.widgets).sort()).toEqual([...first].sort());
  expect(await page.evaluate(() => Boolean(customElements.get("chorus-review-form")))).toBe(false);

  const write = page.locator("chorus-reviews [part=write-review]");
  await write.click();
  await expect(page.locator("chorus-review-form form")).toBeVisible();
  const opened = [...first, f.module("chorus-review-form")].sort();
  expect(paths(recorded.widgets).sort()).toEqual(opened);
  expect(recorded.headers.get(f.module("chorus-review-form"))!["content-encoding"]).toBe("br");

  // Closed and opened again: the form's code is there; nothing more is requested.
  await write.click();
  await expect(page.locator("chorus-review-form form")).toHaveCount(0);
  await write.click();
  await expect(page.locator("chorus-review-form form")).toBeVisible();
  expect(paths(recorded.widgets).sort()).toEqual(opened);
  expect(recorded.errors).toEqual([]);
});

test("a German page: the German translation parts of its elements, German words", async ({ page }) => {
  const f = await files(page);
  const recorded = await openPage(page, `<chorus-star-rating ${attrs}></chorus-star-rating><chorus-reviews ${attrs} page-size="3"></chorus-reviews>`, "de");
  await expect(page.locator("chorus-reviews [part=card]")).toHaveCount(3);
  await expect(page.locator("chorus-star-rating [part=badge]")).toHaveAttribute("aria-label", /^Bewertet mit \d,\d von 5, [\d.]+ Bewertungen$/);
  await expect(page.locator("chorus-reviews").getByRole("button", { name: "Bewertung schreiben" })).toBeVisible();
  await expect(page.locator("chorus-reviews").getByText("Bewertungen sortieren nach")).toBeVisible();
  expect(paths(recorded.widgets.filter((u) => u.includes("/widgets/i18n/"))).sort()).toEqual([`${f.i18n}/de/reviews.json`, `${f.i18n}/de/starRating.json`]);
  expect(recorded.headers.get(`${f.i18n}/de/reviews.json`)!["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(new Set(recorded.widgets).size).toBe(recorded.widgets.length);
  expect(recorded.errors).toEqual([]);
});

test("an element inside lang=en on a German page requests no part and speaks English; the others German", async ({ page }) => {
  const f = await files(page);
  const recorded = await openPage(page, `<chorus-star-rating id="de" ${attrs}></chorus-star-rating><div lang="en"><chorus-star-rating id="en" ${attrs}></chorus-star-rating></div>`, "de");
  await expect(page.locator("#de [part=badge]")).toHaveAttribute("aria-label", /^Bewertet mit \d,\d von 5, [\d.]+ Bewertungen$/);
  await expect(page.locator("#en [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5, [\d,]+ reviews$/);
  expect(paths(recorded.widgets)).toEqual(["/widgets/chorus.js", f.chunk(0), f.module("chorus-star-rating"), `${f.i18n}/de/starRating.json`]);
  expect(recorded.errors).toEqual([]);
});

test("a module that fails to load: the loader logs it, and an element of that tag added later loads", async ({ page }) => {
  const f = await files(page);
  let failed = 0;
  await page.route(`**${f.module("chorus-star-rating")}`, (route) => (failed++ ? route.continue() : route.abort("connectionrefused")));
  const recorded = await openPage(page, `<chorus-star-rating id="one" ${attrs}></chorus-star-rating>`);
  const url = `${new URL(page.url()).origin}${f.module("chorus-star-rating")}`;
  await expect.poll(() => recorded.errors).toContain(`[chorus] could not load ${url}`);
  expect(await page.evaluate(() => Boolean(customElements.get("chorus-star-rating")))).toBe(false);

  // The loader forgot the failed tag: a star badge added now requests its module again, and both badges show.
  await page.evaluate((html) => document.querySelector("main")!.insertAdjacentHTML("beforeend", html), `<chorus-star-rating id="two" ${attrs}></chorus-star-rating>`);
  await expect(page.locator("#two [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5/);
  await expect(page.locator("#one [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5/);
  expect(recorded.widgets.filter((u) => u === url)).toEqual([url, url]);
  expect(failed).toBe(2);
});

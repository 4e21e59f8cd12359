/**
 * Widget set-up in the admin (issue #21 item 4), in Chromium against the seeded demo store: change a
 * text and the accent colour on the widgets page and see both in the live preview and on the demo
 * product page; copy the integration page's snippet and paste it into a page of another origin, where
 * the widgets work and every widget's reserved box before its code loads equals its loading-state box
 * (no layout shift; the shop is a second local server, as Chromium keeps pages of unknown hosts from
 * loading loopback scripts); hide a widget; axe on the widgets page. The demo store's widget settings are put
 * back afterwards (other specs read its English texts).
 */
import { expect, test, type Page } from "@playwright/test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { run, sql, transaction } from "../server/db/database.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;
const TEXT = "Tell us what you think";
const ACCENT = "#0a7f5a";
const ACCENT_RGB = "rgb(10, 127, 90)";
/** The tags the snippet places, page order. */
const TAGS = ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media", "chorus-reviews", "chorus-questions", "chorus-loyalty"];

async function resetWidgetSettings(): Promise<void> {
  await withE2eDb((db) =>
    transaction(db, async () => {
      await run(db, sql`DELETE FROM widget_texts WHERE store_id = ${DEMO_STORE_ID}`);
      await run(db, sql`DELETE FROM widget_settings WHERE store_id = ${DEMO_STORE_ID}`);
    }),
  );
}

test.beforeAll(resetWidgetSettings);
test.afterAll(resetWidgetSettings);

/** The write-review button of the `<chorus-reviews>` under `root` (shadow DOM pierced). */
const writeReview = (root: Page | ReturnType<Page["frameLocator"]>) => root.locator("chorus-reviews [part=write-review]");

test("texts, colour and visibility from the admin reach the preview, the demo shop and a pasted snippet on another origin", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  await signInAsDemoMerchant(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Widgets" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Widgets" })).toBeVisible();

  // The preview shows the store's widgets with the English defaults.
  const preview = page.frameLocator("iframe.widget-preview");
  await expect(writeReview(preview)).toHaveText("Write a review");
  await expect(preview.locator("chorus-reviews [part=card]").first()).toBeVisible();
  await expectNoAxeViolations(page);

  // A bad colour: the error beside the field, nothing saved.
  await page.locator("#color-accent").fill("green");
  await page.getByRole("button", { name: "Save colours and widgets" }).click();
  await expect(page.locator("#color-accent-error")).toContainText("must be a CSS hex colour");
  await expect(page.locator("#color-accent")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  // Change the English text of "Write a review" and the accent colour.
  // Each widget's texts are a part of their own (collapsed), with their own save.
  await page.getByText("Reviews (<chorus-reviews>)", { exact: true }).click();
  await expect(page.locator("#text-reviews-writeReview")).toHaveAttribute("placeholder", "Write a review");
  await page.locator("#text-reviews-writeReview").fill(TEXT);
  await page.getByRole("form", { name: "Reviews (<chorus-reviews>)" }).getByRole("button", { name: "Save texts in en" }).click();
  await expect(page).toHaveURL(/saved=texts&group=1/);
  // The saved part stays open after the save; the others stay closed.
  await expect(page.locator("#text-reviews-writeReview")).toHaveValue(TEXT);
  await expect(page.locator("#text-starRating-label")).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Texts saved" })).toBeVisible();
  await page.locator("#color-accent").fill(ACCENT);
  await page.getByRole("button", { name: "Save colours and widgets" }).click();
  await expect(page).toHaveURL(/saved=appearance/);

  // The preview reloads with the saved settings.
  await expect(writeReview(preview)).toHaveText(TEXT);
  await expect(writeReview(preview)).toHaveCSS("color", ACCENT_RGB);

  // The demo product page of the same product shows them too.
  const productKey = await preview.locator("chorus-reviews").getAttribute("product-id");
  const shop = await context.newPage();
  await shop.goto(`/demo/products/${productKey}`);
  await expect(writeReview(shop)).toHaveText(TEXT);
  await expect(writeReview(shop)).toHaveCSS("color", ACCENT_RGB);
  await expect(shop.locator("chorus-questions")).toBeVisible();

  // The integration page's snippet, copied with its button, pasted into a page of another origin.
  await page.goto(`${ADMIN}/integration`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await page.getByRole("button", { name: "Copy snippet" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  expect(snippet).toContain(`store-id="${DEMO_STORE_ID}"`);
  for (const tag of TAGS) expect(snippet, tag).toContain(`<${tag} `);
  const merchantPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Merchant shop</title></head><body><main><h1>A product</h1>\n${snippet}\n</main></body></html>`;
  // The snippet loads the script from PUBLIC_URL (here http://localhost:<port>).
  const scriptOrigin = /<script async src="([^"]+)\/widgets\/chorus\.js">/.exec(snippet)![1]!;

  // The merchant's shop: another origin (its own server on another port).
  const shopServer = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(merchantPage));
  await new Promise<void>((resolve) => shopServer.listen(0, "127.0.0.1", resolve));
  const shopUrl = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/product`;
  /** Open the merchant page, holding back the requests to Chorus whose path matches `hold` (never answered). */
  const settingsRequests: string[] = [];
  async function openMerchantPage(hold: RegExp | null): Promise<Page> {
    const p = await context.newPage();
    p.on("request", (r) => void (r.url().includes("/widget_settings") && settingsRequests.push(r.url())));
    if (hold)
      await p.route(
        (url) => url.href.startsWith(scriptOrigin) && hold.test(url.pathname),
        () => {},
      );
    await p.setViewportSize({ width: 1000, height: 4000 });
    await p.goto(shopUrl, { waitUntil: "domcontentloaded" }); // a held module script would hold the load event
    await p.waitForTimeout(500);
    return p;
  }
  const heights = (p: Page) => p.evaluate((tags) => Object.fromEntries(tags.map((t) => [t, document.querySelector(t)!.getBoundingClientRect().height])), TAGS);

  // 1. No widget code yet (the modules and shared chunks the loader requests, /widgets/chunks/, held): the boxes the snippet's <style> reserves.
  const before = await openMerchantPage(/^\/widgets\/chunks\//);
  expect(await before.evaluate((tags) => tags.filter((t) => customElements.get(t)), TAGS)).toEqual([]);
  const reserved = await heights(before);
  // 2. Widget code loaded, no data yet: every element in its loading state.
  const loading = await openMerchantPage(/^\/v1\/stores\/[^/]+\/(products|loyalty|reviews|review_media|widget_settings)/);
  const ready = () => loading.evaluate((tags) => tags.filter((t) => !(customElements.get(t) && (document.querySelector(t) as HTMLElement & { hasUpdated?: boolean }).hasUpdated)), TAGS);
  await expect.poll(ready, { timeout: 20_000 }).toEqual([]);
  await loading.waitForTimeout(300);
  const inLoadingState = await heights(loading);
  console.log("reserved", JSON.stringify(reserved), "loading", JSON.stringify(inLoadingState));
  for (const tag of TAGS) expect(Math.abs(reserved[tag]! - inLoadingState[tag]!), `${tag}: reserved ${reserved[tag]} px, loading ${inLoadingState[tag]} px`).toBeLessThanOrEqual(1);
  await before.close();
  await loading.close();

  // 3. Everything answered: the widgets work on the other origin, with the merchant's text and colour.
  settingsRequests.length = 0;
  const live = await openMerchantPage(null);
  await expect(writeReview(live)).toHaveText(TEXT);
  await expect(writeReview(live)).toHaveCSS("color", ACCENT_RGB);
  await expect(live.locator("chorus-reviews [part=card]").first()).toBeVisible();
  await expect(live.locator("chorus-star-rating [part=badge]")).toHaveAttribute("aria-label", /^Rated \d\.\d out of 5, [\d,]+ reviews$/);
  // Seven elements of one store: one settings request, started by the loader.
  expect(settingsRequests).toEqual([`${scriptOrigin}/v1/stores/${DEMO_STORE_ID}/widget_settings?locale=en`]);
  await live.close();
  shopServer.close();

  // Hide the questions widget: gone from the preview, the demo page and the snippet.
  await page.goto(`${ADMIN}/widgets`);
  await page.getByRole("checkbox", { name: /Questions and answers/ }).uncheck();
  await page.getByRole("button", { name: "Save colours and widgets" }).click();
  await expect(page).toHaveURL(/saved=appearance/);
  await expect(writeReview(preview)).toHaveText(TEXT);
  await expect(preview.locator("chorus-questions")).toBeHidden();
  await expect(preview.locator("chorus-reviews")).toBeVisible();
  await shop.reload();
  await expect(writeReview(shop)).toHaveText(TEXT);
  await expect(shop.locator("chorus-questions")).toBeHidden();
  await page.goto(`${ADMIN}/integration`);
  await expect(page.locator("#widget-snippet")).not.toContainText("<chorus-questions");
  await expect(page.locator("#widget-snippet")).toContainText("<chorus-reviews ");
});

test("the widgets page in another language: German texts shown on a German page only", async ({ page, context }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/widgets`);
  await page.getByRole("textbox", { name: "Add a language" }).fill("de");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page).toHaveURL(/lang=de/);
  // Each field shows the widgets' own German text greyed (the shipped translation, issue #23 item 3).
  await expect(page.locator("#text-reviews-writeReview")).toHaveAttribute("placeholder", "Bewertung schreiben");
  // The German texts' parts are new elements (keyed by language): a click on the English part while they replace it
  // would open nothing, so open the part until its field shows.
  const loadMore = page.locator("#text-reviews-loadMore");
  await expect(async () => {
    if (!(await loadMore.isVisible())) await page.getByText("Reviews (<chorus-reviews>)", { exact: true }).click();
    await expect(loadMore).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await loadMore.fill("Mehr Bewertungen anzeigen");
  await page.getByRole("form", { name: "Reviews (<chorus-reviews>)" }).getByRole("button", { name: "Save texts in de" }).click();
  await expect(page).toHaveURL(/lang=de&saved=texts/);
  const preview = page.frameLocator("iframe.widget-preview");
  await expect(preview.locator("chorus-reviews [part=load-more]")).toHaveText("Mehr Bewertungen anzeigen");
  await expectNoAxeViolations(page);
  // The English demo page keeps the English default.
  const shop = await context.newPage();
  const productKey = await preview.locator("chorus-reviews").getAttribute("product-id");
  await shop.goto(`/demo/products/${productKey}`);
  await expect(shop.locator("chorus-reviews [part=load-more]")).toHaveText("Load more reviews");
});

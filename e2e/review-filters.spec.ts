/**
 * `<chorus-reviews>` shopper filters in Chromium on the demo product page (issue #23 item 2): the rating
 * breakdown's rows filter the list and "Clear filters" restores it, the media and verified-buyer toggles, the
 * search box with its `<mark>`ed matches (stemmed forms too), keyboard-only use, and "Load more" under a filter.
 * Each is compared with the storefront API's own answers for the same query (interface 1).
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { ListReviewsResponse, ReviewAggregateResponse } from "../server/contract/storefront.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { run, sql, transaction, values } from "../server/db/database.ts";
import { withE2eDb } from "./e2e-server.ts";

const PRODUCT = "shopify-1078";
const PRODUCT_PAGE = `/demo/products/${PRODUCT}`;
const API = `/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}`;

const widget = (page: Page) => page.locator("chorus-reviews");
const cards = (page: Page) => widget(page).locator("article[part=card]");
const row = (page: Page, stars: number) =>
  widget(page)
    .locator("[part=breakdown-row]")
    .nth(5 - stars);
const ratingsShown = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => Number(/Rated (\d) out of 5/.exec(el.textContent ?? "")?.[1])));
const idsShown = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-review-id")));

/** Open the demo product page and wait until its server-rendered widgets are upgraded and rendered (see e2e/reviews.spec.ts). */
async function gotoHydrated(page: Page): Promise<void> {
  await page.goto(PRODUCT_PAGE);
  await page.waitForFunction(() =>
    [...document.querySelectorAll("*")]
      .filter((e) => e.localName.startsWith("chorus-"))
      .every((e) => customElements.get(e.localName) !== undefined && (e as unknown as { hasUpdated?: boolean }).hasUpdated === true),
  );
  await expect(cards(page)).toHaveCount(25);
}

async function aggregate(page: Page) {
  return ((await (await page.request.get(`${API}/review_aggregate`)).json()) as ReviewAggregateResponse).reviewAggregate;
}

/** The next answer of a reviews list request (start waiting before the action that changes the filters). */
const listLoad = (page: Page) => page.waitForResponse((r) => r.url().includes("/reviews?"));
let loading: Promise<unknown>;

/** Wait until the list request started by the last action (`listLoad`) has answered and its page is shown (not busy). */
async function settled(page: Page, load: Promise<unknown>): Promise<void> {
  await load;
  await expect(widget(page).locator(".results")).toHaveAttribute("aria-busy", "false");
}

/** Press "Load more" (when it is not busy) until `total` cards are shown; then the button is gone. */
async function loadAll(page: Page, total: number): Promise<void> {
  const more = widget(page).locator("[part=load-more]");
  await expect(async () => {
    if ((await more.count()) && (await more.getAttribute("aria-disabled")) === "false") await more.click({ timeout: 1000 }).catch(() => {});
    expect(await cards(page).count()).toBe(total);
  }).toPass({ timeout: 30_000, intervals: [250] });
  await expect(more).toHaveCount(0);
}

test("the breakdown shows the aggregate's counts; a row filters the list to its rating, 'Load more' follows the filter, Clear restores", async ({ page }) => {
  const agg = await aggregate(page);
  const ones = agg.reviewCountByLevel.level1Count;
  expect(ones, "the demo product has more 1-star reviews than one page").toBeGreaterThan(25);
  await gotoHydrated(page);
  await expectNoAxeViolations(page);
  const all = await idsShown(page);
  for (const stars of [5, 4, 3, 2, 1]) {
    const count = agg.reviewCountByLevel[`level${stars}Count` as keyof typeof agg.reviewCountByLevel];
    await expect(row(page, stars)).toHaveAccessibleName(`${stars} out of 5 stars: ${count} ${count === 1 ? "review" : "reviews"}`);
    await expect(row(page, stars)).toHaveAttribute("aria-pressed", "false");
    await expect(row(page, stars).locator(".count")).toHaveText(count.toLocaleString("en"));
  }
  loading = listLoad(page);
  await row(page, 1).click();
  await expect(row(page, 1)).toHaveAttribute("aria-pressed", "true");
  await settled(page, loading);
  await expect.poll(() => ratingsShown(page)).toEqual(Array(25).fill(1));
  await expect(widget(page).locator("[role=status]")).toHaveText("25 reviews shown");
  const api = (await (await page.request.get(`${API}/reviews?limit=25&orderBy=date%20desc&rating=1`)).json()) as ListReviewsResponse;
  expect(await idsShown(page)).toEqual(api.reviews.map((r) => r.reviewId));
  // "Load more" keeps the filter: every 1-star review, as many as the bar says.
  await loadAll(page, ones);
  const ratings = await ratingsShown(page);
  expect(new Set(ratings)).toEqual(new Set([1]));
  await expectNoAxeViolations(page);
  // Two rows combine (rating=1,2).
  loading = listLoad(page);
  await row(page, 2).click();
  await settled(page, loading);
  await loadAll(page, ones + agg.reviewCountByLevel.level2Count);
  expect(new Set(await ratingsShown(page))).toEqual(new Set([1, 2]));
  loading = listLoad(page);
  await widget(page).getByRole("button", { name: "Clear filters" }).click();
  await settled(page, loading);
  await expect(row(page, 1)).toHaveAttribute("aria-pressed", "false");
  await expect.poll(() => idsShown(page)).toEqual(all);
  await expect(widget(page).getByRole("button", { name: "Clear filters" })).toHaveCount(0);
});

test("'With photos/videos' and 'Verified buyers' filter the list as the API does", async ({ page }) => {
  const media = (await (await page.request.get(`${API}/reviews?limit=25&orderBy=date%20desc&media=any`)).json()) as ListReviewsResponse;
  expect(media.reviews.length).toBeGreaterThan(0);
  expect(media.reviews.every((r) => r.media.length > 0)).toBe(true);
  await gotoHydrated(page);
  const mediaChip = widget(page).getByRole("button", { name: "With photos/videos" });
  loading = listLoad(page);
  await mediaChip.click();
  await expect(mediaChip).toHaveAttribute("aria-pressed", "true");
  await settled(page, loading);
  await expect.poll(() => idsShown(page)).toEqual(media.reviews.map((r) => r.reviewId));
  for (const card of await cards(page).all()) await expect(card.locator("[part=media-thumbnail]").first()).toBeVisible();
  loading = listLoad(page);
  await mediaChip.click();
  await settled(page, loading);
  const verifiedChip = widget(page).getByRole("button", { name: "Verified buyers" });
  loading = listLoad(page);
  await verifiedChip.click();
  await settled(page, loading);
  await expect(cards(page)).toHaveCount(25);
  for (const badge of await cards(page).locator("[part=verified-badge]").all()) await expect(badge).toHaveText("Verified buyer");
  await expect(cards(page).locator("[part=verified-badge]")).toHaveCount(25);
  await expectNoAxeViolations(page);
});

/** The text of every `<mark>` in the shown cards. */
const marks = (page: Page) => widget(page).locator("mark[part=match]").allTextContents();

test("search highlights the matched words (stemmed forms too) with <mark>, keeps the typed text, and says when nothing matches", async ({ page }) => {
  const api = (await (await page.request.get(`${API}/reviews?limit=25&orderBy=date%20desc&search=comfort`)).json()) as ListReviewsResponse;
  expect(api.reviews.length).toBeGreaterThan(0);
  await gotoHydrated(page);
  const box = widget(page).getByRole("searchbox", { name: "Search reviews" });
  await box.fill("comfort");
  // Applied after a pause in typing, without Enter.
  await expect.poll(() => idsShown(page), { timeout: 10_000 }).toEqual(api.reviews.map((r) => r.reviewId));
  const found = (await marks(page)).map((m) => m.toLowerCase());
  expect(found.length).toBeGreaterThan(0);
  expect(
    found.every((m) => m.startsWith("comfort")),
    found.join(),
  ).toBe(true);
  expect(
    found.some((m) => m !== "comfort"),
    `stemmed forms such as "comfortable": ${found.join()}`,
  ).toBe(true);
  // The card's text is the review's text exactly: the marks only wrap slices of it.
  const first = cards(page).first().locator("[part=body]");
  const body = api.reviews[0].body.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  await expect(first).toHaveText(body);
  await expectNoAxeViolations(page);

  await box.fill("zzqxv");
  loading = listLoad(page);
  await box.press("Enter");
  await settled(page, loading);
  await expect(cards(page)).toHaveCount(0);
  const empty = widget(page).locator("[part=empty]");
  await expect(empty).toContainText("No reviews match your search or filters.");
  await empty.getByRole("button", { name: "Clear filters" }).click();
  await expect(cards(page)).toHaveCount(25);
  await expect(box).toHaveValue("");
  await expect(box).toBeFocused();
});

test("keyboard only: Tab to a breakdown row, Space filters; type a search, Enter applies, the clear button clears", async ({ page }) => {
  await gotoHydrated(page);
  const all = await idsShown(page);
  await row(page, 5).focus();
  await page.keyboard.press("Tab");
  await expect(row(page, 4)).toBeFocused();
  loading = listLoad(page);
  await page.keyboard.press("Space");
  await expect(row(page, 4)).toHaveAttribute("aria-pressed", "true");
  await settled(page, loading);
  await expect.poll(() => ratingsShown(page)).toEqual(Array(25).fill(4));
  loading = listLoad(page);
  await page.keyboard.press("Enter");
  await expect(row(page, 4)).toHaveAttribute("aria-pressed", "false");
  await settled(page, loading);
  await expect.poll(() => idsShown(page)).toEqual(all);
  // Tab on to the search box and search with Enter.
  for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
  const box = widget(page).getByRole("searchbox", { name: "Search reviews" });
  await expect(box).toBeFocused();
  await page.keyboard.type("fabric");
  loading = listLoad(page);
  await page.keyboard.press("Enter");
  await settled(page, loading);
  await expect.poll(async () => (await marks(page)).length).toBeGreaterThan(0);
  await page.keyboard.press("Tab");
  const clear = widget(page).getByRole("button", { name: "Clear search" });
  await expect(clear).toBeFocused();
  loading = listLoad(page);
  await page.keyboard.press("Enter");
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("");
  await settled(page, loading);
  await expect.poll(() => idsShown(page)).toEqual(all);
});

/** Review cards with product attributes and a rated attribute, in the shapes of the API (a routed answer: the demo data has none). */
test("a card shows the review's product attributes and its attribute scale between the labels", async ({ page }) => {
  let served: ListReviewsResponse | undefined;
  await page.route(/\/reviews\?limit=25&orderBy=date\+desc&rating=3$/, async (route) => {
    const res = await route.fetch();
    served = (await res.json()) as ListReviewsResponse;
    served.reviews[0] = {
      ...served.reviews[0],
      productAttributes: [{ title: "Size bought", type: "single-value", value: "M" }],
      attributesWithRating: [{ title: "Fit", type: "centered-range", value: 1, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }],
    };
    await route.fulfill({ response: res, json: served });
  });
  await gotoHydrated(page);
  loading = listLoad(page);
  await row(page, 3).click();
  await settled(page, loading);
  await expect.poll(() => served !== undefined).toBe(true);
  const card = cards(page).first();
  await expect(card.locator("[part=attributes]")).toHaveText("Size bought: M");
  // The accessible text names the label nearest the value; the bar between the end labels is filled to it (value 1 of -1..1: full).
  const scale: Locator = card.locator("[part=attribute-scale]");
  await expect(scale).toContainText("Fit: Runs large");
  await expect(scale.locator("[aria-hidden=true]")).toContainText("Runs small");
  expect(await scale.locator(".bar span").evaluate((el) => (el as HTMLElement).style.width)).toBe("100%");
  await expectNoAxeViolations(page, "chorus-reviews");
});

test("a product whose reviews have attributes gets a select per attribute; a value filters by it (shopperAttributes)", async ({ page }) => {
  // A demo product no other spec opens: its three newest reviews get a "Size bought" (the demo data has none).
  const product = "829";
  const scope = `/v1/stores/${DEMO_STORE_ID}/products/shopify-${product}`;
  const sized = await withE2eDb((db) =>
    transaction(db, async () => {
      const ids = await values<string>(db, sql`SELECT review_id FROM reviews WHERE product_id = ${product} AND status = 'published' ORDER BY created_ms DESC LIMIT 3`);
      for (const [i, id] of ids.entries()) {
        await run(db, sql`UPDATE reviews SET product_attributes_json = ${JSON.stringify([{ title: "Size bought", type: "single-value", value: i === 1 ? "L" : "M" }])} WHERE review_id = ${id}`);
      }
      return ids;
    }),
  );
  expect((await (await page.request.get(`${scope}/attributes`)).json()).productAttributes).toEqual([{ title: "Size bought", options: ["L", "M"], target: "general" }]);
  await page.goto(`/demo/products/shopify-${product}`);
  await page.waitForFunction(() => (document.querySelector("chorus-reviews") as unknown as { hasUpdated?: boolean } | null)?.hasUpdated === true);
  const select = widget(page).locator("select[part=attribute-filter]");
  await expect(select).toHaveCount(1);
  await expect(select.locator("option")).toHaveText(["All", "L", "M"]);
  loading = listLoad(page);
  await select.selectOption("M");
  await settled(page, loading);
  expect(new URL(((await loading) as { url(): string }).url()).searchParams.get("shopperAttributes")).toBe("Size bought,M");
  await expect.poll(() => idsShown(page)).toEqual([sized[0], sized[2]]);
  await expect(cards(page).locator("[part=attributes]")).toHaveText(["Size bought: M", "Size bought: M"]);
  await expectNoAxeViolations(page, "chorus-reviews");
  loading = listLoad(page);
  await widget(page).getByRole("button", { name: "Clear filters" }).click();
  await settled(page, loading);
  await expect(cards(page)).toHaveCount(25);
  await expect(select).toHaveValue("");
});

/**
 * Server-rendered snippets on the demo product page (issue #25), in Chromium:
 * - with JavaScript off, the star rating, the first reviews and the questions are on the page (declarative
 *   shadow DOM), and the product's JSON-LD is in it;
 * - with JavaScript on, the same elements upgrade in place: no request for what the page already holds
 *   (first page of reviews, the aggregate, the first questions), no layout shift at all (layout-shift
 *   entries), and they work afterwards (sort, vote, load more); axe finds nothing.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const PRODUCT = "shopify-1078";
const PAGE = `/demo/products/${PRODUCT}`;
const API = `/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}`;
const cards = (page: Page) => page.locator("chorus-reviews article[part=card]");

test("without JavaScript the rating, the first reviews, the questions and the JSON-LD are on the page", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(PAGE);
  const { reviewAggregate } = await (await request.get(`${API}/review_aggregate`)).json();
  const average = (Math.round(reviewAggregate.averageRating * 10 + Number.EPSILON) / 10).toFixed(1);
  await expect(page.locator("chorus-star-rating").getByRole("img", { name: new RegExp(`^Rated ${average} out of 5`) })).toBeVisible();
  await expect(page.locator("chorus-star-rating [part=average]")).toHaveText(average);
  const first = await (await request.get(`${API}/reviews?limit=25&orderBy=date+desc`)).json();
  await expect(cards(page)).toHaveCount(first.reviews.length);
  await expect(cards(page).first()).toBeVisible();
  expect(await cards(page).evaluateAll((list) => list.map((a) => a.getAttribute("data-review-id")))).toEqual(first.reviews.map((r: { reviewId: string }) => r.reviewId));
  const titled = first.reviews.find((r: { title: string }) => r.title);
  if (titled) await expect(page.locator("chorus-reviews h3[part=title]", { hasText: titled.title }).first()).toBeVisible();
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld.aggregateRating.reviewCount).toBe(reviewAggregate.reviewCount);
  await context.close();
});

test("with JavaScript the elements become interactive in place: no request for the first page, no layout shift", async ({ page }) => {
  await page.addInitScript(() => {
    const shifts: number[] = ((window as unknown as { __shifts: number[] }).__shifts = []);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) shifts.push(entry.value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  const requested: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/v1/")) requested.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  await page.goto(PAGE);
  await expect(cards(page)).toHaveCount(25);
  const upgraded = () =>
    page.evaluate(() => ["chorus-star-rating", "chorus-reviews", "chorus-questions"].every((tag) => (document.querySelector(tag) as (Element & { hasUpdated?: boolean }) | null)?.hasUpdated === true));
  await expect.poll(upgraded, { timeout: 20_000 }).toBe(true);
  await page.waitForTimeout(500); // any late render would shift now
  // The server's nodes were replaced, not added to: one list of 25 cards, one toolbar.
  await expect(cards(page)).toHaveCount(25);
  await expect(page.locator("chorus-reviews [part=toolbar]")).toHaveCount(1);
  await expect(page.locator("chorus-star-rating [part=badge]")).toHaveCount(1);
  expect(requested.filter((r) => r.startsWith(`GET ${API}/reviews?`) || r.startsWith(`GET ${API}/review_aggregate`) || r.startsWith(`GET ${API}/questions`))).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts)).toEqual([]);
  await expectNoAxeViolations(page);

  // Interactive: load more, vote, sort.
  await page.getByRole("button", { name: "Load more reviews" }).click();
  await expect(cards(page)).toHaveCount(50);
  const vote = page.waitForResponse((r) => r.url().includes("/votes") && r.request().method() === "POST");
  // A card of the second page: the other specs vote on the first reviews from this same address (one counted vote per address and review).
  const card = cards(page).nth(37);
  await card.getByRole("button", { name: /^Helpful/ }).click();
  expect((await vote).status()).toBe(200);
  await expect(card.getByRole("button", { name: /^Thanks for your vote/ })).toBeVisible();
  const sorted = page.waitForRequest((r) => r.url().includes(`/products/${PRODUCT}/reviews?`) && new URL(r.url()).searchParams.get("orderBy") === "rating asc");
  await page.locator("chorus-reviews select[part=sort]").selectOption("rating asc");
  await sorted;
  const lowest = await (await page.request.get(`${API}/reviews?orderBy=rating%20asc`)).json();
  await expect.poll(() => cards(page).first().getAttribute("data-review-id")).toBe(lowest.reviews[0].reviewId);
  await expectNoAxeViolations(page);
});

/**
 * The demo storefront in Chromium: `<chorus-reviews>` and `<chorus-star-rating>` on real demo data,
 * compared with the storefront API's own answers (docs/api.md, Endpoints and scopes), plus a merchant page on
 * another origin that loads /widgets/chorus.js, and axe scans of the demo pages.
 */
import { expect, test, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ListReviewsResponse, ReviewAggregateResponse } from "../server/contract/storefront.ts";
import { formatRating } from "../widgets/internal/rating.ts";
import { decodeHtmlText } from "../widgets/internal/html-text.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";

const PRODUCT = "shopify-1078";
const PRODUCT_PAGE = `/demo/products/${PRODUCT}`;
const API = `/v1/stores/${DEMO_STORE_ID}`;

const cards = (page: Page) => page.locator("chorus-reviews article[part=card]");
const cardIds = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-review-id")));
const ratingName = (average: number, count: number) => `Rated ${formatRating(average)} out of 5, ${count.toLocaleString("en")} ${count === 1 ? "review" : "reviews"}`;

/**
 * Open a page with server-rendered widgets and wait until every chorus-* element on it is upgraded and has
 * rendered once in the browser (hydrated): before that, the server's markup is inert, and a click or key
 * press on it does nothing (progressive enhancement), so a test acting at once would race the upgrade.
 */
async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() =>
    [...document.querySelectorAll("*")]
      .filter((e) => e.localName.startsWith("chorus-"))
      .every((e) => customElements.get(e.localName) !== undefined && (e as unknown as { hasUpdated?: boolean }).hasUpdated === true),
  );
}

test("the product page shows the product's real reviews in the API's order", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/products/${PRODUCT}/reviews`)).json()) as ListReviewsResponse;
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dresses #1078");
  await expect(cards(page)).toHaveCount(25);
  const first = cards(page).first();
  const review = api.reviews[0];
  if (review.title) await expect(first.locator("[part=title]")).toHaveText(review.title);
  // The API serves the body safe as HTML (docs/api.md, Okendo-compatible); the widget shows the text as typed.
  await expect(first.locator("[part=body]")).toHaveText(decodeHtmlText(review.body));
  await expect(first).toContainText(`Rated ${review.rating} out of 5`);
  await expect(first.locator("[part=reviewer]")).toHaveText(review.reviewer.displayName);
  await expect.poll(() => cardIds(page)).toEqual(api.reviews.map((r) => r.reviewId));
});

test("choosing 'Lowest rating' reorders the cards as the API orders rating asc", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/products/${PRODUCT}/reviews?orderBy=rating%20asc`)).json()) as ListReviewsResponse;
  expect(api.reviews[0].rating).toBe(1);
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  const sort = page.getByLabel("Sort reviews by");
  await expect(sort.locator("option")).toHaveText(["Newest", "Oldest", "Highest rating", "Lowest rating", "Most helpful", "Least helpful", "With photos first"]);
  await sort.selectOption({ label: "Lowest rating" });
  await expect(cards(page).first()).toHaveAttribute("data-review-id", api.reviews[0].reviewId);
  await expect(cards(page).first()).toContainText("Rated 1 out of 5");
  await expect.poll(() => cardIds(page)).toEqual(api.reviews.map((r) => r.reviewId));
});

test("'Load more' appends the next page without duplicates and announces it", async ({ page, request }) => {
  const first = (await (await request.get(`${API}/products/${PRODUCT}/reviews`)).json()) as ListReviewsResponse;
  const second = (await (await request.get(`/v1${first.nextUrl}`)).json()) as ListReviewsResponse;
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  await page.getByRole("button", { name: "Load more reviews" }).click();
  await expect(cards(page)).toHaveCount(50);
  const ids = await cardIds(page);
  expect(new Set(ids).size).toBe(50);
  expect(ids).toEqual([...first.reviews, ...second.reviews].map((r) => r.reviewId));
  await expect(page.locator("chorus-reviews [role=status]")).toHaveText("25 more reviews loaded");
  // Focus moves to the first new review, so keyboard users read on from there.
  expect(await page.evaluate(() => document.querySelector("chorus-reviews")!.shadowRoot!.activeElement?.getAttribute("data-review-id"))).toBe(second.reviews[0].reviewId);
});

test("the star badge shows the review aggregate's average (one decimal) and count", async ({ page, request }) => {
  const { reviewAggregate } = (await (await request.get(`${API}/products/${PRODUCT}/review_aggregate`)).json()) as ReviewAggregateResponse;
  expect(reviewAggregate.reviewCount).toBeGreaterThan(100);
  await gotoHydrated(page, PRODUCT_PAGE);
  const badge = page.locator("chorus-star-rating").getByRole("img");
  await expect(badge).toHaveAccessibleName(ratingName(reviewAggregate.averageRating, reviewAggregate.reviewCount));
  await expect(page.locator("chorus-star-rating [part=average]")).toHaveText(formatRating(reviewAggregate.averageRating));
  await expect(page.locator("chorus-star-rating [part=count]")).toHaveText(`(${reviewAggregate.reviewCount.toLocaleString("en")} reviews)`);
  await expect(page.locator("chorus-star-rating").getByRole("link")).toHaveAttribute("href", "#reviews");
});

test("a product without reviews gets no visible badge, or 'No reviews yet' with show-empty", async ({ page, request }) => {
  const empty = "shopify-999999999";
  const { reviewAggregate } = (await (await request.get(`${API}/products/${empty}/review_aggregate`)).json()) as ReviewAggregateResponse;
  expect(reviewAggregate.reviewCount).toBe(0);
  await page.goto("/demo");
  await page.evaluate(
    ([store, product]) => {
      for (const showEmpty of [false, true]) {
        const el = document.createElement("chorus-star-rating");
        el.setAttribute("store-id", store);
        el.setAttribute("product-id", product);
        el.id = showEmpty ? "with-empty" : "without-empty";
        if (showEmpty) el.setAttribute("show-empty", "");
        document.querySelector("main")!.append(el);
      }
    },
    [DEMO_STORE_ID, empty],
  );
  await expect(page.locator("#without-empty")).toHaveAttribute("state", "empty");
  await expect(page.locator("#without-empty")).toBeHidden();
  await expect(page.locator("#with-empty")).toHaveText("No reviews yet");
});

test("the sort control, Load more and Write a review work from the keyboard", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/products/${PRODUCT}/reviews?orderBy=date%20asc`)).json()) as ListReviewsResponse;
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  await page.getByLabel("Sort reviews by").focus();
  await page.keyboard.press("ArrowDown"); // Newest → Oldest
  await expect(page.getByLabel("Sort reviews by")).toHaveValue("date asc");
  await expect(cards(page).first()).toHaveAttribute("data-review-id", api.reviews[0].reviewId);

  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Write a review" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Write a review" })).toHaveAttribute("aria-expanded", "true");
  const form = page.locator(`chorus-reviews chorus-review-form[product-id="${PRODUCT}"][store-id="${DEMO_STORE_ID}"]`);
  await expect(form).toBeAttached();
  // Focus moves into the form region (once the lazily loaded form has rendered).
  await expect
    .poll(() =>
      page.evaluate(() => {
        const active = document.querySelector("chorus-reviews")!.shadowRoot!.activeElement;
        return active?.closest(".form-region") !== null || active?.localName === "chorus-review-form";
      }),
    )
    .toBe(true);

  await page.getByRole("button", { name: "Load more reviews" }).focus();
  await page.keyboard.press("Enter");
  await expect(cards(page)).toHaveCount(50);
});

test("elements added to the page after load are upgraded", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/products/shopify-862/reviews?limit=5`)).json()) as ListReviewsResponse;
  await page.goto("/demo");
  await expect(page.locator("chorus-star-rating").first()).toHaveAttribute("state", "ready");
  await page.evaluate((store) => {
    const el = document.createElement("chorus-reviews");
    el.setAttribute("store-id", store);
    el.setAttribute("product-id", "shopify-862");
    el.setAttribute("page-size", "5");
    document.querySelector("main")!.append(el);
  }, DEMO_STORE_ID);
  await expect(cards(page)).toHaveCount(5);
  await expect.poll(() => cardIds(page)).toEqual(api.reviews.map((r) => r.reviewId));
});

test("a failed load shows an error with Retry, and Retry loads the reviews", async ({ page }) => {
  let fail = true;
  await page.route(
    (url) => url.pathname === `${API}/products/${PRODUCT}/reviews`,
    (route) => (fail ? route.abort("connectionrefused") : route.continue()),
  );
  await page.goto(`${PRODUCT_PAGE}?snippets=off`); // the widgets rendered in the browser (the page has server-rendered snippets)
  const error = page.locator("chorus-reviews [part=error]");
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute("role", "alert");
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(cards(page)).toHaveCount(25);
  await expect(error).toHaveCount(0);
});

test("while the first page loads, the list is busy and keeps its height", async ({ page }) => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === `${API}/products/${PRODUCT}/reviews`,
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  await page.goto(`${PRODUCT_PAGE}?snippets=off`); // the widgets rendered in the browser (the page has server-rendered snippets)
  const results = page.locator("chorus-reviews .results");
  await expect(results).toHaveAttribute("aria-busy", "true");
  // The header, filters and placeholders fill the reserved box: 28rem (docs/widgets.md, Reserved space).
  expect((await page.locator("chorus-reviews .box").boundingBox())!.height).toBeCloseTo(28 * 16, 0);
  release();
  await expect(cards(page)).toHaveCount(25);
  await expect(results).toHaveAttribute("aria-busy", "false");
});

test("a failed helpful vote shows an inline error and the list keeps working", async ({ page }) => {
  await page.route(
    (url) => url.pathname.startsWith(`${API}/reviews/`) && url.pathname.endsWith("/votes"),
    (route) => route.abort("connectionrefused"),
  );
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  const card = cards(page).first();
  await card.getByRole("button", { name: /^Helpful/ }).click();
  await expect(card.locator("[part=vote-error]")).toContainText("Your vote could not be saved");
  await expect(card.getByRole("button", { name: /^Helpful/ })).toHaveAttribute("aria-disabled", "false");
  await expect(cards(page)).toHaveCount(25);
});

test("a helpful vote shows the counts the votes endpoint answers", async ({ page, request }) => {
  const api = (await (await request.get(`${API}/products/${PRODUCT}/reviews?limit=1`)).json()) as ListReviewsResponse;
  await gotoHydrated(page, PRODUCT_PAGE);
  const card = page.locator(`chorus-reviews article[data-review-id="${api.reviews[0].reviewId}"]`);
  const answer = page.waitForResponse((r) => r.url().endsWith(`/reviews/${api.reviews[0].reviewId}/votes`));
  await card.getByRole("button", { name: /^Helpful/ }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  const counts = (await response.json()) as { helpfulCount: number };
  await expect(card.locator("[part=helpful-count]")).toHaveText(`${counts.helpfulCount.toLocaleString("en")} ${counts.helpfulCount === 1 ? "person" : "people"} found this helpful`);
  await expect(card.getByRole("button", { name: /^Thanks for your vote/ })).toHaveAttribute("aria-disabled", "true");
});

test("a chorus-keyword-selected event for this product reloads the list with that keyword", async ({ page }) => {
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  const other = page
    .waitForRequest((r) => r.url().includes("keyword=zipper"), { timeout: 1500 })
    .then(
      () => true,
      () => false,
    );
  await page.evaluate((store) => document.dispatchEvent(new CustomEvent("chorus-keyword-selected", { detail: { keyword: "zipper", storeId: store, productId: "shopify-862" } })), DEMO_STORE_ID);
  expect(await other).toBe(false);
  const matching = page.waitForRequest((r) => r.url().includes(`/products/${PRODUCT}/reviews?`) && new URL(r.url()).searchParams.get("keyword") === "fabric");
  await page.evaluate(
    ([store, product]) => document.dispatchEvent(new CustomEvent("chorus-keyword-selected", { detail: { keyword: "fabric", storeId: store, productId: product } })),
    [DEMO_STORE_ID, PRODUCT],
  );
  await matching;
  await expect(page.locator("chorus-reviews")).toHaveAttribute("keyword", "fabric");
});

test.describe("a merchant page on another origin", () => {
  let merchant: Server;
  let merchantUrl = "";
  test.beforeAll(async ({ baseURL }) => {
    const chorus = baseURL!;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Merchant shop</title>
<script async src="${chorus}/widgets/chorus.js"></script></head>
<body><main><h1>A merchant's product</h1>
<chorus-star-rating store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-star-rating>
<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" page-size="10"></chorus-reviews>
</main></body></html>`;
    merchant = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html);
    });
    await new Promise<void>((resolve) => merchant.listen(0, "127.0.0.1", resolve));
    merchantUrl = `http://localhost:${(merchant.address() as AddressInfo).port}/`;
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => merchant.close(() => resolve()));
  });

  test("renders the widgets with the API of the script's origin (CORS)", async ({ page, request, baseURL }) => {
    const { reviewAggregate } = (await (await request.get(`${API}/products/${PRODUCT}/review_aggregate`)).json()) as ReviewAggregateResponse;
    const apiRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/v1/")) apiRequests.push(r.url());
    });
    await page.goto(merchantUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(baseURL!).origin);
    await expect(cards(page)).toHaveCount(10);
    await expect(page.locator("chorus-star-rating").getByRole("img")).toHaveAccessibleName(ratingName(reviewAggregate.averageRating, reviewAggregate.reviewCount));
    expect(apiRequests.length).toBeGreaterThan(0);
    for (const url of apiRequests) expect(url.startsWith(`${baseURL}/v1/stores/${DEMO_STORE_ID}/`)).toBe(true);
  });
});

test("unknown demo products answer a 404 page", async ({ request }) => {
  const res = await request.get("/demo/products/shopify-no-such-product");
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).toContain("text/html");
  expect(await res.text()).toContain("Product not found");
});

test("the demo index lists the 24 most reviewed products and passes axe", async ({ page }) => {
  await page.goto("/demo");
  const links = page.locator("tbody a");
  await expect(links).toHaveCount(24);
  await expect(links.first()).toHaveAttribute("href", PRODUCT_PAGE);
  await expect(page.locator("chorus-star-rating").first()).toHaveAttribute("state", "ready");
  // The store's recent reviews (four stars and more) in the carousel.
  await expect(page.locator("chorus-reviews-carousel [aria-roledescription=slide]").first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the widgets' loading states pass axe (their answers held back)", async ({ page }) => {
  // Hold every storefront read, so each widget stays in its loading state while axe checks the page.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith(`${API}/`),
    async (route) => {
      await held;
      await route.continue().catch(() => {});
    },
  );
  await page.goto(`${PRODUCT_PAGE}?snippets=off`); // the widgets rendered in the browser (the page has server-rendered snippets)
  await expect(page.locator("chorus-questions [aria-busy=true]")).toHaveCount(1);
  await expectNoAxeViolations(page);
  release();
});

test("the product page passes axe after the widgets render", async ({ page }) => {
  await gotoHydrated(page, PRODUCT_PAGE);
  await expect(cards(page)).toHaveCount(25);
  await expect(page.locator("chorus-star-rating")).toHaveAttribute("state", "ready");
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Load more reviews" }).click();
  await expect(cards(page)).toHaveCount(50);
  await expectNoAxeViolations(page);
});

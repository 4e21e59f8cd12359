/**
 * Okendo wire compatibility (issue #23 item 1, docs/api.md, Okendo-compatible) in Chromium: Okendo's published Vue client
 * (`@okendo/okendo-widgets-vue` 1.5.1, a devDependency, bundled here with esbuild from e2e/okendo/entry.mjs)
 * on a page whose `https://api.okendo.io/v1/**` requests are routed to this server's `/v1`. It shows the
 * star badge, the rating breakdown, the recommendation share, the reviews in every order it offers, "Show
 * more", votes, the media gallery with its review, the attribute filters and the questions widget with
 * votes, with no console error; a review body with an `<img onerror>` runs nothing there (served safe as
 * HTML), while our own widget shows the text exactly as typed.
 */
import { expect, test, type Page } from "@playwright/test";
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { all, run, sql, transaction } from "../server/db/database.ts";
import { createServices } from "../server/services.ts";
import { DEMO_STORE_ID } from "./axe.ts";
import { E2E_DB_DIR } from "./e2e-server.ts";

const PRODUCT_ID = "9001";
const PRODUCT = `shopify-${PRODUCT_ID}`;
const PAGE_PATH = "/okendo-compat-test/index.html";
const OKENDO_DIST = join(process.cwd(), "node_modules/@okendo/okendo-widgets-vue/dist");
const XSS_BODY = `Hostile <img src=x onerror="window.__okendoXss=1"> & "quoted" text`;
const ANSWER = `Not at all & it's <lined>`;

/** The seeded reviews: title, rating, recommends, helpful, unhelpful, size bought, fit (-2..2). Newest first. */
const REVIEWS = [
  { title: "R1 perfect linen", rating: 5, rec: true, up: 9, down: 0, size: "M", fit: 0 },
  { title: "R2 runs large", rating: 4, rec: true, up: 3, down: 4, size: "L", fit: 1 },
  { title: "R3 lovely", rating: 5, rec: true, up: 1, down: 0, size: "S", fit: -1 },
  { title: "R4 disappointed", rating: 2, rec: false, up: 0, down: 6, size: "M", fit: null },
  { title: "R5 hostile", rating: 3, rec: null, up: 2, down: 1, size: null, fit: null },
  { title: "R6 poor", rating: 1, rec: false, up: 0, down: 2, size: "L", fit: null },
  { title: "R7 good value", rating: 4, rec: true, up: 5, down: 0, size: "S", fit: null },
] as const;
const ids: string[] = [];
let bundle = "";

test.beforeAll(async () => {
  const services = await createServices({ databasePath: `${E2E_DB_DIR}/chorus.sqlite`, mediaPath: `${E2E_DB_DIR}/media` });
  const { db } = services;
  try {
    await services.stores.upsertProduct({ storeId: DEMO_STORE_ID, productId: PRODUCT_ID, name: "Okendo Linen Shirt" });
    // Two of the demo's generated swatches, attached to R1 (the files exist under the media route).
    const swatches = await all<{ thumbnail_url: string; large_url: string; full_size_url: string }>(
      db,
      sql`SELECT thumbnail_url, large_url, full_size_url FROM review_media WHERE store_id = ${DEMO_STORE_ID} AND status = 'published' AND type = 'image' LIMIT 2`,
    );
    const base = Date.now();
    await transaction(db, async () => {
      for (const [i, r] of REVIEWS.entries()) {
        const reviewId = crypto.randomUUID();
        ids.push(reviewId);
        await services.reviewsData.insert({
          reviewId,
          storeId: DEMO_STORE_ID,
          productId: PRODUCT_ID,
          rating: r.rating,
          title: r.title,
          body: i === 4 ? XSS_BODY : `${r.title}: body text.`,
          createdMs: base - i * 60_000,
          status: "published",
          reviewerName: `Shopper ${i + 1}`,
          isRecommended: r.rec,
          helpfulCount: r.up,
          unhelpfulCount: r.down,
          productAttributes: r.size ? [{ title: "Size bought", type: "single-value", value: r.size }] : undefined,
        });
        if (r.fit !== null) {
          const attributes = JSON.stringify([{ title: "Fit", type: "centered-range", value: r.fit, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" }]);
          await run(db, sql`UPDATE reviews SET attributes_with_rating_json = ${attributes} WHERE review_id = ${reviewId}`);
        }
      }
      await run(db, sql`UPDATE reviews SET reply_body = ${"Thanks <b>for</b> telling us"}, reply_created_ms = ${base} WHERE review_id = ${ids[4]}`);
      for (const [position, s] of swatches.entries()) {
        await run(
          db,
          sql`INSERT INTO review_media (media_id, store_id, review_id, product_id, type, status, alt, thumbnail_url, large_url, full_size_url, position, created_ms)
          VALUES (${crypto.randomUUID()}, ${DEMO_STORE_ID}, ${ids[0]}, ${PRODUCT_ID}, 'image', 'published', 'A colour swatch', ${s.thumbnail_url}, ${s.large_url}, ${s.full_size_url}, ${position}, ${base - position})`,
        );
      }
    });
    const questionId = crypto.randomUUID();
    await services.questionsData.insertQuestion({
      questionId,
      storeId: DEMO_STORE_ID,
      productId: PRODUCT_ID,
      body: "Is the linen see-through?",
      askerName: "Grace H.",
      status: "published",
      createdMs: base,
    });
    await services.questions.answerAsStore({ storeId: DEMO_STORE_ID, questionId, body: ANSWER, authorName: "Chorus Demo Boutique", status: "published" });
  } finally {
    await services.close();
  }
  const out = await build({
    entryPoints: [join(process.cwd(), "e2e/okendo/entry.mjs")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  bundle = out.outputFiles[0]!.text;
});

/** Open the Okendo client on a page of this server's origin, its API routed here; returns the console errors seen. */
async function openOkendo(page: Page, baseURL: string): Promise<string[]> {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("response", (r) => {
    if (r.status() >= 400 && !r.url().includes("/vote")) errors.push(`${r.status()} ${r.url()}`);
  });
  // Media URLs are absolute on the server's public origin: routed too (a routed page may not reach loopback addresses itself).
  await page.route(/\/media\//, async (route) => route.fulfill({ response: await route.fetch() }));
  await page.route("https://api.okendo.io/v1/**", async (route) => {
    const url = route.request().url().replace("https://api.okendo.io", baseURL);
    const response = await route.fetch({ url });
    await route.fulfill({ response });
  });
  const css = readFileSync(join(OKENDO_DIST, "css/main.min.css"), "utf8");
  await page.route(`${baseURL}${PAGE_PATH}`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Okendo client</title><link rel="icon" href="data:,"><style>${css}</style></head>
      <body><div id="app"></div><script>window.__okendoTest = ${JSON.stringify({ subscriberId: DEMO_STORE_ID, productId: PRODUCT_ID })};</script>
      <script>${bundle.replace(/<\/script/gi, "<\\/script")}</script></body></html>`,
    }),
  );
  // The client's stylesheet refers to its own images and flags (../images, ../icons of the page).
  await page.route(new RegExp(`^${baseURL}/(images|icons)/[\\w.-]+\\.(svg|gif|png)$`), (route) => {
    const path = new URL(route.request().url()).pathname;
    void route.fulfill({ contentType: path.endsWith(".svg") ? "image/svg+xml" : `image/${path.split(".").pop()}`, body: readFileSync(join(OKENDO_DIST, path)) });
  });
  await page.goto(PAGE_PATH);
  return errors;
}

const titles = (page: Page) => page.locator("#reviews .okeReviews-reviews-main .okeReviews-review-main-heading");
const byTitle = (order: number[]) => order.map((i) => REVIEWS[i - 1]!.title);

test("Okendo's Vue client shows badge, breakdown, recommendation, every order, Show more, votes, gallery, filters and questions", async ({ page, baseURL, request }) => {
  const errors = await openOkendo(page, baseURL!);
  // Star badge: 24 / 7 = 3.4 stars, 7 reviews.
  const badge = page.locator("#badge .okeReviews-reviewsSummary");
  await expect(badge).toContainText("7 Reviews");
  await expect(badge.locator(".okeReviews-a11yText").first()).toHaveText("Rated 3.4 out of 5");
  // Summary: average, count, rating breakdown, recommendation share (4 of 7 = 57%), attribute averages.
  const aggregate = page.locator("#reviews .okeReviews-reviewsAggregate");
  await expect(aggregate.locator(".okeReviews-badge--rating")).toContainText("3.4");
  await expect(aggregate).toContainText("Based on 7 Reviews");
  await expect(aggregate.locator(".okeReviews-ratingDistribution-item-value-count")).toHaveText(["2 Reviews", "2 Reviews", "1 Review", "1 Review", "1 Review"]);
  await expect(aggregate.locator(".okeReviews-reviewsAggregate-recommends")).toContainText("57% of reviewers would recommend this product");
  await expect(aggregate.locator(".okeReviews-attributeRatingsTable")).toContainText("Fit");

  // Every order the client offers: first page of 5, then "Show more" for the last 2.
  const orders: [string, number[]][] = [
    ["date desc", [1, 2, 3, 4, 5, 6, 7]],
    ["date asc", [7, 6, 5, 4, 3, 2, 1]],
    ["has_media desc", [1, 2, 3, 4, 5, 6, 7]],
    ["rating desc", [1, 3, 2, 7, 5, 4, 6]],
    ["rating asc", [6, 4, 5, 2, 7, 1, 3]],
    ["helpful desc", [1, 7, 2, 5, 3, 4, 6]],
    ["unhelpful desc", [4, 2, 6, 5, 1, 3, 7]],
  ];
  const sort = page.locator("#okeReviews-reviews-controls-sort");
  for (const [order, expected] of orders) {
    await sort.selectOption(order);
    await expect(titles(page), order).toHaveText(byTitle(expected.slice(0, 5)));
    await page.locator("#reviews .okeReviews-showMore").click();
    await expect(titles(page), `${order} after Show more`).toHaveText(byTitle(expected));
    await expect(page.locator("#reviews .okeReviews-showMore")).toHaveCount(0);
  }

  // The hostile review: its text shown literally, nothing injected, nothing ran; the reply too.
  const hostile = page.locator("#reviews .okeReviews-review").filter({ hasText: "R5 hostile" });
  await expect(hostile.locator(".okeReviews-review-main-content-body")).toHaveText(XSS_BODY);
  await expect(hostile.locator(".okeReviews-reviewReply-body")).toHaveText("Thanks <b>for</b> telling us");
  expect(await page.locator("#reviews img[src=x], #reviews .okeReviews-reviewReply-body b").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __okendoXss?: number }).__okendoXss)).toBeUndefined();

  // Votes: "Yes" on R1 (first by date) counts on the server.
  await sort.selectOption("date desc");
  await expect(titles(page).first()).toHaveText(REVIEWS[0].title);
  const first = page.locator("#reviews .okeReviews-review").first();
  const voted = page.waitForResponse((r) => r.url().endsWith(`/reviews/${ids[0]}/vote`) && r.status() === 200);
  await first.getByRole("button", { name: "Yes" }).click();
  await voted;
  await expect(first.locator(".oke-helpful-vote-button--positive")).toContainText("10");
  const review = await (await request.get(`/v1/stores/${DEMO_STORE_ID}/reviews/${ids[0]}`)).json();
  expect(review.review.helpfulCount).toBe(10);

  // Media gallery: the summary's photo opens the gallery with its review beside it.
  await aggregate.locator(".okeReviews-mediaStrip-item").first().click();
  const gallery = page.locator(".okeReviews-mediaGalleryReviewDialog");
  await expect(gallery.locator(".okeReviews-mediaSlider-slide-media").first()).toBeVisible();
  await expect(gallery.locator(".okeReviews-review-main-heading")).toHaveText(REVIEWS[0].title);
  await page.locator(".okeReviews-modal-dialog-close").click();
  await expect(gallery).toHaveCount(0);

  // Attribute filters: Size bought = M keeps R1 and R4.
  await page.locator("#filter-toggle").click();
  await page.locator("#reviews .okeReviews-filter").filter({ hasText: "Size bought" }).getByText("M", { exact: true }).click();
  await expect(titles(page)).toHaveText(byTitle([1, 4]));

  // Questions widget: author, the answer as typed, votes on the question and the answer.
  const questions = page.locator("#questions");
  await expect(questions.locator(".oke-qw-question-main-author")).toHaveText("Grace H.");
  await expect(questions.locator(".oke-qw-question-main-body")).toHaveText("Is the linen see-through?");
  await expect(questions.locator(".oke-qw-answer-main-body")).toHaveText(ANSWER);
  const questionVote = page.waitForResponse((r) => /\/questions\/[^/]+\/vote$/.test(r.url()) && r.status() === 200);
  await questions.locator(".oke-qw-question-main-helpful").getByRole("button", { name: "Yes" }).click();
  await questionVote;
  const answerVote = page.waitForResponse((r) => /\/answers\/[^/]+\/vote$/.test(r.url()) && r.status() === 200);
  // The client's (empty) bottom alert lies over the last answer's buttons: press it as a keyboard user would.
  await questions.locator(".oke-qw-answer-main-helpful").getByRole("button", { name: "No" }).press("Enter");
  await answerVote;
  const listed = await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/questions`)).json();
  expect(listed.questions[0]).toMatchObject({ helpfulCount: 1, unhelpfulCount: 0 });
  expect(listed.questions[0].answers[0]).toMatchObject({ helpfulCount: 0, unhelpfulCount: 1 });

  expect(errors).toEqual([]);
});

test("our own widget shows the hostile review's text exactly as typed, and runs nothing", async ({ page }) => {
  for (const path of [`/demo/products/${PRODUCT}?snippets=off`, `/demo/products/${PRODUCT}`]) {
    await page.goto(path);
    const body = page.locator(`chorus-reviews article[data-review-id="${ids[4]}"] [part=body]`);
    await expect(body, path).toHaveText(XSS_BODY);
    await expect(page.locator(`chorus-reviews article[data-review-id="${ids[4]}"] [part=reply]`), path).toContainText("Thanks <b>for</b> telling us");
    expect(await page.evaluate(() => (window as unknown as { __okendoXss?: number }).__okendoXss), path).toBeUndefined();
    await expect(page.locator("chorus-questions [part=answer]").first(), path).toContainText(ANSWER);
  }
});

/**
 * The carousels (issue #23 item 2), in Chromium against the seeded demo store, on a plain page served beside the
 * API (the bare script tag and the elements):
 * - `<chorus-reviews-carousel>`: axe finds nothing; the APG carousel structure (region, slides "N of M"); arrow
 *   keys, Home/End and the buttons move the slides and the "N of M" status; a mouse drag and a scroll (what a touch
 *   swipe does) move it too; only reviews of `min-rating` and up; `autoplay` moves on its own, pauses while hovered
 *   or focused and on the stop button, and never runs under `prefers-reduced-motion`; the space the loader reserves
 *   before its code loads equals its loading box (1 px); nothing at all for a product without reviews.
 * - `<chorus-review-media layout="carousel">`: axe finds nothing; the row scrolls with its buttons, arrow keys move
 *   between thumbnails; the lightbox shows the review's text beside the photo (under it on a narrow screen),
 *   previous/next through the media, Escape closes it and focus returns to the thumbnail.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";

const PRODUCT = "shopify-1078";
/** A product key of the demo store's platform with no reviews. */
const EMPTY_PRODUCT = "shopify-999999999";

type ApiReview = { reviewId: string; rating: number; title: string; body: string; reviewer: { displayName: string } };

/** Open a page of the Chorus origin holding `body` (and the widget script). */
async function openPage(page: Page, body: string, lang = "en", colours = "background: #fff; color: #111;"): Promise<void> {
  await page.route("**/__carousel-page", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Carousels</title><style>body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem; ${colours} }</style>
<script async src="/widgets/chorus.js"></script></head><body><main><h1>Featured reviews</h1>${body}</main></body></html>`,
    }),
  );
  await page.goto("/__carousel-page");
}

const carousel = (page: Page) => page.locator("chorus-reviews-carousel");
const status = (page: Page) => carousel(page).locator("[part=status]");

/** The index (0-based) of the slide scrolled into view in the carousel's track. */
async function slideInView(el: Locator): Promise<number> {
  return el.evaluate((host) => {
    const track = host.shadowRoot!.querySelector<HTMLElement>(".track")!;
    const slides = [...track.children] as HTMLElement[];
    return slides.findIndex((s) => Math.abs(s.offsetLeft - track.scrollLeft) < 2);
  });
}

test("reviews carousel: axe, APG structure, keys, buttons, drag and scroll, min-rating", async ({ page, request }) => {
  const listed = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/reviews?orderBy=date%20desc&limit=6&rating=4,5`)).json()) as { reviews: ApiReview[] };
  expect(listed.reviews.length).toBeGreaterThan(2);
  const n = listed.reviews.length;
  await openPage(page, `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" limit="6"></chorus-reviews-carousel>`);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  const region = carousel(page).getByRole("region", { name: "Customer reviews" });
  await expect(region).toHaveAttribute("aria-roledescription", "carousel");
  // Slides not in view are hidden from assistive technology: one group, the current slide.
  await expect(region.getByRole("group")).toHaveCount(1);
  await expect(region.getByRole("group", { name: `1 of ${n}` })).toHaveAttribute("aria-roledescription", "slide");
  const slides = carousel(page).locator("[part=slide]");
  await expect(slides).toHaveCount(n);
  await expect(status(page)).toHaveText(`1 of ${n}`);
  await expect(status(page)).toHaveAttribute("aria-live", "polite");
  await expectNoAxeViolations(page);

  // The newest reviews of 4 stars and up, in the API's order, each with its stars' text, title, reviewer.
  const first = listed.reviews[0]!;
  await expect(slides.first()).toContainText(`Rated ${first.rating} out of 5`);
  await expect(slides.first()).toContainText(first.reviewer.displayName);
  if (first.title) await expect(slides.first().locator("[part=title]")).toHaveText(first.title);
  for (const text of await carousel(page).locator("[part=slide] .visually-hidden").allTextContents()) expect(text).toMatch(/^Rated [45] out of 5$/);

  // Keyboard: focus the slides, Right, End, Home, Left wraps to the last.
  await carousel(page).locator("[part=track]").focus();
  await page.keyboard.press("ArrowRight");
  await expect(status(page)).toHaveText(`2 of ${n}`);
  await expect.poll(() => slideInView(carousel(page))).toBe(1);
  await page.keyboard.press("End");
  await expect(status(page)).toHaveText(`${n} of ${n}`);
  await expect.poll(() => slideInView(carousel(page))).toBe(n - 1);
  await page.keyboard.press("Home");
  await expect(status(page)).toHaveText(`1 of ${n}`);
  await page.keyboard.press("ArrowLeft");
  await expect(status(page)).toHaveText(`${n} of ${n}`);

  // Buttons.
  await carousel(page).getByRole("button", { name: "Next review" }).click();
  await expect(status(page)).toHaveText(`1 of ${n}`);
  await carousel(page).getByRole("button", { name: "Next review" }).click();
  await expect(status(page)).toHaveText(`2 of ${n}`);
  await carousel(page).getByRole("button", { name: "Previous review" }).click();
  await expect(status(page)).toHaveText(`1 of ${n}`);
  await expect.poll(() => slideInView(carousel(page))).toBe(0);

  // A mouse drag to the left: the next slide.
  const box = (await carousel(page).locator("[part=track]").boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(status(page)).toHaveText(`2 of ${n}`);

  // A scroll of the track (what a touch swipe does, snapping to a slide): the slide in view is current.
  await carousel(page).evaluate((host) => {
    const track = host.shadowRoot!.querySelector<HTMLElement>(".track")!;
    track.scrollTo({ left: (track.children[2] as HTMLElement).offsetLeft, behavior: "instant" });
  });
  await expect(status(page)).toHaveText(`3 of ${n}`);
  await expect(slides.nth(2)).toHaveAttribute("aria-hidden", "false");
  await expect(slides.nth(0)).toHaveAttribute("aria-hidden", "true");
});

test("reviews carousel: autoplay moves on, pauses on hover, focus and the stop button", async ({ page }) => {
  await page.clock.install();
  await page.mouse.move(0, 0);
  await openPage(page, `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="1" limit="5" autoplay></chorus-reviews-carousel><p><a href="#top">Elsewhere</a></p>`);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  await expect(status(page)).toHaveText("1 of 5");
  // Rotating: the status is not announced on every move (APG).
  await expect(status(page)).toHaveAttribute("aria-live", "off");
  await page.clock.runFor(6100);
  await expect(status(page)).toHaveText("2 of 5");
  await expect.poll(() => slideInView(carousel(page))).toBe(1);

  // Hovered: no move.
  await carousel(page).locator("[part=track]").hover();
  await expect(status(page)).toHaveAttribute("aria-live", "polite");
  await page.clock.runFor(13_000);
  await expect(status(page)).toHaveText("2 of 5");
  await page.mouse.move(0, 0);
  await page.clock.runFor(6100);
  await expect(status(page)).toHaveText("3 of 5");

  // Focus inside: no move.
  await carousel(page).locator("[part=track]").focus();
  await page.clock.runFor(13_000);
  await expect(status(page)).toHaveText("3 of 5");
  await page.getByRole("link", { name: "Elsewhere" }).focus();
  await page.clock.runFor(6100);
  await expect(status(page)).toHaveText("4 of 5");

  // The stop button (WCAG 2.2.2) stops it until started again.
  const stop = carousel(page).getByRole("button", { name: "Stop automatic slide show" });
  await expect(stop).toBeVisible();
  await stop.click();
  await expect(carousel(page).getByRole("button", { name: "Start automatic slide show" })).toBeVisible();
  await page.mouse.move(0, 0);
  await page.getByRole("link", { name: "Elsewhere" }).focus();
  await page.clock.runFor(13_000);
  await expect(status(page)).toHaveText("4 of 5");
  await expect(status(page)).toHaveAttribute("aria-live", "polite");
  await carousel(page).getByRole("button", { name: "Start automatic slide show" }).click();
  await page.mouse.move(0, 0);
  await page.getByRole("link", { name: "Elsewhere" }).focus();
  await page.clock.runFor(6100);
  await expect(status(page)).toHaveText("5 of 5");
  await expectNoAxeViolations(page);
});

test("reviews carousel: no autoplay and no stop button under prefers-reduced-motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  await page.mouse.move(0, 0);
  await openPage(page, `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="1" limit="5" autoplay></chorus-reviews-carousel>`);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  await expect(status(page)).toHaveAttribute("aria-live", "polite");
  await expect(carousel(page).getByRole("button", { name: /automatic slide show/ })).toHaveCount(0);
  await page.clock.runFor(20_000);
  await expect(status(page)).toHaveText("1 of 5");
  // The shopper still moves it.
  await carousel(page).getByRole("button", { name: "Next review" }).click();
  await expect(status(page)).toHaveText("2 of 5");
});

test("reviews carousel: min-rating and with-media pick the reviews (the API's rating= and media= filters)", async ({ page, request }) => {
  const newest = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/reviews?orderBy=date%20desc&limit=8`)).json()) as { reviews: (ApiReview & { media: unknown[] })[] };
  // The precondition that makes this a test: the newest reviews have other ratings and some have no media.
  expect(newest.reviews.some((r) => r.rating < 5)).toBe(true);
  expect(newest.reviews.some((r) => !r.media.length)).toBe(true);
  await openPage(page, `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="5" limit="8"></chorus-reviews-carousel>`);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  const rated = await carousel(page).locator("[part=slide] .visually-hidden").allTextContents();
  expect(rated.length).toBeGreaterThan(0);
  for (const text of rated) expect(text).toBe("Rated 5 out of 5");

  const withMedia = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/reviews?orderBy=date%20desc&limit=3&rating=1,2,3,4,5&media=any`)).json()) as { reviews: ApiReview[] };
  await openPage(page, `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="1" with-media limit="3"></chorus-reviews-carousel>`);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  await expect(carousel(page).locator("[part=slide] [part=reviewer]")).toHaveText(withMedia.reviews.map((r) => r.reviewer.displayName));
  expect(withMedia.reviews.map((r) => r.reviewId)).not.toEqual(newest.reviews.slice(0, 3).map((r) => r.reviewId));
});

for (const [theme, colours] of [
  ["black", "background: #000; color: #eee;"],
  ["mid-grey", "background: #8a8a8a; color: #000;"],
]) {
  test(`both carousels on a ${theme} page with no --chorus-* variables: axe finds nothing`, async ({ page }) => {
    await openPage(
      page,
      `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="1" autoplay></chorus-reviews-carousel><chorus-review-media store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" layout="carousel"></chorus-review-media>`,
      "en",
      colours,
    );
    await expect(carousel(page)).toHaveAttribute("state", "ready");
    await expect(page.locator("chorus-review-media")).toHaveAttribute("state", "ready");
    await expectNoAxeViolations(page);
    await page.locator("chorus-review-media [part=thumbnail]").first().click();
    await expect(page.locator("chorus-review-media [part=lightbox-review] .body")).not.toBeEmpty();
    await expectNoAxeViolations(page);
  });
}

test("reviews carousel and media lightbox in German: the shipped translation", async ({ page }) => {
  await openPage(
    page,
    `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" min-rating="1" limit="3"></chorus-reviews-carousel><chorus-review-media store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" layout="carousel"></chorus-review-media>`,
    "de",
  );
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  await expect(carousel(page).getByRole("region", { name: "Kundenbewertungen" })).toBeVisible();
  await expect(status(page)).toHaveText("1 von 3");
  await carousel(page).getByRole("button", { name: "Nächste Bewertung" }).click();
  await expect(status(page)).toHaveText("2 von 3");
  const gallery = page.locator("chorus-review-media");
  await expect(gallery.getByRole("button", { name: "Weitere Fotos zeigen" })).toBeVisible();
  await gallery.locator("[part=thumbnail]").first().click();
  await expect(gallery.locator("[part=lightbox-review]")).toContainText(/Bewertet mit \d von 5/);
  await page.keyboard.press("Escape");
});

test("reviews carousel: the loader's reservation equals the loading box; nothing for a product without reviews", async ({ page, context }) => {
  const element = `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}"></chorus-reviews-carousel><p id="after">After</p>`;
  const height = (p: Page) => p.evaluate(() => document.querySelector("chorus-reviews-carousel")!.getBoundingClientRect().height);
  // 1. The element's code held back: the loader's reservation.
  const before = await context.newPage();
  // (Its module, `chunks/chorus-reviews-carousel-<hash>.js`, never answered.)
  let held = 0;
  await before.route("**/widgets/chunks/*reviews-carousel*", () => void held++);
  await openPage(before, element);
  await expect.poll(() => height(before)).toBeGreaterThan(100);
  const reserved = await height(before);
  await expect.poll(() => held).toBe(1);
  expect(await before.evaluate(() => Boolean(customElements.get("chorus-reviews-carousel")))).toBe(false);
  // 2. The code loaded, the reviews held back: the loading box.
  const loading = await context.newPage();
  await loading.route(/\/v1\/stores\/[^/]+\/reviews\?/, () => {});
  await openPage(loading, element);
  await expect.poll(() => loading.evaluate(() => (document.querySelector("chorus-reviews-carousel") as HTMLElement & { hasUpdated?: boolean }).hasUpdated ?? false)).toBe(true);
  await expect(loading.locator("chorus-reviews-carousel [part=skeleton]")).toBeVisible();
  const inLoadingState = await height(loading);
  expect(Math.abs(reserved - inLoadingState), `reserved ${reserved} px, loading ${inLoadingState} px`).toBeLessThanOrEqual(1);
  // 3. Ready: the same height again (each slide is the height less the control row).
  await openPage(page, element);
  await expect(carousel(page)).toHaveAttribute("state", "ready");
  expect(Math.abs((await height(page)) - inLoadingState)).toBeLessThanOrEqual(1);

  // A product without reviews: nothing rendered, no space.
  await openPage(
    page,
    `<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" product-id="${EMPTY_PRODUCT}"></chorus-reviews-carousel><chorus-review-media store-id="${DEMO_STORE_ID}" product-id="${EMPTY_PRODUCT}" layout="carousel"></chorus-review-media><p id="after">After</p>`,
  );
  await expect(carousel(page)).toHaveAttribute("state", "empty");
  await expect(page.locator("chorus-review-media")).toHaveAttribute("state", "empty");
  expect(await height(page)).toBe(0);
  await expect(carousel(page)).toBeHidden();
  await expect(page.locator("chorus-review-media")).toBeHidden();
  expect(await carousel(page).evaluate((el) => el.shadowRoot!.textContent!.trim())).toBe("");
});

test("media carousel: axe, row buttons and arrow keys, the lightbox shows the review beside the photo, Escape returns focus", async ({ page, request }) => {
  await page.setViewportSize({ width: 900, height: 800 });
  await openPage(
    page,
    `<section aria-label="Customer photos" style="max-width: 25rem"><chorus-review-media store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}" limit="12" layout="carousel"></chorus-review-media></section>`,
  );
  const gallery = page.locator("chorus-review-media");
  await expect(gallery).toHaveAttribute("state", "ready");
  const thumbs = gallery.locator("[part=thumbnail]");
  expect(await thumbs.count()).toBeGreaterThan(6);
  await expectNoAxeViolations(page);

  // One row that scrolls sideways with its buttons.
  const row = gallery.locator("[part=grid]");
  const rowInfo = () => row.evaluate((ul) => ({ left: ul.scrollLeft, overflow: ul.scrollWidth > ul.clientWidth, top: [...ul.children].map((li) => li.getBoundingClientRect().top) }));
  const info = await rowInfo();
  expect(info.overflow).toBe(true);
  expect(new Set(info.top).size).toBe(1);
  await gallery.getByRole("button", { name: "Show more photos" }).click();
  await expect.poll(async () => (await rowInfo()).left).toBeGreaterThan(100);
  await gallery.getByRole("button", { name: "Show previous photos" }).click();
  await expect.poll(async () => (await rowInfo()).left).toBe(0);

  // Arrow keys move between thumbnails.
  await thumbs.nth(0).focus();
  await page.keyboard.press("ArrowRight");
  await expect(thumbs.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(thumbs.last()).toBeFocused();
  await expect.poll(async () => (await rowInfo()).left).toBeGreaterThan(100);
  await page.keyboard.press("Home");
  await expect(thumbs.nth(0)).toBeFocused();
  await page.keyboard.press("ArrowRight");

  // The lightbox of the second item: the review beside the photo.
  const media = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/${PRODUCT}/review_media?limit=12`)).json()) as { reviewMedia: { reviewId: string }[] };
  const reviewOf = async (i: number) => ((await (await request.get(`/v1/stores/${DEMO_STORE_ID}/reviews/${media.reviewMedia[i]!.reviewId}`)).json()) as { review: ApiReview }).review;
  const decode = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  await page.keyboard.press("Enter");
  const dialog = gallery.locator("dialog");
  await expect(dialog).toBeVisible();
  const review = dialog.locator("[part=lightbox-review]");
  const second = await reviewOf(1);
  await expect(review.locator(".body")).toHaveText(decode(second.body).trim());
  if (second.title) await expect(review.locator(".title")).toHaveText(second.title);
  await expect(review).toContainText(second.reviewer.displayName);
  await expect(review).toContainText(`Rated ${second.rating} out of 5`);
  const img = await dialog.locator(".stage").boundingBox();
  const text = await review.boundingBox();
  expect(text!.x).toBeGreaterThanOrEqual(img!.x + img!.width - 1); // beside
  await expectNoAxeViolations(page);

  // Next goes through the media, the review follows.
  await dialog.getByRole("button", { name: "Next photo" }).click();
  const third = await reviewOf(2);
  await expect(review.locator(".body")).toHaveText(decode(third.body).trim());
  await page.keyboard.press("ArrowLeft");
  await expect(review.locator(".body")).toHaveText(decode(second.body).trim());

  // Escape closes; focus returns to the thumbnail.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(thumbs.nth(1)).toBeFocused();

  // A narrow screen: the review under the photo.
  await page.setViewportSize({ width: 375, height: 800 });
  await thumbs.nth(0).click();
  await expect(dialog).toBeVisible();
  await expect(review.locator(".body")).not.toBeEmpty();
  const img2 = (await dialog.locator(".stage").boundingBox())!;
  const text2 = (await review.boundingBox())!;
  expect(text2.y).toBeGreaterThanOrEqual(img2.y + img2.height - 1);
  await page.keyboard.press("Escape");
  await expect(thumbs.nth(0)).toBeFocused();
});

test("admin: the Reviews switch names the carousel; the integration page gives its snippet, which works pasted into a page", async ({ page, context }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/widgets`);
  await expect(page.getByLabel(/Reviews, the review form and the reviews carousel/)).toBeChecked();
  await expect(page.locator("label.choice").filter({ hasText: "<chorus-reviews-carousel>" })).toHaveCount(1);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/integration`);
  const snippet = page.getByRole("region", { name: "Reviews carousel snippet" });
  await expect(snippet).toContainText(`<chorus-reviews-carousel store-id="${DEMO_STORE_ID}" min-rating="4"></chorus-reviews-carousel>`);
  await expect(snippet).toContainText("chorus-reviews-carousel:not(:defined){display:block;min-height:");
  await expectNoAxeViolations(page);

  const shop = await context.newPage();
  await openPage(shop, (await snippet.textContent())!);
  await expect(carousel(shop)).toHaveAttribute("state", "ready");
  await expect(carousel(shop).getByRole("region", { name: "Customer reviews" })).toBeVisible();
});

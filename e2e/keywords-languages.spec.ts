/**
 * The sizing keywords Chorus generates in the page's language (docs/ai.md "Languages"), in Chromium on the demo store:
 * on a German page the keyword chip reads "fällt normal aus" (not "true to size"), and choosing it still filters the
 * reviews list by the stored keyword; axe 0.
 */
import { expect, test } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage, PRODUCT, waitForAiContent } from "./elements/element-page.ts";
import { SUMMARY_TEXTS } from "../server/ai/summary-texts.ts";

const TAGS = `<chorus-reviews-keywords store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews-keywords>
<chorus-reviews store-id="${DEMO_STORE_ID}" product-id="${PRODUCT}"></chorus-reviews>`;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  await waitForAiContent(baseURL!);
});

test("German page: the sizing chip in German, choosing it filters the reviews by the stored keyword", async ({ page, baseURL }) => {
  await openElementPage(page, TAGS, { lang: "de" });
  const keywords = page.locator("chorus-reviews-keywords");
  const label = SUMMARY_TEXTS.de.sizing["true to size"];
  const chip = keywords.getByRole("button", { name: new RegExp(`^${label} \\d`) });
  await expect(chip).toBeVisible();
  await expect(keywords.getByRole("button", { name: /^true to size/ })).toHaveCount(0);
  await expect(keywords.getByRole("heading", { name: SUMMARY_TEXTS.de.topics.fit })).toBeVisible();
  await expectElementAccessible(page, "chorus-reviews-keywords");

  const selected = page.evaluate(() => new Promise<unknown>((resolve) => document.addEventListener("chorus-keyword-selected", (e) => resolve((e as CustomEvent).detail), { once: true })));
  const filtered = page.waitForResponse((r) => r.url().includes(`/products/${PRODUCT}/reviews?`) && new URL(r.url()).searchParams.get("keyword") === "true to size");
  await chip.click();
  expect(await selected).toMatchObject({ keyword: "true to size", label });
  const res = await filtered;
  expect(res.status()).toBe(200);
  const shown = ((await res.json()) as { reviews: { reviewId: string }[] }).reviews.map((r) => r.reviewId);
  // the same list as the API filtered by the English keyword (the German label is never sent)
  const same = new URL(res.url());
  same.searchParams.delete("locale");
  expect(same.searchParams.get("keyword")).toBe("true to size");
  const api = (await (await fetch(`${baseURL}${same.pathname}${same.search}`)).json()) as { reviews: { reviewId: string }[] };
  expect(shown.length).toBeGreaterThan(0);
  expect(shown).toEqual(api.reviews.map((r) => r.reviewId));
  await expect(page.locator("chorus-reviews [part=list] > li").first()).toBeVisible();
});

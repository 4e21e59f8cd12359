/**
 * Server-rendered snippets in the widgets' languages (issue #23 item 3) over real HTTP (real server, real Remix
 * build, temp SQLite with real reviews): `lang` picks the shipped translation (Japanese, formal German, region
 * fallback), which the element's snapshot carries for the page; a merchant's English texts stay out of a
 * translated snippet, the merchant's texts of that language go in.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_STORE_ID } from "../demo/demo.ts";
import { seedRealReviews, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let rows: RealReview[];
const S = `/v1/stores/${DEMO_STORE_ID}`;
const html = async (path: string) => (await fetch(t.url(path))).text();
const snapshotOf = (text: string) => JSON.parse(/<script type="application\/json" data-chorus-snapshot>([^]*?)<\/script>/.exec(text)![1]!);

beforeAll(async () => {
  t = await startTestServer({ publicUrl: "https://reviews.example.com" });
  rows = await seedRealReviews(t.services, { storeId: DEMO_STORE_ID, limit: 200 });
});
afterAll(() => t.close());

it("lang picks the shipped translation, with the language's plural rules and number format", async () => {
  const product = `${S}/products/shopify-${rows[0]!.productId}`;
  expect(await html(`${product}/snippets/star-rating?lang=ja`)).toMatch(/aria-label="5段階中\d\.\dの評価、[\d,]+件のレビュー"/);
  expect(await html(`${product}/snippets/star-rating?lang=de-AT`)).toMatch(/aria-label="Bewertet mit \d,\d von 5, [\d.]+ Bewertungen?"/);
  const formal = await html(`${product}/snippets/reviews?lang=de-formal`);
  expect(formal).toContain("Bewertung schreiben");
  expect(formal).toContain("Bewertungen sortieren nach");
  const snapshot = snapshotOf(formal);
  expect(snapshot.translation["reviews.voteThanks"]).toBe("Danke für Ihre Stimme");
  expect(snapshot.translation["common.cancelled"]).toBe("Die Anfrage wurde abgebrochen.");
  expect(snapshot.translation["starRating.label"]).toBeUndefined(); // only the widget's own group
  const english = await html(`${product}/snippets/reviews`);
  expect(english).toContain("Write a review");
  expect(snapshotOf(english).translation).toEqual({});
});

it("merchant texts: English ones never mix into a translation; the language's own ones win", async () => {
  const product = `${S}/products/shopify-${rows[0]!.productId}`;
  await t.services.widgetSettings.update(DEMO_STORE_ID, { texts: { en: { "reviews.writeReview": "Share your thoughts" } } });
  try {
    expect(await html(`${product}/snippets/reviews`)).toContain("Share your thoughts");
    const de = await html(`${product}/snippets/reviews?lang=de`);
    expect(de).not.toContain("Share your thoughts");
    expect(de).toContain("Bewertung schreiben");
    expect(snapshotOf(de).texts).toEqual({});
    await t.services.widgetSettings.update(DEMO_STORE_ID, { texts: { de: { "reviews.writeReview": "Erzähl uns mehr" } } });
    expect(await html(`${product}/snippets/reviews?lang=de-CH`)).toContain("Erzähl uns mehr");
  } finally {
    await t.services.widgetSettings.update(DEMO_STORE_ID, { texts: { en: {}, de: {} } });
  }
});

// @vitest-environment happy-dom
/**
 * The widgets and the store's widget settings, in happy-dom against the real server: every element of a
 * store shares ONE settings request per page; an element shows the English defaults first, then the
 * merchant's texts of the page's language (`<html lang="de-AT">` → `de`) with the placeholders filled;
 * colours set in the admin become `--chorus-accent` / `--chorus-star` on the element; a widget turned off
 * is hidden; a store with no settings keeps the defaults.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import "../star-rating/chorus-star-rating.ts";
import "../reviews-keywords/chorus-reviews-keywords.ts";
import { textOn } from "./ui.ts";

let t: TestServer;
const requests: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { storeId: TEST_STORE_ID, productIds: ["1094"] });
  await seedRealReviews(t.services, { storeId: OTHER_STORE_ID, productIds: ["1094"] });
  await t.services.widgetSettings.update(TEST_STORE_ID, {
    texts: { de: { "starRating.label": "Bewertet mit {average} von 5, {count}", "starRating.count.other": "{count} Bewertungen" }, en: { "starRating.count.other": "{count} opinions" } },
    colors: { accent: "#0a7f5a", star: "#F5A623" },
    widgets: { keywords: false },
  });
  const fetch = window.fetch.bind(window);
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(String(input instanceof Request ? input.url : input));
    return fetch(input, init);
  };
  document.documentElement.lang = "de-AT";
});
afterAll(() => t.close());

function place(tag: string, storeId: string): HTMLElement {
  const el = document.createElement(tag);
  el.setAttribute("store-id", storeId);
  el.setAttribute("product-id", "shopify-1094");
  el.setAttribute("api-base", t.baseUrl);
  document.body.append(el);
  return el;
}
const label = (el: HTMLElement) => el.shadowRoot?.querySelector("[part=badge]")?.getAttribute("aria-label") ?? "";

it("one request per store and language, shared by its elements; German texts, colours, a hidden widget", async () => {
  const badges = [place("chorus-star-rating", TEST_STORE_ID), place("chorus-star-rating", TEST_STORE_ID)];
  const keywords = place("chorus-reviews-keywords", TEST_STORE_ID);
  const other = place("chorus-star-rating", OTHER_STORE_ID);
  for (const badge of badges) await expect.poll(() => label(badge), { timeout: 10_000 }).toMatch(/^Bewertet mit \d,\d von 5, \d+ Bewertungen$/); // the average in German (Intl)
  expect(badges[0]!.style.getPropertyValue("--chorus-accent")).toBe("#0a7f5a");
  expect(badges[0]!.style.getPropertyValue("--chorus-star")).toBe("#f5a623");
  expect(badges[0]!.style.getPropertyValue("--chorus-accent-contrast")).toBe("#fff"); // dark green: white text on it
  await expect.poll(() => keywords.hidden).toBe(true);
  // The other store has no settings: English defaults, no colours.
  // No merchant texts; the shipped German is not beside the sources a test imports (e2e/languages.spec.ts shows it), numbers are German.
  await expect.poll(() => label(other), { timeout: 10_000 }).toMatch(/^Rated \d,\d out of 5, \d+ reviews$/);
  expect(other.style.getPropertyValue("--chorus-accent")).toBe("");
  expect(other.hidden).toBe(false);
  const settingsRequests = requests.filter((u) => u.includes("/widget_settings"));
  expect(settingsRequests.sort()).toEqual([`${t.baseUrl}/v1/stores/${TEST_STORE_ID}/widget_settings?locale=de-AT`, `${t.baseUrl}/v1/stores/${OTHER_STORE_ID}/widget_settings?locale=de-AT`]);
});

it("text on an admin accent colour is white or near-black, whichever contrasts more (WCAG ratio)", () => {
  expect(["#0a7f5a", "#3b3fb6", "#000", "#b3261e"].map(textOn)).toEqual(["#fff", "#fff", "#fff", "#fff"]);
  expect(["#ffee00", "#fff", "#7fdbff", "#f5a623"].map(textOn)).toEqual(["#111", "#111", "#111", "#111"]);
});

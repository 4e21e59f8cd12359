/**
 * The store's default language for shopper pages (docs/surveys.md "Languages of the hosted pages") in Chromium: the
 * merchant sets German in Settings → Shopper pages (its own save); the shareable link's hosted page then speaks German,
 * the element it becomes included, to a browser asking only for Russian (not one of the 16 widget languages), and
 * Japanese to one asking for Japanese; the survey element on a shop page without a language speaks German too. axe 0 on the settings section and the German page. The demo store is set back to
 * English at the end, so other specs see the default.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_CHANNEL_IDS } from "../server/surveys/surveys.demo.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";

const SETTINGS = `/admin/stores/${DEMO_STORE_ID}/settings`;
const LINK = `/s/${DEMO_CHANNEL_IDS.npsEmail}`;

async function setDefaultLanguage(page: Page, label: string): Promise<void> {
  await page.goto(SETTINGS);
  const section = page.locator("form").filter({ has: page.getByRole("heading", { level: 2, name: "Shopper pages" }) });
  await section.getByLabel("Default language of shopper pages").selectOption({ label });
  await section.getByRole("button", { name: "Save language" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Language of shopper pages saved." })).toBeVisible();
  await expect(page.getByLabel("Default language of shopper pages")).toHaveValue(label.replace(/^.*\((.+)\)$/, "$1"));
}

test("a store set to German serves its hosted survey page in German to a Russian browser, in Japanese to a Japanese one", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  await signInAsDemoMerchant(page);
  try {
    await setDefaultLanguage(page, "German (de)");
    await expectNoAxeViolations(page);

    const russian = await browser.newContext({ baseURL, locale: "ru-RU", extraHTTPHeaders: { "accept-language": "ru-RU,ru;q=0.9" } });
    const shopper = await russian.newPage();
    await shopper.goto(LINK);
    await expect(shopper.locator("html")).toHaveAttribute("lang", "de");
    await expect(shopper.locator("chorus-survey").getByText(/^Frage 1 von \d+$/)).toBeVisible();
    await expect(shopper.locator("chorus-survey [part=next]")).toHaveText("Weiter");
    await expectNoAxeViolations(shopper);

    // The survey element on a shop page without a language speaks the store's default too.
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Shop page</title><script async src="/widgets/chorus.js"></script></head>
<body><main><h1>Shop page</h1><chorus-survey store-id="${DEMO_STORE_ID}" channel-survey-id="${DEMO_CHANNEL_IDS.attrOnSite}"></chorus-survey></main></body></html>`;
    await shopper.route("**/e2e/no-lang-page", (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await shopper.goto("/e2e/no-lang-page");
    await expect(shopper.locator("chorus-survey").getByText(/^Frage 1 von \d+$/)).toBeVisible();
    await expect(shopper.locator("chorus-survey [part=next]")).toHaveText("Weiter");
    await russian.close();

    const japanese = await browser.newContext({ baseURL, locale: "ja-JP", extraHTTPHeaders: { "accept-language": "ja" } });
    const jp = await japanese.newPage();
    await jp.goto(LINK);
    await expect(jp.locator("html")).toHaveAttribute("lang", "ja");
    await expect(jp.locator("chorus-survey").getByText(/^質問 1\/\d+$/)).toBeVisible();
    await japanese.close();
  } finally {
    await setDefaultLanguage(page, "English (en)");
  }
});

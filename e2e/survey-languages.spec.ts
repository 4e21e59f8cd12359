/**
 * The survey in the shopper's language (docs/surveys.md, "Shareable link", "Regions"), in Chromium on the demo store:
 * the hosted page `/s/{id}` in German (`?locale=`) and Japanese (the browser's Accept-Language), with the element and
 * with JavaScript off (a plain form post), axe 0 in each; the location question's region picker in `<chorus-survey>`:
 * countries named and sorted in the page's language, a chosen country's ISO 3166-2 regions in a second select reached
 * with the keyboard, the region stored as its code.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe.ts";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./elements/element-page.ts";
import TRANSLATIONS_DE from "../server/contract/widget-translations/de.ts";
import TRANSLATIONS_JA from "../server/contract/widget-translations/ja.ts";

const ATTRIBUTION = "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a";
const CHANNEL = { onSite: "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a12", link: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0" };
const tag = (channel: string) => `<chorus-survey store-id="${DEMO_STORE_ID}" channel-survey-id="${channel}"></chorus-survey>`;
const survey = (page: Page) => page.locator("chorus-survey");
/** A control by the start of its label (a select's accessible name ends with its chosen option). */
const labelled = (el: Locator, text: string) => el.getByLabel(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));

/** The newest responses of a survey, through the enterprise API with the demo key (playwright.config.ts). */
async function newest(baseURL: string, surveyId: string): Promise<{ answeredQuestions: { type: string; answer: unknown }[] }[]> {
  const res = await fetch(`${baseURL}/enterprise/surveys/${surveyId}/responses?limit=5`, {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { surveyResponses: { answeredQuestions: { type: string; answer: unknown }[] }[] }).surveyResponses;
}

/** Go forward through the demo attribution survey's optional questions to its location question (question 7 of 8). */
async function toLocation(el: Locator, progress: (n: number) => string): Promise<void> {
  for (let n = 1; n < 7; n++) {
    await expect(el.getByText(progress(n), { exact: true })).toBeVisible();
    await el.locator("[part=next]").click();
  }
  await expect(el.getByText(progress(7), { exact: true })).toBeVisible();
}

test("hosted page in German by ?locale=: <html lang>, the element speaks German, axe 0", async ({ page, baseURL }) => {
  await page.goto(`${baseURL}/s/${CHANNEL.link}?locale=de`);
  expect(await page.getAttribute("html", "lang")).toBe("de");
  await expect(survey(page).locator("[part=next]")).toHaveText(/^(Weiter|Antworten senden)$/);
  await expect(survey(page).getByText(/^Frage 1 von \d+$/)).toBeVisible();
  await expectNoAxeViolations(page);
});

test("hosted page in Japanese by the browser's Accept-Language, axe 0", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: "ja-JP" });
  const page = await context.newPage();
  await page.goto(`${baseURL}/s/${CHANNEL.link}`);
  expect(await page.getAttribute("html", "lang")).toBe("ja");
  await expect(survey(page).getByText(/^質問 1\/\d+$/)).toBeVisible();
  await expectNoAxeViolations(page);
  await context.close();
});

for (const { locale, t } of [
  { locale: "de-DE", t: TRANSLATIONS_DE },
  { locale: "ja-JP", t: TRANSLATIONS_JA },
]) {
  test(`hosted page with JavaScript off in ${locale}: the plain form, its problems and the thank-you page in that language, axe 0`, async ({ browser, baseURL }) => {
    const url = `${baseURL}/s/${CHANNEL.link}?email=lang-${locale}@example.com`;
    const context = await browser.newContext({ javaScriptEnabled: false, locale });
    const page = await context.newPage();
    // axe needs scripts: the same page in a context with JavaScript on for axe but every page script blocked
    const scanning = await browser.newContext({ locale });
    await scanning.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    const mirror = await scanning.newPage();
    await page.goto(url);
    await mirror.goto(url);
    expect(await mirror.evaluate(() => customElements.get("chorus-survey") === undefined), "the element is not upgraded").toBe(true);
    await expect(mirror.locator("chorus-survey form")).toBeVisible();
    await expectNoAxeViolations(mirror);
    const send = (p: Page) => p.getByRole("button", { name: t["survey.submit"] });
    await send(page).click();
    await expect(page.getByRole("alert")).toHaveText(t["survey.notSent"]);
    await expect(page.getByText(t["survey.problemRequired"]).first()).toBeVisible();
    await send(mirror).click();
    await expect(mirror.getByRole("alert")).toHaveText(t["survey.notSent"]);
    await expectNoAxeViolations(mirror);
    await scanning.close();
    await page.locator("fieldset").first().getByRole("radio", { name: "9" }).check();
    await page.getByRole("textbox").first().fill(`Schnell ${locale}`);
    await send(page).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(t["survey.thanks"]);
    expect(await page.getAttribute("html", "lang")).toBe(locale.slice(0, 2));
    await context.close();
  });
}

test("region picker in German: countries named and sorted in German, the chosen country's regions by keyboard, stored as the code; axe 0", async ({ page, baseURL }) => {
  await openElementPage(page, tag(CHANNEL.onSite), { lang: "de" });
  const el = survey(page);
  await toLocation(el, (n) => `Frage ${n} von 8`);
  const country = labelled(el, TRANSLATIONS_DE["survey.country"]);
  const names = await country.locator("option").evaluateAll((os) => os.slice(1).map((o) => o.textContent!));
  expect(names).toContain("Deutschland");
  expect(names).toContain("Vereinigte Staaten");
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "de")));
  const regions = page.waitForResponse((r) => r.url().endsWith(`/v1/stores/${DEMO_STORE_ID}/regions/DE`) && r.status() === 200);
  await country.selectOption("DE");
  await regions;
  const region = labelled(el, TRANSLATIONS_DE["survey.region"]);
  await expect(region).toBeVisible();
  await country.focus();
  await page.keyboard.press("Tab");
  await expect(region).toBeFocused();
  await expect(region.locator("option[value=BY]")).toHaveText("Bayern");
  await region.selectOption("BY");
  await expectElementAccessible(page, "chorus-survey");
  // a country without regions: a free-text region
  await country.selectOption("GI");
  await expect(labelled(el, TRANSLATIONS_DE["survey.zone"])).toBeVisible();
  await country.selectOption("DE");
  await region.selectOption("BE");
  await el.locator("[part=next]").click();
  await el.locator("[data-step='7'] input[type=checkbox]").first().check();
  const stored = page.waitForResponse((r) => r.url().includes(`/surveys/${CHANNEL.onSite}/responses`) && r.status() === 201);
  await el.locator("[part=next]").click();
  const id = ((await (await stored).json()) as { surveyResponse: { surveyResponseId: string } }).surveyResponse.surveyResponseId;
  await expect(el.locator("[part=message]")).toContainText(TRANSLATIONS_DE["survey.thanks"]);
  const r = (await newest(baseURL!, ATTRIBUTION)).find((x) => (x as unknown as { surveyResponseId: string }).surveyResponseId === id)!;
  expect(r.answeredQuestions.find((a) => a.type === "profile" && (a.answer as { type: string }).type === "location")!.answer).toEqual({
    type: "location",
    value: { countryCode: "DE", zoneCode: "BE" },
  });
});

test("region picker in Japanese: countries in Japanese, Japan's 47 prefectures; axe 0", async ({ page }) => {
  await openElementPage(page, tag(CHANNEL.onSite), { lang: "ja" });
  const el = survey(page);
  await toLocation(el, (n) => `質問 ${n}/8`);
  const country = labelled(el, TRANSLATIONS_JA["survey.country"]);
  await expect(country.locator("option[value=JP]")).toHaveText("日本");
  await country.selectOption("JP");
  const region = labelled(el, TRANSLATIONS_JA["survey.region"]);
  await expect(region.locator("option")).toHaveCount(48);
  await expectElementAccessible(page, "chorus-survey");
});

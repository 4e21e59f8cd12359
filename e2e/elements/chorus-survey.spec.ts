/**
 * `<chorus-survey>` in Chromium over the demo store's real surveys (docs/surveys.md, Answering a survey): axe first,
 * then each channel end to end: on-site inline and as a dialog on a shop page of another origin, the thank-you page
 * with an order ID (the reward code shown), and the shareable link's hosted page with JavaScript off. Every response
 * is then read back from `GET /enterprise/surveys/{surveyId}/responses` with its channel, answers, customer and order.
 * German and Japanese UI.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectElementAccessible, openElementPage } from "./element-page.ts";
import { expectNoAxeViolations } from "../axe.ts";
import { startShopOrigin, type ShopOrigin } from "../shop-origin.ts";

const ATTRIBUTION = "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a";
const NPS = "5b0c9a3e-6f41-4d2a-9c8e-1e2f3a4b5c6d";
const CHANNEL = { onSite: "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a12", checkout: "2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901", link: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0" };
const survey = (page: Page) => page.locator("chorus-survey");
const tag = (channel: string, extra = "") => `<chorus-survey store-id="${DEMO_STORE_ID}" channel-survey-id="${channel}"${extra}></chorus-survey>`;

type Listed = {
  surveyResponseId: string;
  channel: string;
  answeredQuestions: { type: string; answer: unknown; customAnswer?: string }[];
  customer?: { customerId?: string; email?: string };
  order?: { remoteOrderId: string };
  emailMarketingOptIn?: boolean;
  reward?: { value: string };
};
/** The newest responses of a survey, through the enterprise API with the demo key (playwright.config.ts). */
async function newest(baseURL: string, surveyId: string): Promise<Listed[]> {
  const res = await fetch(`${baseURL}/enterprise/surveys/${surveyId}/responses?limit=5`, {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { surveyResponses: Listed[] }).surveyResponses;
}

/** Answer the demo's "Post-purchase attribution" survey step by step with the keyboard where it matters. */
async function answerAttribution(el: Locator, email: string): Promise<void> {
  const next = el.locator("[part=next]");
  await expect(el.getByText("Question 1 of 8")).toBeVisible();
  // A required check is not set on the demo survey, but a chosen "Other" must be described.
  await el.getByRole("radio", { name: "Other" }).check();
  await next.click();
  await expect(el.locator("[part=error]")).toHaveText("Describe your answer in the field below.");
  // Only the current step is shown (the others are `hidden`, out of the accessibility tree), but getByLabel also
  // matches hidden controls: question 2's own "Other" field is in the DOM too.
  await el.locator("[data-step='0']").getByLabel("Describe your answer").fill("A podcast");
  await next.click();
  await expect(el.getByText("Question 2 of 8")).toBeVisible();
  await el.locator("[data-step='1'] input[type=checkbox]").first().check();
  await next.click();
  await el.locator("[data-step='2'] input[value='4']").check();
  await next.click();
  await el.getByRole("radio", { name: "5 of 5 stars" }).check();
  await next.click();
  const address = el.locator("[data-step='4'] input[type=email]");
  await address.fill("not-an-address");
  await next.click();
  await expect(el.locator("[part=error]")).toHaveText("Enter a valid e-mail address, like name@example.com.");
  await address.fill(email);
  await el.getByLabel("Send me news and offers by e-mail").check();
  await address.press("Enter");
  await expect(el.getByText("Question 6 of 8")).toBeVisible();
  await el.getByLabel("Day").fill("31");
  await el.getByLabel("Month").selectOption("4");
  await el.getByLabel("Year").fill("1990");
  await next.click();
  await expect(el.locator("[part=error]")).toHaveText("Enter a real date: day, month and a year from 1900 to 2100.");
  await el.getByLabel("Day").fill("30");
  await next.click();
  await el.getByLabel("Country").selectOption("CA");
  // Canada has ISO 3166-2 regions: they are offered in a select once asked for (GET /regions/CA)
  // (a select's accessible name ends with its chosen option: match the label's start)
  await el.getByLabel(/^State, province or region \(optional\)/).selectOption("QC");
  await next.click();
  // Back keeps what was chosen.
  await el.locator("[part=back]").click();
  await expect(el.getByLabel("Country")).toHaveValue("CA");
  await next.click();
  await el.locator("[data-step='7'] input[type=checkbox]").first().check();
  await expect(next).toHaveText("Send answers");
  await next.click();
}

let shop: ShopOrigin;
test.beforeAll(async () => {
  shop = await startShopOrigin();
});
test.afterAll(async () => {
  await shop.close();
});

test("axe finds nothing in the survey element, on a step and with a problem shown", async ({ page }) => {
  await openElementPage(page, tag(CHANNEL.onSite));
  await expect(survey(page).locator("[part=form]")).toBeVisible();
  await expectElementAccessible(page, "chorus-survey");
  await survey(page).getByRole("radio", { name: "Other" }).check();
  await survey(page).locator("[part=next]").click();
  await expect(survey(page).locator("[part=error]")).toBeVisible();
  await expectElementAccessible(page, "chorus-survey");
});

test("on-site, inline on a shop page of another origin: answered step by step, listed with channel on-site", async ({ page, baseURL }) => {
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script async src="${baseURL}/widgets/chorus.js"></script></head>
<body><main><h1>Our shop</h1>${tag(CHANNEL.onSite)}</main></body></html>`;
  await page.goto(shop.url("/"));
  const el = survey(page);
  await answerAttribution(el, "inline@example.com");
  await expect(el.locator("[part=message]")).toContainText("Thank you for your answers!");
  const r = (await newest(baseURL!, ATTRIBUTION)).find((x) => x.answeredQuestions.some((a) => a.answer === "inline@example.com"))!;
  expect(r.channel).toBe("on-site");
  expect(r.emailMarketingOptIn).toBe(true);
  expect(r.answeredQuestions.map((a) => a.type)).toEqual(["single-select", "multi-select", "five-point", "star", "email", "profile", "profile", "profile"]);
  expect(r.answeredQuestions[0]).toMatchObject({ answer: "Other", customAnswer: "A podcast" });
  expect(r.answeredQuestions[5]!.answer).toEqual({ type: "date-components", value: { day: 30, month: 4, year: 1990 } });
  expect(r.answeredQuestions[6]!.answer).toEqual({ type: "location", value: { countryCode: "CA", zoneCode: "QC" } });
});

test("on-site as a dialog after 5 seconds on a shop page, once per visitor", async ({ page, baseURL }) => {
  await page.clock.install();
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title><script async src="${baseURL}/widgets/chorus.js"></script></head>
<body><main><h1>Our shop</h1>${tag(CHANNEL.onSite, ' display="dialog" delay-seconds="5"')}</main></body></html>`;
  await page.goto(shop.url("/dialog"));
  const dialog = survey(page).locator("[part=dialog]");
  await page.clock.runFor(2000);
  await expect(dialog).toBeHidden();
  await page.clock.runFor(4000);
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, "chorus-survey");
  await answerAttribution(survey(page), "dialog@example.com");
  await expect(survey(page).locator("[part=message]")).toBeVisible();
  const r = (await newest(baseURL!, ATTRIBUTION)).find((x) => x.answeredQuestions.some((a) => a.answer === "dialog@example.com"))!;
  expect(r.channel).toBe("on-site");
  await page.reload();
  await page.clock.runFor(10_000);
  await expect(survey(page).locator("[part=dialog]")).toBeHidden();
});

test("post-checkout on a thank-you page with an order ID: the reward code shown, the order and customer on the response", async ({ page, baseURL }) => {
  const customer = "6a0f3c1e-2b4d-4e5f-8a9b-0c1d2e3f4a5b";
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thank you</title><script async src="${baseURL}/widgets/chorus.js"></script></head>
<body><main><h1>Thank you for your order</h1>${tag(CHANNEL.checkout, ` order-id="10045" customer-id="${customer}" email="buyer@example.com"`)}</main></body></html>`;
  await page.goto(shop.url("/thank-you"));
  await answerAttribution(survey(page), "checkout@example.com");
  await expect(survey(page).locator("[part=code]")).toHaveText("THANKYOU10");
  await expectNoAxeViolations(page, "chorus-survey");
  const r = (await newest(baseURL!, ATTRIBUTION)).find((x) => x.answeredQuestions.some((a) => a.answer === "checkout@example.com"))!;
  expect(r).toMatchObject({ channel: "post-checkout", order: { remoteOrderId: "10045" }, customer: { customerId: customer, email: "buyer@example.com" }, reward: { value: "THANKYOU10" } });
});

test("the shareable link's hosted page works with JavaScript off: problems in place, then stored", async ({ browser, baseURL }) => {
  const url = `${baseURL}/s/${CHANNEL.link}?email=linked@example.com&orderId=777`;
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  // axe runs inside the page, which it cannot with JavaScript off: each state is scanned in a second page with
  // JavaScript on for axe but every page script blocked (no widget, no hydration), so it shows the same plain form.
  const scanning = await browser.newContext();
  await scanning.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
  const mirror = await scanning.newPage();
  const scanLikePage = async () => {
    await expect(mirror.getByRole("heading", { level: 1 })).toHaveText((await page.getByRole("heading", { level: 1 }).textContent()) ?? "");
    expect(await mirror.evaluate(() => customElements.get("chorus-survey") === undefined), "the element is not upgraded").toBe(true);
    await expect(mirror.locator("chorus-survey form")).toBeVisible();
    await expectNoAxeViolations(mirror);
  };
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Broadband NPS");
  await mirror.goto(url);
  await scanLikePage();
  await page.getByRole("button", { name: "Send answers" }).click();
  await expect(page.getByRole("alert")).toContainText("The answers were not sent");
  await mirror.getByRole("button", { name: "Send answers" }).click();
  await expect(mirror.getByRole("alert")).toContainText("The answers were not sent");
  await scanLikePage();
  await scanning.close();
  await page.locator("fieldset").first().getByRole("radio", { name: "9" }).check();
  await page.getByRole("textbox").first().fill("Fast and friendly");
  await page.getByRole("button", { name: "Send answers" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank you for your answers!");
  const r = (await newest(baseURL!, NPS)).find((x) => x.answeredQuestions.some((a) => a.answer === "Fast and friendly"))!;
  expect(r).toMatchObject({ channel: "shareable-link", order: { remoteOrderId: "777" }, customer: { email: "linked@example.com" } });
  expect(r.answeredQuestions[0]).toMatchObject({ type: "nps", answer: 9 });
  await context.close();
});

test("German and Japanese UI", async ({ page }) => {
  await openElementPage(page, tag(CHANNEL.onSite), { lang: "de" });
  await expect(survey(page).getByText("Frage 1 von 8")).toBeVisible();
  await expect(survey(page).locator("[part=next]")).toHaveText("Weiter");
  await openElementPage(page, tag(CHANNEL.onSite), { lang: "ja" });
  await expect(survey(page).getByText("質問 1/8")).toBeVisible();
  await expect(survey(page).locator("[part=next]")).toHaveText("次へ");
  await expectElementAccessible(page, "chorus-survey");
});

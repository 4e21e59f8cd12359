/**
 * The admin survey builder in Chromium against the production server (docs/surveys.md "The survey builder"): a survey
 * built in the admin with all eight question types and the four profile variants (one field refused and shown in
 * place first), reordered with the keyboard (Move up / Move down), enabled on a shareable-link channel survey with a
 * coupon reward (a half-filled reward refused in place), previewed with the real `<chorus-survey>`, answered on
 * `/s/{id}` with JavaScript off, then listed in the admin (with the reports: counts per option, NPS shares) and in
 * `GET /enterprise/surveys/{surveyId}/responses`. What was built round-trips field for field through
 * `GET /enterprise/surveys`; editing a question's text afterwards leaves the stored response's text unchanged.
 * axe on every admin state.
 */
import { expect, test, type Page } from "@playwright/test";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant as signIn } from "./e2e-server.ts";

test.describe.configure({ timeout: 420_000 });

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;
const BASIC = { authorization: `Basic ${Buffer.from(`${DEMO_STORE_ID}:e2e-api-key-0123456789abcdef`).toString("base64")}` };

type Built = { text: string; type: string; options?: string[]; allowCustomAnswer?: true; customAnswerOptionText?: string; profileAnswerType?: string; required?: true };
/** The questions the test builds, in the survey's order (the first comes from the "One open question" template). */
const BUILT: Built[] = [
  { type: "text", text: "Is there anything you would like to tell us?" },
  { type: "single-select", text: "Which colour do you like?", options: ["Red", "Blue"], allowCustomAnswer: true, customAnswerOptionText: "Something else", required: true },
  { type: "multi-select", text: "Which sizes do you wear?", options: ["S", "M", "L"] },
  { type: "five-point", text: "How easy was checkout?" },
  { type: "star", text: "Rate your parcel" },
  { type: "nps", text: "Would you recommend us?", required: true },
  { type: "email", text: "Your e-mail for the coupon" },
  { type: "profile", text: "Your birthday", profileAnswerType: "date-components" },
  { type: "profile", text: "Where do you live?", profileAnswerType: "location" },
  { type: "profile", text: "Your age group", profileAnswerType: "single-value", options: ["Under 30", "30 or over"] },
  { type: "profile", text: "Which departments?", profileAnswerType: "multi-value", options: ["Garden", "Kitchen"] },
];

/** Fill and send the builder's "Add a question" form. */
async function addQuestion(page: Page, q: Built): Promise<void> {
  const form = page.getByRole("form", { name: "Add a question" });
  // A closed <details> hides its form from role queries: find it by its label attribute.
  const details = page.locator("details", { has: page.locator('form[aria-label="Add a question"]') });
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator("summary").click();
  await form.getByLabel("Question", { exact: true }).fill(q.text);
  await form.getByLabel("Type", { exact: true }).selectOption(q.type);
  if (q.profileAnswerType) await form.getByLabel("Profile field (profile questions)").selectOption(q.profileAnswerType);
  if (q.options) await form.getByLabel(/^Options, one per line/).fill(q.options.join("\n"));
  if (q.allowCustomAnswer) {
    await form.getByLabel(/^Offer a custom/).check();
    await form.getByLabel("Custom option text").fill(q.customAnswerOptionText!);
  }
  if (q.required) await form.getByLabel("Required", { exact: true }).check();
  await form.getByRole("button", { name: "Add question" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Question added: ${q.text}` })).toBeVisible();
}

/** The builder's question headings in order. */
const questionTexts = (page: Page) => page.locator(".builder-questions > li .question-head strong").allTextContents();

test("a survey built in the admin with every type and profile variant is answered on /s/{id}, listed, and round-trips field for field", async ({ page, browser, baseURL }) => {
  await signIn(page);
  const name = `Builder ${Date.now().toString(36)}`;

  // Create from the "One open question" template on a shareable link, then open the builder.
  await page.goto(`${ADMIN}/surveys`);
  await page.getByText("Create a survey", { exact: true }).click();
  const create = page.getByRole("form", { name: "Create a survey" });
  await create.getByLabel(/^Name/).fill(name);
  await create.getByLabel("What it asks").selectOption("open");
  await create.getByLabel("Where shoppers answer it").selectOption("shareable-link");
  await create.getByRole("button", { name: "Create survey" }).click();
  await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  const surveyId = /survey=([0-9a-f-]{36})/.exec(page.url())![1];
  await page.getByRole("link", { name: "Edit questions and channel surveys in the survey builder" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Survey builder: ${name}` })).toBeVisible();
  await expectNoAxeViolations(page);

  // A choice question without options is refused with the API's rule, shown at the field; the typed text is kept.
  await page.getByText("Add a question", { exact: true }).click();
  const add = page.getByRole("form", { name: "Add a question" });
  await add.getByLabel("Question", { exact: true }).fill("No options yet");
  await add.getByLabel("Type", { exact: true }).selectOption("multi-select");
  await add.getByRole("button", { name: "Add question" }).click();
  const options = add.getByLabel(/^Options, one per line/);
  await expect(options).toHaveAttribute("aria-invalid", "true");
  await expect(options).toHaveAccessibleDescription("a multi-select question needs options");
  await expect(add.getByLabel("Question", { exact: true })).toHaveValue("No options yet");
  await expectNoAxeViolations(page);

  for (const q of BUILT.slice(1)) await addQuestion(page, q);
  expect(await questionTexts(page)).toEqual(BUILT.map((q) => q.text));

  // Reorder with the keyboard: the last question up one place, then back down.
  const up = page.getByRole("button", { name: "Move up: question 11, Which departments?" });
  await up.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Question moved to position 10 of 11." })).toBeVisible();
  expect((await questionTexts(page)).slice(9)).toEqual(["Which departments?", "Your age group"]);
  const down = page.getByRole("button", { name: "Move down: question 10, Which departments?" });
  await down.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Question moved to position 11 of 11." })).toBeVisible();
  expect(await questionTexts(page)).toEqual(BUILT.map((q) => q.text));
  await expect(page.getByRole("button", { name: "Move up: question 1, Is there anything you would like to tell us?" })).toBeDisabled();

  // The shareable-link channel survey: a reward without its code is refused in place; then saved with both.
  const channel = page.locator(".builder-channels > li").first();
  await channel.getByText(/^Edit Shareable link/).click();
  const edit = channel.getByRole("form", { name: /^Edit channel survey Shareable link/ });
  await edit.getByLabel(/^Description/).fill("Two minutes, promised");
  await edit.getByLabel(/^Reward description/).fill("10% off your next order");
  await edit.getByRole("button", { name: "Save channel survey" }).click();
  const code = page.locator(".builder-channels > li").first().getByLabel("Reward value");
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await code.fill("BUILD10");
  await page.locator(".builder-channels > li").first().getByRole("button", { name: "Save channel survey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Channel survey saved." })).toBeVisible();
  // A second channel survey, on site, added turned off.
  await page.getByText("Add a channel survey", { exact: true }).click();
  const addChannel = page.getByRole("form", { name: "Add a channel survey" });
  await addChannel.getByLabel("Channel", { exact: true }).selectOption("on-site");
  await addChannel.getByLabel(/^On \(shown to shoppers/).uncheck();
  await addChannel.getByRole("button", { name: "Add channel survey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Channel survey added." })).toBeVisible();

  // The preview is the real element, reading the live channel survey (shown on request).
  await page.getByLabel("Channel survey", { exact: true }).selectOption({ label: "Shareable link — Two minutes, promised" });
  await page.getByRole("button", { name: "Show preview" }).click();
  const preview = page.getByTestId("survey-preview").locator("chorus-survey");
  await expect(preview.getByText("Question 1 of 11")).toBeVisible({ timeout: 30_000 });
  await expect(preview.getByText("Is there anything you would like to tell us?")).toBeVisible();
  await expectNoAxeViolations(page);

  // Round trip: what was built is what the enterprise API describes.
  const listed = (await (await page.request.get(`/enterprise/surveys?limit=100&orderBy=date%20desc`, { headers: BASIC })).json()) as {
    surveys: { surveyId: string; surveyName: string; channelSurveys: Record<string, unknown>[]; questions: Record<string, unknown>[] }[];
  };
  const described = listed.surveys.find((s) => s.surveyId === surveyId)!;
  expect(described.surveyName).toBe(name);
  expect(described.questions.map(({ id: _id, profileQuestionId: _p, ...rest }) => rest)).toEqual(BUILT);
  expect(described.questions.filter((q) => q.type === "profile").every((q) => typeof q.profileQuestionId === "string")).toBe(true);
  expect(described.channelSurveys.map(({ channelSurveyId: _c, ...rest }) => rest)).toEqual([
    { channel: "shareable-link", description: "Two minutes, promised", reward: { type: "coupon", description: "10% off your next order", value: "BUILD10" } },
    { channel: "on-site", enabled: false },
  ]);
  const linkId = described.channelSurveys[0].channelSurveyId as string;

  // Answer on the hosted page with JavaScript off.
  const shopper = await browser.newContext({ javaScriptEnabled: false });
  const s = await shopper.newPage();
  await s.goto(`${baseURL}/s/${linkId}`);
  await expect(s.getByRole("heading", { level: 1 })).toHaveText(name);
  const q = (n: number) => s.locator("fieldset.question").filter({ has: s.locator("legend", { hasText: new RegExp(`^${n}\\. `) }) });
  await s.getByLabel(/^1\. Is there anything/).fill("Lovely shop");
  await q(2).getByRole("radio", { name: "Something else" }).check();
  await q(2).getByLabel("Describe your answer").fill("Teal");
  await q(3).getByRole("checkbox", { name: "S", exact: true }).check();
  await q(3).getByRole("checkbox", { name: "L", exact: true }).check();
  await q(4).getByRole("radio", { name: "4", exact: true }).check();
  await q(5).getByRole("radio", { name: "5 of 5 stars" }).check();
  await q(6).getByRole("radio", { name: "9", exact: true }).check();
  await s.getByLabel(/^7\. Your e-mail/).fill("builder@example.com");
  await s.getByLabel("Send me news and offers by e-mail").check();
  await q(8).getByLabel("Day").fill("14");
  await q(8).getByLabel("Month").selectOption("2");
  await q(8).getByLabel("Year").fill("1990");
  await q(9).getByLabel("Country").selectOption("GB");
  await q(9)
    .getByLabel(/^State, province or region code/)
    .fill("ENG");
  await q(10).getByRole("radio", { name: "30 or over" }).check();
  await q(11).getByRole("checkbox", { name: "Garden" }).check();
  await q(11).getByRole("checkbox", { name: "Kitchen" }).check();
  await s.getByRole("button", { name: "Send answers" }).click();
  await expect(s.getByRole("heading", { level: 1 })).toHaveText("Thank you for your answers!");
  await expect(s.getByText("BUILD10")).toBeVisible();
  await shopper.close();

  // Listed through the enterprise API with every answer, the channel and the reward.
  const responsesUrl = `/enterprise/surveys/${surveyId}/responses?limit=10`;
  type Listed = { surveyResponseId: string; channel: string; channelSurveyDescription?: string; answeredQuestions: Record<string, unknown>[]; reward?: unknown; emailMarketingOptIn?: boolean };
  const first = ((await (await page.request.get(responsesUrl, { headers: BASIC })).json()) as { surveyResponses: Listed[] }).surveyResponses;
  expect(first).toHaveLength(1);
  const stored = first[0];
  expect(stored).toMatchObject({
    channel: "shareable-link",
    channelSurveyDescription: "Two minutes, promised",
    reward: { type: "coupon", description: "10% off your next order", value: "BUILD10" },
    emailMarketingOptIn: true,
  });
  const ids = described.questions.map((x) => x.id);
  const profileId = (i: number) => described.questions[i].profileQuestionId;
  expect(stored.answeredQuestions).toEqual([
    { id: ids[0], type: "text", text: BUILT[0].text, answer: "Lovely shop" },
    { id: ids[1], type: "single-select", text: BUILT[1].text, answer: "Something else", customAnswer: "Teal", customAnswerOptionText: "Something else" },
    { id: ids[2], type: "multi-select", text: BUILT[2].text, answer: ["S", "L"] },
    { id: ids[3], type: "five-point", text: BUILT[3].text, answer: 4 },
    { id: ids[4], type: "star", text: BUILT[4].text, answer: 5 },
    { id: ids[5], type: "nps", text: BUILT[5].text, answer: 9, answerNpsCategory: "promoter" },
    { id: ids[6], type: "email", text: BUILT[6].text, answer: "builder@example.com", marketingOptIn: true },
    { id: ids[7], type: "profile", text: BUILT[7].text, profileQuestionId: profileId(7), answer: { type: "date-components", value: { day: 14, month: 2, year: 1990 } } },
    { id: ids[8], type: "profile", text: BUILT[8].text, profileQuestionId: profileId(8), answer: { type: "location", value: expect.objectContaining({ countryCode: "GB", zoneCode: "ENG" }) } },
    { id: ids[9], type: "profile", text: BUILT[9].text, profileQuestionId: profileId(9), answer: { type: "single-value", value: "30 or over" } },
    { id: ids[10], type: "profile", text: BUILT[10].text, profileQuestionId: profileId(10), answer: { type: "multi-value", value: ["Garden", "Kitchen"] } },
  ]);

  // Listed in the admin, with the reports.
  await page.goto(`${ADMIN}/surveys?survey=${surveyId}`);
  await expect(page.getByRole("heading", { name: "1 response match" })).toBeVisible();
  const colours = page.getByRole("table", { name: "Which colour do you like?" });
  await expect(colours.getByRole("row", { name: /^Something else 1/ })).toBeVisible();
  await expect(colours.getByRole("row", { name: /^Red 0/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Which departments?" }).getByRole("row", { name: /^Garden 1/ })).toBeVisible();
  await expect(page.getByRole("img", { name: `Weekly promoter, passive and detractor shares of ${name}` })).toBeVisible();
  await expect(page.getByTestId("nps-promoters")).toContainText("1 (100 %)");
  await expectNoAxeViolations(page);

  // Editing a question's text afterwards leaves the stored response as answered.
  await page.goto(`${ADMIN}/surveys/${surveyId}`);
  const second = page.locator(".builder-questions > li").nth(1);
  await second.getByText("Edit question 2").click();
  await second.getByLabel("Question", { exact: true }).fill("Which colour do you love?");
  await second.getByRole("button", { name: "Save question 2" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question saved." })).toBeVisible();
  expect((await questionTexts(page))[1]).toBe("Which colour do you love?");
  const after = ((await (await page.request.get(responsesUrl, { headers: BASIC })).json()) as { surveyResponses: Listed[] }).surveyResponses;
  expect(after[0].answeredQuestions).toEqual(stored.answeredQuestions);
  await page.goto(`${ADMIN}/surveys/responses/${stored.surveyResponseId}`);
  await expect(page.getByText("Which colour do you like?")).toBeVisible();
  await expect(page.getByText("Which colour do you love?")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

/**
 * The admin's customer profiles (docs/surveys.md "Customer profiles") in Chromium: a shopper answers the demo store's
 * birthday profile question through the storefront submission (post-checkout channel, with an e-mail address); the
 * merchant finds the customer in Surveys → Customer profiles with the keyboard, reads the date of birth with the survey
 * response it came from, and follows that link to the response. axe 0 on each page.
 */
import { expect, test } from "@playwright/test";
import { DEMO_CHANNEL_IDS, DEMO_QUESTION_IDS } from "../server/surveys/surveys.demo.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;

test("a profile answer fills the customer's profile, listed with the response it came from; keyboard reachable (axe 0)", async ({ page, request }) => {
  const email = `profile-${Date.now()}@example.com`;
  const submitted = await request.post(`/v1/stores/${DEMO_STORE_ID}/surveys/${DEMO_CHANNEL_IDS.attrCheckout}/responses`, {
    data: {
      answeredQuestions: [{ id: DEMO_QUESTION_IDS.birthday, type: "profile", answer: { type: "date-components", value: { day: 14, month: 3, year: 1990 } } }],
      customer: { email },
      order: { remoteOrderId: "4100777" },
    },
  });
  expect(submitted.status()).toBe(201);
  const responseId = ((await submitted.json()) as { surveyResponse: { surveyResponseId: string } }).surveyResponse.surveyResponseId;

  await signInAsDemoMerchant(page);
  await page.goto(`${ADMIN}/surveys`);
  await page.getByRole("link", { name: "Customer profiles" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Customer profiles" })).toBeVisible();
  const customers = page.getByRole("table", { name: "Customers with a profile, most recent answer first" });
  const row = customers.getByRole("row").filter({ has: page.getByRole("rowheader", { name: email }) });
  await expect(row.getByRole("cell").first()).toHaveText("1");
  await expectNoAxeViolations(page);

  // The keyboard reaches the customer's link (Tab until it has focus) and opens it with Enter.
  const customerLink = row.getByRole("link", { name: email });
  for (let i = 0; i < 200 && !(await customerLink.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(customerLink).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: `Customer profile of ${email}` })).toBeVisible();

  const fields = page.getByRole("table", { name: "Profile fields and the survey response each came from" });
  const birthday = fields.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "When is your birthday?" }) });
  await expect(birthday.getByRole("cell").first()).toHaveText("14 March 1990");
  await expect(birthday.locator("time")).toHaveAttribute("datetime", "1990-03-14");
  const from = birthday.getByRole("link", { name: /^Post-purchase attribution, Post-checkout, \d{4}-\d{2}-\d{2}$/ });
  await expect(from).toHaveAttribute("href", `${ADMIN}/surveys/responses/${responseId}`);
  await expectNoAxeViolations(page);

  for (let i = 0; i < 200 && !(await from.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(from).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Response to Post-purchase attribution" })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await expectNoAxeViolations(page);
});

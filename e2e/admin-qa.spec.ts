/**
 * Admin Q&A moderation in Chromium against the production server over the seeded demo database (the
 * real Amazon appliance Q&A, all published by the seeder): a shopper asks a new question through the
 * storefront API (pending), the merchant finds it in the queue, publishes it, answers it as the store,
 * and both show on the storefront API (`isStoreAnswer: true`); axe in each state.
 */
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../test/fixtures.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant as signIn } from "./e2e-server.ts";

test.describe.configure({ timeout: 150_000 });

/** A real record of the shared Amazon file (line 3: plain JSON). */
const real = JSON.parse(readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8").split("\n")[2]) as { asin: string; question: string; answer: string };
const QUESTIONS_API = `/v1/stores/${DEMO_STORE_ID}/products/shopify-${real.asin}/questions`;

test("a new shopper question: publish it, answer it as the store, see both on the storefront API", async ({ page, request }) => {
  const asked = await request.post(QUESTIONS_API, { data: { body: real.question, displayName: "E2E shopper", email: "e2e-qa@example.com" } });
  expect(asked.status()).toBe(201);
  const questionId = (await asked.json()).question.questionId as string;
  const item = page.locator("li.review").filter({ has: page.locator(`input[value="${questionId}"]`) });

  await signIn(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Questions", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Questions" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Questions waiting for moderation" })).toBeVisible();

  // Filter the queue to the product: the new question waits there with the asker's name.
  await page.getByLabel("Product ID").fill(`shopify-${real.asin}`);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(item).toBeVisible();
  await expect(item).toContainText(real.question);
  await expect(item).toContainText("asked by E2E shopper");
  await expect(item).toContainText("No answers yet.");
  await expectNoAxeViolations(page);

  await item.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Question published." })).toBeVisible();
  await expect(page.getByText("Nothing waiting: every question matching these filters has been moderated.")).toBeVisible();
  await expectNoAxeViolations(page);
  let listed = (await (await request.get(QUESTIONS_API)).json()).questions as { questionId: string; answers: { body: string; isStoreAnswer: boolean }[] }[];
  expect(listed.map((q) => q.questionId)).toContain(questionId);

  // Published questions of the product: answer the new one as the store.
  await page.getByLabel("Status").selectOption("published");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Published questions" })).toBeVisible();
  await item.getByText("Answer as the store").click();
  await item.getByLabel(/Your answer/).fill(real.answer);
  await expectNoAxeViolations(page);
  await item.getByRole("button", { name: "Post store answer" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Answer published as the store." })).toBeVisible();
  await expect(item.getByText("Store answer", { exact: true })).toBeVisible();
  await expect(item.getByLabel(/Your answer/)).toBeHidden(); // the answer form closed and emptied
  await expect(item).toContainText(real.answer);
  await expectNoAxeViolations(page);

  listed = (await (await request.get(QUESTIONS_API)).json()).questions;
  expect(listed.find((q) => q.questionId === questionId)?.answers).toEqual([expect.objectContaining({ body: real.answer, isStoreAnswer: true })]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("tick two new questions and publish them with one plain form submit", async ({ page, request }) => {
    const lines = readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8")
      .split("\n")
      .slice(3, 5)
      .map((l) => JSON.parse(l) as { asin: string; question: string });
    const ids: string[] = [];
    for (const [i, r] of lines.entries()) {
      const res = await request.post(`/v1/stores/${DEMO_STORE_ID}/products/shopify-${r.asin}/questions`, {
        data: { body: r.question, displayName: "E2E shopper", email: `e2e-qa-nojs${i}@example.com` },
      });
      expect(res.status()).toBe(201);
      ids.push((await res.json()).question.questionId);
    }
    await signIn(page);
    await page.goto(`/admin/stores/${DEMO_STORE_ID}/questions`);
    for (const id of ids) await page.locator(`input[type=checkbox][value="${id}"]`).check();
    await page.getByRole("button", { name: "Publish selected" }).click();
    await expect(page.getByRole("status").filter({ hasText: "2 questions published." })).toBeVisible();
    for (const [i, r] of lines.entries()) {
      const listed = (await (await request.get(`/v1/stores/${DEMO_STORE_ID}/products/shopify-${r.asin}/questions`)).json()).questions as { questionId: string }[];
      expect(listed.map((q) => q.questionId)).toContain(ids[i]);
    }
  });
});

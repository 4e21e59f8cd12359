/**
 * Admin survey responses in Chromium against the production server over the seeded demo database
 * (two demo surveys, 3,585 responses, the NPS one from the real NPS file): find a response by searching
 * a word of a real NPS comment and open it; every answered-question type and profile variant rendered;
 * CSV export of a filtered set (download: header + exactly the filtered rows); the NPS chart with its
 * text alternative; archive and unarchive; axe on every page.
 */
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR } from "../test/fixtures.ts";
import { sql, value, type RawBuilder } from "../server/db/database.ts";
import { DEMO_NPS_FILE, DEMO_SURVEY_IDS, readNpsRows } from "../server/surveys/surveys.demo.ts";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant as signIn, withE2eDb } from "./e2e-server.ts";

// Four axe scans per test on a machine shared with other builds: allow more than the default 60 s.
test.describe.configure({ timeout: 150_000 });

const ADMIN = `/admin/stores/${DEMO_STORE_ID}`;

/** A response ID of the e2e database matching a SQL condition on survey_responses (read-only). */
async function responseWhere(condition: RawBuilder<unknown>): Promise<string> {
  const id = await withE2eDb((db) => value<string>(db, sql`SELECT survey_response_id FROM survey_responses WHERE store_id = ${DEMO_STORE_ID} AND ${condition} ORDER BY created_ms LIMIT 1`), {
    readonly: true,
  });
  return id!;
}

/** A word (8+ letters) that occurs in exactly one comment of the real NPS file, and that comment. */
function rareWord(): { word: string; comment: string } {
  const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE));
  const counts = new Map<string, number>();
  const words = (t: string) => new Set(t.toLowerCase().match(/\p{L}{8,}/gu) ?? []);
  for (const r of rows) for (const w of words(r.text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  for (const r of rows) for (const w of words(r.text)) if (counts.get(w) === 1) return { word: w, comment: r.text };
  throw new Error("no rare word");
}

test("choose the NPS survey, see the NPS chart with its text alternative, find a response by a word of a real comment and open it", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Surveys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Surveys" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page
    .getByRole("navigation", { name: "Surveys" })
    .getByRole("link", { name: /Broadband NPS/ })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: "Broadband NPS" })).toBeVisible();

  const chart = page.getByRole("img", { name: "Weekly NPS of Broadband NPS" });
  await expect(chart).toBeVisible();
  await expect(chart.locator("desc")).toContainText("Line chart of the Net Promoter Score per week");
  await expect(page.getByTestId("nps-score")).toHaveText(/^[+-]?\d{1,3}$/);
  await page.getByText(/Weekly NPS as a table/).click();
  const weekly = page.getByRole("table", { name: /Weekly NPS/ });
  await expect(weekly).toBeVisible();
  const weeks = Number((await page.getByText(/Weekly NPS as a table/).textContent())!.match(/\((\d+) weeks?\)/)![1]);
  expect(weeks).toBeGreaterThan(10);
  await expect(weekly.locator("tbody tr")).toHaveCount(weeks);
  await expect(chart.locator("circle")).toHaveCount(weeks);
  await expectNoAxeViolations(page);

  const { word, comment } = rareWord();
  await page.getByLabel("Search text answers").fill(word);
  await page.getByLabel("Archived").selectOption("all");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(page.getByRole("heading", { name: "1 response match" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page
    .getByRole("table", { name: /Responses to Broadband NPS/ })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Response to Broadband NPS" })).toBeVisible();
  await expect(page.getByText(comment.trim().slice(0, 60))).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a response of each demo survey shows every answered-question type and profile variant readably", async ({ page }) => {
  await signIn(page);
  const seen = new Set<string>();
  // The real NPS rows: score, reason and journey stage; the sample attribution survey: the other types.
  const nps = await responseWhere(
    sql`survey_id = ${DEMO_SURVEY_IDS.nps} AND answered_questions_json LIKE '%"nps"%' AND answered_questions_json LIKE '%"single-value"%' AND answered_questions_json LIKE '%"text"%'`,
  );
  const attr = await responseWhere(
    sql`survey_id = ${DEMO_SURVEY_IDS.attribution} AND answered_questions_json LIKE '%"multi-value"%' AND answered_questions_json LIKE '%"multi-select"%' AND answered_questions_json LIKE '%marketingOptIn%' AND answered_questions_json LIKE '%"location"%' AND answered_questions_json LIKE '%"date-components"%'`,
  );
  for (const id of [nps, attr]) {
    await page.goto(`${ADMIN}/surveys/responses/${id}`);
    await expect(page.getByRole("heading", { level: 1, name: /^Response to / })).toBeVisible();
    for (const type of await page.locator("[data-answer-type]").evaluateAll((els) => els.map((e) => e.getAttribute("data-answer-type")!))) seen.add(type);
    await expectNoAxeViolations(page);
  }
  expect([...seen].sort()).toEqual([
    "email",
    "five-point",
    "multi-select",
    "nps",
    "profile-date-components",
    "profile-location",
    "profile-multi-value",
    "profile-single-value",
    "single-select",
    "star",
    "text",
  ]);
  // Readable forms on the attribution response (the last one opened).
  await expect(page.locator('[data-answer-type="profile-date-components"] time')).toHaveText(/^\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}$/);
  await expect(page.locator('[data-answer-type="profile-location"] dd')).toContainText(/Country: .+ \([A-Z]{2}\)/);
  await expect(page.locator('[data-answer-type="email"] dd')).toContainText(/marketing opt-in: (yes|no)/);
  await expect(page.getByRole("note")).toContainText("Sample data"); // generated answers are marked as such
  await expect(page.locator('[data-answer-type="star"] dd')).toContainText(/\d of 5 stars/);
});

test("archive a response and unarchive it (CSRF-protected forms)", async ({ page }) => {
  await signIn(page);
  const id = await responseWhere(sql`survey_id = ${DEMO_SURVEY_IDS.attribution} AND is_archived = 0`);
  await page.goto(`${ADMIN}/surveys/responses/${id}`);
  await page.getByRole("button", { name: "Archive" }).click();
  await expect(page.getByRole("status")).toContainText("Response archived.");
  await expect(page.getByText("Archived", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Unarchive" }).click();
  await expect(page.getByRole("status")).toContainText("Response unarchived.");
  await expect(page.getByText("Not archived")).toBeVisible();
});

test("export the filtered responses as CSV: a header row and exactly the filtered rows", async ({ page }) => {
  await signIn(page);
  await page.goto(`${ADMIN}/surveys?survey=${DEMO_SURVEY_IDS.nps}`);
  await page.getByLabel("NPS category").selectOption("detractor");
  await page.getByLabel("Search text answers").fill("engineer");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/nps=detractor/);
  // Read the count from the filtered page only: the export link of the new page carries the filter.
  const exportLink = page.getByRole("link", { name: /^Export these \d+ responses as CSV$/ });
  await expect(exportLink).toHaveAttribute("href", /nps=detractor/);
  const count = Number((await exportLink.textContent())!.match(/(\d+)/)![1]);
  await expect(page.getByRole("heading", { name: new RegExp(`^${count} responses? match$`) })).toBeVisible();
  expect(count).toBeGreaterThan(25); // more than one page: the export is not just the visible page
  await expect(page.getByRole("link", { name: "Next page" })).toBeVisible();
  await expectNoAxeViolations(page);

  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^broadband-nps-responses-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parse(readFileSync((await download.path())!), { bom: true }) as string[][];
  expect(records[0]).toEqual(
    expect.arrayContaining(["surveyResponseId", "dateCreated", "channel", "How likely are you to recommend company to a friend or colleague?", "What is the main reason for your score?"]),
  );
  expect(records.length - 1).toBe(count);
  const npsColumn = records[0].indexOf("How likely are you to recommend company to a friend or colleague?");
  expect(records.slice(1).every((r) => /^\d \(detractor\)$/.test(r[npsColumn]))).toBe(true);
});

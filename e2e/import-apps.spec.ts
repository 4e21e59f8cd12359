/**
 * Import from another review app in the admin (issue 24 item 3), in Chromium against the production server:
 * upload a Judge.me export (test/fixtures/imports, real review texts), see the dry-run preview with the
 * column mapping, change a column's field, import, see the report (photos on a private host refused and
 * listed), upload it again (nothing new), and a malformed file (line-numbered errors, nothing to import).
 * axe on every step.
 */
import { expect, test } from "@playwright/test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { sql, value } from "../server/db/database.ts";
import { signInAsDemoMerchant, withE2eDb } from "./e2e-server.ts";

const PAGE = `/admin/stores/${DEMO_STORE_ID}/import/apps`;
const FIXTURES = join(import.meta.dirname, "../test/fixtures/imports");
const dir = mkdtempSync(join(tmpdir(), "chorus-e2e-import-"));
/**
 * The fixture with its photo URLs on a private address: the admin's import must refuse to fetch them, before
 * connecting (the e2e server has ALLOW_LOOPBACK_REQUESTS=1, which allows loopback only).
 */
const fixture = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, readFileSync(join(FIXTURES, name), "utf8").replaceAll("__MEDIA__", "http://10.0.0.1:9"));
  return path;
};
const imported = () => withE2eDb((db) => value<number>(db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${DEMO_STORE_ID} AND source = 'app:judgeme'`), { readonly: true });

test("upload a Judge.me export, preview and map its columns, import it, and upload it again", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.goto(`/admin/stores/${DEMO_STORE_ID}/import`);
  await page.getByRole("link", { name: "Import that app's review export" }).click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page.getByRole("heading", { name: "Import from another review app" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Without a file: errors next to the fields.
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("Choose the app the file comes from.")).toBeVisible();
  await expect(page.getByLabel("Review app", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Export file (CSV)")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  await page.getByLabel("Review app", { exact: true }).selectOption("judgeme");
  await page.getByLabel("Export file (CSV)").setInputFiles(fixture("judgeme.csv"));
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("heading", { name: "2. Preview: nothing is imported yet" })).toBeVisible();
  const stat = (name: string) =>
    page
      .locator(".stats div")
      .filter({ has: page.getByText(name, { exact: true }) })
      .locator("dd");
  await expect(stat("Reviews to import")).toHaveText("5");
  await expect(stat("Published / pending / hidden / spam")).toHaveText("3 / 1 / 0 / 1");
  await expect(page.getByLabel("review_date", { exact: true })).toHaveValue("date");
  await expect(page.getByLabel("ip_address", { exact: true })).toHaveValue("");
  expect(await imported()).toBe(0);
  await expectNoAxeViolations(page);

  // The mapping step: the reply column ignored, the preview updated.
  await page.getByLabel("reply", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(page.getByLabel("reply", { exact: true })).toHaveValue("");
  await expect(page.getByRole("row", { name: /^reply / }).getByText("ignored by your mapping")).toBeVisible();
  await expect(stat("Store replies")).toHaveText("0");
  await page.getByLabel("reply", { exact: true }).selectOption("reply");
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(stat("Store replies")).toHaveText("1");

  await page.getByRole("button", { name: "Import 5 reviews" }).click();
  await expect(page.getByRole("status")).toHaveText("5 reviews imported from Judge.me.");
  await expect(page.getByText(/Line 2: http:\/\/10\.0\.0\.1:9\/photos\/judgeme-1\.jpg: refused: 10\.0\.0\.1 is a private address, not on the public internet/)).toBeVisible();
  expect(await imported()).toBe(5);
  await expectNoAxeViolations(page);

  // The same file again: every row is already in the store.
  await page.getByRole("link", { name: "Import another file" }).click();
  await page.getByLabel("Review app", { exact: true }).selectOption("judgeme");
  await page.getByLabel("Export file (CSV)").setInputFiles(fixture("judgeme.csv"));
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(stat("Already in the store")).toHaveText("5");
  await expect(page.getByRole("button", { name: "Import 0 reviews" })).toBeDisabled();
  expect(await imported()).toBe(5);
});

test("a malformed export shows its bad rows with line numbers and imports nothing", async ({ page }) => {
  await signInAsDemoMerchant(page);
  await page.goto(PAGE);
  await page.getByLabel("Review app", { exact: true }).selectOption("judgeme");
  await page.getByLabel("Export file (CSV)").setInputFiles(fixture("judgeme-malformed.csv"));
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText(/Line 3: rating must be a whole number from 1 to 5, got "7"/)).toBeVisible();
  await expect(page.getByText(/Line 4: date .* does not exist/)).toBeVisible();
  await expect(page.getByText(/Line 5: not valid CSV/)).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("3 bad rows");
  await expect(page.getByRole("button", { name: /^Import \d+ reviews$/ })).toBeDisabled();
  await expectNoAxeViolations(page);
});

/**
 * A new store's admin home in Chromium (issue 39 item 2): the getting-started checklist starts at 0 of 6 and
 * ticks each step as the merchant does it in its page — "check my page" against a real shop page on another
 * local origin (the e2e server runs with ALLOW_LOOPBACK_REQUESTS=1), the platform's app secret, a CSV import,
 * review requests on, the loyalty program on, a survey from a template on the Surveys page — with axe on the
 * home (checklist and dashboard) in each state, the grouped navigation, and keyboard-only use of the check form.
 * The loyalty "Add" forms reset after a successful add, announced in the page's status region.
 */
import { expect, test, type Page } from "@playwright/test";
import { stringify } from "csv-stringify/sync";
import { realReviews } from "../test/fixtures.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { startShopOrigin, type ShopOrigin } from "./shop-origin.ts";
import { signUpStore } from "./signup.ts";

const run = Date.now().toString(36);
const REAL = realReviews()
  .filter((r) => r.title && r.body && !r.body.includes("\n"))
  .slice(0, 2);

let shop: ShopOrigin;
test.beforeAll(async () => {
  shop = await startShopOrigin();
});
test.afterAll(() => shop.close());

/** Go home and expect `done` steps ticked (by their step IDs), the rest to do. */
async function expectTicked(page: Page, home: string, done: string[]) {
  await page.goto(home);
  const all = ["platform", "widgets", "import", "review-requests", "loyalty", "survey"];
  if (done.length < all.length) await expect(page.getByTestId("checklist-progress")).toHaveText(`${done.length} of 6 done.`);
  for (const id of all) await expect(page.locator(`[data-step="${id}"]`)).toHaveClass(done.includes(id) ? "step-done" : "step-todo");
}

test("a new store's checklist ticks each step as the merchant does it; axe 0 on home in each state", async ({ page }) => {
  test.setTimeout(180_000);
  const store = await signUpStore(page, { storeName: `Home Boutique ${run}`, platform: "shopify", shopUrl: "https://home-boutique.example" });
  const home = `/admin/stores/${store.storeId}`;
  const nav = page.getByRole("navigation", { name: "Admin sections" });

  // A new store opens on its home: the checklist, nothing done.
  await expect(page.getByRole("heading", { level: 2, name: "Getting started" })).toBeVisible();
  await expectTicked(page, home, []);
  await expect(page.getByRole("heading", { name: /The last 30 days/ })).toBeVisible();
  await expect(page.getByRole("img", { name: "Reviews received and published per day" })).toBeVisible();
  await expectNoAxeViolations(page);
  // The grouped navigation: each group names its list.
  for (const [group, items] of [
    ["Reviews", ["Moderation", "Questions", "AI content", "Import", "Review requests"]],
    ["Shop", ["Platform", "Orders", "Widgets", "Integration"]],
    ["Data", ["Exports", "Shopper data", "Webhooks"]],
    ["Settings", ["Store settings", "Team", "API keys", "Outbox"]],
  ] as const) {
    const list = nav.getByRole("list", { name: group });
    for (const item of items) await expect(list.getByRole("link", { name: item, exact: true })).toBeVisible();
  }

  // Widgets: the snippet pasted into the shop's page, then "check my page", by keyboard only.
  await nav.getByRole("link", { name: "Integration" }).click();
  const snippet = (await page.locator("#widget-snippet").textContent())!;
  shop.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home Boutique</title></head><body><main><h1>Linen shirt</h1>\n${snippet}\n</main></body></html>`;
  await page.goto(home);
  await page.getByLabel("Address of a product page of your shop").focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(shop.url("/products/linen-shirt"));
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Check my page" })).toBeFocused();
  await page.keyboard.press("Enter");
  const status = page.getByTestId("check-result");
  await expect(status).toHaveAttribute("role", "status");
  await expect(status).toContainText("The widgets are on your page.");
  await expect(status).toContainText("the Chorus script is there");
  await expect(status).toContainText("<chorus-reviews>");
  await expect(page.getByTestId("checklist-progress")).toHaveText("1 of 6 done.");
  await expectNoAxeViolations(page);
  await expectTicked(page, home, ["widgets"]);

  // A private address is refused by the guard, beside the field.
  await page.getByLabel("Address of a product page of your shop").fill("http://192.168.1.10/");
  await page.getByRole("button", { name: "Check my page" }).click();
  await expect(page.locator("#check-url-error")).toContainText("192.168.1.10 is a private address");
  await expect(page.getByLabel("Address of a product page of your shop")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  // Platform: the app secret.
  await page.getByRole("link", { name: "Connect your shop platform" }).click();
  await page.getByLabel(/App secret/).fill(`home-secret-${run}-0123456789abcdef`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Platform connection saved.")).toBeVisible();
  await expectTicked(page, home, ["platform", "widgets"]);

  // Import: a small CSV of real reviews.
  await page.goto(`${home}/import`);
  const csv = stringify([["product_id", "rating", "title", "body", "date"], ...REAL.map((r) => ["7001", r.rating, r.title, r.body, new Date().toISOString()])]);
  await page.getByLabel(/^Reviews CSV file/).setInputFiles({ name: `home-${run}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import reviews" }).click();
  await expect(page.getByRole("status").first()).toHaveText("2 reviews imported, 0 already present, 0 rows skipped with errors.");
  await expectTicked(page, home, ["platform", "widgets", "import"]);
  // The dashboard counts them (written today).
  await expect(page.getByTestId("reviews-received")).toHaveText("2");

  // Review requests on.
  await page.getByRole("link", { name: "Turn on review requests" }).click();
  await page.getByLabel("Send review requests after orders are fulfilled").check();
  await page.getByRole("button", { name: "Save review-request settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Review-request settings saved." })).toBeVisible();
  await expectTicked(page, home, ["platform", "widgets", "import", "review-requests"]);

  // Loyalty on.
  await page.getByRole("link", { name: "Set up loyalty" }).click();
  await page.getByLabel("Terms and conditions URL").fill("https://home-boutique.example/pages/rewards-terms");
  await page.getByLabel("Privacy policy URL").fill("https://home-boutique.example/pages/privacy");
  await page.getByRole("button", { name: "Turn on the loyalty program" }).click();
  await expect(page.getByRole("status").first()).toContainText("The loyalty program is on.");
  await expectTicked(page, home, ["platform", "widgets", "import", "review-requests", "loyalty"]);
  await expectNoAxeViolations(page);

  // A survey, from a template on the Surveys page.
  await page.getByRole("link", { name: "Create a survey" }).click();
  const create = page.getByRole("form", { name: "Create a survey" });
  await create.getByRole("button", { name: "Create survey" }).click();
  await expect(page.locator("#survey-name-error")).toHaveText("Give the survey a name.");
  await expectNoAxeViolations(page);
  await create.getByLabel(/^Name/).fill("After checkout");
  await create.getByLabel("What it asks").selectOption({ label: "Net Promoter Score (0–10, with the reason)" });
  await create.getByRole("button", { name: "Create survey" }).click();
  await expect(page.getByRole("status").filter({ hasText: 'Survey "After checkout" created.' })).toBeVisible();
  await expectNoAxeViolations(page);
  await expectTicked(page, home, ["platform", "widgets", "import", "review-requests", "loyalty", "survey"]);
  await expect(page.getByText("Getting started: all 6 steps done")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("loyalty Add forms reset after a successful add, the success announced in the status region", async ({ page }) => {
  const store = await signUpStore(page, { storeName: `Rules Boutique ${run}` });
  const admin = `/admin/stores/${store.storeId}`;
  await page.goto(`${admin}/loyalty/program`);
  await page.getByLabel("Terms and conditions URL").fill("https://rules-boutique.example/terms");
  await page.getByLabel("Privacy policy URL").fill("https://rules-boutique.example/privacy");
  await page.getByRole("button", { name: "Turn on the loyalty program" }).click();
  // Its note shown here first: a navigation that overtook the form post would show that note on the next page.
  await expect(page.getByRole("status").first()).toContainText("The loyalty program is on.");
  await page.goto(`${admin}/loyalty`);
  const status = page.getByRole("status");
  await expect(status).toHaveCount(1);
  await expect(status).toBeEmpty();

  const addTier = page.getByRole("form", { name: "Add a VIP tier" });
  await addTier.getByLabel("Tier name").fill("Gold");
  await addTier.getByLabel("Lifetime points needed").fill("500");
  await addTier.getByRole("button", { name: "Add VIP tier" }).click();
  await expect(status).toContainText('"Gold"');
  await expect(addTier.getByLabel("Tier name")).toHaveValue("");
  await expect(addTier.getByLabel("Lifetime points needed")).toHaveValue("");

  const addEarning = page.getByRole("form", { name: "Add an earning rule" });
  await addEarning.getByLabel("Type").selectOption({ label: "Sign-up" });
  await addEarning.getByLabel("Name shown to shoppers").fill("Join bonus");
  await addEarning.getByLabel("Points", { exact: true }).fill("100");
  await addEarning.getByRole("button", { name: "Add earning rule" }).click();
  await expect(status).toHaveText('Earning rule "Join bonus" added.');
  await expect(addEarning.getByLabel("Name shown to shoppers")).toHaveValue("");
  await expect(addEarning.getByLabel("Points", { exact: true })).toHaveValue("");
  await expectNoAxeViolations(page);
});

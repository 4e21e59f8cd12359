/**
 * The Webhooks and Exports admin pages in Chromium (issue #24 items 2 and 4): per-field errors, a
 * subscription created with the secret shown once, a real delivery to a receiver this spec runs on
 * 127.0.0.1 (the e2e server has ALLOW_LOOPBACK_REQUESTS=1) verified with the secret, the delivery log
 * and a replay, the disabled notice, and a CSV download with a filter; axe finds no violations on any state.
 */
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { DEMO_STORE_ID, expectNoAxeViolations } from "./axe.ts";
import { signInAsDemoMerchant } from "./e2e-server.ts";

type Hit = { headers: IncomingHttpHeaders; raw: string };

test("webhooks: create, deliver, log, replay, disable, delete; exports: download filtered CSV", async ({ page }) => {
  const hits: Hit[] = [];
  let writtenStatus = "";
  const receiver = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      hits.push({ headers: req.headers, raw });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/chorus-hooks`;
  try {
    await signInAsDemoMerchant(page);
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/stores/${DEMO_STORE_ID}/webhooks$`));
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No subscriptions yet.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Errors next to their fields.
    const create = page.getByRole("form", { name: "Add a subscription" });
    await create.getByLabel("Receiver URL").fill("https://10.1.2.3/hooks");
    await create.getByRole("button", { name: "Create subscription" }).click();
    await expect(create.getByLabel("Receiver URL")).toHaveAttribute("aria-invalid", "true");
    await expect(create.getByText(/10\.1\.2\.3 is a private address, not on the public internet/)).toBeVisible();
    await expect(create.getByText("eventTypes must name at least one event type")).toBeVisible();
    await expectNoAxeViolations(page);

    // Created: the secret is shown once.
    await create.getByLabel("Receiver URL").fill(url);
    await create.getByRole("checkbox", { name: "review.created" }).check();
    await create.getByRole("checkbox", { name: "review.updated" }).check();
    await create.getByRole("button", { name: "Create subscription" }).click();
    await expect(page.locator(".flash-ok")).toContainText("Subscription created");
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expectNoAxeViolations(page);
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    await expect(page.getByText(url, { exact: true }).first()).toBeVisible();

    // A review written on the storefront is delivered, signed with the secret.
    const written = await page.request.post(`/v1/stores/${DEMO_STORE_ID}/products/shopify-1078/reviews`, {
      data: { rating: 5, title: "Webhook test", body: "Lovely fabric, true to size.", displayName: "Hook tester", email: "hook@example.com" },
    });
    expect(written.status()).toBe(201);
    await expect.poll(() => hits.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(() => hits.some((h) => h.headers["chorus-event-type"] === "review.created"), { timeout: 20_000 }).toBe(true);
    const hit = hits.find((h) => h.headers["chorus-event-type"] === "review.created")!;
    const [t, v1] = String(hit.headers["chorus-signature"])
      .split(",")
      .map((p) => p.split("=")[1]);
    expect(createHmac("sha256", secret).update(`${t}.${hit.raw}`).digest("hex")).toBe(v1);
    const event = JSON.parse(hit.raw) as { eventId: string; eventType: string; data: { review: { title: string; status: string } } };
    expect(event.eventType).toBe("review.created");
    expect(event.data.review.title).toBe("Webhook test");
    writtenStatus = event.data.review.status;

    // The delivery log shows it delivered, with the status code; replay sends the same event again.
    await page.reload();
    const row = page.getByRole("row").filter({ hasText: event.eventId });
    await expect(row).toContainText("delivered");
    await expect(row).toContainText("204");
    await expectNoAxeViolations(page);
    await row.getByRole("button", { name: `Replay review.created ${event.eventId}` }).click();
    await expect(page.locator(".flash-ok")).toContainText("queued again");
    await expect.poll(() => hits.filter((h) => h.headers["chorus-event-id"] === event.eventId).length, { timeout: 20_000 }).toBe(2);

    // Disabled: the notice says so.
    await page.getByRole("button", { name: `Disable ${url}` }).click();
    await expect(page.getByRole("alert")).toContainText("A subscription is disabled");
    await expect(page.getByRole("alert")).toContainText("Disabled by the merchant.");
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: `Enable ${url}` }).click();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await page.getByRole("button", { name: `Delete ${url}` }).click();
    await expect(page.getByText("No subscriptions yet.")).toBeVisible();
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }

  // Exports: the page, and a filtered download.
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Exports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Exports" })).toBeVisible();
  await expectNoAxeViolations(page);
  const reviews = page.getByRole("form", { name: "Reviews" });
  await reviews.getByLabel("Status").selectOption(writtenStatus);
  const [download] = await Promise.all([page.waitForEvent("download"), reviews.getByRole("button", { name: "Download reviews CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^chorus-reviews-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFreviewId,productId,productName,status,rating,title,body,")).toBe(true);
  const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.status === writtenStatus)).toBe(true);
  expect(rows.some((r) => r.title === "Webhook test")).toBe(true);
});

/**
 * `npm run bench:widgets` (issue 8): widget weight and page speed.
 * 1. gzip and brotli size of each built widget file, of everything, and of what a product page and a
 *    star-badge-only page load.
 * 2. A Playwright + Chromium harness loads the demo product page with and without the widgets (widget
 *    requests blocked), normally and at 4× CPU slowdown, and reports transferred bytes, script time,
 *    long tasks, Cumulative Layout Shift and time to the first rendered review.
 * Starts its own server over a fresh database seeded with the demo data (about a minute).
 * Env: BENCH_RUNS (default 3) page loads per variant (median reported).
 */
import { chromium, type Page } from "@playwright/test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filesForTags, sizeOf, total, widgetFiles } from "./widget-sizes.ts";
import { printTable, startProcess, stopProcess, writeResults } from "./lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGE_TAGS = ["chorus-star-rating", "chorus-reviews", "chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media", "chorus-questions"];

// 1. Sizes.
const files = widgetFiles().map(sizeOf);
printTable(files.map((f) => ({ file: f.file, bytes: f.bytes, gzip: f.gzip, brotli: f.brotli })));
const all = total(widgetFiles());
const productPage = total(filesForTags(PAGE_TAGS.filter((t) => files.some((f) => f.file === `${t}.js`))));
const badgePage = total(filesForTags(["chorus-star-rating"]));
printTable([
  { set: "all widgets", gzip: all.gzip, brotli: all.brotli, budget: "35 KB gzip" },
  { set: "product page widgets", gzip: productPage.gzip, brotli: productPage.brotli, budget: "" },
  { set: "star-rating badge page", gzip: badgePage.gzip, brotli: badgePage.brotli, budget: "12 KB gzip" },
]);

// 2. Page speed.
const dir = mkdtempSync(join(tmpdir(), "chorus-widgets-bench-"));
const port = 3906;
const base = `http://127.0.0.1:${port}`;
console.log("\nStarting a server with the demo store (imports the real data) ...");
const server = await startProcess(["server/http/main.ts"], { PORT: String(port), HOST: "127.0.0.1", DATABASE_PATH: join(dir, "db.sqlite"), MEDIA_PATH: join(dir, "media") }, `${base}/demo`);

const INIT = `
  window.__m = { cls: 0, longTasks: [], firstReview: null };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__m.cls += e.value; }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__m.longTasks.push(e.duration); }).observe({ type: "longtask", buffered: true });
  const poll = () => {
    const el = document.querySelector("chorus-reviews");
    if (el && el.shadowRoot && el.shadowRoot.querySelector("article, [part~=review], [part~=card]")) { window.__m.firstReview = performance.now(); return; }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
`;

type Sample = { transferKB: number; scriptMs: number; longTasks: number; maxLongTaskMs: number; cls: number; firstReviewMs: number | null };

async function measure(page: Page, withWidgets: boolean, throttle: number): Promise<Sample> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
  await page.unroute("**/widgets/**").catch(() => {});
  if (!withWidgets) await page.route("**/widgets/**", (route) => route.abort());
  await page.goto(`${base}/demo/products/shopify-1078`, { waitUntil: "load" });
  if (withWidgets) await page.waitForFunction(() => (window as unknown as { __m: { firstReview: number | null } }).__m.firstReview !== null, null, { timeout: 60_000 }).catch(() => {});
  await page.waitForTimeout(1500);
  const metrics = (await cdp.send("Performance.getMetrics")).metrics as { name: string; value: number }[];
  const m = await page.evaluate(() => {
    const w = window as unknown as { __m: { cls: number; longTasks: number[]; firstReview: number | null } };
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const res = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    return { ...w.__m, transfer: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0) };
  });
  await cdp.detach();
  return {
    transferKB: Math.round(m.transfer / 102.4) / 10,
    scriptMs: Math.round((metrics.find((x) => x.name === "ScriptDuration")?.value ?? 0) * 1000),
    longTasks: m.longTasks.length, maxLongTaskMs: Math.round(Math.max(0, ...m.longTasks)), cls: Math.round(m.cls * 1000) / 1000,
    firstReviewMs: m.firstReview === null ? null : Math.round(m.firstReview),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const rows: Record<string, string | number>[] = [];
try {
  for (const throttle of [1, 4]) {
    for (const withWidgets of [false, true]) {
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.addInitScript(INIT);
        samples.push(await measure(page, withWidgets, throttle));
        await context.close();
      }
      const pick = (k: keyof Sample) => median(samples.map((s) => Number(s[k] ?? NaN)));
      rows.push({
        variant: `${withWidgets ? "with" : "without"} widgets, CPU ${throttle}x`, "transfer KB": pick("transferKB"), "script ms": pick("scriptMs"),
        "long tasks": pick("longTasks"), "max long task ms": pick("maxLongTaskMs"), CLS: pick("cls"), "first review ms": withWidgets ? pick("firstReviewMs") : "-",
      });
    }
  }
} finally {
  await browser.close();
  await stopProcess(server);
  rmSync(dir, { recursive: true, force: true });
}
console.log();
printTable(rows);
console.log(`\nResults written to ${writeResults("widgets", { sizes: files, all, productPage, badgePage, pageSpeed: rows })}`);

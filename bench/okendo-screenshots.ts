/**
 * The screenshots of docs/widgets.md "Beside Okendo" (issue #37 item 7): the demo product page with Chorus's widgets,
 * and Okendo's published Vue client (`@okendo/okendo-widgets-vue`, bundled from e2e/okendo/entry.mjs as in
 * e2e/okendo-compat.spec.ts) rendering the same product from the same server, both in Chromium at 1280 × 1800 CSS px.
 * Run by hand against a running server with the demo store (`npm start`, or any `PORT`):
 *
 *   node bench/okendo-screenshots.ts [http://127.0.0.1:3000] [shopify-1078]
 *
 * Writes docs/images/product-page-chorus.png and docs/images/product-page-okendo-vue.png.
 */
import { chromium, type Page } from "@playwright/test";
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";

const DEMO_STORE_ID = "7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6";
const base = (process.argv[2] ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
const product = process.argv[3] ?? "shopify-1078";
const images = join(PROJECT_ROOT, "docs/images");
const okendoDist = join(PROJECT_ROOT, "node_modules/@okendo/okendo-widgets-vue/dist");
const viewport = { width: 1280, height: 1800 };

/** Resolve once every `chorus-*` element on the page is defined, rendered and out of its loading state. */
async function chorusReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("*")]
        .filter((e) => e.localName.startsWith("chorus-"))
        .every((e) => customElements.get(e.localName) && (e as unknown as { hasUpdated?: boolean }).hasUpdated === true && e.getAttribute("state") !== "loading"),
    undefined,
    { timeout: 60_000 },
  );
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const chorus = await browser.newPage({ viewport });
  await chorus.goto(`${base}/demo/products/${product}`);
  await chorusReady(chorus);
  await chorus.evaluate(() => document.fonts.ready);
  await chorus.screenshot({ path: join(images, "product-page-chorus.png") });

  const bundle = (
    await build({
      entryPoints: [join(PROJECT_ROOT, "e2e/okendo/entry.mjs")],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2020",
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    })
  ).outputFiles[0]!.text;
  const okendo = await browser.newPage({ viewport });
  await okendo.route("https://api.okendo.io/v1/**", async (route) => route.fulfill({ response: await route.fetch({ url: route.request().url().replace("https://api.okendo.io", base) }) }));
  await okendo.route(`${base}/okendo-screenshot/**`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Okendo's Vue client</title><style>${readFileSync(join(okendoDist, "css/main.min.css"), "utf8")}
      body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; }</style></head>
      <body><div id="app"></div><script>window.__okendoTest = ${JSON.stringify({ subscriberId: DEMO_STORE_ID, productId: product.replace(/^shopify-/, "") })};</script>
      <script>${bundle.replace(/<\/script/gi, "<\\/script")}</script></body></html>`,
    }),
  );
  // Review media (absolute URLs on the server's public origin) through the router too, as in the e2e test.
  await okendo.route(/\/media\//, async (route) => route.fulfill({ response: await route.fetch() }));
  // The client's stylesheet names its images and icons relative to the page (../images, ../icons).
  await okendo.route(new RegExp(`^${base}/(images|icons)/[\\w.-]+$`), (route) => {
    const path = new URL(route.request().url()).pathname;
    void route.fulfill({ contentType: path.endsWith(".svg") ? "image/svg+xml" : `image/${path.split(".").pop()}`, body: readFileSync(join(okendoDist, path)) });
  });
  await okendo.goto(`${base}/okendo-screenshot/index.html`);
  await okendo.locator("#reviews .okeReviews-review").first().waitFor({ timeout: 60_000 });
  await okendo.evaluate(() => document.fonts.ready);
  await okendo.screenshot({ path: join(images, "product-page-okendo-vue.png") });
  console.log(`Wrote docs/images/product-page-chorus.png and docs/images/product-page-okendo-vue.png (${product}, ${base})`);
} finally {
  await browser.close();
}

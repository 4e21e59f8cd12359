/**
 * The demo storefront: plain HTML pages (no React, no Remix client) that include the Chorus widgets
 * exactly the way a merchant's theme would, with one `<script async src="/widgets/chorus.js">` tag.
 * Every dynamic value goes through `escapeUTF8` (the `entities` library) before it reaches the HTML.
 */
import { escapeUTF8 as esc } from "entities/escape";
import { formatRating } from "../../server/contract/storefront.ts";
import type { DemoImportProgress } from "../../server/demo/demo-status.ts";

/** A product row of the demo index (from `services.stores.topProducts`). */
export type DemoProduct = { productId: string; name: string; reviewCount: number; averageRating: number };

const STYLE = `
  :root { --chorus-accent: #3b3fb6; color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c1d21; background: #fff; }
  a { color: #3b3fb6; }
  .skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
  .skip:focus { left: 1rem; }
  header.site, footer.site { background: #f5f6f8; border-bottom: 1px solid #d9dbe0; }
  footer.site { border-top: 1px solid #d9dbe0; border-bottom: 0; margin-top: 3rem; color: #55585f; font-size: .9rem; }
  .wrap { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem; }
  header.site .wrap { display: flex; justify-content: space-between; align-items: center; gap: 1rem; }
  .brand { font-weight: 700; font-size: 1.15rem; color: inherit; text-decoration: none; }
  nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
  :focus-visible { outline: 3px solid #3b3fb6; outline-offset: 2px; }
  .crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; padding: 0; margin: 0 0 1rem; font-size: .9rem; color: #55585f; }
  .crumbs li + li::before { content: "/"; margin-right: .25rem; }
  .product { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2rem; align-items: start; }
  @media (max-width: 720px) { .product { grid-template-columns: 1fr; } }
  .placeholder { aspect-ratio: 4 / 3; border-radius: 12px; background: linear-gradient(135deg, #eceef3, #dfe2ea); border: 1px solid #d9dbe0; }
  h1 { font-size: 1.8rem; line-height: 1.25; margin: 0 0 .5rem; }
  h2 { font-size: 1.35rem; margin: 2.5rem 0 1rem; }
  .muted { color: #55585f; }
  .button { display: inline-block; background: #3b3fb6; color: #fff; border: 0; border-radius: 8px; padding: .7rem 1.4rem; font: inherit; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .6rem .75rem; border-bottom: 1px solid #d9dbe0; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  /* Reserve the widgets' space before their modules load (no layout shift). */
  /* A server-rendered element (a snippet: docs/snippets.md) already has its size: no reservation. */
  chorus-star-rating:not(:defined):not([server-rendered]) { display: inline-block; min-height: 1.5em; min-width: 10em; vertical-align: top; }
  /* The same reservations as the elements' own :host min-height (docs/widgets.md, "No layout shift"). */
  chorus-reviews:not(:defined):not([server-rendered]) { display: block; min-height: calc(var(--chorus-reviews-min-height, 28rem) + 3.75rem); } /* list + toolbar while loading */
  chorus-reviews-summary, chorus-reviews-keywords, chorus-review-media, chorus-questions { display: block; margin: 1rem 0; }
  .importing { background: #fff8e1; border: 1px solid #e0c36a; border-radius: 8px; padding: .6rem 1rem; }
  chorus-reviews-summary:not(:defined) { min-height: var(--chorus-reviews-summary-min-height, 14rem); }
  chorus-reviews-keywords:not(:defined) { min-height: var(--chorus-reviews-keywords-min-height, 11rem); }
  chorus-review-media:not(:defined) { min-height: var(--chorus-review-media-min-height, calc(96px + 3.5rem)); }
`;

/** The note's text: `Demo data importing, 12,000 of 23,486 reviews.` (the same words as IMPORT_NOTE_SCRIPT's). */
export function demoImportText(progress: DemoImportProgress): string {
  if (!progress.importing) return "Demo data imported: reload the page to see all of it.";
  const count = progress.total ? `, ${(progress.done ?? 0).toLocaleString("en")} of ${progress.total.toLocaleString("en")} reviews` : "";
  return `Demo data importing${count}. The shop fills in as it goes: reload the page to see more.`;
}

/** Keeps the note current: asks /healthz every 2 s, until the import is done (then says so and stops). */
const IMPORT_NOTE_SCRIPT = `(() => {
  const note = document.getElementById("demo-import");
  const tick = async () => {
    try {
      const demo = (await (await fetch("/healthz", { cache: "no-store" })).json()).demo;
      if (!demo) return;
      if (!demo.importing) { note.textContent = "Demo data imported: reload the page to see all of it."; return; }
      const count = demo.total ? ", " + (demo.done || 0).toLocaleString("en") + " of " + demo.total.toLocaleString("en") + " reviews" : "";
      const text = "Demo data importing" + count + ". The shop fills in as it goes: reload the page to see more.";
      if (note.textContent !== text) note.textContent = text;
    } catch {}
    setTimeout(tick, 2000);
  };
  setTimeout(tick, 2000);
})();`;

/** The note while the demo data is imported: a live region (role status), kept current by IMPORT_NOTE_SCRIPT. */
function importNote(progress: DemoImportProgress | null | undefined): string {
  if (!progress?.importing) return "";
  return `<p id="demo-import" class="importing" role="status">${esc(demoImportText(progress))}</p>
<script>${IMPORT_NOTE_SCRIPT}</script>
`;
}

function page(options: { title: string; main: string; description?: string; importing?: DemoImportProgress | null }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(options.title)}</title>
${options.description ? `<meta name="description" content="${esc(options.description)}">` : ""}
<style>${STYLE}</style>
<script async src="/widgets/chorus.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
  <a class="brand" href="/demo">Chorus Demo Boutique</a>
  <nav aria-label="Main"><ul><li><a href="/demo">All products</a></li><li><a href="/">About Chorus</a></li></ul></nav>
</div></header>
<main id="main" class="wrap">
${importNote(options.importing)}${options.main}
</main>
<footer class="site"><div class="wrap">
  <p>A demo shop for <a href="/">Chorus</a>. The reviews are real customer reviews from the public, CC0-licensed
  “Women's E-Commerce Clothing Reviews” dataset; product names come from its category columns.</p>
</div></footer>
</body>
</html>`;
}

/**
 * `/demo`: the products with the most published reviews.
 * @param storeId the demo store's subscriber ID (for the store-wide badge)
 */
export function demoIndexPage(
  storeId: string,
  products: DemoProduct[],
  platform: string,
  questionProducts: { productId: string; name: string; questionCount: number }[] = [],
  importing: DemoImportProgress | null = null,
): string {
  const rows = products
    .map(
      (p) => `<tr>
  <td><a href="/demo/products/${esc(encodeURIComponent(`${platform}-${p.productId}`))}">${esc(p.name)}</a></td>
  <td class="num">${esc(formatRating(p.averageRating))} <span class="muted">out of 5</span></td>
  <td class="num">${p.reviewCount.toLocaleString("en")}</td>
</tr>`,
    )
    .join("\n");
  const main = `<h1>Demo storefront</h1>
<p>All reviews in this shop: <chorus-star-rating store-id="${esc(storeId)}"></chorus-star-rating></p>
${
  products.length
    ? `<h2>Recent reviews</h2>
<chorus-reviews-carousel store-id="${esc(storeId)}"></chorus-reviews-carousel>
`
    : ""
}<p>The ${products.length} products with the most published reviews. Each product page loads the Chorus widgets with one script tag.</p>
${
  products.length
    ? `<table>
<caption class="muted" style="text-align:left;caption-side:top;padding-bottom:.5rem">Products by number of reviews</caption>
<thead><tr><th scope="col">Product</th><th scope="col" class="num">Average rating</th><th scope="col" class="num">Reviews</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : importing?.importing
      ? ""
      : `<p>The demo store has no reviews yet. Start Chorus with the demo data (see the README, “Demo data”).</p>`
}
<h2>Questions and answers</h2>
${
  questionProducts.length
    ? `<p>Products whose pages show real shoppers' questions and answers (the public Amazon appliance Q&amp;A data):</p>
<ul>
${questionProducts.map((p) => `<li><a href="/demo/products/${esc(encodeURIComponent(`${platform}-${p.productId}`))}">${esc(p.name)}</a> <span class="muted">(${p.questionCount.toLocaleString("en")} ${p.questionCount === 1 ? "question" : "questions"})</span></li>`).join("\n")}
</ul>`
    : `<p>No product has questions yet: the Q&amp;A demo data is imported when its file is in DEMO_DATA_DIR (see the README, “Demo data”).</p>`
}
<h2>Loyalty</h2>
<p><a href="/demo/loyalty">Chorus Rewards</a>: the loyalty program's enrol button, points and rewards, as a signed-in shopper sees them.</p>`;
  return page({ title: "Demo storefront · Chorus Demo Boutique", main, description: "A demo shop showing real customer reviews with the Chorus widgets.", importing });
}

/**
 * Server-rendered widgets for a product page (app/lib/snippets.server.ts), as a merchant's server puts them
 * in (docs/snippets.md); a widget without one is the plain tag, rendered in the browser.
 */
export type DemoSnippets = { starRating?: string; reviews?: string; questions?: string };

/**
 * `/demo/products/{platform}-{id}`: a product page with every Chorus widget, as a merchant includes them.
 * @param product the product; `productKey` is its platform-prefixed ID (`shopify-1078`)
 * @param snippets server-rendered star rating, reviews (with the product's JSON-LD) and questions
 */
export function demoProductPage(storeId: string, product: { productKey: string; name: string; groupName?: string }, snippets: DemoSnippets = {}, importing: DemoImportProgress | null = null): string {
  const attrs = `store-id="${esc(storeId)}" product-id="${esc(product.productKey)}"`;
  const main = `<nav class="crumbs" aria-label="Breadcrumb"><ol>
  <li><a href="/demo">All products</a></li>
  ${product.groupName ? `<li>${esc(product.groupName)}</li>` : ""}
  <li aria-current="page">${esc(product.name)}</li>
</ol></nav>
<div class="product">
  <div class="placeholder" aria-hidden="true"></div>
  <div>
    <h1>${esc(product.name)}</h1>
    <p>${snippets.starRating ?? `<chorus-star-rating ${attrs} href="#reviews"></chorus-star-rating>`}</p>
    ${product.groupName ? `<p class="muted">Category: ${esc(product.groupName)}</p>` : ""}
    <p>A product of the Chorus demo shop. This page shows how a merchant's product page looks with the Chorus
    widgets: the star badge above, and the real customer reviews, photos and questions below.</p>
  </div>
</div>
<section id="reviews" aria-labelledby="reviews-heading" tabindex="-1">
  <h2 id="reviews-heading">Customer reviews</h2>
  <chorus-reviews-summary ${attrs}></chorus-reviews-summary>
  <chorus-reviews-keywords ${attrs}></chorus-reviews-keywords>
  <chorus-review-media ${attrs}></chorus-review-media>
  ${snippets.reviews ?? `<chorus-reviews ${attrs}></chorus-reviews>`}
</section>
<section aria-labelledby="questions-heading">
  <h2 id="questions-heading">Questions and answers</h2>
  ${snippets.questions ?? `<chorus-questions ${attrs}></chorus-questions>`}
</section>`;
  return page({ title: `${product.name} · Chorus Demo Boutique`, main, description: `Customer reviews of ${product.name}.`, importing });
}

/** The demo's 404 page (unknown product; during the import, perhaps not imported yet). */
export function demoNotFoundPage(importing: DemoImportProgress | null = null): string {
  return page({
    importing,
    title: "Product not found · Chorus Demo Boutique",
    main: `<h1>Product not found</h1><p>This product is not in the demo shop. <a href="/demo">See all products</a>.</p>`,
  });
}

/** An HTML response (not cached by shared caches: the demo reflects the live database). */
export function htmlResponse(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
  });
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;
/** Whether an address is a loopback address (127.0.0.0/8, ::1, IPv4-mapped 127.x). */
export const isLoopback = (address: string | undefined | null): boolean => LOOPBACK.test((address ?? "").trim().replace(/^\[|\]$/g, ""));

/**
 * Whether the demo may sign a storefront platform token for a shopper picked in the URL
 * (`/demo/loyalty?shopper=…`, issue 19 finding 13): only when the demo is on (`CHORUS_DEMO` = 1, the
 * configuration's default; `0` turns it off) and the request comes from this machine. `clientIp` is the
 * load context's address (server/http/client-address.ts: the peer, or the forwarded client when the peer
 * is a trusted proxy). Any address a proxy put in `X-Forwarded-For`, `X-Real-IP` or `Forwarded` must be
 * loopback too, so a reverse proxy on the same machine that is not listed in TRUSTED_PROXIES does not make
 * every visitor look local. The demo is for trying Chorus on one's own machine, not for production.
 */
export function demoShopperSwitchAllowed(request: Request, clientIp: string | undefined, env: Record<string, string | undefined> = process.env): boolean {
  if ((env.CHORUS_DEMO ?? "1") !== "1" || !isLoopback(clientIp)) return false;
  const forwarded = [
    ...(request.headers.get("x-forwarded-for") ?? "").split(","),
    request.headers.get("x-real-ip") ?? "",
    ...[...(request.headers.get("forwarded") ?? "").matchAll(/for=("?)([^;,"]*)\1/gi)].map((m) => m[2]),
  ]
    .map((a) => a.trim())
    .filter(Boolean);
  const hostOf = (a: string) => /^\[([^\]]*)\]/.exec(a)?.[1] ?? (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(a) ? a.slice(0, a.lastIndexOf(":")) : a);
  return forwarded.every((a) => isLoopback(hostOf(a)));
}

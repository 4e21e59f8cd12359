/**
 * The demo storefront pages over real HTTP (real server, real Remix build, temp SQLite seeded with
 * real reviews): what they list, the widget markup a merchant would use, escaping, and 404s.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";
import { importAmazonQa } from "../../server/questions/amazon-qa.ts";
import { DATA_DIR, seedRealReviews, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let rows: RealReview[];

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { storeId: DEMO_STORE_ID, productIds: ["1078", "862", "1094"] });
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await fetch(t.url(path));
  return { res, html: await res.text() };
};

describe("demo storefront pages", () => {
  it("/demo lists the products with the most published reviews first, with average and count", async () => {
    const { res, html } = await get("/demo");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const count = (id: string) => rows.filter((r) => r.productId === id).length;
    const byCount = ["1078", "862", "1094"].sort((a, b) => count(b) - count(a));
    const linked = [...html.matchAll(/href="\/demo\/products\/shopify-(\d+)"/g)].map((m) => m[1]);
    expect(linked).toEqual(byCount);
    expect(html).toContain(`<td class="num">${count("1078").toLocaleString("en")}</td>`);
  });

  it("a product page includes chorus.js once and every widget with store-id and product-id; star rating, reviews and questions server-rendered", async () => {
    const { res, html } = await get("/demo/products/shopify-1078");
    expect(res.status).toBe(200);
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<script async src/g)).toHaveLength(1);
    expect(html).toContain('<script async src="/widgets/chorus.js"></script>');
    // The other scripts are data: the snippets' snapshots and the product's JSON-LD, once.
    expect(html.match(/<script type="application\/json" data-chorus-snapshot>/g)).toHaveLength(3);
    expect(html.match(/<script type="application\/ld\+json">/g)).toHaveLength(1);
    expect(html.match(/<script/g)).toHaveLength(5);
    expect(html).toMatch(/<h1>[^<]+ #1078<\/h1>/);
    const attrs = `store-id="${DEMO_STORE_ID}" product-id="shopify-1078"`;
    for (const tag of ["chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media"]) {
      expect(html).toContain(`<${tag} ${attrs}></${tag}>`);
    }
    for (const tag of ["chorus-star-rating", "chorus-reviews", "chorus-questions"]) {
      const open = new RegExp(`<${tag} server-rendered [^>]*>`).exec(html)?.[0];
      expect(open, tag).toContain(attrs.split(" ")[0]);
      expect(open, tag).toContain(attrs.split(" ")[1]);
      expect(html.slice(html.indexOf(open!))).toMatch(new RegExp(`^<${tag}[^>]*><template shadowroot="open" shadowrootmode="open">`));
    }
    expect(html).toMatch(/<chorus-star-rating server-rendered href="#reviews" /);
    // Without JavaScript: the newest reviews' titles are in the HTML.
    const newest = rows
      .filter((r) => r.productId === "1078")
      .sort((a, b) => Number(a.index) - Number(b.index))
      .slice(0, 25);
    for (const r of newest.filter((r) => r.title && !/[&<>"']/.test(r.title))) expect(html).toContain(`>${r.title}</h3>`);
    expect(html).toContain('id="reviews"');
    // ?snippets=off: the plain tags only.
    const plain = (await get("/demo/products/shopify-1078?snippets=off")).html;
    expect(plain.match(/<script/g)).toHaveLength(1);
    for (const tag of ["chorus-reviews", "chorus-questions"]) expect(plain).toContain(`<${tag} ${attrs}></${tag}>`);
    expect(plain).toContain(`<chorus-star-rating ${attrs} href="#reviews">`);
  });

  it("escapes product names in the HTML", async () => {
    await t.services.stores.upsertProduct({ storeId: DEMO_STORE_ID, productId: "777", name: `<img src=x onerror=alert(1)> "Tee" & co` });
    const { res, html } = await get("/demo/products/shopify-777");
    expect(res.status).toBe(200);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("<h1>&lt;img src=x onerror=alert(1)&gt; &quot;Tee&quot; &amp; co</h1>");
  });

  it.each(["shopify-424242", "bigcommerce-1078", "1078", "shopify-"])("an unknown product %s answers a 404 HTML page", async (key) => {
    const { res, html } = await get(`/demo/products/${key}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("Product not found");
  });

  it("/demo links the products with questions, most questions first, and the loyalty demo", async () => {
    const before = await get("/demo");
    expect(before.html).toContain("No product has questions yet");
    const file = join(mkdtempSync(join(tmpdir(), "chorus-qa-")), "qa.json");
    writeFileSync(file, readFileSync(join(DATA_DIR, "amazon_qa_appliances.json"), "utf8").split("\n").slice(0, 60).join("\n"));
    const s = t.services;
    await importAmazonQa({ db: s.db, stores: s.stores, questions: s.questionsData }, { storeId: DEMO_STORE_ID, file });
    const top = await s.questions.productsWithMostQuestions(DEMO_STORE_ID, 6);
    expect(top.length).toBeGreaterThan(0);
    const { html } = await get("/demo");
    const section = html.slice(html.indexOf("<h2>Questions and answers</h2>"));
    const linked = [...section.matchAll(/href="\/demo\/products\/shopify-([^"]+)"/g)].map((m) => m[1]);
    expect(linked).toEqual(top.map((p) => p.productId));
    expect(section).toContain(`(${top[0].questionCount} question`);
    expect(html).toContain('href="/demo/loyalty"');
    // The first one's page shows the questions widget with the product's key.
    const product = await get(`/demo/products/shopify-${top[0].productId}`);
    expect(product.html).toContain(`product-id="shopify-${top[0].productId}"`);
  });
});

/**
 * The admin home over real HTTP (the Remix build, real session cookies) against a real shop page on a loopback
 * HTTP server (ALLOW_LOOPBACK_REQUESTS on, as in local development): a new store's getting-started checklist
 * starts at 0 of 6 and ticks each step from the store's data; "check my page" fetches the page through the
 * outgoing-request guard and says what it found (and refuses a private address, which no switch allows);
 * another store's home answers 404; the 30-day dashboard agrees with direct counts, with the clock moved.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { realReviews } from "../../test/fixtures.ts";
import { one, sql } from "../db/database.ts";
import { findWidgets } from "./overview.service.ts";

let t: TestServer;
let shop: Server;
let shopHtml = "";
let shopUrl = "";
const A = randomUUID();
const B = randomUUID();
let owner: AdminAgent;
const HOME = `/admin/stores/${A}`;
/** The home is an index route: its form posts to `?index` (Remix). */
const HOME_FORM = `${HOME}?index`;

const snippetPage = (storeId: string, origin: string) => `<!doctype html><html><head><title>Shop</title>
<script async src="${origin}/widgets/chorus.js"></script></head><body>
<chorus-star-rating store-id="${storeId}" product-id="shopify-1"></chorus-star-rating>
<chorus-reviews store-id="${storeId}" product-id="shopify-1"></chorus-reviews>
<chorus-reviews store-id="${storeId}" product-id="shopify-2"></chorus-reviews>
<chorus-questions store-id="another-store" product-id="shopify-1"></chorus-questions>
</body></html>`;

/** The steps still to do and done, from the home page's HTML. */
async function steps(): Promise<{ done: string[]; todo: string[]; progress: string }> {
  const html = await (await adminGet(t, owner, HOME)).text();
  const done = [...html.matchAll(/data-step="([a-z-]+)" class="step-done"/g)].map((m) => m[1]!);
  const todo = [...html.matchAll(/data-step="([a-z-]+)" class="step-todo"/g)].map((m) => m[1]!);
  return { done, todo, progress: /data-testid="checklist-progress">(.*?)<\/strong>/.exec(html)?.[1]?.replace(/<!-- -->/g, "") ?? "(checklist collapsed)" };
}

beforeAll(async () => {
  t = await startTestServer({ allowLoopbackRequests: true });
  for (const s of [A, B]) await t.services.stores.create({ storeId: s, name: `Shop ${s.slice(0, 4)}`, platform: "shopify", shopUrl: "https://shop.example" });
  await t.services.admin.createUser({ email: "owner@home.test", password: "owner password 123", storeIds: [A] });
  owner = await signInAgent(t, "owner@home.test", "owner password 123", A);
  shop = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(shopHtml);
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}/products/one`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => shop.close(resolve));
  await t.close();
});

describe("findWidgets", () => {
  it("finds the script by its path and the elements with the store's ID, counted; others apart", () => {
    const found = findWidgets(snippetPage(A, "https://reviews.example"), A, "https://shop.example/p");
    expect(found).toEqual({
      scriptFound: true,
      elements: [
        { tag: "chorus-star-rating", count: 1 },
        { tag: "chorus-reviews", count: 2 },
      ],
      otherStoreElements: ["chorus-questions"],
    });
    expect(findWidgets(`<script src="/widgets/other.js"></script><CHORUS-REVIEWS STORE-ID="${A}"></CHORUS-REVIEWS>`, A, "https://shop.example/").scriptFound).toBe(false);
    expect(findWidgets(`<script src="/assets/widgets/chorus.js?v=2"></script>`, A, "https://shop.example/").scriptFound).toBe(true);
  });
});

describe("the getting-started checklist", () => {
  it("a new store starts with every step to do; another store's home is 404", async () => {
    expect(await steps()).toEqual({ done: [], todo: ["platform", "widgets", "import", "review-requests", "loyalty", "survey"], progress: "0 of 6 done." });
    expect((await adminGet(t, owner, `/admin/stores/${B}`)).status).toBe(404);
    expect((await adminPost(t, owner, `/admin/stores/${B}?index`, { intent: "check-page", url: shopUrl })).status).toBe(404);
  });

  it("check my page: says what it found, and only a page with the script and an element ticks the step", async () => {
    shopHtml = "<!doctype html><html><body><h1>No widgets</h1></body></html>";
    let res = await adminPost(t, owner, HOME_FORM, { intent: "check-page", url: shopUrl });
    expect(res.status).toBe(200);
    /** The page's HTML without React's text separators (`<!-- -->`). */
    const text = async (r: Response) => (await r.text()).replace(/<!-- -->/g, "");
    let html = await text(res);
    expect(html).toContain("The widgets are not on your page yet.");
    expect(html).toContain("the Chorus script (chorus.js) is missing");
    expect((await steps()).todo).toContain("widgets");

    shopHtml = snippetPage(A, t.baseUrl);
    res = await adminPost(t, owner, HOME_FORM, { intent: "check-page", url: shopUrl });
    expect(res.status).toBe(200);
    html = await text(res);
    expect(html).toContain("The widgets are on your page.");
    expect(html).toContain("found &lt;chorus-star-rating&gt;, &lt;chorus-reviews&gt; (2)");
    expect(html).toContain("Elements with another store ID or none: &lt;chorus-questions&gt;");
    expect((await steps()).done).toEqual(["widgets"]);
    const row = await one<{ page_url: string; script_found: number; elements: string }>(t.services.db, sql`SELECT page_url, script_found, elements FROM widget_page_checks WHERE store_id = ${A}`);
    expect(row).toEqual({ page_url: shopUrl, script_found: 1, elements: "chorus-star-rating,chorus-reviews" });
    // Another store has no check of its own.
    expect(await t.services.overview.pageCheckState(B)).toEqual({ last: null, shopUrl: "https://shop.example" });
  });

  it("check my page: a bad address, a private address and a missing page answer 400 beside the field, and keep the last check", async () => {
    for (const [url, words] of [
      ["not a url", "Enter the full address of a page of your shop"],
      ["ftp://shop.example/", "Enter the full address of a page of your shop"],
      ["http://10.1.2.3/products/one", "10.1.2.3 is a private address"],
      ["http://169.254.169.254/latest/meta-data/", "link-local"],
    ] as const) {
      const res = await adminPost(t, owner, HOME_FORM, { intent: "check-page", url });
      expect(res.status, url).toBe(400);
      const html = await res.text();
      expect(html, url).toContain(words);
      expect(html).toContain('aria-invalid="true" aria-describedby="check-url-error"');
    }
    const gone = createServer((_req, res) => res.writeHead(404).end("gone"));
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const res = await adminPost(t, owner, HOME_FORM, { intent: "check-page", url: `http://127.0.0.1:${(gone.address() as AddressInfo).port}/` });
    await new Promise((resolve) => gone.close(resolve));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The page answered 404");
    expect((await steps()).done).toEqual(["widgets"]);
  });

  it("ticks platform, import, review requests, loyalty and survey as each is done, then folds away", async () => {
    await t.services.platforms.updateSettings(A, { appSecret: "a-shopify-app-secret-0123456789" });
    expect((await steps()).done).toEqual(["platform", "widgets"]);

    const csv = "product_id,rating,title,body\n1078,5,Lovely,Fits well\n";
    const form = new FormData();
    form.append("csrf", owner.csrf);
    form.append("status", "published");
    form.append("file", new Blob([csv], { type: "text/csv" }), "old-app.csv");
    expect((await fetch(t.url(`${HOME}/import`), { method: "POST", body: form, headers: { cookie: owner.cookie } })).status).toBe(200);
    expect((await steps()).done).toEqual(["platform", "widgets", "import"]);

    await t.services.reviewRequests.update(A, { enabled: true });
    expect((await steps()).done).toEqual(["platform", "widgets", "import", "review-requests"]);

    const on = await adminPost(t, owner, `${HOME}/loyalty/program`, {
      intent: "turn-on",
      acceptTermsAndJoinProgramButtonText: "Join",
      policySentenceTemplate: "Joining means you accept the {termsAndConditions} and our {privacyPolicy}.",
      policySentenceHtml: "",
      termsAndConditionsUrl: "https://shop.example/terms",
      privacyPolicyUrl: "https://shop.example/privacy",
    });
    expect(on.status).toBe(303);
    expect((await steps()).progress).toBe("5 of 6 done.");

    // The Surveys page's form: a missing name answers 400 beside the field, then a survey from a template.
    const bad = await adminPost(t, owner, `${HOME}/surveys`, { intent: "create-survey", name: " ", template: "nps", channel: "post-checkout" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('id="survey-name-error" class="field-error">Give the survey a name.');
    expect((await adminPost(t, owner, `/admin/stores/${B}/surveys`, { intent: "create-survey", name: "Hijack", template: "nps", channel: "on-site" })).status).toBe(404);
    const made = await adminPost(t, owner, `${HOME}/surveys`, { intent: "create-survey", name: "After checkout", template: "nps", channel: "post-checkout" });
    expect(made.status).toBe(302);
    const surveyId = /survey=([0-9a-f-]{36})&created=1/.exec(made.headers.get("location") ?? "")?.[1];
    const survey = await t.services.surveys.getSurvey(A, surveyId!);
    expect(survey.questions.map((q) => q.type)).toEqual(["nps", "text"]);
    expect(survey.channelSurveys.map((c) => c.channel)).toEqual(["post-checkout"]);
    const all = await steps();
    expect(all.done).toHaveLength(6);
    expect(all.progress).toBe("(checklist collapsed)");
    expect((await (await adminGet(t, owner, HOME)).text()).replace(/<!-- -->/g, "")).toContain("Getting started: all 6 steps done");
    // Store B is untouched by all of it.
    expect((await t.services.overview.checklist(B)).filter((s) => s.done)).toEqual([]);
  });
});

describe("the dashboard of the last 30 days", () => {
  it("counts reviews received and published, the average rating and NPS in the window only (clock moved)", async () => {
    const DAY = 86_400_000;
    const now = Date.parse("2031-06-30T12:00:00Z");
    await t.services.stores.upsertProduct({ storeId: B, productId: "p-1", name: "Linen shirt" });
    const texts = realReviews()
      .filter((r) => r.title && r.body)
      .slice(0, 6);
    // In the window: days 0, 3 and 29 back (day 29 is the first day of the window); outside: 30 days back and the future.
    const rows = [
      { ago: 0, rating: 5, status: "published" },
      { ago: 3, rating: 2, status: "published" },
      { ago: 29, rating: 4, status: "pending" },
      { ago: 29.6, rating: 1, status: "published" },
      { ago: 31, rating: 1, status: "published" },
      { ago: -2, rating: 1, status: "published" },
    ] as const;
    for (const [i, r] of rows.entries()) {
      await t.services.reviewsData.insert({
        reviewId: randomUUID(),
        storeId: B,
        productId: "p-1",
        rating: r.rating,
        title: texts[i]!.title,
        body: texts[i]!.body,
        createdMs: now - r.ago * DAY,
        status: r.status,
        reviewerName: "Shopper",
      });
    }
    const d = await t.services.overview.dashboard(B, now);
    expect(d.from).toBe("2031-06-01");
    expect(d.to).toBe("2031-06-30");
    expect(d.reviews.days).toHaveLength(30);
    // 29.6 days back is 2031-05-31 21:36, before the first day: out. Received 3, published 2 (5 and 2 stars).
    expect(d.reviews.received).toBe(3);
    expect(d.reviews.published).toBe(2);
    expect(d.reviews.averageRating).toBe(3.5);
    expect(d.reviews.days.find((x) => x.day === "2031-06-01")).toEqual({ day: "2031-06-01", received: 1, published: 0 });
    expect(d.loyalty).toEqual({ members: 0, newMembers: 0, pointsEarned: 0, pointsRedeemed: 0 });
    expect(d.nps).toEqual({ score: null, promoters: 0, passives: 0, detractors: 0, answered: 0 });
    expect(d.funnel.days).toHaveLength(30);
  });

  it("the home page shows the figures, the chart with its title and description, and the table", async () => {
    const html = await (await adminGet(t, owner, HOME)).text();
    const d = await t.services.overview.dashboard(A);
    expect(html).toContain('<h2 id="dashboard-title">The last 30 days');
    expect(html).toContain('role="img" aria-labelledby="reviews-svg-title reviews-svg-desc"');
    expect(html).toContain("Reviews per day (UTC)");
    expect(html).toContain(`data-testid="reviews-received">${d.reviews.received}<`);
    expect(html).toContain(`data-testid="average-rating">${d.reviews.averageRating === null ? "—" : d.reviews.averageRating.toFixed(2)}<`);
  });
});

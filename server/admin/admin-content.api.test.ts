/**
 * Admin AI content and loyalty pages over real HTTP (the real server and Remix build, a temp SQLite file)
 * with real session cookies: store isolation on their loaders and actions (404, nothing changed), CSRF
 * (403), and merchant HTML in the legal sentence sanitised on save and escaped where shown as text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, realReviews, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { nextPolicyVersion } from "../loyalty/loyalty.service.ts";
import { all, one, run, sql, transaction } from "../db/database.ts";

let t: TestServer;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
type Agent = { cookie: string; csrf: string };
let alice: Agent;
let bVersion: string;
let bCustomer: string;
let aCustomer: string;
let product: string;

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

async function signIn(email: string, password: string, storeId: string): Promise<Agent> {
  const page = await fetch(t.url("/admin/login"));
  const loginCookie = setCookie(page, "chorus_admin_login")!.split(";")[0];
  const csrf = hidden(await page.text(), "csrf")!;
  const res = await fetch(t.url("/admin/login"), {
    method: "POST",
    redirect: "manual",
    headers: { cookie: loginCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email, password, next: "/admin" }),
  });
  expect(res.status).toBe(302);
  const cookie = setCookie(res, "chorus_admin")!.split(";")[0];
  const settings = await fetch(t.url(`/admin/stores/${storeId}/settings`), { headers: { cookie } });
  return { cookie, csrf: hidden(await settings.text(), "csrf")! };
}
const get = (agent: Agent, path: string) => fetch(t.url(path), { redirect: "manual", headers: { cookie: agent.cookie } });
function post(agent: Agent, path: string, fields: Record<string, string>, csrf: string | null = agent.csrf) {
  const body = new URLSearchParams(csrf === null ? fields : { csrf, ...fields });
  return fetch(t.url(path), { method: "POST", redirect: "manual", body, headers: { "content-type": "application/x-www-form-urlencoded", cookie: agent.cookie } });
}

/** Everything of store B's AI content and loyalty program an attack could change. */
const snapshotB = async () => ({
  versions: await all(t.services.db, sql`SELECT version_id, published_ms FROM ai_content_versions WHERE store_id = ${B} ORDER BY version_id`),
  jobs: await one(t.services.db, sql`SELECT count(*) AS n FROM ai_jobs WHERE store_id = ${B}`),
  program: await t.services.loyalty.adminProgram(B),
  customers: await all(t.services.db, sql`SELECT loyalty_customer_id, status, balance FROM loyalty_customers WHERE store_id = ${B} ORDER BY loyalty_customer_id`),
  transactions: await one(t.services.db, sql`SELECT count(*) AS n FROM loyalty_transactions WHERE store_id = ${B}`),
});

beforeAll(async () => {
  t = await startTestServer();
  // the most-reviewed product of the real data, in both stores
  const counts = new Map<string, number>();
  for (const r of realReviews()) counts.set(r.productId, (counts.get(r.productId) ?? 0) + 1);
  product = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  for (const s of [A, B]) {
    await seedRealReviews(t.services, { storeId: s, productIds: [product], limit: 80 });
    await t.services.stores.updateSettings(s, { aiAutoPublish: false });
    await t.services.loyalty.setupProgram(s, demoProgram(`secret-${s}`));
    await t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: `cust-${s}`, storeId: s, platformCustomerId: "shopper-1", email: `shopper@${s}.test` });
  }
  const r = await t.services.ai.generate(B, { type: "product", id: product });
  expect(r.status).toBe("generated");
  bVersion = (r as { version: { version_id: string } }).version.version_id;
  await t.services.stores.upsertProduct({ storeId: B, productId: "b-only-product", name: "Only in store B" });
  bCustomer = `cust-${B}`;
  aCustomer = `cust-${A}`;
  await run(t.services.db, sql`UPDATE stores SET name = ${"Store B (other merchant)"} WHERE store_id = ${B}`);
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "alice password A", storeIds: [A] });
  alice = await signIn("alice@shop-a.test", "alice password A", A);
}, 60_000);
afterAll(() => t.close());

describe("store isolation", () => {
  it.each(["/ai", "/loyalty", "/loyalty/customers", `/loyalty/customers?customer=cust-${OTHER_STORE_ID}`])("a user of store A gets 404 for store B's page %j", async (page) => {
    const res = await get(alice, `/admin/stores/${B}${page}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Store B (other merchant)");
  });

  it("store A's customers page does not open store B's customer by ID (404)", async () => {
    expect((await get(alice, `/admin/stores/${A}/loyalty/customers?customer=${bCustomer}`)).status).toBe(404);
  });

  const ACTIONS: [string, string, () => Promise<Record<string, string>>][] = [
    ["approve", "/ai", () => Promise.resolve({ intent: "approve", version: bVersion })],
    ["discard", "/ai", () => Promise.resolve({ intent: "discard", version: bVersion })],
    ["regenerate", "/ai", () => Promise.resolve({ intent: "regenerate", scopeType: "product", scopeId: "b-only-product" })],
    ["earning rule", "/loyalty", async () => ({ intent: "earning-rule", id: (await t.services.loyalty.adminProgram(B)).earningRules[0].earning_rule_id, name: "x", points: "9999", enabled: "on" })],
    [
      "redemption rule",
      "/loyalty",
      async () => ({
        intent: "redemption-rule",
        id: (await t.services.loyalty.adminProgram(B)).redemptionRules[0].redemption_rule_id,
        type: "fixed-amount-coupon",
        name: "x",
        pointsCost: "1",
        rewardDescription: "x",
        rewardValue: "5",
        enabled: "on",
      }),
    ],
    ["vip tier", "/loyalty", async () => ({ intent: "vip-tier", id: (await t.services.loyalty.adminProgram(B)).vipTiers[1].vip_tier_id, name: "x", pointsThreshold: "1", pointsMultiplier: "9" })],
    ["remove earning rule", "/loyalty", async () => ({ intent: "remove-earning-rule", id: (await t.services.loyalty.adminProgram(B)).earningRules[0].earning_rule_id })],
    ["remove redemption rule", "/loyalty", async () => ({ intent: "remove-redemption-rule", id: (await t.services.loyalty.adminProgram(B)).redemptionRules[0].redemption_rule_id })],
    ["remove vip tier", "/loyalty", async () => ({ intent: "remove-vip-tier", id: (await t.services.loyalty.adminProgram(B)).vipTiers[1].vip_tier_id })],
    ["block", "/loyalty/customers", () => Promise.resolve({ intent: "block", customer: bCustomer })],
    ["adjust", "/loyalty/customers", () => Promise.resolve({ intent: "adjust", customer: bCustomer, points: "500", reason: "attack" })],
  ];

  it.each(ACTIONS)("posting %s with store B's IDs to store A's page answers 404 and changes nothing of B", async (_name, page, fields) => {
    const before = await snapshotB();
    const res = await post(alice, `/admin/stores/${A}${page}`, await fields());
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it.each(ACTIONS)("posting %s to store B's page answers 404 and changes nothing of B", async (_name, page, fields) => {
    const before = await snapshotB();
    const res = await post(alice, `/admin/stores/${B}${page}`, await fields());
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it("store A's legal policies form does not change store B's policies", async () => {
    const before = await t.services.loyalty.legalPolicies(B);
    const legal = demoProgram("x").legalPolicies;
    const res = await post(alice, `/admin/stores/${B}/loyalty`, {
      intent: "legal",
      buttonText: "Hacked",
      policyHtml: "x",
      policyTemplate: legal.policySentenceTemplate,
      termsUrl: "/t",
      privacyUrl: "/p",
    });
    expect(res.status).toBe(404);
    expect(await t.services.loyalty.legalPolicies(B)).toEqual(before);
  });
});

describe("CSRF", () => {
  it.each([
    ["/ai", { intent: "regenerate", scopeType: "product", scopeId: "x" }],
    ["/loyalty", { intent: "earning-rule", id: "x", points: "1" }],
    ["/loyalty/customers", { intent: "block", customer: `cust-${TEST_STORE_ID}` }],
  ])("a form posted to %s without the CSRF token is rejected with 403", async (page, fields) => {
    const res = await post(alice, `/admin/stores/${A}${page}`, fields, null);
    expect(res.status).toBe(403);
    expect((await t.services.loyaltyData.getCustomer(A, aCustomer))!.status).toBe("pending");
  });

  it("a wrong CSRF token is rejected with 403 and the legal policies keep their version", async () => {
    const before = (await t.services.loyalty.legalPolicies(A)).version;
    const res = await post(alice, `/admin/stores/${A}/loyalty`, { intent: "legal", buttonText: "Join" }, "wrong-token");
    expect(res.status).toBe(403);
    expect((await t.services.loyalty.legalPolicies(A)).version).toBe(before);
  });
});

describe("own store actions", () => {
  it("approving store A's pending summary publishes it on the storefront API", async () => {
    const r = await t.services.ai.generate(A, { type: "product", id: product });
    const versionId = (r as { version: { version_id: string; summary_body: string } }).version.version_id;
    const summaryUrl = t.url(`/v1/stores/${A}/products/shopify-${product}/reviews_summary`);
    expect(await (await fetch(summaryUrl)).json()).toEqual({});
    const page = await (await get(alice, `/admin/stores/${A}/ai`)).text();
    expect(page).toContain(versionId);
    expect((await post(alice, `/admin/stores/${A}/ai`, { intent: "approve", version: versionId })).status).toBe(200);
    const body = (await (await fetch(summaryUrl)).json()) as { reviewsSummary?: { body: string } };
    expect(body.reviewsSummary?.body).toBe((await t.services.ai.versions(A, { type: "product", id: product }))[0].summary_body);
  });

  it("discarding a pending version deletes it; a published one cannot be discarded (409)", async () => {
    const r = await t.services.ai.generate(A, { type: "product", id: product });
    const id = (r as { version: { version_id: string } }).version.version_id;
    expect((await post(alice, `/admin/stores/${A}/ai`, { intent: "discard", version: id })).status).toBe(200);
    expect(await t.services.aiData.getVersion(A, id)).toBeUndefined();
    const published = (await t.services.aiData.latestPublished(A, { type: "product", id: product }))!;
    expect((await post(alice, `/admin/stores/${A}/ai`, { intent: "discard", version: published.version_id })).status).toBe(409);
  });

  it("an adjustment is an `adjustment` transaction with the reason and the balance equals the ledger sum", async () => {
    expect((await post(alice, `/admin/stores/${A}/loyalty/customers`, { intent: "adjust", customer: aCustomer, points: "120", reason: "Goodwill for a late parcel" })).status).toBe(200);
    expect((await post(alice, `/admin/stores/${A}/loyalty/customers`, { intent: "adjust", customer: aCustomer, points: "-20", reason: "Correction" })).status).toBe(200);
    const d = await t.services.loyalty.adminCustomer(A, aCustomer);
    expect(d.transactions.map((x) => [x.type, x.points, x.description])).toEqual([
      ["adjustment", -20, "Correction"],
      ["adjustment", 120, "Goodwill for a late parcel"],
    ]);
    expect(d.customer.balance).toBe(100);
    expect(d.ledger).toEqual({ ok: true, balance: 100, sum: 100 });
  });

  it("an adjustment without a reason or below zero balance is refused (400 / 409) and records nothing", async () => {
    const n = (await t.services.loyalty.adminCustomer(A, aCustomer)).transactions.length;
    expect((await post(alice, `/admin/stores/${A}/loyalty/customers`, { intent: "adjust", customer: aCustomer, points: "5", reason: "" })).status).toBe(400);
    expect((await post(alice, `/admin/stores/${A}/loyalty/customers`, { intent: "adjust", customer: aCustomer, points: "-100000", reason: "Too much" })).status).toBe(409);
    expect((await t.services.loyalty.adminCustomer(A, aCustomer)).transactions.length).toBe(n);
  });
});

describe("merchant HTML", () => {
  const HOSTILE = `Join: <a href="/terms" onclick="alert(1)">terms</a> <img src=x onerror="alert(2)"><script>alert(3)</script><a href="javascript:alert(4)">privacy</a>`;

  it("the legal sentence is sanitised on save, the version is bumped, and the admin shows it escaped as text", async () => {
    const before = (await t.services.loyalty.legalPolicies(A)).version;
    const legal = demoProgram("x").legalPolicies;
    const res = await post(alice, `/admin/stores/${A}/loyalty`, {
      intent: "legal",
      buttonText: "Join <b>now</b>",
      policyHtml: HOSTILE,
      policyTemplate: legal.policySentenceTemplate,
      termsUrl: legal.termsAndConditionsUrl,
      privacyUrl: legal.privacyPolicyUrl,
    });
    expect(res.status).toBe(303); // redirect-after-POST with a flash
    const stored = await t.services.loyalty.legalPolicies(A);
    expect(stored.version).not.toBe(before);
    expect(stored.policySentence.html).not.toMatch(/onclick|onerror|<img|<script|javascript:|alert\(3\)/);
    expect(stored.policySentence.html).toContain('<a href="/terms"');
    const html = await (await get(alice, `/admin/stores/${A}/loyalty`)).text();
    expect(html).toContain("&lt;a href=&quot;/terms&quot;"); // the stored sentence is shown as text
    expect(html).toContain("Join &lt;b&gt;now&lt;/b&gt;");
    expect(html).not.toContain("<b>now</b>");
  });

  it("saving unchanged legal policies keeps the version", async () => {
    const l = await t.services.loyalty.legalPolicies(A);
    await post(alice, `/admin/stores/${A}/loyalty`, {
      intent: "legal",
      buttonText: l.acceptTermsAndJoinProgramButtonText,
      policyHtml: l.policySentence.html,
      policyTemplate: l.policySentence.template,
      termsUrl: l.termsAndConditionsUrl,
      privacyUrl: l.privacyPolicyUrl,
    });
    expect((await t.services.loyalty.legalPolicies(A)).version).toBe(l.version);
  });
});

describe("loyalty settings", () => {
  it("a disabled earning rule disappears from the storefront API; a points-per-spend edit is stored", async () => {
    const rules = (await t.services.loyalty.adminProgram(A)).earningRules;
    const birthday = rules.find((r) => r.type === "birthday")!;
    const spend = rules.find((r) => r.type === "points-per-spend")!;
    expect((await post(alice, `/admin/stores/${A}/loyalty`, { intent: "earning-rule", id: birthday.earning_rule_id, name: birthday.name, points: "200" })).status).toBe(303);
    expect(
      (await post(alice, `/admin/stores/${A}/loyalty`, { intent: "earning-rule", id: spend.earning_rule_id, name: spend.name, points: "0", pointsPerCurrencyUnit: "2.5", enabled: "on" })).status,
    ).toBe(303);
    const api = (await (await fetch(t.url(`/v1/stores/${A}/loyalty/earning_rules`))).json()) as { earningRules: { type: string; pointsPerCurrencyUnit?: number }[] };
    expect(api.earningRules.map((r) => r.type)).not.toContain("birthday");
    expect(api.earningRules.find((r) => r.type === "points-per-spend")?.pointsPerCurrencyUnit).toBe(2.5);
  });

  it("a VIP tier threshold another tier has answers 409 and changes nothing", async () => {
    const [bronze, silver] = (await t.services.loyalty.adminProgram(A)).vipTiers;
    const res = await post(alice, `/admin/stores/${A}/loyalty`, {
      intent: "vip-tier",
      id: silver.vip_tier_id,
      name: silver.name,
      pointsThreshold: String(bronze.points_threshold),
      pointsMultiplier: "2",
    });
    expect(res.status).toBe(409);
    expect((await t.services.loyalty.adminProgram(A)).vipTiers[1]).toEqual(silver);
  });

  it("a redemption rule with a cost below 1 point is refused (400) naming the field", async () => {
    const rule = (await t.services.loyalty.adminProgram(A)).redemptionRules[0];
    const res = await post(alice, `/admin/stores/${A}/loyalty`, {
      intent: "redemption-rule",
      id: rule.redemption_rule_id,
      type: rule.type,
      name: rule.name,
      pointsCost: "0",
      rewardDescription: rule.reward_description,
      rewardValue: String(rule.reward_value),
      enabled: "on",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Points cost must be at least 1");
    expect(html).toMatch(/aria-invalid="true" aria-describedby="rr-[^"]+-pointsCost-error"/);
    expect((await t.services.loyalty.adminProgram(A)).redemptionRules[0].points_cost).toBe(rule.points_cost);
  });

  it("the customers list pages 25 at a time with a signed cursor", async () => {
    await transaction(t.services.db, async () => {
      for (let i = 0; i < 30; i++) await t.services.loyaltyData.insertCustomer({ loyaltyCustomerId: `page-${i}`, storeId: A, platformCustomerId: `page-shopper-${i}`, email: null });
    });
    const first = await (await get(alice, `/admin/stores/${A}/loyalty/customers?q=page-shopper`)).text();
    expect(first.match(/page-shopper-\d+/g)?.length).toBeGreaterThanOrEqual(25);
    const next = /href="([^"]*after=[^"]*)"/.exec(first)?.[1]?.replace(/&amp;/g, "&");
    expect(next).toBeDefined();
    const second = await (await get(alice, next!)).text();
    const ids = (html: string) => new Set([...html.matchAll(/>(page-shopper-\d+)</g)].map((m) => m[1]));
    expect(ids(first).size + ids(second).size).toBe(30);
    expect([...ids(second)].some((id) => ids(first).has(id))).toBe(false);
    expect((await get(alice, `/admin/stores/${A}/loyalty/customers?q=page-shopper&after=forged`)).status).toBe(400);
  });
});

describe("nextPolicyVersion", () => {
  const day = Date.UTC(2026, 10, 21, 12);
  it.each([
    ["2026-11-01", "2026-11-21"],
    ["2026-11-21", "2026-11-21.2"],
    ["2026-11-21.2", "2026-11-21.3"],
    ["v1", "2026-11-21"],
  ])("after %j comes %j", (current, next) => {
    expect(nextPolicyVersion(current, day)).toBe(next);
  });
});

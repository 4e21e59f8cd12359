/**
 * Admin loyalty set-up and reviews CSV import over real HTTP (the Remix build, real session cookies):
 * a new store's program turned on from the admin form (field errors with aria-invalid first), the
 * platform secret shown once through the flash cookie and usable at once by the storefront API;
 * rules and tiers added and removed through the page; a CSV uploaded, checked and imported with a
 * per-row report; another store's IDs answer 404.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { signPlatformToken } from "../loyalty/tokens.ts";
import { one, sql } from "../db/database.ts";

let t: TestServer;
const A = randomUUID();
const B = randomUUID();
type Agent = { cookie: string; csrf: string };
let alice: Agent;

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
  const cookie = setCookie(res, "chorus_admin")!.split(";")[0];
  const settings = await fetch(t.url(`/admin/stores/${storeId}/settings`), { headers: { cookie } });
  return { cookie, csrf: hidden(await settings.text(), "csrf")! };
}
const get = (agent: Agent, path: string, extraCookie = "") => fetch(t.url(path), { redirect: "manual", headers: { cookie: extraCookie ? `${agent.cookie}; ${extraCookie}` : agent.cookie } });
const post = (agent: Agent, path: string, fields: Record<string, string>) =>
  fetch(t.url(path), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ csrf: agent.csrf, ...fields }),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: agent.cookie },
  });
function upload(agent: Agent, storeId: string, name: string, content: string | Uint8Array, status = "published") {
  const form = new FormData();
  form.append("csrf", agent.csrf);
  form.append("status", status);
  form.append("file", new Blob([content as BlobPart], { type: "text/csv" }), name);
  return fetch(t.url(`/admin/stores/${storeId}/import`), { method: "POST", redirect: "manual", body: form, headers: { cookie: agent.cookie } });
}

beforeAll(async () => {
  t = await startTestServer();
  for (const s of [A, B]) await t.services.stores.create({ storeId: s, name: `Shop ${s.slice(0, 4)}`, platform: "shopify" });
  await t.services.admin.createUser({ email: "owner@new-shop.test", password: "owner password 123", storeIds: [A] });
  alice = await signIn("owner@new-shop.test", "owner password 123", A);
}, 60_000);
afterAll(() => t.close());

const PROGRAM = `/admin/stores/${A}/loyalty/program`;

describe("turning the program on in the admin", () => {
  it("shows the turn-on form for a store without a program", async () => {
    const html = await (await get(alice, PROGRAM)).text();
    expect(html).toContain("Turn on the loyalty program");
    expect(await get(alice, `/admin/stores/${A}/loyalty`).then((r) => r.text())).toContain("Set up the loyalty program");
  });

  it("bad fields answer 400 with a message next to each, marked aria-invalid, and nothing is created", async () => {
    const res = await post(alice, PROGRAM, {
      intent: "turn-on",
      acceptTermsAndJoinProgramButtonText: "",
      policySentenceTemplate: "no tokens",
      termsAndConditionsUrl: "javascript:alert(1)",
      privacyPolicyUrl: "/privacy",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const f of ["acceptTermsAndJoinProgramButtonText", "policySentenceTemplate", "termsAndConditionsUrl"]) {
      expect(html).toMatch(new RegExp(`aria-invalid="true" aria-describedby="p-${f}-error"`));
      expect(html).toContain(`id="p-${f}-error"`);
    }
    expect(html).not.toContain('aria-describedby="p-privacyPolicyUrl-error"');
    expect(html).toContain("must contain {termsAndConditions} and {privacyPolicy}");
    expect(await t.services.loyalty.programStatus(A)).toEqual({ exists: false });
  });

  it("turns it on, redirects with the secret shown once, and the secret signs shoppers in at once", async () => {
    const res = await post(alice, PROGRAM, {
      intent: "turn-on",
      acceptTermsAndJoinProgramButtonText: "Join Shop rewards",
      policySentenceTemplate: "Joining means you accept the {termsAndConditions} and our {privacyPolicy}.",
      policySentenceHtml: "",
      termsAndConditionsUrl: "https://shop.example/terms",
      privacyPolicyUrl: "/privacy",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(PROGRAM);
    const flash = setCookie(res, "chorus_flash")!;
    expect(flash).toMatch(/HttpOnly/i);
    const page = await get(alice, PROGRAM, flash.split(";")[0]);
    const html = await page.text();
    const secret = /data-testid="platform-secret">([^<]+)</.exec(html)?.[1];
    expect(secret).toBe(await t.services.loyalty.platformSecret(A));
    expect(setCookie(page, "chorus_flash")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/); // read once, cleared
    // the next view does not show it
    expect(await (await get(alice, PROGRAM)).text()).not.toContain(secret!);
    // the storefront API answers now, and a token signed with the shown secret signs in
    expect((await fetch(t.url(`/v1/stores/${A}/loyalty/earning_rules`))).status).toBe(200);
    const customerAccessToken = await signPlatformToken(secret!, { platformCustomerId: "shopper-1", email: "s1@example.test" });
    const login = await fetch(t.url(`/v1/stores/${A}/loyalty/login`), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken }) });
    expect(login.status).toBe(200);
  });

  it("a tampered flash cookie shows nothing", async () => {
    const html = await (await get(alice, PROGRAM, "chorus_flash=eyJmbGFzaCI6eyJzaG93bk9uY2UiOiJldmlsIn19.forged")).text();
    expect(html).not.toContain("evil");
  });

  it("generating a new secret shows the new one once; turning off and on works from the page", async () => {
    const old = await t.services.loyalty.platformSecret(A);
    const res = await post(alice, PROGRAM, { intent: "rotate-secret" });
    expect(res.status).toBe(303);
    const html = await (await get(alice, PROGRAM, setCookie(res, "chorus_flash")!.split(";")[0])).text();
    const shown = /data-testid="platform-secret">([^<]+)</.exec(html)?.[1];
    expect(shown).not.toBe(old);
    expect(shown).toBe(await t.services.loyalty.platformSecret(A));
    expect((await post(alice, PROGRAM, { intent: "turn-off" })).status).toBe(303);
    expect((await fetch(t.url(`/v1/stores/${A}/loyalty/earning_rules`))).status).toBe(404);
    expect(await (await get(alice, `/admin/stores/${A}/loyalty`)).text()).toContain("The loyalty program is off");
    expect((await post(alice, PROGRAM, { intent: "turn-on" })).status).toBe(303);
    expect((await fetch(t.url(`/v1/stores/${A}/loyalty/earning_rules`))).status).toBe(200);
  });
});

describe("rules and tiers on the loyalty page", () => {
  const PAGE = `/admin/stores/${A}/loyalty`;
  it("adds an earning rule, a redemption rule and a VIP tier; field errors come back per form", async () => {
    const bad = await post(alice, PAGE, { intent: "add-earning-rule", type: "points-per-spend", name: "Spend", points: "0", pointsPerCurrencyUnit: "" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/aria-invalid="true" aria-describedby="er-new-pointsPerCurrencyUnit-error"/);
    expect((await post(alice, PAGE, { intent: "add-earning-rule", type: "review", name: "Write a review", points: "40", enabled: "on" })).status).toBe(303);
    expect(
      (
        await post(alice, PAGE, {
          intent: "add-redemption-rule",
          type: "free-shipping",
          name: "Free shipping",
          pointsCost: "150",
          rewardDescription: "Free shipping on one order",
          rewardValue: "",
          enabled: "on",
        })
      ).status,
    ).toBe(303);
    expect((await post(alice, PAGE, { intent: "add-vip-tier", name: "Insider", pointsThreshold: "0", pointsMultiplier: "1", perks: "Early access" })).status).toBe(303);
    const api = async (path: string) => (await (await fetch(t.url(`/v1/stores/${A}/loyalty/${path}`))).json()) as Record<string, { name: string }[]>;
    expect((await api("earning_rules")).earningRules.map((r) => r.name)).toEqual(["Write a review"]);
    expect((await api("redemption_rules")).redemptionRules.map((r) => r.name)).toEqual(["Free shipping"]);
    expect((await api("vip_tiers")).vipTiers.map((r) => r.name)).toEqual(["Insider"]);
  });

  it("legal policies with a bad field answer 400 with the message at that field and keep the version", async () => {
    const before = await t.services.loyalty.adminLegalPolicies(A);
    const res = await post(alice, PAGE, {
      intent: "legal",
      buttonText: before.acceptTermsAndJoinProgramButtonText,
      policyHtml: before.policySentence.html,
      policyTemplate: "no placeholders",
      termsUrl: "javascript:alert(1)",
      privacyUrl: before.privacyPolicyUrl,
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/aria-invalid="true" aria-describedby="l-terms-error"/);
    expect(html).toMatch(/aria-invalid="true" aria-describedby="l-template-error"/);
    expect(html).not.toContain('aria-describedby="l-privacy-error"');
    expect(html).toContain("javascript:alert(1)"); // the typed value is kept (escaped in the attribute)
    expect(await t.services.loyalty.adminLegalPolicies(A)).toEqual(before);
  });

  it("removes a rule; another store's rule ID answers 404", async () => {
    const id = (await t.services.loyalty.adminProgram(A)).redemptionRules[0].redemption_rule_id;
    await t.services.loyalty.turnOnProgram(B, {
      acceptTermsAndJoinProgramButtonText: "Join",
      policySentenceTemplate: "{termsAndConditions} {privacyPolicy}",
      termsAndConditionsUrl: "/t",
      privacyPolicyUrl: "/p",
    });
    const bRule = await t.services.loyalty.addEarningRule(B, { type: "sign-up", name: "B sign-up", points: 10, enabled: true });
    expect((await post(alice, PAGE, { intent: "remove-earning-rule", id: bRule })).status).toBe(404);
    expect((await post(alice, `/admin/stores/${B}/loyalty/program`, { intent: "turn-off" })).status).toBe(404);
    expect(await t.services.loyalty.programStatus(B)).toMatchObject({ enabled: true });
    expect((await t.services.loyalty.adminProgram(B)).earningRules).toHaveLength(1);
    expect((await post(alice, PAGE, { intent: "remove-redemption-rule", id })).status).toBe(303);
    expect((await t.services.loyalty.adminProgram(A)).redemptionRules).toHaveLength(0);
  });
});

describe("reviews CSV import", () => {
  const CSV = [
    "product_id,rating,title,body,reviewer,date,verified_purchase",
    'linen-tee,5,Lovely,"Soft, light and cool.",Ana,2026-05-01,yes',
    "linen-tee,4,Good,Runs a little small.,Ben,2026-05-02,",
    "linen-tee,9,Bad rating,Not a rating,Cy,2026-05-03,",
    "scarf,3,Fine,Colour as shown.,,not-a-date,",
  ].join("\n");

  it("imports the good rows and reports each bad row with its line", async () => {
    const res = await upload(alice, A, "first.csv", CSV);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("2 reviews imported, 0 already present, 2 rows skipped with errors.");
    expect(html).toMatch(/<td>4<\/td><td>rating must be an integer from 1 to 5, got &quot;9&quot;<\/td>/);
    expect(html).toMatch(/<td>5<\/td><td>date is not ISO 8601/);
    const reviews = (await (await fetch(t.url(`/v1/stores/${A}/products/shopify-linen-tee/reviews`))).json()) as { reviews: { title: string; reviewer: { verifiedStatus: string } }[] };
    expect(reviews.reviews.map((r) => [r.title, r.reviewer.verifiedStatus]).sort()).toEqual([
      ["Good", "unverified"],
      ["Lovely", "verified-buyer"],
    ]);
  });

  it("the same file again adds nothing", async () => {
    expect(await (await upload(alice, A, "first.csv", CSV)).text()).toContain("0 reviews imported, 2 already present");
  });

  it.each([
    ["an empty file", "", "Choose a CSV file of reviews."],
    ["a binary file", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), "This is not a text file"],
    ["a file without the columns", "name,stars\nA,5\n", "needs a product_id column and a rating column"],
    ["a file that is not UTF-8", new Uint8Array([0x70, 0x72, 0x6f, 0x64, 0x75, 0x63, 0x74, 0x5f, 0x69, 0x64, 0x2c, 0x72, 0x61, 0x74, 0x69, 0x6e, 0x67, 0x0a, 0xe9, 0x2c, 0x35]), "not UTF-8"],
  ])("refuses %s with a message on the field (400)", async (_name, content, message) => {
    const res = await upload(alice, A, "bad.csv", content);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(message);
    expect(html).toMatch(/aria-invalid="true" aria-describedby="import-file-error"/);
  });

  it("refuses a file over the limit with 413 before reading it all", async () => {
    const big = "product_id,rating\n" + "p,5\n".repeat(600_000);
    const res = await upload(alice, A, "big.csv", big);
    expect(res.status).toBe(413);
  });

  it("another store's import answers 404 and imports nothing", async () => {
    const res = await upload(alice, B, "first.csv", CSV);
    expect(res.status).toBe(404);
    expect(await one(t.services.db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${B}`)).toEqual({ n: 0 });
  });
});

describe("incentives on the admin reviews page (issue 22 item 4)", () => {
  it("marks a review whose reviewer received a reward, and only that one", async () => {
    await t.services.stores.upsertProduct({ storeId: A, productId: "mug", name: "Mug" });
    for (const [key, isIncentivized] of [
      ["rewarded", true],
      ["unrewarded", false],
    ] as const) {
      await t.services.reviewsData.insert({
        reviewId: randomUUID(),
        storeId: A,
        productId: "mug",
        rating: 4,
        title: `Mug ${key}`,
        body: "Holds heat well.",
        createdMs: Date.now(),
        status: "published",
        reviewerName: key,
        helpfulCount: 0,
        isIncentivized,
        source: "test",
        sourceKey: key,
      });
    }
    const html = await (await get(alice, `/admin/stores/${A}/reviews?status=published&product=mug`)).text();
    const article = (title: string) => html.slice(html.indexOf(`>${title}</h3>`), html.indexOf("</article>", html.indexOf(`>${title}</h3>`)));
    expect(article("Mug rewarded")).toContain("Received a reward for this review");
    expect(article("Mug unrewarded")).not.toContain("Received a reward for this review");
  });
});

describe("store isolation and CSRF of the new pages", () => {
  it.each(["/loyalty/program", "/import"])("a user of store A gets 404 for store B's %s page", async (path) => {
    expect((await get(alice, `/admin/stores/${B}${path}`)).status).toBe(404);
  });

  it.each([
    ["/loyalty/program", { intent: "rotate-secret" }],
    ["/loyalty", { intent: "add-vip-tier", name: "X", pointsThreshold: "5", pointsMultiplier: "1" }],
  ])("a form posted to %s without the CSRF token is rejected with 403 and changes nothing", async (path, fields) => {
    const secret = await t.services.loyalty.platformSecret(A);
    const tiers = (await t.services.loyalty.adminProgram(A)).vipTiers.length;
    const res = await fetch(t.url(`/admin/stores/${A}${path}`), {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: alice.cookie },
    });
    expect(res.status).toBe(403);
    expect(await t.services.loyalty.platformSecret(A)).toBe(secret);
    expect((await t.services.loyalty.adminProgram(A)).vipTiers).toHaveLength(tiers);
  });

  it("an upload without the CSRF token is rejected with 403 and imports nothing", async () => {
    const before = await one(t.services.db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${A}`);
    const form = new FormData();
    form.append("file", new Blob(["product_id,rating\nzzz,5\n"], { type: "text/csv" }), "nocsrf.csv");
    const res = await fetch(t.url(`/admin/stores/${A}/import`), { method: "POST", redirect: "manual", body: form, headers: { cookie: alice.cookie } });
    expect(res.status).toBe(403);
    expect(await one(t.services.db, sql`SELECT count(*) AS n FROM reviews WHERE store_id = ${A}`)).toEqual(before);
  });
});

/**
 * Merchant admin over real HTTP (the real server, the real Remix build, a temp SQLite file) with real
 * session cookies: store isolation on every loader and action, CSRF, login rate limiting, sign-out,
 * cookie flags, security headers, escaping of merchant text, and moderation reaching the storefront API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, postAdminLogin, setCookieHeader, signInAgent } from "../../test/admin-http.ts";
import { isApiError } from "../contract/errors.ts";
import { decodeHtmlText } from "../../widgets/internal/html-text.ts";
import { all, one, run, sql, value, values } from "../db/database.ts";

let t: TestServer;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
const PASSWORD_A = "correct horse battery A";
const PASSWORD_B = "correct horse battery B";
type Agent = { cookie: string; csrf: string };
let alice: Agent;
let bob: Agent;

const pendingIds = async (storeId: string) =>
  (await values(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${storeId} AND status = 'pending' ORDER BY created_ms DESC, review_id DESC`)) as string[];
const review = async (id: string) => (await one(t.services.db, sql`SELECT status, reply_body FROM reviews WHERE review_id = ${id}`)) as { status: string; reply_body: string | null };
/** Everything of store B an attack could change, as one comparable snapshot. */
const snapshotB = async () => ({
  store: await t.services.stores.get(B),
  reviews: await all(t.services.db, sql`SELECT review_id, status, reply_body FROM reviews WHERE store_id = ${B} ORDER BY review_id`),
  groups: await t.services.stores.listGroups(B),
  keys: await t.services.apiKeys.list(B),
});

const setCookie = setCookieHeader;
const postLogin = (email: string, password: string, headers: Record<string, string> = {}) => postAdminLogin(t, email, password, headers);
const signIn = (email: string, password: string, storeId: string): Promise<Agent> => signInAgent(t, email, password, storeId);
const get = (agent: Agent | null, path: string) => adminGet(t, agent, path);
const post = (agent: Agent | null, path: string, fields: Record<string, string | string[]>, csrf: string | null = agent?.csrf ?? null) => adminPost(t, agent, path, fields, csrf);

beforeAll(async () => {
  t = await startTestServer({ trustedProxies: "loopback" }); // the tests stand behind a proxy on loopback: X-Forwarded-For names the client
  await seedRealReviews(t.services, { storeId: A, limit: 40, status: "pending" });
  await seedRealReviews(t.services, { storeId: B, limit: 40, status: "pending" });
  await run(t.services.db, sql`UPDATE stores SET name = ${"Store B (other merchant)"} WHERE store_id = ${B}`);
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: PASSWORD_A, storeIds: [A] });
  await t.services.admin.createUser({ email: "bob@shop-b.test", password: PASSWORD_B, storeIds: [B] });
  await t.services.admin.createUser({ email: "carol@shop-a.test", password: "carols password", storeIds: [A] });
  await t.services.apiKeys.create(B, "Store B warehouse");
  alice = await signIn("alice@shop-a.test", PASSWORD_A, A);
  bob = await signIn("bob@shop-b.test", PASSWORD_B, B);
});
afterAll(() => t.close());

const STORE_PAGES = ["", "/reviews", "/reviews?status=published", "/reviews?status=pending&rating=5&media=no", "/settings", "/integration", "/surveys", "/questions", "/ai", "/loyalty"];

describe("store isolation: every loader", () => {
  it.each(STORE_PAGES)("a user of store A gets 404 for store B's page %j, with none of B's data", async (page) => {
    const res = await get(alice, `/admin/stores/${B}${page}`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).not.toContain("Store B (other merchant)");
    expect(html).not.toContain("Store B warehouse");
    for (const id of (await pendingIds(B)).slice(0, 5)) expect(html).not.toContain(id);
  });

  it.each(STORE_PAGES)("the same user opens store A's page %j (200)", async (page) => {
    expect((await get(alice, `/admin/stores/${A}${page}`)).status).toBe(200);
  });

  it.each(STORE_PAGES)("without a session, %j redirects to sign-in", async (page) => {
    const res = await get(null, `/admin/stores/${A}${page}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/admin\/login\?next=/);
  });

  it("the store switcher (/admin?store=B) does not reach a store the user does not belong to", async () => {
    const res = await get(alice, `/admin?store=${B}&section=settings`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/admin/stores/${A}/settings`);
  });

  it("the reviews page of store A lists only store A's reviews", async () => {
    const html = await (await get(alice, `/admin/stores/${A}/reviews`)).text();
    expect(html).toContain((await pendingIds(A))[0]);
    for (const id of await pendingIds(B)) expect(html).not.toContain(id);
  });
});

describe("store isolation: every action", () => {
  const bReview = async () => (await pendingIds(B))[0];
  const bGroup = async () => (await t.services.stores.listGroups(B))[0].groupId;
  const bKey = async () => (await t.services.apiKeys.list(B))[0].apiKeyId;
  const ACTIONS: [string, string, () => Promise<Record<string, string | string[]>>][] = [
    ["publish", "/reviews", async () => ({ intent: "publish", review: await bReview() })],
    ["reject", "/reviews", async () => ({ intent: "reject", review: await bReview(), reason: "spam" })],
    ["bulk-publish", "/reviews", async () => ({ intent: "bulk-publish", review: (await pendingIds(B)).slice(0, 3) })],
    ["bulk-reject", "/reviews", async () => ({ intent: "bulk-reject", review: (await pendingIds(B)).slice(0, 3), reason: "spam" })],
    ["reply", "/reviews", async () => ({ intent: "reply", review: await bReview(), reply: "Hijacked reply" })],
    ["moderation", "/reviews", () => Promise.resolve({ intent: "moderation", moderation: "auto-publish-all" })],
    ["store settings", "/settings", () => Promise.resolve({ intent: "store", moderation: "auto-publish-all", translation: "on-load", aiAutoPublish: "on" })],
    ["group content", "/settings", async () => ({ intent: "groups", group: [await bGroup()] })],
    ["create API key", "/integration", () => Promise.resolve({ intent: "create", name: "Stolen key" })],
    ["revoke API key", "/integration", async () => ({ intent: "revoke", apiKeyId: await bKey() })],
  ];

  it.each(ACTIONS)("%s on store B's URL by a user of store A: 404 and store B unchanged", async (_name, page, fields) => {
    const before = await snapshotB();
    const res = await post(alice, `/admin/stores/${B}${page}`, await fields());
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it.each(ACTIONS)("%s on store A's URL naming store B's objects: store B unchanged", async (name, page, fields) => {
    if (name === "create API key" || name === "moderation" || name === "store settings") return; // these name no object of B: they act on A only
    const before = await snapshotB();
    const res = await post(alice, `/admin/stores/${A}${page}`, await fields());
    if (name !== "group content") expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it("settings posted to store A change store A only", async () => {
    const before = await snapshotB();
    const res = await post(alice, `/admin/stores/${A}/settings`, { intent: "store", moderation: "auto-publish-4-5", translation: "on-load" });
    expect(res.status).toBe(200);
    expect(await t.services.stores.get(A)).toMatchObject({ moderation: "auto-publish-4-5", translation: "on-load", aiAutoPublish: false });
    expect(await snapshotB()).toEqual(before);
    await post(alice, `/admin/stores/${A}/settings`, { intent: "store", moderation: "manual", translation: "off" });
  });

  it("the owner of store B can do what store A's user could not", async () => {
    const id = await bReview();
    const res = await post(bob, `/admin/stores/${B}/reviews`, { intent: "reject", review: id, reason: "off-topic" });
    expect(res.status).toBe(200);
    expect((await review(id)).status).toBe("rejected");
  });

  it("without a session an action redirects to sign-in and changes nothing", async () => {
    const id = (await pendingIds(A))[0];
    const res = await post(null, `/admin/stores/${A}/reviews`, { intent: "publish", review: id }, "anything");
    expect(res.status).toBe(302);
    expect((await review(id)).status).toBe("pending");
  });
});

describe("store isolation: client-side (single fetch .data) requests", () => {
  it("a .data request for store B's reviews by a user of store A carries none of B's data, and is not cacheable", async () => {
    const res = await get(alice, `/admin/stores/${B}/reviews.data`);
    const body = await res.text();
    expect(body).not.toContain("Store B (other merchant)");
    for (const id of (await pendingIds(B)).slice(0, 5)) expect(body).not.toContain(id);
    expect(body).toContain("404");
    const own = await get(alice, `/admin/stores/${A}/reviews.data`);
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("no-store");
    expect(await own.text()).toContain((await pendingIds(A))[0]);
  });

  it("a .data form post to store B by a user of store A changes nothing; without CSRF nothing either", async () => {
    const before = await snapshotB();
    await post(alice, `/admin/stores/${B}/reviews.data`, { intent: "publish", review: (await pendingIds(B))[0] });
    await post(alice, `/admin/stores/${B}/settings.data`, { intent: "store", moderation: "auto-publish-all", translation: "on-load" });
    expect(await snapshotB()).toEqual(before);
    const id = (await pendingIds(A))[0];
    await post(alice, `/admin/stores/${A}/reviews.data`, { intent: "publish", review: id }, null);
    expect((await review(id)).status).toBe("pending");
    // The same post with the token works (so the refusals above are the checks, not a broken request).
    expect((await post(alice, `/admin/stores/${A}/reviews.data`, { intent: "publish", review: id })).status).toBe(200);
    expect((await review(id)).status).toBe("published");
  });
});

describe("CSRF", () => {
  it("a form posted without the CSRF token is rejected with 403 and changes nothing", async () => {
    const id = (await pendingIds(A))[0];
    const res = await post(alice, `/admin/stores/${A}/reviews`, { intent: "publish", review: id }, null);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("security token");
    expect((await review(id)).status).toBe("pending");
  });

  it("a wrong CSRF token (another session's) is rejected with 403", async () => {
    const id = (await pendingIds(A))[0];
    const res = await post(alice, `/admin/stores/${A}/reviews`, { intent: "publish", review: id }, bob.csrf);
    expect(res.status).toBe(403);
    expect((await review(id)).status).toBe("pending");
  });

  it("every action checks it: settings, integration and sign-out without the token answer 403", async () => {
    expect((await post(alice, `/admin/stores/${A}/settings`, { intent: "store", moderation: "auto-publish-all", translation: "off" }, null)).status).toBe(403);
    expect((await post(alice, `/admin/stores/${A}/integration`, { intent: "create", name: "x" }, null)).status).toBe(403);
    expect((await post(alice, "/admin/logout", {}, null)).status).toBe(403);
    expect((await t.services.stores.get(A))!.moderation).toBe("manual");
    expect(await t.services.apiKeys.list(A)).toHaveLength(0);
  });

  it("the sign-in form without its CSRF token is rejected with 403", async () => {
    const res = await fetch(t.url("/admin/login"), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "alice@shop-a.test", password: PASSWORD_A }),
    });
    expect(res.status).toBe(403);
    expect(setCookie(res, "chorus_admin")).toBeUndefined();
  });
});

describe("sign-in", () => {
  it("wrong passwords are rate limited: after 5 failures even the right password answers 429", async () => {
    const ip = { "x-forwarded-for": "203.0.113.7" };
    for (let i = 0; i < 5; i++) {
      const res = await postLogin("carol@shop-a.test", `wrong password ${i}`, ip);
      expect(res.status).toBe(401);
      expect(await res.text()).toContain("E-mail or password is wrong");
    }
    const limited = await postLogin("carol@shop-a.test", "carols password", ip);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Too many failed sign-ins");
    expect(setCookie(limited, "chorus_admin")).toBeUndefined();
    // Another address is limited separately (per address + e-mail; there is no per-e-mail lockout).
    expect((await postLogin("carol@shop-a.test", "carols password", { "x-forwarded-for": "198.51.100.9" })).status).toBe(302);
  });

  it("an unknown e-mail answers the same 401 as a wrong password", async () => {
    const res = await postLogin("nobody@shop.test", "whatever password");
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("E-mail or password is wrong");
  });

  it("a user without stores signs in to a clear 'no store yet' page and reaches no store", async () => {
    await t.services.admin.createUser({ email: "newbie@shop.test", password: "newbie password", storeIds: [] });
    const res = await postLogin("newbie@shop.test", "newbie password");
    expect(res.headers.get("location")).toBe("/admin");
    const agent = { cookie: setCookie(res, "chorus_admin")!.split(";")[0], csrf: "" };
    const home = await get(agent, "/admin");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("No store yet");
    expect((await get(agent, `/admin/stores/${A}/reviews`)).status).toBe(404);
  });

  it("the session cookie is HttpOnly, SameSite=Lax, Path=/admin; Secure behind an HTTPS proxy", async () => {
    const plain = setCookie(await postLogin("alice@shop-a.test", PASSWORD_A), "chorus_admin")!;
    expect(plain).toMatch(/HttpOnly/);
    expect(plain).toMatch(/SameSite=Lax/);
    expect(plain).toMatch(/Path=\/admin/);
    expect(plain).not.toMatch(/Secure/);
    const https = setCookie(await postLogin("alice@shop-a.test", PASSWORD_A, { "x-forwarded-proto": "https" }), "chorus_admin")!;
    expect(https).toMatch(/Secure/);
  });

  it("the database holds only a hash of the session token and an argon2id password hash", async () => {
    const token = alice.cookie.split("=")[1];
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM admin_sessions WHERE session_hash = ${token}`)).toBe(0);
    expect(await value<string>(t.services.db, sql`SELECT password_hash FROM merchant_users WHERE email = ${"alice@shop-a.test"}`)).toMatch(/^\$argon2id\$/);
  });

  it("sign-out ends the session: the old cookie no longer opens a page", async () => {
    const agent = await signIn("alice@shop-a.test", PASSWORD_A, A);
    const res = await post(agent, "/admin/logout", {});
    expect(res.status).toBe(302);
    expect(setCookie(res, "chorus_admin")).toMatch(/Max-Age=0/);
    expect((await get(agent, `/admin/stores/${A}/reviews`)).status).toBe(302);
    expect((await get(alice, `/admin/stores/${A}/reviews`)).status).toBe(200);
  });

  it("admin pages carry a nonce CSP, no framing, same-origin referrers, nosniff and no-store", async () => {
    const res = await get(alice, `/admin/stores/${A}/reviews`);
    const csp = res.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    // Every inline script carries the response's nonce (else the browser would block hydration).
    for (const tag of html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
  });
});

describe("moderation reaches the storefront", () => {
  it("publishing a pending review shows it on the storefront API at once; rejecting removes it", async () => {
    const id = (await pendingIds(A))[0];
    const productId = (await value(t.services.db, sql`SELECT product_id FROM reviews WHERE review_id = ${id}`)) as string;
    const api = async () =>
      ((await (await fetch(t.url(`/v1/stores/${A}/products/shopify-${productId}/reviews?limit=25`))).json()) as { reviews: { reviewId: string; reply?: { body: string } }[] }).reviews;
    expect((await api()).map((r) => r.reviewId)).not.toContain(id);
    expect((await post(alice, `/admin/stores/${A}/reviews`, { intent: "publish", review: id })).status).toBe(200);
    expect((await api()).map((r) => r.reviewId)).toContain(id);

    const reply = `Thank you! <script>alert("x")</script> <b>bold</b>`;
    expect((await post(alice, `/admin/stores/${A}/reviews?status=published`, { intent: "reply", review: id, reply })).status).toBe(200);
    // Served safe as HTML (docs/api.md, Okendo-compatible): decoded, exactly what the merchant typed.
    expect(decodeHtmlText((await api()).find((r) => r.reviewId === id)?.reply?.body ?? "")).toBe(reply);

    expect((await post(alice, `/admin/stores/${A}/reviews`, { intent: "reject", review: id, reason: "spam" })).status).toBe(200);
    expect((await api()).map((r) => r.reviewId)).not.toContain(id);
  });

  it("HTML in a reply is escaped when the admin renders it", async () => {
    const id = (await pendingIds(A))[1];
    await post(alice, `/admin/stores/${A}/reviews`, { intent: "reply", review: id, reply: `<img src=x onerror="alert(1)"><script>alert(2)</script>` });
    const html = await (await get(alice, `/admin/stores/${A}/reviews`)).text();
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert(2)");
  });

  it("bulk publish publishes every ticked review of the store in one post", async () => {
    const ids = (await pendingIds(A)).slice(2, 5);
    const res = await post(alice, `/admin/stores/${A}/reviews`, { intent: "bulk-publish", review: ids });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("3 reviews published");
    for (const id of ids) expect((await review(id)).status).toBe("published");
  });

  it("a reply longer than 5000 characters answers 400 and is not saved", async () => {
    const id = (await pendingIds(A))[0];
    const res = await post(alice, `/admin/stores/${A}/reviews`, { intent: "reply", review: id, reply: "x".repeat(5001) });
    expect(res.status).toBe(400);
    expect((await review(id)).reply_body).toBeNull();
  });

  it("a bad filter answers 400 with a clear message, not a crash", async () => {
    const res = await get(alice, `/admin/stores/${A}/reviews?rating=9`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("rating must be 1 to 5");
  });
});

describe("integration: API keys", () => {
  it("a key created in the admin is shown once, authenticates, and after revoking answers the enterprise 401", async () => {
    const res = await post(alice, `/admin/stores/${A}/integration`, { intent: "create", name: "Warehouse" });
    expect(res.status).toBe(200);
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(await res.text())![1];
    const basic = `Basic ${Buffer.from(`${A}:${key}`).toString("base64")}`;
    expect(await t.services.apiKeys.authenticateBasic(basic)).toBe(A);
    // The list never shows the key again.
    expect(await (await get(alice, `/admin/stores/${A}/integration`)).text()).not.toContain(key);

    const apiKeyId = (await t.services.apiKeys.list(A))[0].apiKeyId;
    expect((await post(alice, `/admin/stores/${A}/integration`, { intent: "revoke", apiKeyId })).status).toBe(200);
    let error: unknown;
    try {
      await t.services.apiKeys.authenticateBasic(basic);
    } catch (e) {
      error = e;
    }
    expect(isApiError(error) && error.status).toBe(401);
    expect(await (await get(alice, `/admin/stores/${A}/integration`)).text()).toContain("Revoked");
  });

  it("the widget snippet has this store's ID and the chorus.js script", async () => {
    const html = await (await get(alice, `/admin/stores/${A}/integration`)).text();
    // The public origin (PUBLIC_URL, else the server's own address), never the request's Host.
    const origin = t.baseUrl.replace("127.0.0.1", "localhost");
    expect(html).toContain(`&lt;script async src=&quot;${origin}/widgets/chorus.js&quot;&gt;&lt;/script&gt;`);
    expect(html).toContain(`&lt;chorus-star-rating store-id=&quot;${A}&quot;`);
  });
});

/**
 * The Webhooks and Exports admin pages over real HTTP (issue #24 items 2 and 4): membership (another
 * store's pages and objects answer 404 and change nothing), CSRF, per-field errors, the secret shown
 * once through the flash, replay, and the admin CSV download with its filters and errors.
 */
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, value } from "../db/database.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";

let t: TestServer;
let alice: AdminAgent;
let bob: AdminAgent;
const A = `/admin/stores/${TEST_STORE_ID}`;
const B = `/admin/stores/${OTHER_STORE_ID}`;

/** Follow a 303 with the agent's cookie plus the flash cookie it set. */
async function follow(agent: AdminAgent, res: Response) {
  expect(res.status).toBe(303);
  const flash = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("chorus_flash="))
    ?.split(";")[0];
  return fetch(t.url(res.headers.get("location")!), { headers: { cookie: [agent.cookie, flash].filter(Boolean).join("; ") } });
}

beforeAll(async () => {
  t = await startTestServer({ webhooks: { allowInsecure: true, delivery: "manual" } });
  await seedRealReviews(t.services, { productIds: ["1078"] });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other store", platform: "shopify" });
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "alice password 1", storeIds: [TEST_STORE_ID] });
  await t.services.admin.createUser({ email: "bob@shop-b.test", password: "bob password 12", storeIds: [OTHER_STORE_ID] });
  alice = await signInAgent(t, "alice@shop-a.test", "alice password 1", TEST_STORE_ID);
  bob = await signInAgent(t, "bob@shop-b.test", "bob password 12", OTHER_STORE_ID);
});
afterAll(async () => {
  await t?.close();
});

describe("admin webhooks page", () => {
  it("only for the store's members; CSRF checked; errors beside their fields; the secret shown once", async () => {
    expect((await adminGet(t, alice, `${A}/webhooks`)).status).toBe(200);
    expect((await adminGet(t, bob, `${A}/webhooks`)).status).toBe(404);
    expect((await adminGet(t, null, `${A}/webhooks`)).status).toBe(302);
    expect((await adminPost(t, alice, `${A}/webhooks`, { intent: "create", url: "http://127.0.0.1:9/x", eventType: "review.created" }, null)).status).toBe(403);

    const bad = await adminPost(t, alice, `${A}/webhooks`, { intent: "create", url: "https://192.168.0.10/hooks" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toMatch(/id="new-url"[^>]*aria-invalid="true"[^>]*aria-describedby="new-url-error"|aria-invalid="true"[^>]*id="new-url"/);
    expect(html).toContain("192.168.0.10 is a private address, not on the public internet");
    expect(html).toContain("eventTypes must name at least one event type");
    expect(await t.services.webhooks.list(TEST_STORE_ID)).toHaveLength(0);

    const created = await adminPost(t, alice, `${A}/webhooks`, { intent: "create", url: "http://127.0.0.1:9/hooks", eventType: ["review.created", "review.deleted"], description: "<b>CRM</b>" });
    const page = await (await follow(alice, created)).text();
    const secret = /data-testid="webhook-secret">(whsec_[A-Za-z0-9_-]+)</.exec(page)?.[1];
    expect(secret).toBeTruthy();
    expect(page).toContain("&lt;b&gt;CRM&lt;/b&gt;");
    expect(await (await adminGet(t, alice, `${A}/webhooks`)).text()).not.toContain(secret!);
    const [sub] = await t.services.webhooks.list(TEST_STORE_ID);
    expect(sub).toMatchObject({ url: "http://127.0.0.1:9/hooks", eventTypes: ["review.created", "review.deleted"], description: "<b>CRM</b>" });

    // Another store's member cannot touch it, even through their own store's page.
    for (const intent of ["delete", "disable", "rotate"]) {
      expect((await adminPost(t, bob, `${B}/webhooks`, { intent, subscriptionId: sub.subscriptionId })).status, intent).toBe(404);
    }
    expect((await adminPost(t, bob, `${A}/webhooks`, { intent: "delete", subscriptionId: sub.subscriptionId })).status).toBe(404);
    expect(await t.services.webhooks.get(TEST_STORE_ID, sub.subscriptionId)).toMatchObject({ status: "enabled", secretPrefix: sub.secretPrefix });

    // Edit with a bad URL: the error shows in that subscription's form.
    const edit = await adminPost(t, alice, `${A}/webhooks`, { intent: "update", subscriptionId: sub.subscriptionId, url: "ftp://example.com", eventType: "review.created" });
    expect(edit.status).toBe(400);
    expect(await edit.text()).toContain(`id="s-${sub.subscriptionId}-url-error"`);

    // Disable: the notice; rotate: a new secret shown once; unknown intent: 400.
    const disabled = await (await follow(alice, await adminPost(t, alice, `${A}/webhooks`, { intent: "disable", subscriptionId: sub.subscriptionId }))).text();
    expect(disabled).toContain("A subscription is disabled");
    const rotated = await (await follow(alice, await adminPost(t, alice, `${A}/webhooks`, { intent: "rotate", subscriptionId: sub.subscriptionId }))).text();
    expect(/data-testid="webhook-secret">(whsec_[A-Za-z0-9_-]+)</.exec(rotated)?.[1]).not.toBe(secret);
    expect((await adminPost(t, alice, `${A}/webhooks`, { intent: "explode" })).status).toBe(400);
    // Replay of an unknown delivery, or of a delivery to a disabled subscription.
    expect((await adminPost(t, alice, `${A}/webhooks`, { intent: "replay", deliveryId: "6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11" })).status).toBe(404);
    expect((await follow(alice, await adminPost(t, alice, `${A}/webhooks`, { intent: "delete", subscriptionId: sub.subscriptionId }))).status).toBe(200);
    expect(await t.services.webhooks.list(TEST_STORE_ID)).toHaveLength(0);
  });
});

describe("admin exports", () => {
  it("downloads a filtered CSV for members only; empty filters ignored; bad filters and unknown files answered plainly", async () => {
    expect((await adminGet(t, alice, `${A}/exports`)).status).toBe(200);
    expect((await adminGet(t, bob, `${A}/exports`)).status).toBe(404);
    const res = await adminGet(t, alice, `${A}/exports/reviews.csv?status=published&rating=5&productId=&from=&to=`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="chorus-reviews-/);
    const rows = parse(await res.text(), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.length).toBe(await value<number>(t.services.db, sql`SELECT count(*) FROM reviews WHERE store_id = ${TEST_STORE_ID} AND status = 'published' AND rating = 5`));
    expect(rows.every((r) => r.rating === "5")).toBe(true);
    const bad = await adminGet(t, alice, `${A}/exports/reviews.csv?status=lost`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/status must be one of pending, published, rejected/);
    expect((await adminGet(t, alice, `${A}/exports/secrets.csv`)).status).toBe(404);
    expect((await adminGet(t, alice, `${A}/exports/reviews.json`)).status).toBe(404);
    expect((await adminGet(t, bob, `${A}/exports/reviews.csv`)).status).toBe(404);
    expect((await adminGet(t, bob, `${B}/exports/reviews.csv`)).status).toBe(200);
  });
});

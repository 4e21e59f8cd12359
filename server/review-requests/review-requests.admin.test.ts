/**
 * The admin's review-requests page over HTTP: membership (another store's page and preview are 404),
 * CSRF, per-field errors that change nothing, a save (redirect after POST) with a new language and its
 * removal, and the preview document with its own policy.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { DEFAULT_SETTINGS } from "./settings.ts";

const A = randomUUID();
const B = randomUUID();
let t: TestServer;
let alice: AdminAgent;
const page = (storeId: string) => `/admin/stores/${storeId}/review-requests`;
/** The form as the page sends it, with `overrides`. */
const form = (overrides: Record<string, string> = {}) => ({
  intent: "save",
  enabled: "on",
  delayDays: "5",
  reminder: "on",
  reminderDays: "7",
  quiet: "on",
  quietStart: "21",
  quietEnd: "8",
  timeZone: "Europe/Paris",
  "subject.en": DEFAULT_SETTINGS.templates.en.subject,
  "body.en": DEFAULT_SETTINGS.templates.en.body,
  ...overrides,
});

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Maple & Thread", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Other shop", platform: "shopify" });
  await t.services.admin.createUser({ email: "alice@maple.test", password: "alice's long password", storeIds: [A] });
  alice = await signInAgent(t, "alice@maple.test", "alice's long password", A);
});
afterAll(async () => {
  await t?.close();
});

describe("admin review requests", () => {
  it("shows the settings, the preview and the funnel; another store's page and preview are 404", async () => {
    const res = await adminGet(t, alice, page(A));
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of ["Review requests", "Preview of the e-mail", "Funnel per day (UTC)", 'role="img" aria-labelledby="funnel-svg-title funnel-svg-desc"']) expect(html).toContain(text);
    expect(html).toContain(`src="/admin/stores/${A}/review-requests/preview?lang=en"`);
    const preview = await adminGet(t, alice, `${page(A)}/preview?lang=en`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-security-policy")).toMatch(/^default-src 'none'; img-src \* data:; style-src 'unsafe-inline'/);
    expect(preview.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    const doc = await preview.text();
    expect(doc).toContain("Hi Alex,");
    expect(doc).toContain("Maple &amp; Thread");
    expect(doc).toContain("Sample product");
    for (const path of [page(B), `${page(B)}/preview`]) expect((await adminGet(t, alice, path)).status).toBe(404);
    expect((await adminGet(t, null, page(A))).status).toBe(302);
  });

  it("refuses a post without the CSRF token, and wrong values with a message beside each field, saving nothing", async () => {
    expect((await adminPost(t, alice, page(A), form(), null)).status).toBe(403);
    const res = await adminPost(t, alice, page(A), form({ delayDays: "-3", "subject.en": "Your order {{orderTotal}}", newLang: "french", newSubject: "Votre avis" }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The settings were not saved: correct the fields marked below.");
    expect(html).toMatch(/id="delayDays"[^>]*aria-invalid="true"[^>]*aria-describedby="delayDays-hint err-delayDays"/);
    expect(html).toContain('id="err-delayDays" class="field-error">delayDays must be a whole number of days from 0 to 365');
    expect(html).toContain('id="err-subject-en" class="field-error">subject: unknown placeholder {{orderTotal}}');
    expect(html).toContain('id="err-newLang" class="field-error">template languages are tags like en, fr or pt-BR');
    const same = await adminPost(t, alice, page(A), form({ quietStart: "8", quietEnd: "8" }));
    expect(same.status).toBe(400);
    expect(await same.text()).toContain('id="err-quietStart" class="field-error">quietHours: startHour and endHour must differ');
    expect(await t.services.reviewRequests.get(A)).toEqual(DEFAULT_SETTINGS);
  });

  it("saves (redirect after POST), adds a language and removes it again; another store's form is 404", async () => {
    const res = await adminPost(
      t,
      alice,
      page(A),
      form({ quiet: "", reminder: "", askShopRating: "on", newLang: "fr", newSubject: "Votre avis sur {{storeName}}", newBody: "Bonjour {{customerName}}," }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${page(A)}?saved=1`);
    expect(await t.services.reviewRequests.get(A)).toMatchObject({
      enabled: true,
      delayDays: 5,
      reminderDays: null,
      quietHours: null,
      timeZone: "Europe/Paris",
      askShopRating: true,
      templates: { en: DEFAULT_SETTINGS.templates.en, fr: { subject: "Votre avis sur {{storeName}}", body: "Bonjour {{customerName}}," } },
    });
    const shown = await (await adminGet(t, alice, `${page(A)}?saved=1`)).text();
    expect(shown).toContain("Review-request settings saved.");
    expect(shown).toMatch(/<input type="checkbox" name="askShopRating" aria-describedby="askShopRating-hint" checked=""\/> Also ask for a shop rating/);
    expect(shown).toContain(`src="/admin/stores/${A}/review-requests/preview?lang=fr"`);
    expect(await (await adminGet(t, alice, `${page(A)}/preview?lang=fr`)).text()).toContain("Bonjour Alex,");

    const removed = await adminPost(t, alice, page(A), form({ "subject.fr": "x", "body.fr": "y", "remove.fr": "on" }));
    expect(removed.status).toBe(302);
    expect(Object.keys((await t.services.reviewRequests.get(A)).templates)).toEqual(["en"]);
    expect((await t.services.reviewRequests.get(A)).askShopRating).toBe(false);
    expect((await adminPost(t, alice, page(B), form())).status).toBe(404);
    expect((await t.services.reviewRequests.get(B)).enabled).toBe(false);
  });
});

/**
 * Widget settings (issue #21 item 4) over real HTTP: the storefront read the widgets make
 * (`GET /v1/stores/{storeId}/widget_settings`: unknown store 404, malformed locale 400, language
 * fallback, the response cache emptied by a change), the service's validation (`update`), and the
 * admin widgets page (per-field errors such as a bad colour answer 400 and save nothing; saved forms
 * redirect; another store's page is 404).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { isApiError } from "../contract/errors.ts";
import { DEFAULT_TEXTS } from "../contract/widget-strings.ts";
import { chooseLanguage } from "./widget-settings.service.ts";

let t: TestServer;
let alice: AdminAgent;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
const settingsUrl = (storeId: string, query = "") => t.url(`/v1/stores/${storeId}/widget_settings${query}`);
const read = async (storeId: string, query = "") => {
  const res = await fetch(settingsUrl(storeId, query));
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as {
      widgetSettings: { locale: string; texts: Record<string, string>; colors: Record<string, string | null>; widgets: Record<string, boolean> };
      error?: { description: string };
    },
  };
};

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { storeId: A, limit: 10 });
  await seedRealReviews(t.services, { storeId: B, limit: 10 });
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "alice's long password", storeIds: [A] });
  alice = await signInAgent(t, "alice@shop-a.test", "alice's long password", A);
});
afterAll(() => t.close());

describe("GET /v1/stores/{storeId}/widget_settings", () => {
  it("a fresh store: no texts (the widgets' English defaults), no colours, every widget shown", async () => {
    const { status, headers, body } = await read(A);
    expect(status).toBe(200);
    expect(body.widgetSettings).toEqual({
      locale: "en",
      texts: {},
      colors: { accent: null, star: null },
      widgets: { reviews: true, starRating: true, media: true, questions: true, summary: true, keywords: true, loyalty: true },
      reviewForm: { attributes: [] },
    });
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(headers.get("cache-control")).toBe("public, no-cache");
    expect(headers.get("etag")).toBeTruthy();
  });

  it("an unknown store answers 404", async () => {
    const { status, body } = await read("00000000-0000-4000-8000-000000000000");
    expect(status).toBe(404);
    expect(body.error?.description).toMatch(/store/i);
  });

  it("a malformed locale answers 400 naming it", async () => {
    for (const locale of ["en_US", "x", "de-", "a".repeat(40), "<script>"]) {
      const { status, body } = await read(A, `?locale=${encodeURIComponent(locale)}`);
      expect(status, locale).toBe(400);
      expect(body.error?.description).toMatch(/locale/);
    }
  });

  it("texts fall back: the exact language, then its main language, then English", async () => {
    await t.services.widgetSettings.update(A, {
      texts: { en: { "reviews.writeReview": "Share your thoughts" }, de: { "reviews.writeReview": "Bewertung schreiben" }, "pt-br": { "reviews.writeReview": "Escreva uma avaliação" } },
    });
    const cases: [string, string, string][] = [
      ["", "en", "Share your thoughts"],
      ["?locale=de", "de", "Bewertung schreiben"],
      ["?locale=de-AT", "de", "Bewertung schreiben"],
      ["?locale=pt-BR", "pt-br", "Escreva uma avaliação"],
      ["?locale=pt-PT", "en", "Share your thoughts"],
      ["?locale=fr", "en", "Share your thoughts"],
    ];
    for (const [query, locale, text] of cases) {
      const { body } = await read(A, query);
      expect(body.widgetSettings.locale, query).toBe(locale);
      expect(body.widgetSettings.texts["reviews.writeReview"], query).toBe(text);
    }
    expect(chooseLanguage(undefined, ["de"])).toBe("en");
  });

  it("a change in the admin reaches the cached answer at once; another store's cached answer stays", async () => {
    const first = await read(A);
    const again = await fetch(settingsUrl(A), { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304); // cached and unchanged
    const otherBefore = await read(B);
    await t.services.widgetSettings.update(A, { colors: { accent: "#0A7F5A" }, widgets: { questions: false } });
    const after = await read(A);
    expect(after.body.widgetSettings.colors.accent).toBe("#0a7f5a");
    expect(after.body.widgetSettings.widgets.questions).toBe(false);
    expect(after.headers.get("etag")).not.toBe(first.headers.get("etag"));
    const otherAfter = await read(B);
    expect(otherAfter.headers.get("etag")).toBe(otherBefore.headers.get("etag"));
    expect(otherAfter.body.widgetSettings.colors.accent).toBeNull();
  });
});

describe("service: get / update (the `widgets` settings section)", () => {
  it("update validates every field and changes nothing on a bad one", async () => {
    const before = await t.services.widgetSettings.get(B);
    const bad: [unknown, RegExp][] = [
      [{ colors: { accent: "red" } }, /colors\.accent: must be a CSS hex colour/],
      [{ colors: { star: "#12345" } }, /colors\.star/],
      [{ colors: { accent: "#abc;}" } }, /colors\.accent/],
      [{ widgets: { reviews: "yes" } }, /widgets\.reviews/],
      [{ widgets: { carousel: true } }, /widgets/],
      [{ texts: { de: { "reviews.nope": "x" } } }, /texts\.de/],
      [{ texts: { "not a tag": { "reviews.empty": "x" } } }, /texts/],
      [{ texts: { de: { "reviews.voteUnhelpful": "Nein ({n})" } } }, /may use only the placeholders \{count\}/],
      [{ texts: { de: { "reviews.empty": "x".repeat(501) } } }, /at most 500/],
      [{ texts: { de: { "reviews.empty": "a\u0007b" } } }, /control characters/],
      [{ theme: "dark" }, /theme|Unrecognized/],
    ];
    for (const [patch, message] of bad) {
      let error: unknown;
      try {
        await t.services.widgetSettings.update(B, patch);
      } catch (e) {
        error = e;
      }
      expect(isApiError(error) && error.status, JSON.stringify(patch)).toBe(400);
      expect((error as Error).message, JSON.stringify(patch)).toMatch(message);
    }
    expect(await t.services.widgetSettings.get(B)).toEqual(before);
  });

  it("only what a patch names changes; blank or null texts go back to the default; null removes a language", async () => {
    const s = t.services.widgetSettings;
    await s.update(B, { colors: { star: "#F5A623" }, texts: { fr: { "reviews.empty": "Aucun avis", "reviews.retry": "Réessayer" } } });
    await s.update(B, { widgets: { loyalty: false }, texts: { fr: { "reviews.retry": "  " } } });
    expect(await s.get(B)).toMatchObject({ colors: { accent: null, star: "#f5a623" }, texts: { fr: { "reviews.empty": "Aucun avis" } }, widgets: { loyalty: false, reviews: true } });
    expect((await s.get(B)).texts.fr).not.toHaveProperty("reviews.retry");
    await s.update(B, { texts: { fr: null } });
    expect((await s.get(B)).texts).toEqual({});
    await expect(s.get("no-such-store")).rejects.toThrow(/Store not found/);
  });

  it("every default text has an ID of its widget's group and only known placeholders", () => {
    for (const [id, text] of Object.entries(DEFAULT_TEXTS)) {
      expect(id).toMatch(/^(common|starRating|reviews|reviewForm|media|questions|summary|keywords|loyalty|carousel|survey)\.[\w.]+$/);
      expect(text.length).toBeGreaterThan(0);
    }
  });
});

describe("admin widgets page", () => {
  const page = `/admin/stores/${A}/widgets`;

  it("shows the widgets' own texts of the language as placeholders (English in English), the colours and the preview frame", async () => {
    const res = await adminGet(t, alice, `${page}?lang=de`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('placeholder="Weitere Bewertungen laden"'); // the shipped German text of reviews.loadMore
    expect(await (await adminGet(t, alice, `${page}?lang=en`)).text()).toContain(`placeholder="${DEFAULT_TEXTS["reviews.loadMore"]}"`);
    expect(html).toContain('value="Bewertung schreiben"'); // the saved German text
    expect(html).toMatch(/<iframe[^>]+src="\/admin\/stores\/[^"]+\/widgets\/preview\?lang=de&amp;v=/);
  });

  it("a bad colour answers 400 with the error beside the field, and saves nothing", async () => {
    const before = await t.services.widgetSettings.get(A);
    const res = await adminPost(t, alice, page, { intent: "appearance", accent: "blue", star: "#b45309", "show.reviews": "on" });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(/id="color-accent"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="color-accent"/);
    expect(html).toContain('id="color-accent-error"');
    expect(html).toContain("must be a CSS hex colour");
    expect(await t.services.widgetSettings.get(A)).toEqual(before);
  });

  it("a bad text answers 400 naming that field; a good form saves and redirects (redirect-after-POST)", async () => {
    const bad = await adminPost(t, alice, page, { intent: "texts", lang: "de", "text.reviews.voteUnhelpful": "Nein ({wrong})" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('id="text-reviews-voteUnhelpful-error"');
    const ok = await adminPost(t, alice, page, { intent: "texts", lang: "de", "text.reviews.loadMore": "Mehr laden", "text.reviews.writeReview": "" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`${page}?lang=de&saved=texts`);
    expect((await t.services.widgetSettings.get(A)).texts.de).toEqual({ "reviews.loadMore": "Mehr laden" });
    // One widget's part of the texts (its own save, `group`): the language's other texts stay as saved.
    const part = await adminPost(t, alice, page, { intent: "texts", lang: "de", group: "0", "text.starRating.empty": "Noch keine Bewertungen" });
    expect(part.status).toBe(302);
    expect(part.headers.get("location")).toBe(`${page}?lang=de&saved=texts&group=0#texts-group-0`);
    expect((await t.services.widgetSettings.get(A)).texts.de).toEqual({ "reviews.loadMore": "Mehr laden", "starRating.empty": "Noch keine Bewertungen" });
    expect(await (await adminGet(t, alice, `${page}?lang=de&saved=texts&group=0`)).text()).toMatch(/<details id="texts-group-0" class="panel text-group-details" open="">/);
    const look = await adminPost(t, alice, page, { intent: "appearance", lang: "de", accent: "#123abc", star: "", "show.reviews": "on", "show.starRating": "on" });
    expect(look.status).toBe(302);
    expect(await t.services.widgetSettings.get(A)).toMatchObject({ colors: { accent: "#123abc", star: null }, widgets: { reviews: true, starRating: true, media: false, loyalty: false } });
  });

  it("a language tag is checked before its page opens", async () => {
    const bad = await adminPost(t, alice, page, { intent: "add-language", language: "deutsch!" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('id="new-language-error"');
    const ok = await adminPost(t, alice, page, { intent: "add-language", language: "pt-BR" });
    expect(ok.headers.get("location")).toBe(`${page}?lang=pt-br`);
  });

  it("another store's widgets page and preview are 404 for this merchant, and its settings unchanged", async () => {
    const before = await t.services.widgetSettings.get(B);
    expect((await adminGet(t, alice, `/admin/stores/${B}/widgets`)).status).toBe(404);
    expect((await adminGet(t, alice, `/admin/stores/${B}/widgets/preview`)).status).toBe(404);
    expect((await adminPost(t, alice, `/admin/stores/${B}/widgets`, { intent: "appearance", accent: "#000000" })).status).toBe(404);
    expect(await t.services.widgetSettings.get(B)).toEqual(before);
  });

  it("the preview page places the widgets of the store's top product with the snippet's reservations", async () => {
    const res = await adminGet(t, alice, `${page}/preview?lang=de`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(`<chorus-reviews store-id="${A}" product-id="shopify-`);
    expect(html).toContain("chorus-reviews:not(:defined){display:block;min-height:calc(var(--chorus-reviews-min-height,28rem) + 3.75rem)}");
  });

  it("the integration page's snippet leaves out hidden widgets and loads the script from PUBLIC_URL's origin", async () => {
    const html = await (await adminGet(t, alice, `/admin/stores/${A}/integration`)).text();
    expect(html).toMatch(/&lt;script async src=&quot;http:\/\/[^&]+\/widgets\/chorus\.js&quot;&gt;/);
    expect(html).toContain(`&lt;chorus-reviews store-id=&quot;${A}&quot;`);
    expect(html).not.toContain("&lt;chorus-review-media"); // turned off above
    expect(html).toContain("chorus-star-rating:not(:defined)");
  });
});

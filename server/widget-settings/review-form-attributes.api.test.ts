/**
 * The review form's product attributes (issue #23 item 2) over real HTTP and SQLite: the merchant configures
 * scales and choices (`PATCH /enterprise/settings` section `widgets.reviewForm`, the admin widgets page),
 * the widgets read them (`GET …/widget_settings`), a shopper's review answers them (`POST …/reviews`,
 * multipart as the form sends it), and the answers come back on the review, in `GET …/attributes`, the
 * attribute filters and the aggregate's `attributeRatings`. Bad configurations and bad answers: 400 naming
 * the field; the admin shows the error beside the field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { storefrontWidgetSettingsSchema, widgetSettingsSchema } from "../contract/widget-settings.ts";

let t: TestServer;
let alice: AdminAgent;
const API_KEY = "review-form-attributes-test-key-0123456789";
const auth = { authorization: `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`, "content-type": "application/json" };
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const PRODUCT = "9301";

const FIT = { kind: "scale", title: "Fit", minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large", required: true };
const QUALITY = { kind: "scale", title: "Quality", minLabel: "Poor", maxLabel: "Excellent" };
const SIZE = { kind: "choice", title: "Size bought", options: ["S", "M", "L"] };

const patchSettings = (widgets: unknown) => fetch(t.url("/enterprise/settings"), { method: "PATCH", headers: auth, body: JSON.stringify({ widgets }) });

/** Submit a review of PRODUCT as the form does (multipart; attribute lists as JSON strings). */
async function submit(fields: { attributesWithRating?: unknown; productAttributes?: unknown; rating?: number }) {
  const fd = new FormData();
  fd.append("rating", String(fields.rating ?? 4));
  fd.append("title", "Comfortable linen");
  fd.append("body", "Soft after the first wash, and the sleeves are a good length.");
  fd.append("displayName", "Noor");
  fd.append("email", `noor+${crypto.randomUUID().slice(0, 8)}@example.com`);
  if (fields.attributesWithRating !== undefined) fd.append("attributesWithRating", JSON.stringify(fields.attributesWithRating));
  if (fields.productAttributes !== undefined) fd.append("productAttributes", JSON.stringify(fields.productAttributes));
  const res = await fetch(t.url(`${prefix}/products/shopify-${PRODUCT}/reviews`), { method: "POST", body: fd });
  return { status: res.status, body: await res.json() };
}
const getJson = async (path: string) => (await fetch(t.url(prefix + path))).json();

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { storeId: TEST_STORE_ID, limit: 2 });
  await seedRealReviews(t.services, { storeId: OTHER_STORE_ID, limit: 2 });
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: PRODUCT, name: "Linen shirt" });
  await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
  await t.services.admin.createUser({ email: "mia@shop-a.test", password: "mia's long admin password", storeIds: [TEST_STORE_ID] });
  alice = await signInAgent(t, "mia@shop-a.test", "mia's long admin password", TEST_STORE_ID);
});
afterAll(() => t.close());

describe("configuration", () => {
  it("a store asks no attributes until the merchant configures them; PATCH sets them and the widgets read them", async () => {
    expect((await getJson("/widget_settings")).widgetSettings.reviewForm).toEqual({ attributes: [] });
    const res = await patchSettings({ reviewForm: { attributes: [FIT, QUALITY, { ...SIZE, title: "  Size   bought " }] } });
    expect(res.status).toBe(200);
    const expected = [FIT, { ...QUALITY, midLabel: "", required: false }, { ...SIZE, required: false }];
    const section = (await res.json()).widgets;
    expect(section.reviewForm.attributes).toEqual(expected);
    expect(widgetSettingsSchema.safeParse(section).success).toBe(true);
    const storefront = await getJson("/widget_settings?locale=de");
    expect(storefront.widgetSettings.reviewForm.attributes).toEqual(expected);
    expect(storefrontWidgetSettingsSchema.strict().safeParse(storefront).success).toBe(true);
    // Another store is untouched.
    expect((await (await fetch(t.url(`/v1/stores/${OTHER_STORE_ID}/widget_settings`))).json()).widgetSettings.reviewForm.attributes).toEqual([]);
  });

  it.each([
    ["7 attributes", Array.from({ length: 7 }, (_, i) => ({ ...QUALITY, title: `Q${i}` })), /reviewForm\.attributes: may hold at most 6/],
    ["a repeated title", [FIT, { ...QUALITY, title: "fit" }], /reviewForm\.attributes\.1\.title: must differ/],
    ["markup in a label", [{ ...FIT, minLabel: "<b>small</b>" }], /reviewForm\.attributes\.0\.minLabel: must not contain </],
    ["an empty title", [{ ...FIT, title: "  " }], /reviewForm\.attributes\.0\.title: must not be empty/],
    ["a choice with one option", [{ ...SIZE, options: ["M"] }], /reviewForm\.attributes\.0\.options: must have at least 2/],
    ["a repeated option", [{ ...SIZE, options: ["M", "m"] }], /reviewForm\.attributes\.0\.options: must not repeat/],
    ["an unknown kind", [{ ...FIT, kind: "slider" }], /kind must be "scale" or "choice"/],
    ["a label over 40 characters", [{ ...FIT, maxLabel: "x".repeat(41) }], /maxLabel: must be at most 40/],
  ])("%s: 400 naming the field, nothing saved", async (_name, attributes, message) => {
    const before = (await getJson("/widget_settings")).widgetSettings.reviewForm;
    const res = await patchSettings({ reviewForm: { attributes } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.description).toMatch(message);
    expect((await getJson("/widget_settings")).widgetSettings.reviewForm).toEqual(before);
  });
});

describe("a review answering the attributes", () => {
  let reviewId: string;

  it("is stored with them and comes back with them, in …/attributes, the filters and the aggregate", async () => {
    const { status, body } = await submit({
      attributesWithRating: [
        { title: "fit", value: "1" },
        { title: "Quality", value: 5 },
      ],
      productAttributes: [{ title: "Size bought", value: "m" }],
    });
    expect(status, JSON.stringify(body)).toBe(201);
    reviewId = body.review.reviewId;
    expect(body.review.status).toBe("published");
    const review = (await getJson(`/reviews/${reviewId}`)).review;
    expect(review.attributesWithRating).toEqual([
      { title: "Fit", type: "centered-range", value: -1, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" },
      { title: "Quality", type: "range", value: 5, minLabel: "Poor", midLabel: "", maxLabel: "Excellent" },
    ]);
    expect(review.productAttributes).toEqual([{ title: "Size bought", type: "single-value", value: "M" }]);

    const second = await submit({
      attributesWithRating: [
        { title: "Fit", value: 4 },
        { title: "Quality", value: 3 },
      ],
      productAttributes: [{ title: "Size bought", value: "L" }],
    });
    expect(second.status).toBe(201);
    const ratings = (await getJson(`/products/shopify-${PRODUCT}/review_aggregate`)).reviewAggregate.attributeRatings;
    expect(ratings).toEqual([
      { title: "Fit", type: "centered-range", value: -0.25, minLabel: "Runs small", midLabel: "True to size", maxLabel: "Runs large" },
      { title: "Quality", type: "range", value: 4, minLabel: "Poor", midLabel: "", maxLabel: "Excellent" },
    ]);
    expect((await getJson(`/products/shopify-${PRODUCT}/attributes`)).productAttributes).toEqual([{ title: "Size bought", options: ["L", "M"], target: "general" }]);
    const filtered = await getJson(`/products/shopify-${PRODUCT}/reviews?generalAttributes=${encodeURIComponent("Size bought,M")}`);
    expect(filtered.reviews.map((r: { reviewId: string }) => r.reviewId)).toEqual([reviewId]);
  });

  it.each([
    [
      "an unknown scale",
      {
        attributesWithRating: [
          { title: "Fit", value: 3 },
          { title: "Sleeves", value: 3 },
        ],
      },
      /^attributesWithRating\[1\]\.title: "Sleeves" is not a scale of this store's review form \(Fit, Quality\)/,
    ],
    ["a choice's title as a scale", { attributesWithRating: [{ title: "Size bought", value: 3 }] }, /attributesWithRating\[0\]\.title: "Size bought" is not a scale/],
    ["a value above 5", { attributesWithRating: [{ title: "Fit", value: 6 }] }, /attributesWithRating\.value must be an integer from 1 to 5/],
    ["a value of 0", { attributesWithRating: [{ title: "Fit", value: "0" }] }, /attributesWithRating\.value must be an integer from 1 to 5/],
    ["a fractional value", { attributesWithRating: [{ title: "Fit", value: 2.5 }] }, /attributesWithRating\.value must be an integer from 1 to 5/],
    [
      "a scale answered twice",
      {
        attributesWithRating: [
          { title: "Fit", value: 2 },
          { title: "FIT", value: 3 },
        ],
      },
      /attributesWithRating\[1\]\.title: "Fit" is answered twice/,
    ],
    ["not a JSON array", { attributesWithRating: { Fit: 3 } }, /attributesWithRating must be a JSON array/],
    [
      "an option the choice does not have",
      { attributesWithRating: [{ title: "Fit", value: 3 }], productAttributes: [{ title: "Size bought", value: "XL" }] },
      /productAttributes\[0\]\.value: "XL" is not an option of Size bought \(S, M, L\)/,
    ],
    ["a required scale left out", { attributesWithRating: [{ title: "Quality", value: 3 }] }, /attributesWithRating: Fit is required/],
  ])("%s: 400 naming the field, no review stored", async (_name, fields, message) => {
    const before = (await getJson(`/products/shopify-${PRODUCT}/review_aggregate`)).reviewAggregate.reviewCount;
    const { status, body } = await submit(fields);
    expect(status).toBe(400);
    expect(body.error.description).toMatch(message);
    expect((await getJson(`/products/shopify-${PRODUCT}/review_aggregate`)).reviewAggregate.reviewCount).toBe(before);
  });

  it("attributes of other clients (titles the form does not ask) are kept as sent", async () => {
    const { status, body } = await submit({ attributesWithRating: [{ title: "Fit", value: 3 }], productAttributes: [{ title: "Height", type: "text", value: "180 cm" }] });
    expect(status).toBe(201);
    const review = (await getJson(`/reviews/${body.review.reviewId}`)).review;
    expect(review.productAttributes).toEqual([{ title: "Height", type: "text", value: "180 cm" }]);
    expect(review.attributesWithRating[0]).toMatchObject({ title: "Fit", value: 0 });
  });
});

describe("the admin widgets page", () => {
  const page = `/admin/stores/${TEST_STORE_ID}/widgets`;

  it("shows the configured attributes; a bad field answers 400 with the error beside it and saves nothing", async () => {
    const html = await (await adminGet(t, alice, page)).text();
    expect(html).toContain('value="Runs small"');
    const bad = await adminPost(t, alice, page, {
      intent: "attributes",
      "attr.0.kind": "scale",
      "attr.0.title": "Fit",
      "attr.0.minLabel": "<i>small",
      "attr.0.midLabel": "",
      "attr.0.maxLabel": "Runs large",
    });
    expect(bad.status).toBe(400);
    const text = await bad.text();
    expect(text).toMatch(/id="attr-0-minLabel"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="attr-0-minLabel"/);
    expect(text).toContain('id="attr-0-minLabel-error"');
    expect(text).toContain("must not contain &lt; or &gt;");
    expect((await getJson("/widget_settings")).widgetSettings.reviewForm.attributes).toHaveLength(3);
  });

  it("saves a scale and a choice from the form (options one per line), in order; a blank title removes a row", async () => {
    const res = await adminPost(t, alice, page, {
      intent: "attributes",
      "attr.0.kind": "scale",
      "attr.0.title": "Fit",
      "attr.0.minLabel": "Runs small",
      "attr.0.midLabel": "True to size",
      "attr.0.maxLabel": "Runs large",
      "attr.0.required": "on",
      "attr.1.kind": "choice",
      "attr.1.title": "",
      "attr.1.options": "",
      "attr.2.kind": "choice",
      "attr.2.title": "Size bought",
      "attr.2.options": "S\r\nM\r\n\r\nL\r\n",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toContain("saved=attributes");
    expect((await getJson("/widget_settings")).widgetSettings.reviewForm.attributes).toEqual([FIT, { ...SIZE, required: false }]);
  });
});

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { minimalMp4, minimalWebm, mp4HeaderThenHtml } from "../../test/media-fixtures.ts";
import { REVIEW_LIMITS } from "../contract/writes.ts";
import { all, dialect, exec, one, sql, value } from "../db/database.ts";
import { MAX_INPUT_PIXELS } from "../media/media.service.ts";

let t: TestServer;
let rows: RealReview[];
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const PRODUCT = "1078";
const reviewsUrl = () => t.url(`${prefix}/products/shopify-${PRODUCT}/reviews`);

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { productIds: [PRODUCT, "862"] });
  await t.services.stores.create({ storeId: OTHER_STORE_ID, name: "Other", platform: "bigcommerce" });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.services.submissionLimiter.reset();
  t.services.submissionLimiter.configure({ perIp: { max: 1000, windowMs: 3600_000 }, perEmail: { max: 1000, windowMs: 3600_000 } });
  await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "manual" });
});

/** A real review of the file, as a shopper would type it. */
const realBody = (i = 0) => {
  const r = rows.filter((x) => x.body && x.title)[i];
  return { rating: r.rating, title: r.title, body: r.body, displayName: "Dana", email: `dana${i}@example.com`, isRecommended: r.recommended };
};

const postJson = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { res, body: await res.json().catch(() => null) };
};

function form(fields: Record<string, string | number | boolean>, files: { data: Uint8Array; type: string; name: string }[] = []): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
  for (const f of files) fd.append("media", new Blob([f.data as Uint8Array<ArrayBuffer>], { type: f.type }), f.name);
  return fd;
}
const postForm = async (fd: FormData) => {
  const res = await fetch(reviewsUrl(), { method: "POST", body: fd });
  return { res, body: await res.json().catch(() => null) };
};

const photo = (w: number, h: number, colour = "#3b7") =>
  sharp({ create: { width: w, height: h, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
const png = () =>
  sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } })
    .png()
    .toBuffer();
const reviewCount = async () => (await value(t.services.db, sql`SELECT count(*) FROM reviews WHERE store_id = ${TEST_STORE_ID}`)) as number;
const mediaFiles = () => {
  const dir = join(t.services.mediaPath, TEST_STORE_ID);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".jpg") || String(f).includes("video")) : [];
};
const row = async (reviewId: string) => (await one(t.services.db, sql`SELECT * FROM reviews WHERE review_id = ${reviewId}`)) as Record<string, unknown>;

describe("submit a review: JSON (docs/writes.md, Endpoints)", () => {
  it("creates a pending review under manual moderation and answers 201 { review: { reviewId, status } }", async () => {
    const { res, body } = await postJson(reviewsUrl(), realBody(0));
    expect(res.status).toBe(201);
    expect(body).toEqual({ review: { reviewId: expect.any(String), status: "pending" } });
    const r = await row(body.review.reviewId);
    expect(r).toMatchObject({ status: "pending", product_id: PRODUCT, reviewer_name: "Dana", reviewer_email: "dana0@example.com", verified_status: "unverified" });
  });

  it("detects the language of the text", async () => {
    const { body } = await postJson(reviewsUrl(), realBody(1));
    expect((await row(body.review.reviewId)).language_code).toBe("en");
  });

  it("auto-publish-4-5 publishes 4 and 5 stars at once and holds lower ratings", async () => {
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-4-5" });
    expect((await postJson(reviewsUrl(), { ...realBody(2), rating: 5 })).body.review.status).toBe("published");
    expect((await postJson(reviewsUrl(), { ...realBody(2), rating: 4 })).body.review.status).toBe("published");
    expect((await postJson(reviewsUrl(), { ...realBody(2), rating: 3 })).body.review.status).toBe("pending");
  });

  it("auto-publish-all publishes a 1-star review", async () => {
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
    const { body } = await postJson(reviewsUrl(), { ...realBody(3), rating: 1 });
    expect(body.review.status).toBe("published");
    const list = await (await fetch(reviewsUrl() + "?limit=25")).json();
    expect(list.reviews.map((r: { reviewId: string }) => r.reviewId)).toContain(body.review.reviewId);
    expect(JSON.stringify(list)).not.toContain("@example.com");
  });

  it("an e-mail that matches an imported order is no proof: a stranger's 1-star review with it stays unverified (issue 19)", async () => {
    await t.services.orders.importOrders(TEST_STORE_ID, [{ orderId: "A-1", productId: PRODUCT, email: "Buyer@Example.com", orderedMs: Date.now() }]);
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-all" });
    const { body } = await postJson(reviewsUrl(), { ...realBody(4), rating: 1, email: "buyer@example.COM", verifiedStatus: "verified-buyer", verifiedPurchase: { source: "merchant" } });
    expect((await row(body.review.reviewId)).verified_status).toBe("unverified");
    const list = await (await fetch(reviewsUrl() + "?limit=25")).json();
    const served = list.reviews.find((r: { reviewId: string }) => r.reviewId === body.review.reviewId);
    expect(served.reviewer).toMatchObject({ isVerified: false, verifiedStatus: "unverified" });
  });

  it("a proof checked by a trusted caller (review-request link, shopper token) makes the review verified-buyer", async () => {
    const input = { fields: { ...realBody(4), email: "proven@example.com" }, files: [], clientIp: "127.0.0.1" };
    const proven = await t.services.submissions.submitReview(
      { storeId: TEST_STORE_ID, productKey: `shopify-${PRODUCT}` },
      { ...input, verifiedPurchase: { source: "review-request", orderId: "A-1" } },
    );
    expect((await row(proven.review.reviewId)).verified_status).toBe("verified-buyer");
    const plain = await t.services.submissions.submitReview({ storeId: TEST_STORE_ID, productKey: `shopify-${PRODUCT}` }, input);
    expect((await row(plain.review.reviewId)).verified_status).toBe("unverified");
  });

  it("a filled honeypot answers 201 and stores nothing", async () => {
    const before = await reviewCount();
    const { res, body } = await postJson(reviewsUrl(), { ...realBody(5), website: "http://spam.example" });
    expect(res.status).toBe(201);
    expect(body.review.status).toBe("pending");
    expect(await reviewCount()).toBe(before);
    expect(await row(body.review.reviewId)).toBeUndefined();
  });
});

describe("submit a review: validation rules, each a 400 naming the field", () => {
  const long = (n: number) => "x".repeat(n);
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["rating missing", { rating: undefined }, /rating/],
    ["rating 0", { rating: 0 }, /rating must be an integer from 1 to 5/],
    ["rating 6", { rating: 6 }, /rating must be an integer from 1 to 5/],
    ["rating 2.5", { rating: 2.5 }, /rating/],
    ["rating text", { rating: "five" }, /rating/],
    ["title too long", { title: long(REVIEW_LIMITS.titleMax + 1) }, /title must be at most 150/],
    ["body missing", { body: undefined }, /body/],
    ["body blank", { body: "   " }, /body is required/],
    ["body too long", { body: long(REVIEW_LIMITS.bodyMax + 1) }, /body must be at most 5000/],
    ["displayName missing", { displayName: "" }, /displayName is required/],
    ["displayName too long", { displayName: long(61) }, /displayName must be at most 60/],
    ["email missing", { email: undefined }, /email/],
    ["email malformed", { email: "not-an-email" }, /email must be a valid e-mail address/],
    ["email too long", { email: `${long(250)}@example.com` }, /email/],
    ["isRecommended not boolean", { isRecommended: "maybe" }, /isRecommended must be true or false/],
    ["productAttributes not an array", { productAttributes: { fit: "small" } }, /productAttributes/],
    ["productAttributes too many", { productAttributes: Array.from({ length: 21 }, () => ({ title: "Fit", type: "text", value: "true to size" })) }, /at most 20/],
    ["productAttributes item without title", { productAttributes: [{ type: "text", value: "x" }] }, /productAttributes/],
  ];
  it.each(cases)("%s", async (_name, patch, message) => {
    const before = await reviewCount();
    const { res, body } = await postJson(reviewsUrl(), { ...realBody(6), ...patch });
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(message);
    expect(await reviewCount()).toBe(before);
  });

  it("a body that is not a JSON object answers 400", async () => {
    const res = await fetch(reviewsUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "[1,2" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.description).toMatch(/not valid JSON|JSON object/); // wording of the shared body reader (server/shared/body.ts)
  });

  it("another content type answers 415", async () => {
    const res = await fetch(reviewsUrl(), { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(res.status).toBe(415);
  });

  it("a JSON body over 256 KB answers 413", async () => {
    const { res } = await postJson(reviewsUrl(), { ...realBody(0), body: "x".repeat(300 * 1024) });
    expect(res.status).toBe(413);
  });

  it("an unknown store, another platform's prefix and an unknown product answer 404", async () => {
    expect((await postJson(t.url(`/v1/stores/00000000-0000-4000-8000-000000000000/products/shopify-${PRODUCT}/reviews`), realBody(0))).res.status).toBe(404);
    expect((await postJson(t.url(`${prefix}/products/bigcommerce-${PRODUCT}/reviews`), realBody(0))).res.status).toBe(404);
    expect((await postJson(t.url(`${prefix}/products/shopify-no-such-product/reviews`), realBody(0))).res.status).toBe(404);
    expect((await postJson(t.url(`/v1/stores/${OTHER_STORE_ID}/products/bigcommerce-${PRODUCT}/reviews`), realBody(0))).res.status).toBe(404);
  });
});

describe("rate limits (per e-mail, per client IP)", () => {
  it("refuses the e-mail's submission over the limit with 429; another e-mail still passes", async () => {
    t.services.submissionLimiter.configure({ perEmail: { max: 2, windowMs: 60_000 } });
    expect((await postJson(reviewsUrl(), realBody(7))).res.status).toBe(201);
    expect((await postJson(reviewsUrl(), realBody(7))).res.status).toBe(201);
    const third = await postJson(reviewsUrl(), realBody(7));
    expect(third.res.status).toBe(429);
    expect(third.body.error.description).toMatch(/e-mail/);
    expect((await postJson(reviewsUrl(), realBody(8))).res.status).toBe(201);
  });

  it("refuses the IP's submission over the limit, whatever the e-mail", async () => {
    t.services.submissionLimiter.configure({ perIp: { max: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await postJson(reviewsUrl(), realBody(10 + i))).res.status).toBe(201);
    const res = await postJson(reviewsUrl(), realBody(20));
    expect(res.res.status).toBe(429);
    expect(res.body.error.description).toMatch(/network/);
  });

  it("invalid submissions do not use up the quota", async () => {
    t.services.submissionLimiter.configure({ perEmail: { max: 1, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await postJson(reviewsUrl(), { ...realBody(9), rating: 9 })).res.status).toBe(400);
    expect((await postJson(reviewsUrl(), realBody(9))).res.status).toBe(201);
  });
});

describe("submit a review with media (multipart)", () => {
  it("stores two photos as thumbnail 120×120, large ≤1200 px and full ≤2400 px renditions", async () => {
    const { res, body } = await postForm(
      form({ ...realBody(0), alt: "The dress in daylight" }, [
        { data: await photo(3000, 2000), type: "image/jpeg", name: "a.jpg" },
        { data: await photo(800, 600, "#a35"), type: "image/jpeg", name: "b.jpg" },
      ]),
    );
    expect(res.status).toBe(201);
    const media = (await all(t.services.db, sql`SELECT * FROM review_media WHERE review_id = ${body.review.reviewId} ORDER BY position`)) as Record<string, string>[];
    expect(media).toHaveLength(2);
    expect(media[0].alt).toBe("The dress in daylight");
    expect(media[1].alt).toMatch(/^Photo of .+, rated \d out of 5$/);
    const file = (url: string) => join(t.services.mediaPath, url.replace(/^\/media\//, ""));
    expect(await sharp(file(media[0].thumbnail_url)).metadata()).toMatchObject({ width: 120, height: 120, format: "jpeg" });
    expect(await sharp(file(media[0].large_url)).metadata()).toMatchObject({ width: 1200, height: 800 });
    expect(await sharp(file(media[0].full_size_url)).metadata()).toMatchObject({ width: 2400, height: 1600 });
    expect(await sharp(file(media[1].full_size_url)).metadata()).toMatchObject({ width: 800, height: 600 });
  });

  it("published with its review, the photos are listed and served with a five-minute cache header (not a year)", async () => {
    const { body } = await postForm(form(realBody(1), [{ data: await photo(500, 500), type: "image/jpeg", name: "c.jpg" }]));
    const stored = (await value(t.services.db, sql`SELECT thumbnail_url FROM review_media WHERE review_id = ${body.review.reviewId}`)) as string;
    expect((await fetch(t.url(stored))).status).toBe(404); // pending with its review: not public
    await t.services.reviewsData.setStatus(TEST_STORE_ID, body.review.reviewId, "published");
    const list = await (await fetch(t.url(`${prefix}/products/shopify-${PRODUCT}/review_media`))).json();
    const item = list.reviewMedia.find((m: { reviewId: string }) => m.reviewId === body.review.reviewId);
    expect(item).toMatchObject({ type: "image", thumbnailUrl: expect.stringContaining("/media/") });
    const img = await fetch(item.thumbnailUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/jpeg");
    expect(img.headers.get("cache-control")).toBe("public, max-age=300");
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a PNG named .jpg and sent as image/jpeg is accepted as the PNG it is", async () => {
    const { res, body } = await postForm(form(realBody(2), [{ data: await png(), type: "image/jpeg", name: "looks-like.jpg" }]));
    expect(res.status).toBe(201);
    const m = (await one(t.services.db, sql`SELECT * FROM review_media WHERE review_id = ${body.review.reviewId}`)) as Record<string, string>;
    expect(await sharp(join(t.services.mediaPath, m.full_size_url.replace(/^\/media\//, ""))).metadata()).toMatchObject({ width: 64, height: 48, format: "jpeg" });
  });

  it("a JPEG carrying GPS EXIF is stored without any EXIF", async () => {
    const withGps = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#456" } })
      .jpeg()
      .withExif({ IFD0: { Make: "TestCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" } })
      .toBuffer();
    const inMeta = await sharp(withGps).metadata();
    expect(inMeta.exif).toBeDefined();
    expect(withGps.includes(Buffer.from("TestCam"))).toBe(true);
    const { res, body } = await postForm(form(realBody(3), [{ data: withGps, type: "image/jpeg", name: "gps.jpg" }]));
    expect(res.status).toBe(201);
    const m = (await one(t.services.db, sql`SELECT * FROM review_media WHERE review_id = ${body.review.reviewId}`)) as Record<string, string>;
    for (const url of [m.thumbnail_url, m.large_url, m.full_size_url]) {
      const path = join(t.services.mediaPath, url.replace(/^\/media\//, ""));
      const meta = await sharp(path).metadata();
      expect(meta.exif).toBeUndefined();
      const bytes = (await import("node:fs")).readFileSync(path);
      expect(bytes.includes(Buffer.from("TestCam"))).toBe(false);
      expect(bytes.includes(Buffer.from("Exif\0\0"))).toBe(false);
    }
  });

  it("stores a video as uploaded with a placeholder poster and a streamUrl", async () => {
    const mp4 = minimalMp4();
    const { res, body } = await postForm(form(realBody(4), [{ data: mp4, type: "video/mp4", name: "clip.mp4" }]));
    expect(res.status).toBe(201);
    const m = (await one(t.services.db, sql`SELECT * FROM review_media WHERE review_id = ${body.review.reviewId}`)) as Record<string, string>;
    expect(m.type).toBe("video");
    expect(m.stream_url).toMatch(/video\.mp4$/);
    expect((await import("node:fs")).readFileSync(join(t.services.mediaPath, m.stream_url.replace(/^\/media\//, "")))).toEqual(mp4);
    expect(await sharp(join(t.services.mediaPath, m.thumbnail_url.replace(/^\/media\//, ""))).metadata()).toMatchObject({ width: 120, height: 120 });
    expect(m.alt).toMatch(/^Video of .+, rated/);
  });

  it("a WebM video whose container holds is stored as video.webm", async () => {
    const { res, body } = await postForm(form(realBody(4), [{ data: minimalWebm(), type: "video/webm", name: "clip.webm" }]));
    expect(res.status).toBe(201);
    const m = (await one(t.services.db, sql`SELECT * FROM review_media WHERE review_id = ${body.review.reviewId}`)) as Record<string, string>;
    expect(m.stream_url).toMatch(/video\.webm$/);
  });

  it.each([
    ["an MP4 ftyp header followed by HTML (issue 19)", mp4HeaderThenHtml(), "video/mp4", /not a valid MP4 video: a "l><b" box of \d+ bytes at byte 24 that runs past the end/],
    ["an MP4 without a moov box", Buffer.concat([minimalMp4().subarray(0, 28), Buffer.from([0, 0, 0, 16]), Buffer.from("mdat"), Buffer.alloc(8)]), "video/mp4", /no moov box/],
    ["a WebM followed by HTML", Buffer.concat([minimalWebm(), Buffer.from("<html><script>alert(1)</script>")]), "video/webm", /not a valid WebM video: bytes after the end of the Segment/],
    ["an EBML header followed by HTML", Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from("<html><script>alert(1)</script></html>")]), "video/webm", /not a valid WebM video/],
  ])("%s answers 400 and stores nothing", async (_name, data, type, message) => {
    const reviewsBefore = await reviewCount();
    const filesBefore = mediaFiles().length;
    const { res, body } = await postForm(form(realBody(5), [{ data, type, name: "clip" }]));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(message);
    expect(await reviewCount()).toBe(reviewsBefore);
    expect(mediaFiles().length).toBe(filesBefore);
    expect(readdirSync(t.services.media.tempDir())).toEqual([]);
  });

  it(`an image over ${MAX_INPUT_PIXELS / 1e6} megapixels answers 413 from its header, before any decoding`, async () => {
    const huge = await sharp({ create: { width: 8000, height: 5200, channels: 3, background: "#3b7" } })
      .png()
      .toBuffer(); // 41.6 MP, ~0.6 MB
    const reviewsBefore = await reviewCount();
    const started = performance.now();
    const { res, body } = await postForm(
      form(
        realBody(5),
        Array.from({ length: 5 }, (_, i) => ({ data: huge, type: "image/png", name: `${i}.png` })),
      ),
    );
    const ms = performance.now() - started;
    expect(res.status).toBe(413);
    expect(body.error.description).toMatch(/media\[0\] is too large to process: 8000×5200 is 41\.6 megapixels, at most 40 megapixels/);
    expect(await reviewCount()).toBe(reviewsBefore);
    expect(ms).toBeLessThan(1500); // decoding five of them costs ~1 s of CPU; reading five headers, milliseconds
  });

  it("a 0-byte file answers 400 and stores nothing", async () => {
    const before = await reviewCount();
    const { res, body } = await postForm(form(realBody(5), [{ data: new Uint8Array(0), type: "image/jpeg", name: "empty.jpg" }]));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/empty/);
    expect(await reviewCount()).toBe(before);
  });

  it("a non-image claiming image/jpeg answers 400", async () => {
    const { res, body } = await postForm(form(realBody(5), [{ data: Buffer.from("this is a text file, not a photo at all"), type: "image/jpeg", name: "notes.jpg" }]));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/not a image\/jpeg file/);
  });

  it("an image claimed as video/mp4 answers 400", async () => {
    const { res, body } = await postForm(form(realBody(5), [{ data: await photo(50, 50), type: "video/mp4", name: "x.mp4" }]));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/claims to be video\/mp4/);
  });

  it("JPEG bytes that do not decode answer 400", async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 0x41)]);
    const { res, body } = await postForm(form(realBody(5), [{ data: broken, type: "image/jpeg", name: "broken.jpg" }]));
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/could not be decoded/);
  });

  it("a video over 100 MB answers 413", async () => {
    const big = Buffer.alloc(REVIEW_LIMITS.videoBytes + 1024, 0);
    big.set([0, 0, 0, 0x18, ...Buffer.from("ftypisom")], 0);
    const { res, body } = await postForm(form(realBody(5), [{ data: big, type: "video/mp4", name: "long.mp4" }]));
    expect(res.status).toBe(413);
    expect(body.error.description).toMatch(/at most 100 MB/);
    expect(readdirSync(t.services.media.tempDir())).toEqual([]);
  });

  it("six images answer 400 (at most 5 images)", async () => {
    const img = await photo(20, 20);
    const { res, body } = await postForm(
      form(
        realBody(5),
        Array.from({ length: 6 }, (_, i) => ({ data: img, type: "image/jpeg", name: `${i}.jpg` })),
      ),
    );
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/at most 5 images/);
  });

  it("two videos answer 400 (at most 1 video)", async () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(100)]);
    const { res, body } = await postForm(
      form(realBody(5), [
        { data: mp4, type: "video/mp4", name: "1.mp4" },
        { data: mp4, type: "video/mp4", name: "2.mp4" },
      ]),
    );
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/at most 1 video/);
  });

  it("a file under another field name answers 400", async () => {
    const fd = form(realBody(5));
    fd.append("photo", new Blob([await photo(20, 20)], { type: "image/jpeg" }), "p.jpg");
    const { res, body } = await postForm(fd);
    expect(res.status).toBe(400);
    expect(body.error.description).toMatch(/"media"/);
  });

  it("a good photo followed by a bad file leaves no review row and no files", async () => {
    const reviewsBefore = await reviewCount();
    const filesBefore = mediaFiles().length;
    const { res } = await postForm(
      form(realBody(6), [
        { data: await photo(400, 300), type: "image/jpeg", name: "good.jpg" },
        { data: Buffer.from("%PDF-1.4 not an image at all"), type: "image/png", name: "bad.png" },
      ]),
    );
    expect(res.status).toBe(400);
    expect(await reviewCount()).toBe(reviewsBefore);
    expect(mediaFiles().length).toBe(filesBefore);
  });

  it("a database failure after the renditions were written rolls back the review and deletes the files", async () => {
    const reviewsBefore = await reviewCount();
    const filesBefore = mediaFiles().length;
    // A trigger that fails every media insert (this server's own database on either engine).
    const postgres = dialect(t.services.db) === "postgres";
    await exec(
      t.services.db,
      postgres
        ? `CREATE FUNCTION fail_media() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full (test)'; END $$;
         CREATE TRIGGER fail_media BEFORE INSERT ON review_media FOR EACH ROW EXECUTE FUNCTION fail_media()`
        : "CREATE TEMP TRIGGER fail_media BEFORE INSERT ON main.review_media BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
    );
    try {
      const { res, body } = await postForm(form(realBody(7), [{ data: await photo(400, 300), type: "image/jpeg", name: "ok.jpg" }]));
      expect(res.status).toBe(500);
      expect(JSON.stringify(body)).not.toMatch(/disk full|at /);
    } finally {
      await exec(t.services.db, postgres ? "DROP TRIGGER fail_media ON review_media; DROP FUNCTION fail_media()" : "DROP TRIGGER temp.fail_media");
    }
    expect(await reviewCount()).toBe(reviewsBefore);
    expect(mediaFiles().length).toBe(filesBefore);
  });
});

describe("helpful votes have one way in (issue #19 follow-up)", () => {
  it("the submissions service has no vote of its own (it skipped the per-address vote limits); services.votes is the one", () => {
    expect(Object.keys(t.services.submissions).sort()).toEqual(["cleanup", "submitReview"]);
    expect(typeof t.services.votes.vote).toBe("function");
  });
});

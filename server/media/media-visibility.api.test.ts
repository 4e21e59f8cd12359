/**
 * Media visibility follows its review (issue 19, finding 4), over real HTTP: the real server, the real
 * Remix build (admin moderation through the real sign-in and forms), a temp SQLite file and real JPEG
 * files made by sharp. Also the retention sweep of rejected and orphaned files with an injected clock.
 */
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { seedRealReviews, TEST_STORE_ID, type RealReview } from "../../test/fixtures.ts";
import { minimalMp4 } from "../../test/media-fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { mediaPreviewUrl, PUBLIC_MEDIA_CACHE_CONTROL } from "./media-http.ts";
import { ORPHAN_GRACE_MS, REJECTED_MEDIA_GRACE_MS, sweepMedia } from "./media-retention.ts";
import { all, sql } from "../db/database.ts";

let t: TestServer;
let rows: RealReview[];
let agent: AdminAgent;
const PRODUCT = "1078";
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestServer();
  rows = await seedRealReviews(t.services, { productIds: [PRODUCT] });
  await t.services.admin.createUser({ email: "merchant@shop.test", password: "merchant password 1", storeIds: [TEST_STORE_ID] });
  agent = await signInAgent(t, "merchant@shop.test", "merchant password 1", TEST_STORE_ID);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.services.submissionLimiter.reset();
  t.services.submissionLimiter.configure({ perIp: { max: 1000, windowMs: 3600_000 }, perEmail: { max: 1000, windowMs: 3600_000 } });
  await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "manual" });
});

const photo = (colour: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
let n = 0;
/** Submit a real review text with a photo (and optionally a video) through the storefront API. @returns its ID and its media rows. */
async function submit(rating: number, withVideo = false) {
  const r = rows.filter((x) => x.body && x.title)[n++];
  const fd = new FormData();
  for (const [k, v] of Object.entries({ rating, title: r.title, body: r.body, displayName: "Robin", email: `robin${n}@example.com` })) fd.append(k, String(v));
  fd.append("media", new Blob([new Uint8Array(await photo("#3b7"))], { type: "image/jpeg" }), "photo.jpg");
  if (withVideo) fd.append("media", new Blob([new Uint8Array(minimalMp4(64 * 1024))], { type: "video/mp4" }), "clip.mp4");
  const res = await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/reviews`), { method: "POST", body: fd });
  expect(res.status).toBe(201);
  const { review } = await res.json();
  return { reviewId: review.reviewId as string, status: review.status as string, media: await mediaOf(review.reviewId) };
}
type MediaRowT = { media_id: string; status: string; thumbnail_url: string; large_url: string; full_size_url: string; stream_url: string | null };
const mediaOf = async (reviewId: string) =>
  (await all(t.services.db, sql`SELECT media_id, status, thumbnail_url, large_url, full_size_url, stream_url FROM review_media WHERE review_id = ${reviewId} ORDER BY position`)) as MediaRowT[];
const urlsOf = (m: MediaRowT) => [m.thumbnail_url, m.large_url, m.full_size_url, ...(m.stream_url ? [m.stream_url] : [])];
const statusOf = async (url: string) => (await fetch(t.url(url))).status;
const moderate = (intent: "publish" | "reject", reviewId: string) =>
  adminPost(t, agent, `/admin/stores/${TEST_STORE_ID}/reviews`, { intent, review: reviewId, ...(intent === "reject" ? { reason: "spam" } : {}) });
const dirOf = (mediaId: string) => join(t.services.mediaPath, TEST_STORE_ID, mediaId);

describe("GET /media: only published media of published reviews", () => {
  it("a pending review's media answer 404 (no-store); publishing it in the admin serves them with a five-minute cache", async () => {
    const { reviewId, status, media } = await submit(5, true);
    expect(status).toBe("pending");
    expect(media.map((m) => m.status)).toEqual(["pending", "pending"]);
    for (const url of media.flatMap(urlsOf)) {
      const res = await fetch(t.url(url));
      expect(res.status, url).toBe(404);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({ error: { description: "Media not found" } });
    }

    expect((await moderate("publish", reviewId)).status).toBe(200);
    expect((await mediaOf(reviewId)).map((m) => m.status)).toEqual(["published", "published"]);
    const res = await fetch(t.url(media[0].full_size_url));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe(PUBLIC_MEDIA_CACHE_CONTROL);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: 640, height: 480, format: "jpeg" });
    // Revalidation is cheap (ETag), and a video answers range requests.
    const again = await fetch(t.url(media[0].full_size_url), { headers: { "if-none-match": res.headers.get("etag")!, "cache-control": "max-age=0" } });
    expect(again.status).toBe(304);
    const range = await fetch(t.url(media[1].stream_url!), { headers: { range: "bytes=0-99" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-type")).toBe("video/mp4");
    expect((await range.arrayBuffer()).byteLength).toBe(100);
  });

  it("rejecting a published review in the admin hides its media at once; publishing it again within the grace period shows them again", async () => {
    const { reviewId, media } = await submit(4);
    await moderate("publish", reviewId);
    expect(await statusOf(media[0].large_url)).toBe(200);
    expect((await moderate("reject", reviewId)).status).toBe(200);
    expect((await mediaOf(reviewId)).map((m) => m.status)).toEqual(["rejected"]);
    for (const url of urlsOf(media[0])) expect(await statusOf(url)).toBe(404);
    const listed = await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${PRODUCT}/review_media?limit=25`))).json();
    expect(listed.reviewMedia.map((m: { reviewId: string }) => m.reviewId)).not.toContain(reviewId);
    await moderate("publish", reviewId);
    expect(await statusOf(media[0].large_url)).toBe(200);
  });

  it("auto-publish rules: a held 3-star review's media stay private, a 5-star review's are public at once", async () => {
    await t.services.stores.updateSettings(TEST_STORE_ID, { moderation: "auto-publish-4-5" });
    const held = await submit(3);
    expect(held.status).toBe("pending");
    expect(await statusOf(held.media[0].thumbnail_url)).toBe(404);
    const shown = await submit(5);
    expect(shown.status).toBe("published");
    expect(await statusOf(shown.media[0].thumbnail_url)).toBe(200);
  });

  it("a review status changed by the data function (reviewsData.setStatus) moves its media too", async () => {
    const { reviewId, media } = await submit(5);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, reviewId, "published");
    expect(await statusOf(media[0].thumbnail_url)).toBe(200);
    await t.services.reviewsData.setStatus(TEST_STORE_ID, reviewId, "rejected");
    expect(await statusOf(media[0].thumbnail_url)).toBe(404);
  });

  it("the merchant sees pending media through signed preview URLs; a tampered, expired or other item's signature answers 404", async () => {
    const { media } = await submit(2);
    const page = await (await fetch(t.url(`/admin/stores/${TEST_STORE_ID}/reviews`), { headers: { cookie: agent.cookie } })).text();
    const preview = new RegExp(`${media[0].thumbnail_url.replace(/[.]/g, "\\.")}\\?preview=[\\w.-]+`).exec(page.replace(/&amp;/g, "&"))?.[0];
    expect(preview).toBeDefined();
    const res = await fetch(t.url(preview!));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await statusOf(preview!.slice(0, -2) + (preview!.endsWith("AA") ? "BB" : "AA"))).toBe(404);
    const secret = t.services.secret;
    const expired = mediaPreviewUrl(secret, TEST_STORE_ID, media[0].media_id, media[0].thumbnail_url, Date.now() - 3 * 3_600_000);
    expect(await statusOf(expired)).toBe(404);
    const other = await submit(2);
    const forOther = mediaPreviewUrl(secret, TEST_STORE_ID, other.media[0].media_id, other.media[0].thumbnail_url, Date.now());
    expect(await statusOf(media[0].thumbnail_url + forOther.slice(forOther.indexOf("?")))).toBe(404);
  });

  it("paths that are no rendition of a known item answer 404 JSON; other methods 405", async () => {
    const { reviewId, media } = await submit(5);
    await moderate("publish", reviewId);
    const base = media[0].thumbnail_url.slice(0, media[0].thumbnail_url.lastIndexOf("/"));
    expect(await statusOf(`${base}/../../../chorus.sqlite`)).toBe(404); // the client resolves the dots: outside /media
    for (const path of [
      `${base}/video.mp4`,
      `${base}/other.jpg`,
      `${base}/%2e%2e%2f%2e%2e%2fchorus.sqlite`,
      `${base}/%2e%2e%2fthumb.jpg`,
      `/media/${TEST_STORE_ID}/00000000-0000-4000-8000-000000000000/thumb.jpg`,
      `/media/other-store/${media[0].media_id}/thumb.jpg`,
      "/media/chorus.sqlite",
      "/media/",
    ]) {
      const res = await fetch(t.url(path));
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/application\/json/);
    }
    const post = await fetch(t.url(media[0].thumbnail_url), { method: "POST" });
    expect(post.status).toBe(405);
    expect((await fetch(t.url(media[0].thumbnail_url), { method: "HEAD" })).status).toBe(200);
  });
});

describe("retention sweep (injected clock)", () => {
  const sweep = (nowMs: number) => sweepMedia({ db: t.services.db, mediaRows: t.services.mediaRows, mediaPath: t.services.mediaPath, now: () => nowMs });

  it(`deletes a rejected review's media rows and files ${REJECTED_MEDIA_GRACE_MS / DAY} days after the rejection, not before`, async () => {
    const { reviewId, media } = await submit(1);
    const rejectedAt = Date.now();
    await moderate("reject", reviewId);
    expect(existsSync(dirOf(media[0].media_id))).toBe(true);
    expect((await sweep(rejectedAt + REJECTED_MEDIA_GRACE_MS - 60_000)).rejectedDeleted).toBe(0);
    expect(existsSync(dirOf(media[0].media_id))).toBe(true);
    const report = await sweep(rejectedAt + REJECTED_MEDIA_GRACE_MS + 60_000);
    expect(report.rejectedDeleted).toBeGreaterThanOrEqual(1);
    expect(existsSync(dirOf(media[0].media_id))).toBe(false);
    expect(await mediaOf(reviewId)).toEqual([]);
    expect(await t.services.reviewsData.get(TEST_STORE_ID, reviewId)).toMatchObject({ status: "rejected", media_count: 0 });
  });

  it("keeps published and pending media, deletes orphan folders and upload temp files older than an hour", async () => {
    const kept = await submit(5);
    const orphan = join(t.services.mediaPath, TEST_STORE_ID, crypto.randomUUID());
    mkdirSync(orphan, { recursive: true });
    writeFileSync(join(orphan, "thumb.jpg"), await photo("#a35"));
    const temp = join(t.services.media.tempDir(), `${crypto.randomUUID()}.upload`);
    writeFileSync(temp, minimalMp4());
    const now = Date.now();
    expect(await sweep(now)).toMatchObject({ orphansDeleted: 0, tempFilesDeleted: 0 }); // young: a submission may be writing them
    const old = (now - ORPHAN_GRACE_MS - 60_000) / 1000;
    utimesSync(orphan, old, old);
    utimesSync(temp, old, old);
    utimesSync(dirOf(kept.media[0].media_id), old, old);
    expect(await sweep(now)).toMatchObject({ orphansDeleted: 1, tempFilesDeleted: 1 });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(temp)).toBe(false);
    expect(readdirSync(dirOf(kept.media[0].media_id)).sort()).toEqual(["full.jpg", "large.jpg", "thumb.jpg"]);
  });
});

/**
 * The moderation queue over a real database (a SQLite file; PostgreSQL with CHORUS_TEST_POSTGRES_URL) with
 * real reviews: filters (status, rating, product, media), keyset paging with signed cursors, and store
 * scoping of status changes and replies.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type FreshDatabase } from "../../test/database-location.ts";
import { OTHER_STORE_ID, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices, type Services } from "../services.ts";
import { QUEUE_PAGE_SIZE, queueQuerySchema } from "./moderation.service.ts";
import { run, sql } from "../db/database.ts";

let dir: string;
let database: FreshDatabase;
let s: Services;
const q = (input: Record<string, string>) => queueQuerySchema.parse(input);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-moderation-"));
  database = await freshDatabase(dir);
  s = await createServices({ databasePath: database.location });
  await seedRealReviews(s, { storeId: TEST_STORE_ID, limit: 120, status: "pending" });
  await seedRealReviews(s, { storeId: OTHER_STORE_ID, limit: 30, status: "pending" });
});
afterAll(async () => {
  await s.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("moderation queue", () => {
  it("pages through every pending review of the store exactly once, newest first", async () => {
    const seen: string[] = [];
    const dates: number[] = [];
    let after: string | undefined;
    do {
      const page = await s.moderation.queue(TEST_STORE_ID, q(after ? { after } : {}));
      expect(page.reviews.length).toBeLessThanOrEqual(QUEUE_PAGE_SIZE);
      seen.push(...page.reviews.map((r) => r.review_id));
      dates.push(...page.reviews.map((r) => r.created_ms));
      after = page.next;
    } while (after);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
  });

  it("filters by rating and by product (with or without the platform prefix)", async () => {
    const fives = (await s.moderation.queue(TEST_STORE_ID, q({ rating: "5" }))).reviews;
    expect(fives.length).toBeGreaterThan(0);
    expect(fives.every((r) => r.rating === 5)).toBe(true);
    const product = fives[0].product_id;
    for (const value of [product, `shopify-${product}`]) {
      const rows = (await s.moderation.queue(TEST_STORE_ID, q({ product: value }))).reviews;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.product_id === product)).toBe(true);
    }
  });

  it("filters by media: only reviews with media not rejected count", async () => {
    const [withMedia] = (await s.moderation.queue(TEST_STORE_ID, q({}))).reviews;
    const r = (await s.reviewsData.get(TEST_STORE_ID, withMedia.review_id))!;
    await run(
      s.db,
      sql`INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, thumbnail_url, large_url, full_size_url, created_ms)
       VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${r.review_id}, ${r.product_id}, ${r.group_id}, 'image', 'pending', '/m/t.jpg', '/m/l.jpg', '/m/f.jpg', ${Date.now()})`,
    );
    const yes = (await s.moderation.queue(TEST_STORE_ID, q({ media: "yes" }))).reviews;
    expect(yes.map((x) => x.review_id)).toEqual([withMedia.review_id]);
    expect(yes[0].media_total).toBe(1);
    // A pending item is shown to the merchant through a signed preview URL (server/media/media-http.ts).
    expect(yes[0].media.map((m) => [m.status, m.thumbnail_url])).toEqual([["pending", expect.stringMatching(/^\/m\/t\.jpg\?preview=\d+\.[\w-]{43}$/)]]);
    expect((await s.moderation.queue(TEST_STORE_ID, q({ media: "no" }))).reviews.map((x) => x.review_id)).not.toContain(withMedia.review_id);
    // Publishing the review publishes its pending media with it.
    await s.moderation.setStatus(TEST_STORE_ID, [withMedia.review_id], "published");
    expect((await s.reviewsData.get(TEST_STORE_ID, withMedia.review_id))!.media_count).toBe(1);
  });

  it("a cursor from another filter or store answers 400, never a wrong page", async () => {
    const { next } = await s.moderation.queue(TEST_STORE_ID, q({}));
    expect(next).toBeDefined();
    for (const [store, query] of [
      [TEST_STORE_ID, { status: "published" }],
      [OTHER_STORE_ID, {}],
    ] as const) {
      let error: unknown;
      try {
        await s.moderation.queue(store, q({ ...query, after: next! }));
      } catch (e) {
        error = e;
      }
      expect(isApiError(error) && error.status).toBe(400);
    }
  });

  it("status changes and replies never touch another store's reviews", async () => {
    const other = (await s.moderation.queue(OTHER_STORE_ID, q({}))).reviews[0].review_id;
    expect(await s.moderation.setStatus(TEST_STORE_ID, [other], "published")).toBe(0);
    await expect(s.moderation.setReply(TEST_STORE_ID, other, "hello")).rejects.toThrow();
    expect(await s.reviewsData.get(OTHER_STORE_ID, other)).toMatchObject({ status: "pending", reply_body: null });
  });

  it("bulk actions refuse an empty selection and more than 100 reviews", async () => {
    await expect(s.moderation.setStatus(TEST_STORE_ID, [], "published")).rejects.toThrow(/at least one/);
    await expect(
      s.moderation.setStatus(
        TEST_STORE_ID,
        Array.from({ length: 101 }, (_, i) => `id-${i}`),
        "published",
      ),
    ).rejects.toThrow(/at most 100/);
  });
});

/**
 * Reviews list filters and search (issue #23 item 2; docs/api.md "Search and filters"): `rating`, `media`,
 * `verified` and `search` with `highlights` on the three storefront listings, over real HTTP and SQLite or
 * PostgreSQL (real reviews of the shared data file, plus a few written here for the text cases). The long listings
 * are read 9 to 15 reviews a page: tens of pages each, every page boundary inside ties of rating or helpful count
 * (pages of three reviews in every order and filter: filter-paging.api.test.ts; the plans of a store with thousands of
 * matches: search-plans.api.test.ts; the same filters through the response cache and behind Varnish, and a review
 * that leaves the cached results: search-cache.api.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import type { ListReviewsResponse, Review } from "../contract/storefront.ts";
import { decodeHtmlText } from "../../widgets/internal/html-text.ts";
import { dialect, run, sql, value, values, type RawBuilder } from "../db/database.ts";
import { searchMatchSql } from "../../test/search-oracle.ts";

let t: TestServer;
const S = `/v1/stores/${TEST_STORE_ID}`;
const PRODUCTS = ["1078", "862", "1094"];
let groupId: string;
/** The three listings: product, collection (the group of product 1078) and store. */
let scopes: { name: string; path: string; where: RawBuilder<unknown> }[];
const written: Record<string, string> = {};

const TRICKY = { title: `Fits <well> & "true" 😀`, body: `😀 <b>Fit</b> & 'fitting' rooms: "fits" like a glove — café-grade naïve <script>x</script>` };

/** A review of product `productId` written here, published now (newer than every seeded one). */
async function write(productId: string, fields: { title: string; body: string; rating?: number; email?: string }): Promise<string> {
  const reviewId = crypto.randomUUID();
  await t.services.reviewsData.insert({
    reviewId,
    storeId: TEST_STORE_ID,
    productId,
    rating: fields.rating ?? 5,
    title: fields.title,
    body: fields.body,
    createdMs: Date.now(),
    status: "published",
    reviewerName: "Test shopper",
    reviewerEmail: fields.email ?? null,
  });
  return reviewId;
}

async function addMedia(reviewId: string, productId: string, type: "image" | "video", status = "published"): Promise<void> {
  await run(
    t.services.db,
    sql`
    INSERT INTO review_media (media_id, store_id, review_id, product_id, group_id, type, status, thumbnail_url, large_url, full_size_url, position, created_ms)
    VALUES (${crypto.randomUUID()}, ${TEST_STORE_ID}, ${reviewId}, ${productId}, (SELECT group_id FROM reviews WHERE review_id = ${reviewId}), ${type}, ${status},
      '/media/t.jpg', '/media/l.jpg', '/media/f.jpg', 0, ${Date.now()})`,
  );
}

async function get(url: string): Promise<{ status: number; body: ListReviewsResponse & { error?: { description: string } } }> {
  const res = await fetch(t.url(url));
  return { status: res.status, body: await res.json() };
}

/** Every review of a listing, following `nextUrl` (relative to /v1) to the end; fails on a duplicate. */
async function all(url: string): Promise<{ reviews: Review[]; pages: number; nextUrls: string[] }> {
  const reviews: Review[] = [];
  const nextUrls: string[] = [];
  let next: string | undefined = url;
  let pages = 0;
  while (next) {
    const { status, body } = await get(next);
    expect(status, JSON.stringify(body)).toBe(200);
    reviews.push(...body.reviews);
    pages++;
    next = body.nextUrl ? `/v1${body.nextUrl}` : undefined;
    if (body.nextUrl) nextUrls.push(body.nextUrl);
    expect(pages).toBeLessThan(500);
  }
  const ids = reviews.map((r) => r.reviewId);
  expect(new Set(ids).size, "no review twice").toBe(ids.length);
  return { reviews, pages, nextUrls };
}

/** The published reviews of `scope` that `condition` (SQL over alias r) keeps, as the oracle: IDs sorted. */
async function expected(scope: (typeof scopes)[number], condition: string): Promise<string[]> {
  return (
    await values<string>(
      t.services.db,
      sql`
    SELECT r.review_id FROM reviews r WHERE r.store_id = ${TEST_STORE_ID} AND r.status = 'published'${scope.where} AND (${sql.raw(condition)})`,
    )
  ).sort();
}
const ids = (reviews: Review[]) => reviews.map((r) => r.reviewId).sort();
const postgres = () => dialect(t.services.db) === "postgres";
/** SQL over alias r: the review matches the FTS5 query `match` in the search index. */
const searchSql = (match: string) => searchMatchSql(t.services.db, match);

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: PRODUCTS });
  groupId = (await value(t.services.db, sql`SELECT group_id FROM products WHERE store_id = ${TEST_STORE_ID} AND product_id = '1078'`)) as string;
  scopes = [
    { name: "product", path: `${S}/products/shopify-1078/reviews`, where: sql` AND r.product_id = ${"1078"}` },
    { name: "collection", path: `${S}/collections/${groupId}/reviews`, where: sql` AND r.group_id = ${groupId}` },
    { name: "store", path: `${S}/reviews`, where: sql`` },
  ];
  // Verified buyers, photos and videos on some of the real reviews (every 3rd, 5th and 7th of each product).
  const db = t.services.db;
  for (const productId of PRODUCTS) {
    const list = (await values(db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} AND product_id = ${productId} ORDER BY created_ms DESC`)) as string[];
    for (const [i, id] of list.entries()) {
      if (i % 3 === 0) await run(db, sql`UPDATE reviews SET verified_status = 'verified-buyer' WHERE review_id = ${id}`);
      if (i % 4 === 1) await run(db, sql`UPDATE reviews SET verified_status = 'verified-reviewer' WHERE review_id = ${id}`);
      if (i % 5 === 0) await addMedia(id, productId, "image");
      if (i % 7 === 0) await addMedia(id, productId, "video");
      if (i % 11 === 0) await addMedia(id, productId, "video", "rejected");
    }
  }
  written.tricky = await write("1078", TRICKY);
  written.accents = await write("1078", { title: "Crème brûlée colour", body: "Très jolie, the façade of a café" });
  written.plain = await write("1078", { title: "Creme brulee colour", body: "Tres jolie, the facade of a cafe" });
});
afterAll(() => t.close());

describe("filters on every scope", () => {
  it("rating keeps the reviews with one of the levels, in every scope, through every page", async () => {
    for (const scope of scopes) {
      const five = await all(`${scope.path}?rating=5&limit=25`);
      expect(five.reviews.every((r) => r.rating === 5)).toBe(true);
      expect(ids(five.reviews), scope.name).toEqual(await expected(scope, "r.rating = 5"));
      const low = await all(`${scope.path}?rating=2,1&orderBy=rating%20asc&limit=7`);
      expect(ids(low.reviews), scope.name).toEqual(await expected(scope, "r.rating IN (1, 2)"));
      expect(low.reviews.map((r) => r.rating)).toEqual([...low.reviews.map((r) => r.rating)].sort());
      expect(low.pages).toBeGreaterThan(1);
      expect(low.nextUrls.every((u) => u.includes("rating=1%2C2") && u.includes("orderBy=rating%20asc"))).toBe(true);
    }
  });

  it("media keeps reviews with a published photo, video or either", async () => {
    const kind = (type: string) => `EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.status = 'published' AND m.type = '${type}')`;
    for (const scope of scopes) {
      const any = await all(`${scope.path}?media=any&limit=12`);
      expect(any.reviews.every((r) => r.media.length > 0)).toBe(true);
      expect(ids(any.reviews), scope.name).toEqual(await expected(scope, `${kind("image")} OR ${kind("video")}`));
      const photos = await all(`${scope.path}?media=photos&orderBy=helpful%20desc&limit=15`);
      expect(photos.reviews.every((r) => r.media.some((m) => m.type === "image"))).toBe(true);
      expect(ids(photos.reviews), scope.name).toEqual(await expected(scope, kind("image")));
      const videos = await all(`${scope.path}?media=videos&limit=9`);
      expect(videos.reviews.every((r) => r.media.some((m) => m.type === "video"))).toBe(true);
      expect(ids(videos.reviews), scope.name).toEqual(await expected(scope, kind("video")));
      expect(videos.nextUrls.every((u) => u.includes("media=videos"))).toBe(true);
    }
  });

  it("verified=true keeps verified buyers only; verified=false filters nothing", async () => {
    for (const scope of scopes) {
      const verified = await all(`${scope.path}?verified=true&limit=10`);
      expect(verified.reviews.every((r) => r.reviewer.verifiedStatus === "verified-buyer")).toBe(true);
      expect(ids(verified.reviews), scope.name).toEqual(await expected(scope, "r.verified_status = 'verified-buyer'"));
      expect(verified.nextUrls.every((u) => u.includes("verified=true"))).toBe(true);
      const everyone = await all(`${scope.path}?verified=false&limit=25`);
      expect(ids(everyone.reviews)).toEqual(await expected(scope, "1 = 1"));
    }
  });

  it("filters combine with each other, with search, with attribute filters and with any order", async () => {
    const sizeM = await write("1078", { title: "Fit check", body: "The fit is right", rating: 5 });
    await run(
      t.services.db,
      sql`UPDATE reviews SET product_attributes_json = ${JSON.stringify([{ title: "Size bought", type: "single-value", value: "M" }])}, verified_status = 'verified-buyer' WHERE review_id = ${sizeM}`,
    );
    for (const scope of scopes) {
      for (const orderBy of ["date desc", "helpful desc", "rating asc", "has_media desc", "unhelpful desc"]) {
        const got = await all(`${scope.path}?rating=4,5&verified=true&search=fit&orderBy=${encodeURIComponent(orderBy)}&limit=10`);
        expect(ids(got.reviews), `${scope.name} ${orderBy}`).toEqual(await expected(scope, `r.rating IN (4, 5) AND r.verified_status = 'verified-buyer' AND ${searchSql('"fit"')}`));
        expect(got.reviews.length).toBeGreaterThan(3);
        for (const u of got.nextUrls) for (const p of ["rating=4%2C5", "verified=true", "search=fit", "limit=10"]) expect(u).toContain(p);
      }
      const photos5 = await all(`${scope.path}?rating=5&media=photos&limit=2`);
      expect(ids(photos5.reviews)).toEqual(
        await expected(scope, "r.rating = 5 AND EXISTS (SELECT 1 FROM review_media m WHERE m.review_id = r.review_id AND m.status = 'published' AND m.type = 'image')"),
      );
    }
    const withAttribute = await all(`${S}/products/shopify-1078/reviews?generalAttributes=Size%20bought,M&search=fit&rating=5&verified=true`);
    expect(ids(withAttribute.reviews)).toEqual([sizeM]);
    await run(t.services.db, sql`DELETE FROM reviews WHERE review_id = ${sizeM}`);
  });

  it("a cursor is valid only with the filters it was made with", async () => {
    const first = await get(`${S}/reviews?rating=5&limit=2`);
    const cursor = new URL(first.body.nextUrl!, "http://x").searchParams.get("lastEvaluated")!;
    const other = await get(`${S}/reviews?rating=4&limit=2&lastEvaluated=${encodeURIComponent(cursor)}`);
    expect(other.status).toBe(400);
  });
});

describe("search", () => {
  it("finds exactly the matching reviews in every scope, through every page, in the requested order", async () => {
    for (const scope of scopes) {
      const match = await expected(scope, searchSql(`"love" "the" "dress"`));
      expect(match.length).toBeGreaterThan(3);
      for (const orderBy of ["date desc", "rating desc", "helpful asc"]) {
        const got = await all(`${scope.path}?search=${encodeURIComponent("Love  the DRESS!")}&orderBy=${encodeURIComponent(orderBy)}&limit=10`);
        expect(ids(got.reviews), `${scope.name} ${orderBy}`).toEqual(match);
        for (const r of got.reviews) {
          const text = `${r.title} ${decodeHtmlText(r.body)}`.toLowerCase();
          expect(text).toMatch(/dress/);
          expect(text).toMatch(/lov/);
        }
        if (orderBy === "rating desc") expect(got.reviews.map((r) => r.rating)).toEqual([...got.reviews.map((r) => r.rating)].sort((a, b) => b - a));
        if (orderBy === "date desc") expect(got.reviews.map((r) => r.dateCreated)).toEqual([...got.reviews.map((r) => r.dateCreated)].sort().reverse());
        for (const u of got.nextUrls) expect(u).toContain(`search=${encodeURIComponent("Love  the DRESS!")}`);
      }
    }
  }, 300_000); // every scope × page × order: many requests, beside the Playwright lane in CI

  it("matches stemmed words: fits finds fit, fitted and fitting", async () => {
    const got = await all(`${S}/products/shopify-1078/reviews?search=fits`);
    const bodies = got.reviews.map((r) => `${r.title} ${decodeHtmlText(r.body)}`.toLowerCase());
    expect(bodies.some((b) => /\bfit\b/.test(b) && !/\bfits\b/.test(b))).toBe(true);
    expect(bodies.some((b) => /\bfitted\b/.test(b))).toBe(true);
    expect(ids(got.reviews)).toEqual(ids((await all(`${S}/products/shopify-1078/reviews?search=fitting`)).reviews));
  });

  it("takes the last word as a prefix while the shopper is still typing it (3 characters or more)", async () => {
    const zipper = await expected(scopes[0], searchSql(`zipper`));
    expect(zipper.length).toBeGreaterThan(0);
    const zip = await all(`${S}/products/shopify-1078/reviews?search=zip`);
    // Every review with "zipper" is found by "zip", and the highlight covers the whole word.
    expect(ids(zip.reviews)).toEqual(expect.arrayContaining(zipper));
    const withZipper = zip.reviews.find((r) => zipper.includes(r.reviewId))!;
    const body = decodeHtmlText(withZipper.body);
    expect(withZipper.highlights!.body!.map(([s, e]) => body.slice(s, e).toLowerCase())).toContain("zipper");
    // A finished word (a space or punctuation after it) and a word under 3 characters are whole words only.
    for (const q of ["zip ", "zip.", "zi"]) {
      const whole = await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent(q)}`);
      const word = q.trim().replace(".", "");
      expect(ids(whole.reviews), q).toEqual(await expected(scopes[0], searchSql(`"${word}"`)));
    }
    expect(await expected(scopes[0], searchSql(`"zip"`))).not.toEqual(ids(zip.reviews));
    // Only the last word: "zip great" needs the word "zip" itself.
    const notLast = await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent("zip dress")}`);
    expect(ids(notLast.reviews)).toEqual(await expected(scopes[0], searchSql(`"zip" "dress"*`)));
    expect(ids(notLast.reviews)).not.toEqual(await expected(scopes[0], searchSql(`"zip"* "dress"*`)));
  });

  it("ignores accents both ways", async () => {
    for (const q of ["cafe", "café", "CAFÉ"]) {
      const got = await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent(q)}`);
      expect(ids(got.reviews), q).toEqual([written.accents, written.plain, written.tricky].sort());
    }
    for (const q of ["creme brulee", "crème brûlée", "CRÈME BRULÉE"]) {
      const got = await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent(q)}`);
      expect(ids(got.reviews), q).toEqual([written.accents, written.plain].sort());
    }
    expect((await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent("naive facade")}`)).reviews).toEqual([]);
    const tres = await all(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent("tres jolie facade")}`);
    expect(ids(tres.reviews)).toEqual([written.accents, written.plain].sort());
  });

  it("treats shopper text as words, never as query syntax", async () => {
    for (const q of ['fit"', "fit OR dress", "fit*", "NEAR(fit dress)", "title:fit", "fit -dress", "(fit", "^fit", "fit AND", "'; DROP TABLE reviews; --"]) {
      const { status, body } = await get(`${S}/reviews?search=${encodeURIComponent(q)}`);
      expect(status, `${q}: ${JSON.stringify(body)}`).toBe(200);
    }
    // "OR" is a word here: every review found contains it.
    const or = await all(`${S}/reviews?search=${encodeURIComponent("fit OR dress")}`);
    for (const r of or.reviews) expect(`${r.title} ${decodeHtmlText(r.body)}`.toLowerCase()).toMatch(/\bor\b/);
  });

  it("highlights slice out exactly the matched words of the text as typed", async () => {
    for (const scope of scopes) {
      const got = await all(`${scope.path}?search=${encodeURIComponent("fits small")}&limit=25`);
      expect(got.reviews.length).toBeGreaterThan(2);
      for (const r of got.reviews) {
        expect(r.highlights, r.reviewId).toBeDefined();
        const h = r.highlights!;
        expect((h.title?.length ?? 0) + (h.body?.length ?? 0)).toBeGreaterThan(0);
        for (const [field, text] of [
          ["title", r.title],
          ["body", decodeHtmlText(r.body)],
        ] as const) {
          let end = 0;
          for (const [s, e] of h[field] ?? []) {
            expect(s).toBeGreaterThanOrEqual(end);
            expect(e).toBeGreaterThan(s);
            expect(e).toBeLessThanOrEqual(text.length);
            expect(text.slice(s, e).toLowerCase()).toMatch(/^(fit|small)[a-z]*$/);
            end = e;
          }
        }
      }
    }
  });

  it("highlights count UTF-16 units of the decoded text with <, &, quotes and emoji", async () => {
    const { body } = await get(`${S}/products/shopify-1078/reviews?search=fit`);
    const review = body.reviews.find((r) => r.reviewId === written.tricky)!;
    expect(review.title).toBe(TRICKY.title);
    expect(decodeHtmlText(review.body)).toBe(TRICKY.body);
    expect(review.body).not.toContain("<");
    const slices = (field: "title" | "body", text: string) => (review.highlights![field] ?? []).map(([s, e]) => text.slice(s, e));
    expect(slices("title", TRICKY.title)).toEqual(["Fits"]);
    expect(slices("body", TRICKY.body)).toEqual(["Fit", "fitting", "fits"]);
    expect(review.highlights!.body![0]).toEqual([TRICKY.body.indexOf("Fit"), TRICKY.body.indexOf("Fit") + 3]);
    const accents = (await get(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent("cafe facade naive")}`)).body.reviews;
    expect(accents.map((r) => r.reviewId)).toEqual([]);
    const grade = (await get(`${S}/products/shopify-1078/reviews?search=${encodeURIComponent("naïve café")}`)).body.reviews;
    expect(grade.map((r) => r.reviewId)).toEqual([written.tricky]);
    expect(grade[0]!.highlights!.body!.map(([s, e]) => TRICKY.body.slice(s, e))).toEqual(["café", "naïve"]);
    expect(grade[0]!.highlights!.title).toBeUndefined();
  });

  it("highlights a phrase typed as one piece whole, and survives private-use characters in the text", async () => {
    const body = "\uE000\uE001 I don't love the fit \uE002 of it";
    const id = await write("1094", { title: "Wrenlock", body });
    const { body: page } = await get(`${S}/products/shopify-1094/reviews?search=${encodeURIComponent("don't fit wrenlock")}`);
    expect(page.reviews.map((r) => r.reviewId)).toEqual([id]);
    const h = page.reviews[0]!.highlights!;
    expect(h.title!.map(([a, b]) => "Wrenlock".slice(a, b))).toEqual(["Wrenlock"]);
    expect(h.body!.map(([a, b]) => body.slice(a, b))).toEqual(["don't", "fit"]);
    // "don't" is the phrase "don t": the words apart do not match it.
    expect((await get(`${S}/products/shopify-1094/reviews?search=${encodeURIComponent("don't wrenlock")}`)).body.reviews).toHaveLength(1);
    await run(t.services.db, sql`UPDATE reviews SET body = 'I don love it t' WHERE review_id = ${id}`);
    expect((await get(`${S}/products/shopify-1094/reviews?search=${encodeURIComponent("don't wrenlock")}`)).body.reviews).toHaveLength(0);
    await run(t.services.db, sql`DELETE FROM reviews WHERE review_id = ${id}`);
  });

  it("answers without search carry no highlights", async () => {
    const { body } = await get(`${S}/products/shopify-1078/reviews?rating=5`);
    expect(body.reviews.length).toBeGreaterThan(0);
    expect(body.reviews.every((r) => r.highlights === undefined)).toBe(true);
  });

  it("shopper erasure leaves no word of their reviews in the search index", async () => {
    const email = "zed.searcher@example.com";
    const id = await write("862", { title: "Zqxwvbrand tee", body: "Xyzzyplugh stitching", email });
    // The index's own storage: its segments (_data) and their term index (_idx), as bytes (PostgreSQL: its documents).
    const data = async () =>
      postgres()
        ? ((await values(t.services.db, sql`SELECT document::text FROM review_search`)) as string[]).join("\n")
        : ((await values(t.services.db, sql`SELECT block FROM review_search_data UNION ALL SELECT term FROM review_search_idx`)) as Buffer[]).map((b) => Buffer.from(b).toString("latin1")).join("\n");
    expect(await data()).toContain("zqxwvbrand");
    expect((await get(`${S}/reviews?search=xyzzyplugh`)).body.reviews.map((r) => r.reviewId)).toEqual([id]);
    await t.services.privacy.erase(TEST_STORE_ID, email, "test");
    expect((await get(`${S}/reviews?search=xyzzyplugh`)).body.reviews).toEqual([]);
    expect(await data()).not.toContain("zqxwvbrand");
    expect(await data()).not.toContain("xyzzyplugh");
    expect(await value<number>(t.services.db, sql`SELECT count(*) FROM reviews r WHERE ${sql.raw(searchSql("zqxwvbrand"))}`)).toBe(0);
  });
});

describe("the search index and the response cache", () => {
  it("has no content-scope triggers of its own, and a review write bumps the review's scopes, not '*'", async () => {
    const db = t.services.db;
    expect(
      await values<string>(
        db,
        postgres()
          ? sql`SELECT tgname FROM pg_trigger WHERE tgrelid = 'review_search'::regclass AND NOT tgisinternal`
          : sql`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name LIKE 'review_search%'`,
      ),
    ).toEqual([]);
    // The content-scope watcher of this server (SQLite's log, PostgreSQL's notifications): an answer that read
    // nothing but `*` stays fresh after the update, one that read the product's scope does not.
    const watcher = t.services.contentScopes;
    const id = await write("1094", { title: "Scope check", body: "Pangolin pattern" });
    const before = await watcher.current();
    await run(t.services.db, sql`UPDATE reviews SET body = 'Armadillo pattern' WHERE review_id = ${id}`);
    const after = await watcher.current();
    expect(watcher.isFresh(before, [], after)).toBe(true); // '*' not bumped
    expect(watcher.isFresh(before, [`product:${TEST_STORE_ID}:1094`], after)).toBe(false);
    expect((await get(`${S}/products/shopify-1094/reviews?search=armadillo`)).body.reviews.map((r) => r.reviewId)).toEqual([id]);
    await run(t.services.db, sql`DELETE FROM reviews WHERE review_id = ${id}`);
  });
});

describe("bad values", () => {
  const cases: [string, string][] = [
    ["rating=0", "rating"],
    ["rating=6", "rating"],
    ["rating=x", "rating"],
    ["rating=", "rating"],
    ["rating=4,,5", "rating"],
    ["rating=4.5", "rating"],
    ["media=pictures", "media"],
    ["media=", "media"],
    ["verified=yes", "verified"],
    ["verified=", "verified"],
    ["search=", "search"],
    [`search=${"a".repeat(101)}`, "search"],
    [`search=${encodeURIComponent("!!! ... 😀")}`, "search"],
  ];
  it("answer 400 naming the parameter, in every scope", async () => {
    for (const scope of scopes) {
      for (const [query, name] of cases) {
        const res = await fetch(t.url(`${scope.path}?${query}`));
        const body = await res.json();
        expect(res.status, `${scope.name} ${query}`).toBe(400);
        expect(body.error.description, query).toContain(name);
      }
    }
    expect((await get(`${S}/reviews?search=${"a".repeat(100)}`)).status).toBe(200);
  });
});

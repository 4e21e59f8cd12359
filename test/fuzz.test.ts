/**
 * Property-based fuzzing (issue 8) of the storefront endpoints with fast-check: hostile query strings,
 * paths, cursors and headers never produce a 5xx; every error is JSON of the documented shape.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: ["1078", "862"] });
});
afterAll(() => t.close());

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const prefix = `/v1/stores/${TEST_STORE_ID}`;
const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE reviews; --', "%00", "%ff%fe", "../../etc/passwd", "<script>alert(1)</script>", "9".repeat(400), "-0", "1e3", "NaN", "{}", "[]", "null"),
  fc.integer().map(String),
  fc.json(),
);
const paths = fc.constantFrom(
  "/reviews",
  "/review_aggregate",
  "/review_media",
  "/products/shopify-1078/reviews",
  "/products/shopify-1078/review_media",
  "/products/shopify-1078/questions",
  "/products/shopify-1078/review_aggregate",
  "/collections/dresses/reviews",
  "/collections/dresses/questions",
);

async function expectWellFormed(res: Response): Promise<void> {
  expect(res.status, `status of ${res.url}`).toBeLessThan(500);
  if (res.status >= 400) {
    const body = await res.json();
    expect(typeof body.error.description).toBe("string");
  } else if (res.status === 200) {
    await res.json();
  }
}

describe("storefront fuzzing", () => {
  it("random query parameters never cause a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        paths,
        fc.dictionary(fc.constantFrom("limit", "orderBy", "locale", "lastEvaluated", "rating", "media", "verified", "search", "shopperAttributes", "x"), hostile),
        async (path, params) => {
          const qs = new URLSearchParams(params as Record<string, string>).toString();
          await expectWellFormed(await fetch(t.url(`${prefix}${path}?${qs}`)));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("random search texts (FTS5 operators, quotes, stars, brackets, any Unicode) never cause a 5xx", async () => {
    const fts = fc.constantFrom('"', "*", "^", "(", ")", ":", "-", "+", "NEAR", "AND", "OR", "NOT", "title:", "{title body}", "\u0000", "\u00e9", "\ud83d\ude00", " ");
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc.array(fc.oneof(fts, fc.string({ maxLength: 6 })), { maxLength: 12 }).map((parts) => parts.join(" ")),
    );
    await fc.assert(
      fc.asyncProperty(paths, text, async (path, search) => {
        const res = await fetch(t.url(`${prefix}${path}?${new URLSearchParams({ search })}`));
        expect(res.status, `status of ${res.url}`).toBeLessThan(500);
        const body = await res.json();
        // A listing either answers or names the parameter; other paths ignore it.
        if (res.status === 400) expect(body.error.description).toMatch(path.endsWith("/reviews") ? /search/ : /./);
      }),
      { numRuns: RUNS },
    );
  });

  it("random path segments never cause a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 4 }), async (segments) => {
        const path = segments.map((s) => encodeURIComponent(s)).join("/");
        await expectWellFormed(await fetch(t.url(`/v1/stores/${path}`)));
        await expectWellFormed(await fetch(t.url(`${prefix}/products/${path}/reviews`)));
      }),
      { numRuns: RUNS },
    );
  });

  it("random cursors are rejected with 400, never accepted or crashing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ k: fc.array(fc.oneof(fc.integer(), fc.string(), fc.double())), s: fc.string() }), async (cursor) => {
        const res = await fetch(t.url(`${prefix}/products/shopify-1078/reviews?lastEvaluated=${encodeURIComponent(JSON.stringify(cursor))}`));
        expect(res.status).toBe(400);
        await expectWellFormed(res);
      }),
      { numRuns: RUNS },
    );
  });

  it("hostile headers never cause a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme-ascii", maxLength: 200 }), async (value) => {
        const safe = value.replace(/[\r\n\0]/g, "");
        const res = await fetch(t.url(`${prefix}/reviews?limit=1`), { headers: { "if-none-match": safe, "accept-language": safe, "x-forwarded-for": safe } });
        await expectWellFormed(res);
      }),
      { numRuns: RUNS },
    );
  });
});

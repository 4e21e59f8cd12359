/**
 * What Okendo's Hydrogen components read from Chorus (issue #37 item 6, docs/okendo.md "Hydrogen"), over real HTTP:
 * `GET /v1/stores/{storeId}/widget_plus_settings` (Okendo's four fields from the store's widget settings, the
 * colours following an admin change, cacheable like the other storefront reads, a JSON 404 for an unknown store, in
 * the OpenAPI document) and the loader stand-in at `/reviews-widget-plus/js/okendo-reviews.js` (the build's file,
 * JavaScript, kept 5 minutes, precompressed, any origin). Run `npm run build` first.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { PROJECT_ROOT } from "../config.ts";
import type { WidgetPlusSettings } from "../contract/okendo-widget-plus.ts";

let t: TestServer;
const A = TEST_STORE_ID;

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { storeId: A, limit: 5 });
});
afterAll(() => t.close());

const read = async (storeId: string, headers: Record<string, string> = {}) => {
  const res = await fetch(t.url(`/v1/stores/${storeId}/widget_plus_settings`), { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as WidgetPlusSettings & { error?: { description: string } } };
};

describe("GET /v1/stores/{storeId}/widget_plus_settings", () => {
  it("a fresh store: the store and Chorus's origin for the loader, no colours, no custom CSS, the star symbols", async () => {
    const { status, headers, body } = await read(A);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["cssVariables", "customCss", "reviewsHeaderConfig", "starSymbols"]);
    // apiBase: the public origin (PUBLIC_URL; unset here: the listening port on localhost).
    expect(body.reviewsHeaderConfig).toEqual({ subscriberId: A, apiBase: `http://localhost:${new URL(t.url("/")).port}`, locale: "en", colors: { accent: null, star: null } });
    expect(body.cssVariables).toBe('<style id="oke-css-vars">:root{}</style>');
    expect(body.customCss).toBe("");
    expect(body.starSymbols).toMatch(/^<svg [^>]*aria-hidden="true".*<symbol id="oke-star-filled".*<symbol id="oke-star-empty"/);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(headers.get("cache-control")).toBe("public, no-cache");
    const etag = headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await fetch(t.url(`/v1/stores/${A}/widget_plus_settings`), { headers: { "if-none-match": etag! } })).status).toBe(304);
  });

  it("the store's colours, as set in the admin, at once (the cached answer follows the change)", async () => {
    await t.services.widgetSettings.update(A, { colors: { accent: "#0A7F5A", star: "#c2410c" } });
    const { body } = await read(A);
    expect(body.cssVariables).toBe('<style id="oke-css-vars">:root{--chorus-accent:#0a7f5a;--chorus-star:#c2410c}</style>');
    expect(body.reviewsHeaderConfig.colors).toEqual({ accent: "#0a7f5a", star: "#c2410c" });
    expect(body.starSymbols).toContain('<path fill="#c2410c"');
    await t.services.widgetSettings.update(A, { colors: { accent: null, star: null } });
    expect((await read(A)).body.cssVariables).toBe('<style id="oke-css-vars">:root{}</style>');
  });

  it("an unknown store answers a JSON 404", async () => {
    const { status, body } = await read("00000000-0000-4000-8000-000000000000");
    expect(status).toBe(404);
    expect(body.error?.description).toMatch(/store/i);
  });

  it("is in the storefront OpenAPI document as Okendo-compatible", async () => {
    const doc = (await (await fetch(t.url("/v1/openapi.json"))).json()) as { paths: Record<string, { get?: { operationId: string; description: string } }> };
    const op = doc.paths["/stores/{storeId}/widget_plus_settings"]?.get;
    expect(op?.operationId).toBe("getWidgetPlusSettings");
    expect(op?.description).toMatch(/^Okendo-compatible/);
  });
});

describe("GET /reviews-widget-plus/js/okendo-reviews.js", () => {
  it("the build's okendo-reviews.js: JavaScript, kept 5 minutes, any origin, brotli by negotiation", async () => {
    const res = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      httpRequest(t.url("/reviews-widget-plus/js/okendo-reviews.js"), { headers: { "accept-encoding": "br" } }, (r) => {
        const parts: Buffer[] = [];
        r.on("data", (c: Buffer) => parts.push(c));
        r.on("end", () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(parts) }));
      })
        .on("error", reject)
        .end();
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=300");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["content-encoding"]).toBe("br");
    const source = brotliDecompressSync(res.body);
    expect(source.equals(readFileSync(join(PROJECT_ROOT, "public/widgets/okendo-reviews.js")))).toBe(true);
    expect(source.toString()).toContain("oke-script-loaded");
  });

  it("nothing else of the widget build answers under Okendo's folder", async () => {
    const res = await fetch(t.url("/reviews-widget-plus/js/chorus.js"));
    expect(res.status).toBe(404);
  });
});

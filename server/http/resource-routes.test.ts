import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { loadBuild } from "../../test/server.ts";
import { createServices, type Services } from "../services.ts";
import { resourceRouteMatcher } from "./resource-routes.ts";

let build: ServerBuild;
let services: Services;
let dir: string;
const prefix = `/v1/stores/${TEST_STORE_ID}`;

beforeAll(async () => {
  build = await loadBuild();
  dir = mkdtempSync(join(tmpdir(), "chorus-routes-"));
  services = createServices({ databasePath: join(dir, "db.sqlite"), mediaPath: join(dir, "media") });
  seedRealReviews(services, { productIds: ["1078", "862"] });
});
afterAll(() => {
  services.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("resourceRouteMatcher", () => {
  it("matches a storefront listing to its route with decoded params", () => {
    const match = resourceRouteMatcher(build)(`${prefix}/products/shopify%2D1078/reviews`);
    expect(match?.routeId).toBe("routes/v1.stores.$storeId.products.$productKey.reviews");
    expect(match?.params).toMatchObject({ storeId: TEST_STORE_ID, productKey: "shopify-1078" });
  });

  it("prefers a static segment over a param and falls back to the API's catch-all route", () => {
    const match = resourceRouteMatcher(build);
    expect(match(`${prefix}/review_aggregate`)?.routeId).toBe("routes/v1.stores.$storeId.review_aggregate");
    expect(match("/enterprise/openapi.json")?.routeId).toBe("routes/enterprise.openapi[.]json");
    expect(match(`${prefix}/no/such/thing`)?.routeId).toBe("routes/v1.$");
  });

  it("leaves document routes (pages with a component) to Remix", () => {
    const match = resourceRouteMatcher(build);
    expect(match("/admin/login")).toBeNull();
    expect(match("/")).toBeNull();
  });
});

describe("direct dispatch answers exactly as Remix does", () => {
  const urls = [
    `${prefix}/products/shopify-1078/reviews?limit=3&orderBy=rating%20asc`,
    `${prefix}/products/shopify-1078/review_aggregate`,
    `${prefix}/collections/dresses/reviews?limit=2`,
    `${prefix}/reviews?limit=0`,
    `${prefix}/products/shopify-404404/reviews`,
    `${prefix}/reviews?lastEvaluated=forged`,
    "/v1/stores/not-a-uuid/reviews",
    `${prefix}/nothing/here`,
    "/enterprise/surveys",
  ];
  it.each(urls)("GET %s", async (url) => {
    const context = { services, clientIp: "127.0.0.1" };
    const viaRemix = await createRequestHandler(build, "production")(new Request(`http://localhost${url}`), context);
    const match = resourceRouteMatcher(build)(new URL(url, "http://localhost").pathname);
    expect(match).not.toBeNull();
    const direct = (await match!.loader({ request: new Request(`http://localhost${url}`), params: match!.params, context })) as Response;
    expect(direct.status).toBe(viaRemix.status);
    expect(await direct.text()).toBe(await viaRemix.text());
    for (const name of ["content-type", "cache-control", "etag", "access-control-allow-origin", "www-authenticate"]) {
      expect(direct.headers.get(name), name).toBe(viaRemix.headers.get(name));
    }
  });
});

describe("resourceRouteMatcher agrees with @remix-run/router's matchRoutes", () => {
  /** The Remix build's manifest as matchRoutes' nested routes (as Remix's createRoutes builds them). */
  function remixRoutes(): AgnosticRouteObject[] {
    const routes = Object.values(build.routes).filter((r) => r !== undefined);
    const nest = (parentId: string | undefined): AgnosticRouteObject[] =>
      routes.filter((r) => r.parentId === parentId).map((r) => (r.index ? { id: r.id, index: true, path: r.path } : { id: r.id, path: r.path, children: nest(r.id) }));
    return nest(undefined);
  }
  /** The oracle: Remix's own match, reduced to what the fast path uses. */
  function oracle(pathname: string) {
    const matches = matchRoutes(remixRoutes(), pathname);
    const leaf = matches?.[matches.length - 1];
    if (!leaf) return null;
    const module = build.routes[leaf.route.id!]!.module;
    return module.loader && !module.default ? { routeId: leaf.route.id, params: { ...leaf.params } } : null;
  }
  const segment = fc.oneof(
    fc.constantFrom("v1", "stores", TEST_STORE_ID, "products", "shopify-1078", "reviews", "review_aggregate", "review_media", "questions",
      "collections", "loyalty", "customer", "enterprise", "surveys", "responses", "openapi.json", "admin", "demo", "", "%2F", "a%20b", "%E0%A4%A", "REVIEWS"),
    fc.string({ maxLength: 6 }),
  );

  // Paths shaped like each route's own path ("v1/stores/:storeId/reviews"), params filled at random.
  const templates: string[] = [];
  const fromTemplate = fc.constant(null).chain(() => {
    if (templates.length === 0) {
      for (const r of Object.values(build.routes)) {
        const chain: string[] = [];
        for (let x: ServerBuild["routes"][string] | undefined = r; x; x = x.parentId ? build.routes[x.parentId] : undefined) if (x.path) chain.unshift(x.path);
        templates.push(chain.join("/"));
      }
    }
    return fc.constantFrom(...templates).chain((template) =>
      fc.tuple(...template.split("/").map((part) => (part.startsWith(":") ? segment : part === "*" ? fc.array(segment, { maxLength: 3 }).map((a) => a.join("/")) : fc.constant(part)))),
    );
  });

  it("on random paths built from the routes' own segments", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {}); // matchRoutes warns about each malformed %-escape
    const match = resourceRouteMatcher(build);
    fc.assert(
      fc.property(fc.oneof(fc.array(segment, { minLength: 1, maxLength: 7 }), fromTemplate), fc.boolean(), (segments, trailingSlash) => {
        const pathname = "/" + segments.map((s) => s.replace(/[?#]/g, "")).join("/") + (trailingSlash ? "/" : "");
        const ours = match(pathname);
        expect(ours && { routeId: ours.routeId, params: ours.params }).toEqual(oracle(pathname));
      }),
      { numRuns: 2000 },
    );
  });
});

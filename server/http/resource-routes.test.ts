import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

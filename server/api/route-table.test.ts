import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { beforeAll, describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { loadBuild } from "../../test/server.ts";
import { isApiRoute, operationTable, type OperationTable } from "./route-table.ts";

let build: ServerBuild;
let table: OperationTable;
let remixMatch: (pathname: string) => { routeId: string; params: Record<string, string | undefined> } | null;

beforeAll(async () => {
  build = await loadBuild();
  table = operationTable(build);
  const manifest = Object.values(build.routes);
  const tree = (parentId: string | undefined): AgnosticRouteObject[] =>
    manifest
      .filter((r) => r.parentId === parentId)
      .map((r) => ({ id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, ...(r.index ? {} : { children: tree(r.id) }) }) as AgnosticRouteObject);
  const routes = tree(undefined);
  remixMatch = (pathname) => {
    const leaf = matchRoutes(routes, pathname)?.at(-1);
    return leaf ? { routeId: leaf.route.id!, params: leaf.params } : null;
  };
});

describe("operation table (find-my-way) agrees with Remix's matchRoutes", () => {
  it("on every API route, with sample params, and on edge cases", () => {
    const samples: string[] = [];
    for (const route of Object.values(build.routes)) {
      if (!isApiRoute(route.id) || !route.path) continue;
      const path = `/${route.path}`.replace(/:(\w+)/g, (_, name: string) => `${name}-1%20x`).replace(/\/\*$/, "/some/unknown/path");
      samples.push(path, `${path}/`, path.toUpperCase());
    }
    samples.push(
      "/v1/stores/x/products/shopify-1/reviews",
      "/v1//stores/x/reviews",
      "/v1/stores/x/products/shopify-1/reviews/extra",
      "/v1/stores/%E2%9C%93/reviews",
      "/v1/nope",
      "/enterprise/surveys/abc/responses",
      "/enterprise/nope/x",
      "/v1/openapi.json",
    );
    expect(samples.length).toBeGreaterThan(60);
    for (const path of samples) {
      const ours = table.match(path);
      const theirs = remixMatch(path);
      expect(ours?.routeId, path).toBe(theirs?.routeId);
      // Catch-all routes declare no operations (Remix answers them), so only declared routes need equal params.
      if (ours?.operations && theirs) expect(ours.params, path).toEqual(theirs.params);
    }
  });

  it("every API route module declares its operations (only the catch-all 404 routes do not)", () => {
    const undeclared = Object.values(build.routes)
      .filter((route) => isApiRoute(route.id) && !route.id.endsWith(".$") && !table.operations.some((op) => op.routeId === route.id))
      .map((route) => route.id);
    expect(undeclared).toEqual([]);
  });

  it("lists the declared operations of every API route module, with OpenAPI paths", () => {
    const ids = table.operations.map((op) => op.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(table.operations.find((op) => op.id === "listProductReviews")?.path).toBe("/v1/stores/{storeId}/products/{productKey}/reviews");
    expect(table.operations.find((op) => op.id === "listSurveyResponses")?.path).toBe("/enterprise/surveys/{surveyId}/responses");
  });
});

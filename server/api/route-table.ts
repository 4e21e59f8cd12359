/**
 * The operation table: which declared operations a path reaches, read from the Remix build's route
 * manifest (each route module's `remixHandlers([...])` declarations) and matched with `find-my-way`, a
 * radix-tree router (~1 µs a match). `matchRoutes` of @remix-run/router, which Remix itself uses,
 * compiles a regular expression per route per call (~140 µs for our 33 API routes): too slow for a path
 * every request takes, so route-table.test.ts checks the two agree on every route and on edge cases
 * (case, trailing and doubled slashes, encoded characters, unknown paths). Only API paths (`/v1`,
 * `/enterprise`, `/platforms`) are in the table; everything else is Remix's.
 */
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import FindMyWay from "find-my-way";
import { LRUCache } from "lru-cache";
import type { ServerBuild } from "@remix-run/server-runtime";
import type { RoutedOperation } from "./operation.ts";
import { declaredOperations } from "./remix.ts";

export type RouteMatch = {
  routeId: string;
  params: Record<string, string | undefined>;
  /** The route module's declared operations, or null for a route that declares none (pages, catch-alls). */
  operations: readonly RoutedOperation[] | null;
};

export type OperationTable = {
  /** The API route a pathname reaches (null when none does). */
  match(pathname: string): RouteMatch | null;
  /** Every declared operation, with its route ID and its OpenAPI path (e.g. `/v1/stores/{storeId}/reviews`). */
  operations: readonly RoutedOperation[];
  /**
   * The ID of the route any path reaches, pages included (for request logs), by Remix's own `matchRoutes`
   * (slower than `match`, remembered for recent paths); undefined when none does.
   */
  routeIdOf(pathname: string): string | undefined;
};

/** The full path of a route (parents' paths joined), in OpenAPI form: `:name` → `{name}`. */
function openApiPath(build: ServerBuild, routeId: string): string {
  const parts: string[] = [];
  for (let route: (typeof build.routes)[string] | undefined = build.routes[routeId]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  return `/${parts.join("/")}`.replace(/:(\w+)/g, "{$1}");
}

/** Whether a route ID is an API route (its paths are in the table). */
export const isApiRoute = (routeId: string) => /^routes\/(v1|enterprise|platforms)[.$[]/.test(routeId) || routeId === "routes/v1" || routeId === "routes/enterprise";

/** Build the table of `build` (once per process or thread). */
export function operationTable(build: ServerBuild): OperationTable {
  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: false });
  const byRoute = new Map<string, RoutedOperation[]>();
  for (const route of Object.values(build.routes)) {
    if (!isApiRoute(route.id)) continue;
    const path = openApiPath(build, route.id);
    const declared = declaredOperations(route.module);
    if (declared?.length)
      byRoute.set(
        route.id,
        declared.map((op) => ({ ...op, routeId: route.id, path })),
      );
    // Remix's `$name` params are `:name`, its splat `$` is `*` (find-my-way's wildcard, param "*").
    const pattern = path.replace(/\{(\w+)\}/g, ":$1");
    router.on("GET", pattern, () => {}, { routeId: route.id });
  }
  const manifest = Object.values(build.routes);
  const tree = (parentId: string | undefined): AgnosticRouteObject[] =>
    manifest
      .filter((r) => r.parentId === parentId)
      .map((r) => ({ id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, ...(r.index ? {} : { children: tree(r.id) }) }) as AgnosticRouteObject);
  const allRoutes = tree(undefined);
  const pageIds = new LRUCache<string, string | false>({ max: 5_000 });
  const match: OperationTable["match"] = (pathname) => {
    const found = router.find("GET", pathname);
    if (!found) return null;
    const routeId = (found.store as { routeId: string }).routeId;
    const params: Record<string, string | undefined> = { ...(found.params as Record<string, string | undefined>) };
    return { routeId, params, operations: byRoute.get(routeId) ?? null };
  };
  return {
    operations: [...byRoute.values()].flat(),
    match,
    routeIdOf(pathname) {
      const api = match(pathname);
      if (api) return api.routeId;
      let id = pageIds.get(pathname);
      if (id === undefined) {
        id = matchRoutes(allRoutes, pathname)?.at(-1)?.route.id ?? false;
        pageIds.set(pathname, id);
      }
      return id || undefined;
    },
  };
}

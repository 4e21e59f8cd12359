/**
 * Direct dispatch of GET requests to Remix *resource routes* (routes with a loader and no UI).
 *
 * The API routes under `app/routes/v1.*` and `app/routes/enterprise.*` are resource routes: their
 * loaders take `{ request, params, context }` and return a Fetch `Response`. Remix's request
 * pipeline around them (static handler, route-match bookkeeping, single-fetch checks, error
 * boundaries meant for documents) costs about 0.8 ms per request on our machines, ten times the
 * cost of an aggregate lookup itself. For GETs we therefore match the request path against the
 * very routes of the Remix build, with the router Remix itself uses (`@remix-run/router`
 * `matchRoutes`, same ranking and param decoding), and call the matched loader directly. The route
 * modules stay the single definition of each endpoint; anything that is not a plain GET to a
 * resource route (documents, actions, HEAD) still goes through Remix.
 * See docs/decisions/0005-direct-resource-route-dispatch.md.
 */
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { LoaderFunction, ServerBuild } from "@remix-run/node";

/** A GET request's resource-route loader and its decoded path params. */
export type ResourceMatch = { routeId: string; loader: LoaderFunction; params: Record<string, string | undefined> };

type BuildRoute = ServerBuild["routes"][string];
type RouteObject = AgnosticRouteObject & { id: string; children?: RouteObject[] };

/** The build's flat route manifest as the nested route objects `matchRoutes` expects (as Remix's createRoutes). */
function nestedRoutes(manifest: ServerBuild["routes"]): RouteObject[] {
  const byParent = new Map<string, BuildRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const parent = route.parentId ?? "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), route]);
  }
  const build = (parentId: string): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index
        ? { id: r.id, index: true, path: r.path, caseSensitive: r.caseSensitive }
        : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: build(r.id) },
    );
  return build("");
}

/**
 * A matcher over `build`'s routes.
 * @returns for a URL pathname (e.g. `/v1/stores/…/reviews`), the loader of the deepest matched route
 *   when that route is a resource route (has a loader, no default component), else `null`.
 */
export function resourceRouteMatcher(build: ServerBuild): (pathname: string) => ResourceMatch | null {
  const routes = nestedRoutes(build.routes);
  return (pathname) => {
    const matches = matchRoutes(routes, pathname);
    const leaf = matches?.[matches.length - 1];
    if (!leaf) return null;
    const module = build.routes[leaf.route.id]?.module;
    if (!module?.loader || module.default) return null;
    return { routeId: leaf.route.id, loader: module.loader, params: leaf.params };
  };
}

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
import type { LoaderFunction, ServerBuild } from "@remix-run/node";

/** A GET request's resource-route loader and its decoded path params. */
export type ResourceMatch = { routeId: string; loader: LoaderFunction; params: Record<string, string | undefined> };

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;
/** One matchable route chain, as react-router's flattenRoutes makes it: the full path of its leaf. */
type Branch = { route: BuildRoute; path: string; score: number; regex: RegExp; params: string[] };

// Ranking of react-router's computeScore (@remix-run/router 1.23, the router Remix 2 matches with).
const PARAM = /^:[\w-]+$/;
function computeScore(path: string, index: boolean): number {
  const segments = path.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const s of segments) if (s !== "*") score += PARAM.test(s) ? 3 : s === "" ? 1 : 10;
  return score;
}

/** The regex of react-router's compilePath(path, caseSensitive, end = true). */
function compilePath(path: string, caseSensitive: boolean): { regex: RegExp; params: string[] } {
  const params: string[] = [];
  let source = "^" + path.replace(/\/*\*?$/, "").replace(/^\/*/, "/").replace(/[\\.*+^${}|()[\]]/g, "\\$&")
    .replace(/\/:([\w-]+)/g, (_, name: string) => {
      params.push(name);
      return "/([^\\/]+)";
    });
  if (path.endsWith("*")) {
    params.push("*");
    source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else source += "\\/*$";
  return { regex: new RegExp(source, caseSensitive ? undefined : "i"), params };
}

/** react-router's decodePath: decode each segment, keeping an encoded slash encoded. */
function decodePath(pathname: string): string {
  try {
    return pathname.split("/").map((v) => decodeURIComponent(v).replace(/\//g, "%2F")).join("/");
  } catch {
    return pathname;
  }
}

/**
 * Every route chain of the build's manifest, flattened and ranked as react-router's flattenRoutes +
 * rankRouteBranches do (depth first, children before their parent, then a stable sort by score).
 */
function rankedBranches(manifest: ServerBuild["routes"]): Branch[] {
  const byParent = new Map<string, BuildRoute[]>();
  for (const route of Object.values(manifest)) {
    if (!route) continue;
    const parent = route.parentId ?? "";
    byParent.set(parent, [...(byParent.get(parent) ?? []), route]);
  }
  const branches: Branch[] = [];
  const flatten = (parentId: string, parentPath: string) => {
    for (const route of byParent.get(parentId) ?? []) {
      const path = [parentPath, route.path ?? ""].join("/").replace(/\/\/+/g, "/");
      flatten(route.id, path);
      if (route.path == null && !route.index) continue;
      branches.push({ route, path, score: computeScore(path, route.index === true), ...compilePath(path, route.caseSensitive === true) });
    }
  };
  flatten("", "");
  return branches.sort((a, b) => b.score - a.score);
}

/**
 * A matcher over `build`'s routes, ranked once (react-router ranks on every call, which cost ~10 % of
 * an API request). `resource-routes.test.ts` checks it agrees with `matchRoutes` of @remix-run/router.
 * @returns for a URL pathname (e.g. `/v1/stores/…/reviews`), the loader of the matched route when
 *   that route is a resource route (has a loader, no default component), else `null`.
 */
export function resourceRouteMatcher(build: ServerBuild): (pathname: string) => ResourceMatch | null {
  const branches = rankedBranches(build.routes);
  return (pathname) => {
    const decoded = decodePath(pathname);
    for (const branch of branches) {
      const m = branch.regex.exec(decoded);
      if (!m) continue;
      const module = branch.route.module;
      if (!module.loader || module.default) return null;
      const params: Record<string, string | undefined> = {};
      branch.params.forEach((name, i) => (params[name] = (m[i + 1] ?? "").replace(/%2F/g, "/")));
      return { routeId: branch.route.id, loader: module.loader, params };
    }
    return null;
  };
}

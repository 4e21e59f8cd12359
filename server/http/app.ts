/**
 * The Node HTTP server that mounts Remix: storefront CORS preflight, a freshness-checked response
 * cache for public storefront GETs and for enterprise GETs per credentials, API GETs dispatched straight to their Remix resource-route
 * loader (resource-routes.ts), static files (widget bundles, Remix assets, media), and everything
 * else through Express + the Remix request handler.
 */
import { createRequestHandler as createExpressHandler } from "@remix-run/express";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import { bearerToken } from "../loyalty/tokens.ts";
import { CONTENT_SCOPES_HEADER, parseScopesHeader } from "../shared/content-scopes.ts";
import { responseBody } from "../shared/response-body.ts";
import type { Services } from "../services.ts";
import { clientAddress, compileProxyTrust } from "./client-address.ts";
import { ifNoneMatchHits, negotiateCoding } from "./encoding.ts";
import type { ReadAnswer, ReadWorkers } from "./read-workers.ts";
import { ResponseCache, type CachedResponse } from "./response-cache.ts";
import { resourceRouteMatcher } from "./resource-routes.ts";

export type HttpOptions = {
  services: Services;
  build: ServerBuild;
  /** Project root (where public/ and build/client/ are). */
  root: string;
  /** Cache public storefront GETs in memory (default true). */
  cache?: boolean;
  /** The cache's byte limit (bodies and compressed copies); default ResponseCache's. */
  cacheBytes?: number;
  /** TRUSTED_PROXIES: proxies whose X-Forwarded-For gives the client address (client-address.ts); default none. */
  trustedProxies?: string;
  /** Threads that compute cache misses of public storefront reads (read-workers.ts); default none (all on this thread). */
  readWorkers?: ReadWorkers;
};

/**
 * Resource routes whose public GET answers read workers compute (read-workers.ts): the storefront loaders,
 * all of which only read (reviews, media, questions, aggregates, AI summaries and keywords).
 */
export const READ_WORKER_ROUTE_IDS = [
  ...["products.$productKey", "collections.$groupId", ""].flatMap((scope) =>
    ["reviews", "review_media", "review_aggregate", ...(scope ? ["questions"] : [])].map((name) => `routes/v1.stores.$storeId.${scope ? `${scope}.` : ""}${name}`),
  ),
  "routes/v1.stores.$storeId.products.$productKey.reviews_summary",
  "routes/v1.stores.$storeId.products.$productKey.reviews_keywords",
];

/** The value of header `name` (lower case) in `headers`, or null. */
const headerOf = (headers: [string, string][], name: string) => headers.find(([n]) => n === name)?.[1] ?? null;

const PREFLIGHT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, service-partner-id, Idempotency-Key, X-Chorus-Visitor",
  "access-control-max-age": "86400",
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * The expiry (epoch ms) of an `Authorization: Bearer <JWT>` header's token, read without verifying it:
 * the cache stores an answer only after the route verified this exact token, so its claims are the
 * verified ones. @returns null when the header is not a Bearer JWT with a numeric `exp`.
 */
function tokenExpiryMs(authorization: string): number | null {
  try {
    const token = bearerToken(authorization);
    const exp = token === null ? undefined : decodeJwt(token).exp;
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null; // not a Bearer JWT: the route answers it, uncached
  }
}

/** A Fetch Request for a Node request; the body (if any) is streamed, not buffered. */
function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const host = req.headers.host ?? "localhost";
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${host}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

/** Write a Fetch Response to a Node response, streaming the body. */
async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie" && name !== CONTENT_SCOPES_HEADER) headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const bytes = responseBody(response);
  if (bytes !== undefined) {
    // Our JSON helper's body: write the bytes it was built from (no stream read-back).
    res.writeHead(response.status, { ...headers, "content-length": String(bytes.length) });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) return; // client went away: stop reading the body
    if (!res.write(chunk)) await new Promise((resolve) => { res.once("drain", resolve); res.once("close", resolve); });
  }
  res.end();
}

function sendJsonError(res: ServerResponse, status: number, description: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" });
  res.end(JSON.stringify({ error: { description } }));
}

const signalAborted = (res: ServerResponse) => res.destroyed || res.writableEnded;

/** Create (not start) the HTTP server. */
export function createHttpServer(options: HttpOptions): Server {
  const { services, build, root, readWorkers } = options;
  const proxyTrust = compileProxyTrust(options.trustedProxies ?? "");
  const remixFetch = createRequestHandler(build, "production");
  const matchResourceRoute = resourceRouteMatcher(build);
  const cache = options.cache === false ? null : new ResponseCache(undefined, options.cacheBytes);
  /** Cache misses being computed, by cache key: settled once the answer is computed and, if cacheable, cached (cachedGet). */
  const computing = new Map<string, Promise<void>>();
  const { contentScopes } = services;

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use(
    "/widgets",
    express.static(join(root, "public/widgets"), {
      setHeaders(res, path) {
        res.setHeader("Access-Control-Allow-Origin", "*");
        // Chunks carry a content hash in their name; the entry files (chorus.js, ...) do not.
        res.setHeader("Cache-Control", /-[A-Za-z0-9_-]{8}\.js$/.test(path) ? "public, max-age=31536000, immutable" : "public, max-age=300");
      },
    }),
  );
  app.use("/assets", express.static(join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(
    "/media",
    express.static(services.mediaPath, {
      immutable: true,
      maxAge: "1y",
      setHeaders: (res) => res.setHeader("Access-Control-Allow-Origin", "*"),
    }),
  );
  app.use(express.static(join(root, "build/client"), { maxAge: "1h", index: false }));
  app.use(express.static(join(root, "public"), { maxAge: "1h", index: false }));
  /** The load context of a request: the services, and the client address for rate limits (client-address.ts). */
  const contextFor = (req: IncomingMessage) => ({ services, clientIp: clientAddress(req, proxyTrust) });
  app.all("*", createExpressHandler({ build, mode: "production", getLoadContext: (req) => contextFor(req) }));

  /**
   * The Fetch response of an API request: a GET whose path matches a resource route calls that
   * route's loader directly (same module, same args as Remix would pass); anything else goes
   * through the Remix request handler.
   */
  async function apiResponse(req: IncomingMessage, signal: AbortSignal): Promise<Response> {
    const request = toFetchRequest(req, signal);
    if (req.method === "GET") {
      const match = matchResourceRoute(new URL(request.url).pathname);
      if (match) {
        const result: unknown = await match.loader({ request, params: match.params, context: contextFor(req) });
        if (result instanceof Response) return result;
      }
    }
    return remixFetch(request, contextFor(req));
  }

  /** API requests (/v1, /enterprise): no Express, no static-file probing. */
  async function apiRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    // Abort only a request whose client left before the answer was sent (an AbortError per request costs a stack trace).
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const authorization = req.headers.authorization;
    if (cache && req.method === "GET") {
      const target = `${req.headers.host ?? ""}${req.url}`;
      if (!authorization && req.url!.startsWith("/v1/")) {
        // Public storefront reads: what the route marks public.
        await cachedGet(req, res, controller.signal, target, { cacheable: (headers) => (headerOf(headers, "cache-control") ?? "").includes("public") });
        return;
      }
      if (authorization && /^Basic /i.test(authorization) && req.url!.startsWith("/enterprise/")) {
        // Enterprise reads, per credentials: only a 200 is kept, so only credentials that passed the route's
        // check since the last commit are ever answered from the cache. These answers name no content scopes,
        // so any commit (revoking a key is one) makes them stale. A cached answer still counts as a use of
        // the key (its "last used" date).
        await cachedGet(req, res, controller.signal, `basic:${sha256(authorization)}:${target}`, {
          onHit: () => services.apiKeys.noteCachedUse(authorization),
        });
        return;
      }
      const bearerExpiryMs = authorization && req.url!.startsWith("/v1/") ? tokenExpiryMs(authorization) : null;
      if (bearerExpiryMs !== null) {
        // Tailored storefront reads (loyalty), per token: kept until the token expires, at most 60 s (the
        // max-age of public answers), and like every entry only until the next commit (e.g. a block).
        await cachedGet(req, res, controller.signal, `bearer:${sha256(authorization!)}:${target}`, { expiresMs: Math.min(bearerExpiryMs, Date.now() + 60_000) });
        return;
      }
    }
    await writeFetchResponse(res, await apiResponse(req, controller.signal));
  }

  /**
   * The answer to a cache miss: from a read worker when the request is a public storefront GET of a
   * read-only route and a worker is ready (read-workers.ts), else computed here. The caller takes the
   * content stamp it caches the answer under before this call; a worker starts reading after it, so
   * its answer is never older than that stamp.
   */
  async function missAnswer(req: IncomingMessage, signal: AbortSignal): Promise<Omit<ReadAnswer, "body"> & { body: Buffer }> {
    if (readWorkers && !req.headers.authorization) {
      const route = matchResourceRoute(new URL(req.url!, "http://x").pathname);
      if (route && READ_WORKER_ROUTE_IDS.includes(route.routeId)) {
        const headers: [string, string][] = [];
        for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
        const answer = await readWorkers.run({
          routeId: route.routeId, params: route.params, url: `http://${req.headers.host ?? "localhost"}${req.url}`, headers, clientIp: clientAddress(req, proxyTrust),
        });
        if (answer) return { ...answer, body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.length) };
      }
    }
    const response = await apiResponse(req, signal);
    return { status: response.status, headers: [...response.headers.entries()], body: responseBody(response) ?? Buffer.from(await response.arrayBuffer()) };
  }

  /**
   * Serve an API GET through the response cache under `key`. A computed 200 without cookies is kept
   * when `options.cacheable(headers)` says so (default: always), until `options.expiresMs` (epoch ms;
   * default: no time limit); `options.onHit` runs when the answer comes from the cache.
   *
   * Requests that miss on a key while its answer is being computed wait for that computation and then
   * read the cache (request coalescing): a popular URL that is not cached yet is computed once, not once
   * per request that arrives before it is done. The answer is checked for freshness at the waiting
   * request's own arrival, so one computed before a commit serves it only if that commit changed none of
   * the content scopes it read. If it does not serve (not a cacheable 200, already evicted, or stale),
   * each waiting request computes its own.
   */
  async function cachedGet(
    req: IncomingMessage, res: ServerResponse, signal: AbortSignal, key: string,
    options: { cacheable?: (headers: [string, string][]) => boolean; expiresMs?: number; onHit?: () => void },
  ): Promise<void> {
    const { cacheable = () => true, expiresMs, onHit } = options;
    const now = contentScopes.current();
    const isFresh = (e: CachedResponse) => contentScopes.isFresh(e.stamp, e.scopes, now);
    let entry = cache!.get(key, isFresh);
    const flight = entry ? undefined : computing.get(key);
    if (flight) {
      // The same answer is being computed for an earlier request: wait for it, then read it from the cache.
      await flight;
      entry = cache!.get(key, isFresh);
    }
    const computedNow = !entry;
    if (entry) onHit?.();
    else {
      let finish!: () => void;
      const mine = new Promise<void>((resolve) => (finish = resolve));
      computing.set(key, mine);
      try {
        const answer = await missAnswer(req, signal);
        // The content scopes the route says the answer read (server/shared/content-scopes.ts): kept, not sent.
        const declared = headerOf(answer.headers, CONTENT_SCOPES_HEADER);
        const scopes = parseScopesHeader(declared);
        const headers = declared === null ? answer.headers : answer.headers.filter(([name]) => name !== CONTENT_SCOPES_HEADER);
        entry = { status: answer.status, headers, body: answer.body, etag: headerOf(headers, "etag"), stamp: now, scopes, ...(expiresMs === undefined ? {} : { expiresMs }) };
        if (entry.status === 200 && headerOf(headers, "set-cookie") === null && cacheable(headers)) cache!.set(key, entry);
      } finally {
        if (computing.get(key) === mine) computing.delete(key);
        finish();
      }
    }
    const headers = Object.fromEntries(entry.headers);
    if (entry.status === 200 && entry.etag && ifNoneMatchHits(req.headers["if-none-match"], entry.etag)) {
      delete headers["content-length"];
      delete headers["content-type"];
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (entry.status === 200) {
      headers.vary = "Accept-Encoding";
      const coding = entry.body.length > 1024 ? negotiateCoding(req.headers["accept-encoding"]) : null;
      const encoded = coding ? entry.encoded?.[coding] : undefined;
      if (coding && encoded) {
        // The same content in another coding: a weak validator (RFC 9110 §8.8.1), as a compressing proxy would send.
        if (entry.etag) headers.etag = `W/${entry.etag}`;
        res.writeHead(200, { ...headers, "content-encoding": coding, "content-length": String(encoded.length) });
        res.end(encoded);
        return;
      }
      // Served again from the cache: compress it for the next requests (encoding.ts policy).
      if (coding && !computedNow) cache!.compressLater(key, entry, coding);
    }
    res.writeHead(entry.status, { ...headers, "content-length": String(entry.body.length) });
    res.end(entry.body);
  }

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/v1/") && req.method === "OPTIONS") {
      res.writeHead(204, PREFLIGHT_HEADERS);
      res.end();
      return;
    }
    if (url.startsWith("/v1/") || url.startsWith("/enterprise/") || url === "/enterprise") {
      apiRequest(req, res).catch((error) => {
        if (signalAborted(res)) return;
        console.error("API request failed", error);
        if (!res.headersSent) sendJsonError(res, 500, "Internal server error");
        else res.destroy();
      });
      return;
    }
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  return server;
}

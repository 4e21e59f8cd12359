/**
 * The Node HTTP server: one entrance per request. `/v1`, `/enterprise` and `/healthz` are answered here;
 * an API path is matched against the operation table (server/api/route-table.ts: the route modules'
 * declared operations, matched with @remix-run/router) and its operation is run directly
 * (server/api/operation.ts), through the response cache for GETs. Route modules without operations
 * (the catch-all 404s) and everything else (admin, demo pages, static files) go through Express + Remix.
 */
import { createRequestHandler as createExpressHandler } from "@remix-run/express";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import onHeaders from "on-headers";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { decodeJwt } from "jose";
import pg from "pg";
import { bearerToken } from "../loyalty/tokens.ts";
import { mediaHttpHandler } from "../media/media-http.ts";
import {
  allowedMethods,
  checkCommonHeaders,
  errorResult,
  methodNotAllowed,
  operationFor,
  runOperation,
  setUnexpectedErrorLog,
  type Operation,
  type OperationContext,
  type OperationResult,
} from "../api/operation.ts";
import { operationTable, type RouteMatch } from "../api/route-table.ts";
import { ApiError } from "../contract/errors.ts";
import { dialect, sql, value, type Db } from "../db/database.ts";
import type { Services } from "../services.ts";
import type { DemoImportStatus } from "../demo/demo-status.ts";
import { startCachePurger, surrogateKeys, type CachePurger } from "./cache-purge.ts";
import { clientAddress, compileProxyTrust } from "./client-address.ts";
import { ifNoneMatchHits, negotiateCoding } from "./encoding.ts";
import type { Logger } from "./logging.ts";
import { logRequest } from "./logging.ts";
import { methodAccepted, refuseMethod, refuseMethods } from "./methods.ts";
import { publicOriginResolver } from "./public-origin.ts";
import { OKENDO_LOADER_PATH, widgetFilesHandler } from "../widgets/static.ts";
import type { ReadWorkers } from "./read-workers.ts";
import { ResponseCache, type CachedResponse } from "./response-cache.ts";

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
  /** PUBLIC_URL: the origin of absolute URLs in answers (public-origin.ts); default the listening address. */
  publicUrl?: string;
  /** Structured request logs (logging.ts); default none. */
  logger?: Logger;
  /**
   * CACHE_PURGE_URLS: HTTP caches in front (Varnish, deploy/varnish/chorus.vcl). When set, cacheable
   * storefront answers carry their content scopes as `xkey` tags and every commit's scopes are purged
   * from each (cache-purge.ts), from start until the server closes. Default none.
   */
  cachePurgeUrls?: readonly string[];
};

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

const HOST_HEADER = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * The request body as a web stream that reads the socket only as fast as the route consumes it
 * (pauses at the stream's high-water mark) and stops reading when the route cancels it — the bounded
 * body reader (server/shared/body.ts) cancels at its limit; the answer then closes the connection.
 * (`Readable.toWeb` throws "Controller is already closed" when data arrives after a cancel.)
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (open) controller.close();
          open = false;
        });
        req.once("error", (error) => {
          if (open) controller.error(error);
          open = false;
        });
        req.once("close", () => {
          // The client left before sending the whole body.
          if (open) controller.error(new Error("The client closed the connection before the body was complete"));
          open = false;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        open = false;
        req.pause();
      },
    },
    { highWaterMark: 4, size: () => 1 },
  );
}

/** A Fetch Request for a Node request; the body (if any) is streamed, not buffered. */
function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  // The Host header only completes the URL; nothing in an answer is built from it (public-origin.ts).
  const host = HOST_HEADER.test(req.headers.host ?? "") ? req.headers.host : "localhost";
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${host}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    signal,
    ...(hasBody ? { body: bodyStream(req), duplex: "half" } : {}),
  } as RequestInit);
}

/** Write a Fetch Response to a Node response, streaming the body. */
async function writeFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) return; // client went away: stop reading the body
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        // One wait per full buffer: drop the other listener, or a long stream piles up 'close' listeners.
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
    }
  }
  res.end();
}

/** Write an operation result (304 when the request's If-None-Match holds its ETag; no body for HEAD; a streamed body chunk by chunk). */
function writeResult(req: IncomingMessage, res: ServerResponse, result: OperationResult): void {
  if (result.stream) {
    if (req.method === "HEAD") void result.stream.cancel();
    // A client that goes away stops the reading (writeFetchResponse), which cancels the stream.
    void writeFetchResponse(res, new Response(req.method === "HEAD" ? null : result.stream, { status: result.status, headers: result.headers })).catch(() => res.destroy());
    return;
  }
  const { etag } = result.headers;
  if (result.status === 200 && etag && ifNoneMatchHits(req.headers["if-none-match"], etag)) {
    const { "content-type": _type, ...headers } = result.headers;
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(result.status, { ...result.headers, "content-length": String(result.body.length) });
  res.end(req.method === "HEAD" ? undefined : result.body);
}

/** How long a connection closed after an answer with its request body unread stays half-open (lingerOnClose). */
const LINGER_MS = 2_000;

/**
 * Close the connection of `req` in stages when its answer says `Connection: close` before its body was
 * read to the end (413, 401, 405, ...; RFC 9112, section 9.6): send the answer and FIN, stop reading, and close
 * LINGER_MS later. Closing at once with unread bytes makes the kernel reset the connection, and a
 * client still writing its body then fails (EPIPE, ECONNRESET) without ever reading the answer. Nothing
 * more is read meanwhile (what the client still sends waits in the kernel's buffers and is dropped with
 * the connection), so a client that keeps sending costs no memory and no CPU.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  const destroySoon = socket.destroySoon;
  // Node calls destroySoon() once the answer of a `Connection: close` exchange is written (http server resOnFinish).
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    if (req.complete || this.destroyed) return destroySoon.call(this);
    if (this.writable) this.end();
    // Stop reading. The http parser reads the socket's handle directly (pause() does not reach it once the
    // request was answered) and would read and drop all the client still sends; it may restart reading on
    // a later "resume" event, so stop again after each.
    const stopReading = () => {
      const handle = (this as unknown as { _handle?: { reading?: boolean; readStop?: () => number } })._handle;
      if (handle?.readStop) {
        handle.reading = false;
        handle.readStop();
      }
    };
    stopReading();
    this.on("resume", stopReading);
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}

/** `X-Content-Type-Options: nosniff` on a static file's answer. */
const nosniff = (res: ServerResponse) => res.setHeader("X-Content-Type-Options", "nosniff");

/** Largest request body the server accepts on any route, in bytes (the largest route limit: a review with 5 images and a video). */
export const MAX_REQUEST_BYTES = 160 * 1024 * 1024;

/** How /healthz asks the database whether it answers (`databaseProbe`). */
type DatabaseProbe = { answers(): Promise<boolean>; close(): Promise<void> };

/**
 * The database question of `/healthz`. PostgreSQL: one connection of its own (opened at the first probe, kept),
 * so a probe never queues behind the requests holding the node's pool (issue #34: healthz p99 under 25 ms while
 * 40 writes run on the node), and probes arriving while its query runs take that query's answer (a round trip
 * each would queue on the one connection); a database that does not answer within 5 s counts as down. SQLite: the query on
 * the node's connection (it waits only for that connection's current transaction; the event loop goes on).
 */
function databaseProbe(db: Db): DatabaseProbe {
  if (dialect(db) !== "postgres") {
    return { answers: async () => (await value<number>(db, sql`SELECT 1 AS one`)) !== undefined, close: () => Promise.resolve() };
  }
  let pool: pg.Pool | null = null;
  let closed = false;
  let inFlight: Promise<boolean> | null = null;
  const ask = async (): Promise<boolean> => {
    if (!pool) {
      pool = new pg.Pool({ connectionString: db.location, max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: 5_000, query_timeout: 5_000, application_name: "chorus-healthz" });
      pool.on("error", () => {}); // a lost idle connection: the next probe opens another
    }
    return (await pool.query("SELECT 1 AS one")).rowCount === 1;
  };
  return {
    answers() {
      if (closed) return Promise.resolve(false);
      inFlight ??= ask().finally(() => (inFlight = null));
      return inFlight;
    },
    async close() {
      closed = true;
      await pool?.end();
    },
  };
}

/**
 * `GET /healthz`: 200 `{"status":"ok"}` when the database answers a query (`databaseProbe`), else 503; never cached
 * (no body for HEAD). The event loop goes on serving while the query runs. With the demo on, the answer carries the
 * demo import's progress as this node knows it (`"demo":{"importing":true,"done":12000,"total":23486}`, docs/api.md).
 */
async function healthz(probe: DatabaseProbe, demo: DemoImportStatus, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let ok = false;
  try {
    ok = await probe.answers();
  } catch {
    ok = false;
  }
  if (res.destroyed) return;
  res.writeHead(ok ? 200 : 503, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  const progress = demo.current();
  const body = ok ? { status: "ok", ...(progress ? { demo: progress } : {}) } : { status: "unavailable", error: { description: "The database does not answer" } };
  res.end(req.method === "HEAD" ? undefined : JSON.stringify(body));
}

const signalAborted = (res: ServerResponse) => res.destroyed || res.writableEnded;
/** Whether an operation's answer may be shared (its Cache-Control is `public`). */
const isPublic = (result: OperationResult) => result.headers["cache-control"]?.startsWith("public") === true;

/** The cache purger of each server created with `cachePurgeUrls`. */
const purgers = new WeakMap<Server, CachePurger>();

/** The cache purger of `server` (created with `cachePurgeUrls`), e.g. to `flush()` it; null without one. */
export function cachePurgerOf(server: Server): CachePurger | null {
  return purgers.get(server) ?? null;
}

/** Create (not start) the HTTP server. */
export function createHttpServer(options: HttpOptions): Server {
  const { services, build, root, readWorkers, logger } = options;
  const proxyTrust = compileProxyTrust(options.trustedProxies ?? "");
  const remixFetch = createRequestHandler(build, "production");
  const table = operationTable(build);
  if (logger) setUnexpectedErrorLog((error) => logger.error({ err: error }, "unhandled route error"));
  const cache = options.cache === false ? null : new ResponseCache(undefined, options.cacheBytes);
  /** Cache misses being computed, by cache key: settled once the answer is computed and, if cacheable, cached (cachedGet). */
  const computing = new Map<string, Promise<void>>();
  const { contentScopes } = services;
  const probe = databaseProbe(services.db);
  const purger = options.cachePurgeUrls?.length ? startCachePurger({ db: services.db, urls: options.cachePurgeUrls, log: (line) => (logger ? logger.warn(line) : console.error(line)) }) : null;

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  // The widget build's static files: hashed modules kept a year, precompressed; the loader 5 minutes (server/widgets/static.ts, ADR 0018).
  const widgetFiles = widgetFilesHandler(join(root, "public/widgets"));
  app.use("/widgets", widgetFiles);
  // Okendo's loader path, for Okendo's Hydrogen components: the build's okendo-reviews.js (docs/okendo.md "Hydrogen").
  app.get(OKENDO_LOADER_PATH, (req, res, next) => {
    req.url = "/okendo-reviews.js";
    widgetFiles(req, res, next);
  });
  app.use("/assets", express.static(join(root, "build/client/assets"), { immutable: true, maxAge: "1y", setHeaders: nosniff }));
  // Review media: only published items of published reviews, a five-minute cache (server/media/media-http.ts).
  app.use("/media", mediaHttpHandler({ mediaRows: services.mediaRows, mediaPath: services.mediaPath, secret: services.secret, tagged: purger !== null }));
  app.use(express.static(join(root, "build/client"), { maxAge: "1h", index: false, setHeaders: nosniff }));
  app.use(express.static(join(root, "public"), { maxAge: "1h", index: false, setHeaders: nosniff }));
  const listening = () => {
    const address = server.address();
    return `http://localhost:${typeof address === "object" && address ? address.port : 3000}`;
  };
  const publicOrigin = publicOriginResolver(options.publicUrl, proxyTrust, listening);
  /** The load context of a request: services, client address for rate limits (client-address.ts), public origin, operations. */
  const contextFor = (req: IncomingMessage): OperationContext => ({
    services,
    clientIp: clientAddress(req, proxyTrust),
    publicOrigin: publicOrigin(req),
    operations: table.operations,
  });
  const remix = createExpressHandler({ build, mode: "production", getLoadContext: (req) => contextFor(req) });
  // Remix's handler passes its own failures to next(error) (the error handler below); the promise is not needed.
  app.all("*", (req, res, next) => void remix(req, res, next));
  // Errors Express's own layers raise (a malformed %-escape in a path makes the static-file layer throw a
  // URIError with status 400): a JSON error like every other, never Express's HTML page with a stack trace.
  app.use((error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) return next(error);
    const given = (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
    const status = typeof given === "number" && given >= 400 && given < 500 ? given : 500;
    if (status === 500) logger?.error({ err: error }, "unhandled server error");
    res
      .status(status)
      .set({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" })
      .send(
        JSON.stringify({
          error: { description: status === 400 ? "The request path is not valid: it has a malformed %-escape" : status === 500 ? "Internal server error" : "The request could not be handled" },
        }),
      );
  });

  /** Run `op` here, on this thread. */
  const runHere = (req: IncomingMessage, op: Operation, match: RouteMatch, signal: AbortSignal) => runOperation(op, toFetchRequest(req, signal), match.params, contextFor(req));

  /**
   * An API request (/v1, /enterprise): the route's declared operation for the method, through the
   * response cache for GETs; 405 with `Allow` for a method it does not declare; a route without
   * operations (the catch-all 404s) through Remix.
   */
  async function apiRequest(req: IncomingMessage, res: ServerResponse, match: RouteMatch | null): Promise<void> {
    const controller = new AbortController();
    // Abort only a request whose client left before the answer was sent (an AbortError per request costs a stack trace).
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    if (!match?.operations) {
      await writeFetchResponse(res, await remixFetch(toFetchRequest(req, controller.signal), contextFor(req)));
      return;
    }
    if (req.method === "OPTIONS") {
      // What the path accepts (`/v1` preflights are answered before this, with CORS headers).
      res.writeHead(204, { allow: allowedMethods(match.operations).join(", "), "cache-control": "no-store" });
      res.end();
      return;
    }
    const op = operationFor(match.operations, req.method ?? "GET");
    if (!op) {
      writeResult(req, res, errorResult(methodNotAllowed(allowedMethods(match.operations))));
      return;
    }
    try {
      checkCommonHeaders(op, (name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(", ") : v;
      }); // before the cache: a cached answer never hides a refusal
    } catch (error) {
      writeResult(req, res, errorResult(error, toFetchRequest(req, controller.signal)));
      return;
    }
    const authorization = req.headers.authorization;
    if (cache && op.method === "GET") {
      // Keyed by the origin the answer's absolute URLs are built from (public-origin.ts), not by Host: a
      // trusted proxy's X-Forwarded-Host gets its own entry, and a client's Host makes no entry of its own.
      const target = `${publicOrigin(req)}${req.url}`;
      const compute = () => missAnswer(req, op, match, controller.signal);
      if (!authorization) {
        // Public reads: what the operation marks public.
        await cachedGet(req, res, target, compute, { cacheable: isPublic, tagged: purger !== null });
        return;
      }
      if (op.auth === "basic" && /^Basic /i.test(authorization)) {
        // Enterprise reads, per credentials: only a 200 is kept, so only credentials that passed the operation's
        // check since the last commit are ever answered from the cache. These answers name no content scopes,
        // so any commit (revoking a key is one) makes them stale. A cached answer still counts as a use of
        // the key (its "last used" date).
        await cachedGet(req, res, `basic:${sha256(authorization)}:${target}`, compute, {
          onHit: () => void Promise.resolve(services.apiKeys.noteCachedUse(authorization)).catch((error: unknown) => logger?.warn({ err: error }, "recording an API key's use failed")),
        });
        return;
      }
      const bearerExpiryMs = op.api === "storefront" ? tokenExpiryMs(authorization) : null;
      if (bearerExpiryMs !== null) {
        // Tailored storefront reads (loyalty), per token: kept until the token expires, at most 60 s (the
        // max-age of public answers), and like every entry only until the next commit (e.g. a block).
        await cachedGet(req, res, `bearer:${sha256(authorization)}:${target}`, compute, { expiresMs: Math.min(bearerExpiryMs, Date.now() + 60_000) });
        return;
      }
    }
    const result = await runHere(req, op, match, controller.signal);
    if (purger && !authorization && result.status === 200 && isPublic(result)) result.headers.xkey = surrogateKeys(result.scopes);
    writeResult(req, res, result);
  }

  /**
   * The answer to a cache miss: from a read worker when the operation only reads, the request carries
   * no credentials and a worker is ready (read-workers.ts), else computed here. The caller takes the
   * content stamp it caches the answer under before this call; a worker starts reading after it, so
   * its answer is never older than that stamp.
   */
  async function missAnswer(req: IncomingMessage, op: Operation, match: RouteMatch, signal: AbortSignal): Promise<OperationResult> {
    if (readWorkers && op.readsOnly && !req.headers.authorization) {
      const headers: [string, string][] = [];
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
      const job = { routeId: match.routeId, params: match.params, url: `http://localhost${req.url}`, headers, clientIp: clientAddress(req, proxyTrust), publicOrigin: publicOrigin(req) };
      const answer = await readWorkers.run(job);
      if (answer) {
        return { status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.length), scopes: answer.scopes };
      }
    }
    return runHere(req, op, match, signal);
  }

  /**
   * Serve an API GET through the response cache under `key`. A computed 200 without cookies is kept
   * when `options.cacheable(headers)` says so (default: always), until `options.expiresMs` (epoch ms;
   * default: no time limit); `options.onHit` runs when the answer comes from the cache. `options.tagged`:
   * a 200 (and its 304) carries its content scopes as `xkey` tags for the HTTP cache in front.
   *
   * Requests that miss on a key while its answer is being computed wait for that computation and then
   * read the cache (request coalescing): a popular URL that is not cached yet is computed once, not once
   * per request that arrives before it is done. The answer is checked for freshness at the waiting
   * request's own arrival, so one computed before a commit serves it only if that commit changed none of
   * the content scopes it read. If it does not serve (not a cacheable 200, already evicted, or stale),
   * each waiting request computes its own.
   */
  async function cachedGet(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    compute: () => Promise<OperationResult>,
    options: { cacheable?: (result: OperationResult) => boolean; expiresMs?: number; onHit?: () => void; tagged?: boolean },
  ): Promise<void> {
    const { cacheable = () => true, expiresMs, onHit, tagged = false } = options;
    const now = await contentScopes.current();
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
        const answer = await compute();
        if (answer.stream) {
          // A streamed body (an export) is written as it is produced, never kept.
          writeResult(req, res, answer);
          return;
        }
        const headers = Object.entries(answer.headers);
        entry = {
          status: answer.status,
          headers,
          body: answer.body,
          etag: answer.headers.etag ?? null,
          stamp: now,
          scopes: answer.scopes ? [...answer.scopes] : null,
          ...(expiresMs === undefined ? {} : { expiresMs }),
        };
        if (entry.status === 200 && answer.headers["set-cookie"] === undefined && cacheable(answer)) cache!.set(key, entry);
      } finally {
        if (computing.get(key) === mine) computing.delete(key);
        finish();
      }
    }
    const headers = Object.fromEntries(entry.headers);
    if (tagged && entry.status === 200 && headers["cache-control"]?.startsWith("public")) headers.xkey = surrogateKeys(entry.scopes);
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
        // The same content in another coding: a weak validator (RFC 9110, section 8.8.1), as a compressing proxy would send.
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

  const serveApi = (req: IncomingMessage, res: ServerResponse, match: RouteMatch | null) => {
    apiRequest(req, res, match).catch((error) => {
      if (signalAborted(res)) return;
      if (logger) logger.error({ err: error }, "API request failed");
      else console.error("API request failed", error);
      if (!res.headersSent) writeResult(req, res, errorResult(error));
      else res.destroy();
    });
  };

  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    const pathname = url.split("?", 1)[0];
    let match: RouteMatch | null | undefined;
    if (logger) logRequest(logger, req, res, () => (match ??= table.match(pathname))?.routeId ?? table.routeIdOf(pathname));
    const api = url.startsWith("/v1/") || url.startsWith("/enterprise/") || pathname === "/enterprise" || url.startsWith("/platforms/");
    // What Chorus answers itself is what its Content-Type says: browsers must not guess (issue #19). Remix
    // pages set the header themselves (admin, demo), static files in `staticHeaders`.
    if (api || pathname === "/healthz") res.setHeader("x-content-type-options", "nosniff");
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > 0 || req.headers["transfer-encoding"] !== undefined) {
      lingerOnClose(req);
      // Any answer that goes out before its body was read to the end (a 404 or 403 of a page's action, a
      // refused form) closes the connection: the unread rest must not be taken for the next request.
      onHeaders(res, () => {
        if (!req.complete) res.setHeader("connection", "close");
      });
    }
    // One rule for the methods each kind of path accepts, before Express or Remix see the request (methods.ts):
    // others are 501 JSON on API paths (TRACE, PROPFIND, ...), 405 with Allow on pages and static files.
    if (!methodAccepted(req.method ?? "", url)) {
      refuseMethod(req, res);
      return;
    }
    if (declared > MAX_REQUEST_BYTES) {
      // Refused before a byte is read; the connection closes with the answer (the body is never read).
      writeResult(req, res, errorResult(new ApiError(413, `The request body is too large: at most ${MAX_REQUEST_BYTES / 1024 / 1024} MB`, "body_too_large"), { method: req.method } as Request));
      return;
    }
    if (pathname === "/healthz") {
      if (req.method === "GET" || req.method === "HEAD") void healthz(probe, services.demoImport, req, res);
      else writeResult(req, res, errorResult(methodNotAllowed(["GET", "HEAD"]), { method: req.method } as Request));
      return;
    }
    if (url.startsWith("/v1/") && req.method === "OPTIONS") {
      res.writeHead(204, PREFLIGHT_HEADERS);
      res.end();
      return;
    }
    if (api) {
      match ??= table.match(pathname);
      serveApi(req, res, match);
      return;
    }
    app(req, res);
  });
  refuseMethods(server, logger);
  server.on("close", () => void probe.close());
  if (purger) {
    purgers.set(server, purger);
    server.on("close", () => void purger.stop());
  }
  server.keepAliveTimeout = 65_000;
  // Slow clients: headers must arrive within 20 s, the whole request (uploads included) within 5 minutes.
  server.headersTimeout = 20_000;
  server.requestTimeout = 300_000;
  return server;
}

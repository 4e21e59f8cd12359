/**
 * The Node HTTP server that mounts Remix: storefront CORS preflight, a version-checked response
 * cache for public storefront GETs, static files (widget bundles, Remix assets, media), and
 * everything else through Express + the Remix request handler.
 */
import { createRequestHandler as createExpressHandler } from "@remix-run/express";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import express from "express";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { Services } from "../services.ts";
import { ResponseCache } from "./response-cache.ts";

export type HttpOptions = {
  services: Services;
  build: ServerBuild;
  /** Project root (where public/ and build/client/ are). */
  root: string;
  /** Cache public storefront GETs in memory (default true). */
  cache?: boolean;
};

const PREFLIGHT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, service-partner-id, Idempotency-Key, X-Chorus-Visitor",
  "access-control-max-age": "86400",
};

function toFetchRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const host = req.headers.host ?? "localhost";
  return new Request(`http://${host}${req.url ?? "/"}`, { method: req.method, headers });
}

function sendJsonError(res: ServerResponse, status: number, description: string): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" });
  res.end(JSON.stringify({ error: { description } }));
}

/** Create (not start) the HTTP server. */
export function createHttpServer(options: HttpOptions): Server {
  const { services, build, root } = options;
  const loadContext = { services };
  const remixFetch = createRequestHandler(build, "production");
  const cache = options.cache === false ? null : new ResponseCache();

  const app = express();
  app.disable("x-powered-by");
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
  app.all("*", createExpressHandler({ build, mode: "production", getLoadContext: (req) => ({ ...loadContext, clientIp: req.socket.remoteAddress ?? "unknown" }) }));

  /** Serve a public storefront GET through the cache. */
  async function cachedStorefrontGet(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const key = `${req.headers.host ?? ""}${req.url}`;
    const version = services.contentVersion();
    let entry = cache!.get(key, version);
    if (!entry) {
      const response = await remixFetch(toFetchRequest(req), loadContext);
      const body = Buffer.from(await response.arrayBuffer());
      const headers = [...response.headers.entries()];
      entry = { status: response.status, headers, body, etag: response.headers.get("etag"), version };
      const cacheable = response.status === 200 && (response.headers.get("cache-control") ?? "").includes("public") && !response.headers.has("set-cookie");
      if (cacheable) cache!.set(key, entry);
    }
    if (entry.status === 200 && entry.etag && req.headers["if-none-match"] === entry.etag) {
      res.writeHead(304, Object.fromEntries(entry.headers.filter(([n]) => n !== "content-length" && n !== "content-type")));
      res.end();
      return;
    }
    res.writeHead(entry.status, Object.fromEntries(entry.headers));
    res.end(entry.body);
  }

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/v1/")) {
      if (req.method === "OPTIONS") {
        res.writeHead(204, PREFLIGHT_HEADERS);
        res.end();
        return;
      }
      if (cache && req.method === "GET" && !req.headers.authorization) {
        cachedStorefrontGet(req, res).catch((error) => {
          console.error("storefront request failed", error);
          if (!res.headersSent) sendJsonError(res, 500, "Internal server error");
          else res.destroy();
        });
        return;
      }
    }
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  return server;
}

/**
 * The widget files under `/widgets/` (ADR 0018, docs/widgets.md "Loading"): static files of the widget build
 * (public/widgets), served as they are.
 * - `chorus.js`, the loader merchants' pages name, and `custom-elements.json`, the elements' manifest (JSON, written by
 *   `npm run build:widgets` from their JSDoc: docs/widgets.md), are kept 5 minutes; every other file is named by its content's hash
 *   (`chunks/<tag>-<hash>.js`, `chunks/<hash>.js`, `i18n/<hash>/<locale>/<part>.json`) and kept a year (`immutable`),
 *   so any browser, CDN or Varnish may keep it, and a page keeps importing the files of its loader's build.
 * - A file the build compressed (`<file>.br`, `<file>.gz` beside it) is answered in the coding the request's
 *   Accept-Encoding prefers (brotli, then gzip: server/http/encoding.ts `negotiateCoding`), with `Content-Encoding`;
 *   every answer of such a file carries `Vary: Accept-Encoding`. ETags (of each coding's file) and 304s are express's.
 * - Anything else below `/widgets/` (a file of a build not kept, a path outside the folder) is a JSON 404, not kept.
 * Every answer may be read by any origin (the widgets run on merchants' pages) and carries `nosniff`.
 */
import express, { type Request, type RequestHandler, type Response } from "express";
import { existsSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { negotiateCoding, type ContentCoding } from "../http/encoding.ts";

/** Where Okendo's Hydrogen components load Okendo's loader from (on their `cdnDomain`); answered with the build's `okendo-reviews.js`. */
export const OKENDO_LOADER_PATH = "/reviews-widget-plus/js/okendo-reviews.js";
/** The loader's cache lifetime in seconds (docs/widgets.md: a new build reaches pages within 5 minutes). */
export const LOADER_MAX_AGE_S = 300;
/** A hashed file's cache lifetime in seconds: a year. */
export const HASHED_MAX_AGE_S = 31_536_000;

/** File extension of each coding's precompressed file. */
const EXTENSION: Record<ContentCoding, string> = { br: ".br", gzip: ".gz" };
/** Content types of the files the build writes (by extension). */
const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8", ".txt": "text/plain; charset=utf-8" };

/** Whether `path` (below /widgets/, with a leading "/") names a file by its content (kept a year), rather than the loader or the license notice. */
export const isHashedPath = (path: string): boolean => /^\/(chunks|i18n)\//.test(path);

/**
 * The request handler for everything below `/widgets` (mount it there), serving the build under `dir`
 * (public/widgets). Express's static handler answers files (ranges, ETag, 304, HEAD); this picks the
 * precompressed file to answer from and sets the headers.
 */
export function widgetFilesHandler(dir: string): RequestHandler {
  const root = resolve(dir);
  const files = express.static(root, {
    index: false,
    redirect: false,
    dotfiles: "ignore",
    setHeaders(res, path) {
      const name = path
        .slice(root.length)
        .split(sep)
        .join("/")
        .replace(/\.(br|gz)$/, "");
      res.setHeader("Cache-Control", isHashedPath(name) ? `public, max-age=${HASHED_MAX_AGE_S}, immutable` : `public, max-age=${LOADER_MAX_AGE_S}`);
    },
  });
  const notFound = (res: Response): void => {
    res.removeHeader("Content-Encoding");
    res
      .status(404)
      .set({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
      .send(JSON.stringify({ error: { description: "No such widget file in this version of Chorus" } }));
  };

  return (req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method !== "GET" && req.method !== "HEAD") return notFound(res);
    const file = localFile(root, req);
    // A request for a compressed file itself is not one the loader makes: 404 like any unknown name.
    if (file === null || /\.(br|gz)$/.test(file)) return notFound(res);
    const type = TYPES[/\.\w+$/.exec(file)?.[0] ?? ""];
    const precompressed = Object.values(EXTENSION).some((ext) => existsSync(file + ext));
    if (precompressed) {
      res.setHeader("Vary", "Accept-Encoding");
      const coding = negotiateCoding(req.headers["accept-encoding"]);
      if (coding && existsSync(file + EXTENSION[coding])) {
        // Express's static handler answers the compressed file with its own ETag (a representation of its own),
        // its type set here (it keeps a Content-Type already set), and the compression middleware leaves it alone.
        res.setHeader("Content-Encoding", coding);
        if (type) res.setHeader("Content-Type", type);
        req.url = `${req.url.split("?")[0]}${EXTENSION[coding]}`;
      }
    }
    files(req, res, (error?: unknown) => (error ? next(error) : notFound(res)));
  };
}

/**
 * The file below `root` that `req`'s path names, or null when it names none: a path that does not decode, has a
 * `..` or NUL, names a folder or a dotfile, or lies outside `root`.
 */
function localFile(root: string, req: Request): string | null {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    return null;
  }
  if (path.includes("\0") || path.split("/").some((segment) => segment === ".." || segment.startsWith("."))) return null;
  const file = resolve(join(root, path));
  if (!file.startsWith(root + sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

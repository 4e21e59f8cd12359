/**
 * `GET /media/<storeId>/<mediaId>/<file>`: review media files, served only while the item and its
 * review are published (issue 19, finding 4; docs/writes.md "Media visibility").
 *
 * - The file is looked up by its public path: the row of (store, media ID) must exist, be `published`,
 *   belong to a `published` review, and the file name must be one of the item's renditions
 *   (`thumb.jpg`, `large.jpg`, `full.jpg`, and for a video its `video.<ext>`). Anything else answers
 *   404 JSON `{"error":{"description":"Media not found"}}` with `Cache-Control: no-store`, so a pending
 *   item becomes visible as soon as it is published.
 * - Cache policy: `public, max-age=300` with ETag and Last-Modified (cheap revalidation). A rejection
 *   therefore takes effect here at once and in browsers and shared caches within five minutes, instead
 *   of the one immutable year the files were served with before. Behind Varnish (`tagged`: CACHE_PURGE_URLS is
 *   set) a public file carries its review's product scope as `xkey` tags, so the purge of the commit that
 *   rejects it drops it from the front at once too (server/http/cache-purge.ts).
 * - Every answer: `X-Content-Type-Options: nosniff`, `Access-Control-Allow-Origin: *` (widgets on the
 *   merchant's origin), `Cross-Origin-Resource-Policy: cross-origin`, and a CSP sandbox so a file opened
 *   as a document can run nothing. The Content-Type comes from the rendition, never from the bytes.
 * - Merchant preview: the admin queue shows pending items through URLs signed for one store and item
 *   (`?preview=<expiry>.<HMAC>`, mediaPreviewUrl), valid one to two hours and answered `private, no-store`.
 *   The admin session cookie is scoped to /admin and never reaches this path.
 * Range requests, conditional GETs and HEAD are answered by Express's `res.sendFile` (the `send` module).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { resolve } from "node:path";
import type { NextFunction, Request, Response } from "express";
import { surrogateKeys } from "../http/cache-purge.ts";
import { contentScope } from "../shared/content-scopes.ts";
import type { MediaRepo } from "./media.repo.ts";

/** Cache-Control of a public media file (see the module comment for why not immutable). */
export const PUBLIC_MEDIA_CACHE_CONTROL = "public, max-age=300";
/** How long a preview URL is valid at least, in ms (it is rounded up to the next full period). */
export const PREVIEW_TTL_MS = 3_600_000;

const PATH = /^\/([^/]+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(thumb\.jpg|large\.jpg|full\.jpg|video\.(?:mp4|webm|mov))$/;
const CONTENT_TYPES: Record<string, string> = { jpg: "image/jpeg", mp4: "video/mp4", webm: "video/webm", mov: "video/quicktime" };

const previewMac = (secret: string, storeId: string, mediaId: string, expiresS: number) => createHmac("sha256", secret).update(`media-preview|${storeId}|${mediaId}|${expiresS}`).digest("base64url");

/**
 * A preview URL of a media file for the store's signed-in merchant (pending or rejected items included).
 * @param url the item's public path (`/media/<store>/<id>/<file>`); `nowMs` epoch ms.
 * @returns the path with `?preview=<expiry s>.<HMAC-SHA256>`; valid for PREVIEW_TTL_MS rounded up to the next full hour,
 * so the same URL (and the browser's copy) serves a whole page view.
 */
export function mediaPreviewUrl(secret: string, storeId: string, mediaId: string, url: string, nowMs: number): string {
  const expiresS = Math.ceil((nowMs + PREVIEW_TTL_MS) / PREVIEW_TTL_MS) * (PREVIEW_TTL_MS / 1000);
  return `${url}?preview=${expiresS}.${previewMac(secret, storeId, mediaId, expiresS)}`;
}

function previewValid(secret: string, storeId: string, mediaId: string, token: unknown, nowMs: number): boolean {
  if (typeof token !== "string") return false;
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m || Number(m[1]) * 1000 < nowMs) return false;
  const want = Buffer.from(previewMac(secret, storeId, mediaId, Number(m[1])));
  const given = Buffer.from(m[2]);
  return given.length === want.length && timingSafeEqual(given, want);
}

function setCommonHeaders(res: Response): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
  res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
}

function notFound(res: Response, status = 404, description = "Media not found"): void {
  setCommonHeaders(res);
  res.setHeader("Cache-Control", "no-store");
  res
    .status(status)
    .type("application/json")
    .send(JSON.stringify({ error: { description } }));
}

/**
 * The Express handler of `/media` (mount it at that path). Dependencies: the media rows, the media root
 * directory, the installation secret that signs preview URLs, and a clock (epoch ms) for their expiry;
 * `tagged`: public files carry `xkey` tags for the HTTP cache in front (see the module comment).
 */
export function mediaHttpHandler(deps: { mediaRows: MediaRepo; mediaPath: string; secret: string; now?: () => number; tagged?: boolean }) {
  const now = deps.now ?? Date.now;
  // The row is read asynchronously; a failed read goes to Express's error handler.
  return (req: Request, res: Response, next: NextFunction): void => {
    serve(req, res, next).catch(next);
  };
  async function serve(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return notFound(res, 405, "Method not allowed: use GET");
    }
    const m = PATH.exec(req.path);
    let storeId: string;
    try {
      storeId = m ? decodeURIComponent(m[1]) : "";
    } catch {
      storeId = "";
    }
    if (!m || !storeId || storeId.includes("/") || storeId.startsWith(".")) return notFound(res);
    const [, , mediaId, file] = m;
    const row = await deps.mediaRows.fileRow(storeId, mediaId);
    const isRendition = file.endsWith(".jpg") || (row?.type === "video" && row.stream_url?.endsWith(`/${file}`));
    if (!row || !isRendition) return notFound(res);
    const isPublic = row.status === "published" && row.review_status === "published";
    if (!isPublic && !previewValid(deps.secret, storeId, mediaId, req.query.preview, now())) return notFound(res);

    setCommonHeaders(res);
    res.setHeader("Cache-Control", isPublic ? PUBLIC_MEDIA_CACHE_CONTROL : "private, no-store");
    if (isPublic && deps.tagged) res.setHeader("xkey", surrogateKeys([contentScope.product(storeId, row.product_id)]));
    res.setHeader("Content-Type", CONTENT_TYPES[file.slice(file.lastIndexOf(".") + 1)]);
    res.sendFile(resolve(deps.mediaPath, storeId, mediaId, file), { cacheControl: false, dotfiles: "deny", acceptRanges: true }, (error) => {
      if (!error) return;
      if (!res.headersSent)
        notFound(res); // the row exists but its file is gone (swept, or never written)
      else if ((error as NodeJS.ErrnoException).code !== "ECONNABORTED") next(error);
    });
  }
}

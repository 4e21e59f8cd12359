/**
 * Body reading of the storefront writes (docs/writes.md, Endpoints; their operations: writes-operations.server.ts):
 * JSON through the shared bounded reader, multipart with busboy, and the visitor of a vote (a signed
 * value, from the body's `visitorId` or the cookie).
 *
 * Multipart: fields as form fields, files in the repeatable `media` field. Each file's real type is
 * sniffed from its first bytes while it streams to a temp file (images ≤ 10 MB, videos ≤ 100 MB). Reading stops at a file's limit and at the body's
 * (MAX_MULTIPART_BYTES, also for chunked bodies): the route answers 413 and the connection closes.
 */
import busboy from "busboy";
import { parseCookie } from "cookie";
import { randomUUID } from "node:crypto";
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { ApiError, badRequest } from "../../server/contract/errors.ts";
import { REVIEW_LIMITS } from "../../server/contract/writes.ts";
import { byteLimit, checkUpload, kindOf, sniffType, type UploadedFile } from "../../server/media/media.service.ts";
import { newVisitorCookie, verifyVisitorCookie, VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE } from "../../server/reviews/visitors.ts";
import { BODY_LIMITS, bodyTooLarge, readJsonBody } from "../../server/shared/body.ts";

/** Largest JSON body accepted (bytes). */
export const MAX_JSON_BYTES = BODY_LIMITS.json;
/** Largest multipart body accepted (bytes): 5 images + 1 video + 1 MB of fields. */
export const MAX_MULTIPART_BYTES = REVIEW_LIMITS.images * REVIEW_LIMITS.imageBytes + REVIEW_LIMITS.videoBytes + 1024 * 1024;

const tooLarge = (what: string, max: number) => bodyTooLarge(max, what);

/** Read a JSON object body of at most MAX_JSON_BYTES (server/shared/body.ts). @throws ApiError 400 (not a JSON object), 413, 415. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const value = await readJsonBody(request, MAX_JSON_BYTES);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest("The request body must be a JSON object", "invalid_json");
  return value as Record<string, unknown>;
}

/**
 * Parse a multipart/form-data body. Repeated fields become arrays. Files must use the field `media`.
 * @returns fields and files (each with `sniffed` type and byte count; `data` for images, `tempPath` for videos).
 * @throws ApiError 400 (too many files or fields, a field too long, a file under another field name), 413 (body too large).
 */
export async function parseMultipart(request: Request, tempDir: string): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_MULTIPART_BYTES) throw tooLarge("The upload", MAX_MULTIPART_BYTES);
  if (!request.body) throw badRequest("The request body is empty", "invalid_body");
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  /** Temp files being written: closed (and then deleted) when the body fails half-way (client gone, malformed). */
  const open = new Set<WriteStream>();
  let failure: ApiError | null = null;
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: Object.fromEntries(request.headers),
      limits: { files: REVIEW_LIMITS.images + REVIEW_LIMITS.videos, fields: 60, fieldSize: 64 * 1024, fileSize: REVIEW_LIMITS.videoBytes + 1, parts: 80 },
    });
  } catch {
    throw badRequest("The multipart body is malformed (missing boundary)", "invalid_body");
  }

  bb.on("field", (name, value, info) => {
    if (info.valueTruncated) failure ??= badRequest(`${name} is too long`, "invalid_field");
    const prev = fields[name];
    fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  });
  bb.on("filesLimit", () => {
    failure ??= badRequest(`media: at most ${REVIEW_LIMITS.images} images and ${REVIEW_LIMITS.videos} video per review`, "too_many_media");
  });
  bb.on("fieldsLimit", () => (failure ??= badRequest("Too many form fields", "invalid_body")));
  bb.on("partsLimit", () => (failure ??= badRequest("Too many form parts", "invalid_body")));
  bb.on("file", (name, stream, info) => {
    if (name !== "media") {
      failure ??= badRequest(`Unexpected file field "${name}": send files in the repeatable "media" field`, "invalid_field");
      stream.resume();
      return;
    }
    if (!info.filename) {
      // A file input left empty: browsers still send its part, with no file name and no bytes.
      stream.resume();
      return;
    }
    const file: UploadedFile = { filename: info.filename ?? "", claimedType: (info.mimeType ?? "").toLowerCase(), bytes: 0, sniffed: null };
    files.push(file);
    let head: Buffer[] = [];
    let headBytes = 0;
    let decided = false;
    let limit: number = REVIEW_LIMITS.videoBytes;
    let out: WriteStream | null = null;
    const decide = () => {
      decided = true;
      const all = Buffer.concat(head);
      file.sniffed = sniffType(all);
      if (!file.sniffed) {
        // Not a supported image or video by its first bytes: refused (400) before a byte more is kept.
        try {
          checkUpload(file, files.indexOf(file));
        } catch (error) {
          failure ??= error as ApiError;
        }
        return;
      }
      const kind = kindOf(file.sniffed);
      limit = byteLimit(kind);
      if (file.bytes > limit) return;
      // Images and videos alike stream to a temp file: memory holds no upload, whatever its size.
      file.tempPath = join(tempDir, `${randomUUID()}.upload`);
      out = createWriteStream(file.tempPath);
      open.add(out);
      const written = new Promise<void>((resolve, reject) => {
        out!.on("finish", () => resolve());
        out!.on("error", reject);
        out!.on("close", () => open.delete(out!));
      });
      written.catch(() => {}); // awaited below unless the upload was refused (then destroyed on purpose)
      writes.push(written);
      out.write(all);
      head = [];
    };
    stream.on("data", (chunk: Buffer) => {
      if (failure) return; // refused: keep nothing more (reading stops, see pump)
      file.bytes += chunk.length;
      if (!decided) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= 16) decide();
        return;
      }
      if (file.bytes > limit) {
        // Over its limit: refuse now (413, or 400 if its bytes are not what it claims) and stop reading the body.
        if (!failure) {
          try {
            checkUpload(file, files.indexOf(file));
          } catch (error) {
            failure = error as ApiError;
          }
          failure ??= tooLarge("A file", limit);
        }
        return;
      }
      const sink = out as WriteStream | null;
      if (sink && !sink.destroyed && !sink.write(chunk)) {
        // The disk is slower than the network: hold the upload until the file catches up.
        stream.pause();
        sink.once("drain", () => stream.resume());
      }
    });
    stream.on("end", () => {
      if (!decided) decide();
      (out as WriteStream | null)?.end();
    });
  });

  const cleanup = () => {
    for (const out of open) out.destroy();
    for (const f of files) if (f.tempPath) rmSync(f.tempPath, { force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      bb.on("close", () => resolve());
      bb.on("error", () => reject(badRequest("The multipart body is malformed", "invalid_body")));
      pump(
        request.body!,
        bb,
        () => failure !== null,
        () => (failure ??= tooLarge("The upload", MAX_MULTIPART_BYTES)),
      ).then((stopped) => {
        if (stopped) resolve();
      }, reject);
    });
    // A refused upload stopped mid-file: its temp files never finish; cleanup() below destroys and deletes them.
    if (!failure) await Promise.all(writes);
  } catch (error) {
    cleanup();
    throw error;
  }
  if (failure) {
    cleanup();
    throw failure;
  }
  return { fields, files };
}

/**
 * Feed `body` to busboy with backpressure, counting bytes: stop reading (cancel the stream) once the
 * body passes MAX_MULTIPART_BYTES (chunked bodies declare no length) or `refused()` says the upload
 * was refused (a part over its limit, not an image or video, too many parts), so a refused upload is
 * never read to its end.
 * @returns true when reading stopped early, false when the whole body was fed.
 */
async function pump(body: ReadableStream<Uint8Array>, bb: busboy.Busboy, refused: () => boolean, overLimit: () => void): Promise<boolean> {
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      if (refused()) {
        await reader.cancel().catch(() => {});
        return true;
      }
      const { done, value } = await reader.read();
      if (done) {
        bb.end();
        return false;
      }
      total += value.byteLength;
      if (total > MAX_MULTIPART_BYTES) {
        overLimit();
        await reader.cancel().catch(() => {});
        return true;
      }
      if (!bb.write(value)) {
        // Wait for busboy to take more, checking now and then whether the upload was refused meanwhile.
        await new Promise<void>((resolve) => {
          const poll = setInterval(() => {
            if (refused()) done();
          }, 50);
          const done = () => {
            clearInterval(poll);
            bb.off("drain", done);
            resolve();
          };
          bb.once("drain", done);
        });
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Read a submission body: JSON or multipart. @throws ApiError 415 for other content types. */
export async function readSubmission(request: Request, tempDir: () => string): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) return parseMultipart(request, tempDir());
  if (type.startsWith("application/json")) return { fields: await readJsonObject(request), files: [] };
  throw new ApiError(415, "Content-Type must be application/json or multipart/form-data", "unsupported_media_type");
}

/**
 * The visitor of a vote (issue #19 finding 5): the body's `visitorId` when it is a value we signed (the
 * widget keeps the one a vote answered, as cross-origin requests carry no cookie); else the signed
 * cookie; else a new signed visitor, also set as the cookie. An unsigned or tampered `visitorId` is not
 * believed: it counts as a new visitor, and the per-address vote limits hold whatever IDs a client sends.
 * @returns the verified visitor ID, its signed value `token` (answered as `visitorId`), and a Set-Cookie for a new one.
 */
export function visitorOf(request: Request, secret: string, storeId: string, visitorId?: string): { visitorId: string; token: string; setCookie?: string } {
  const fromBody = verifyVisitorCookie(secret, visitorId);
  if (fromBody) return { visitorId: fromBody, token: visitorId! };
  const cookie = parseCookie(request.headers.get("cookie") ?? "")[VISITOR_COOKIE] ?? null;
  const existing = verifyVisitorCookie(secret, cookie);
  if (existing) return { visitorId: existing, token: cookie! };
  const fresh = newVisitorCookie(secret);
  const https = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const attrs = [
    `${VISITOR_COOKIE}=${fresh.value}`,
    `Path=/v1/stores/${encodeURIComponent(storeId)}`,
    `Max-Age=${VISITOR_COOKIE_MAX_AGE}`,
    "HttpOnly",
    https ? "SameSite=None; Secure" : "SameSite=Lax",
  ];
  return { visitorId: fresh.visitorId, token: fresh.value, setCookie: attrs.join("; ") };
}

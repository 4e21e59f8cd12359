/**
 * Route helpers of the storefront writes (decisions.md §3): bounded body reading (JSON or multipart
 * with busboy), the visitor of a vote (a signed value, from the body's `visitorId` or the cookie), and the three actions.
 *
 * Multipart: fields as form fields, files in the repeatable `media` field. Each file's real type is
 * sniffed from its first bytes while it streams; images are buffered in memory (≤ 10 MB each),
 * videos stream to a temp file (≤ 100 MB). Reading stops counting at the limit and the route
 * answers 413 after the body has been drained.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import busboy from "busboy";
import { randomUUID } from "node:crypto";
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, badRequest } from "../../server/contract/errors.ts";
import { importOrdersBody, REVIEW_LIMITS, voteBody } from "../../server/contract/writes.ts";
import { byteLimit, kindOf, sniffType, type UploadedFile } from "../../server/media/media.service.ts";
import { newVisitorCookie, verifyVisitorCookie, VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE } from "../../server/reviews/visitors.ts";
import { zodIssue } from "../../server/shared/zod-issue.ts";
import { handle, json } from "./api.server.ts";
import { scopeParams } from "./storefront.server.ts";

/** Largest JSON body accepted (bytes). */
export const MAX_JSON_BYTES = 256 * 1024;
/** Largest multipart body accepted (bytes): 5 images + 1 video + 1 MB of fields. */
export const MAX_MULTIPART_BYTES = REVIEW_LIMITS.images * REVIEW_LIMITS.imageBytes + REVIEW_LIMITS.videoBytes + 1024 * 1024;

const tooLarge = (what: string, max: number) => new ApiError(413, `${what} is too large: at most ${Math.round(max / 1024)} KB`, "body_too_large");

/** Read a JSON object body of at most MAX_JSON_BYTES. @throws ApiError 400 (not a JSON object), 413. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_JSON_BYTES) throw tooLarge("The request body", MAX_JSON_BYTES);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) throw tooLarge("The request body", MAX_JSON_BYTES);
      chunks.push(chunk);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw badRequest("The request body must be a JSON object", "invalid_json");
  }
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
    const file: UploadedFile = { filename: info.filename ?? "", claimedType: (info.mimeType ?? "").toLowerCase(), bytes: 0, sniffed: null };
    files.push(file);
    let head: Buffer[] = [];
    let headBytes = 0;
    let decided = false;
    let limit: number = REVIEW_LIMITS.videoBytes;
    let memory: Buffer[] | null = null;
    let out: WriteStream | null = null;
    const decide = () => {
      decided = true;
      const all = Buffer.concat(head);
      file.sniffed = sniffType(all);
      const kind = file.sniffed ? kindOf(file.sniffed) : file.claimedType.startsWith("video/") ? "video" : "image";
      limit = byteLimit(kind);
      if (file.bytes > limit) return;
      if (kind === "video") {
        file.tempPath = join(tempDir, `${randomUUID()}.upload`);
        out = createWriteStream(file.tempPath);
        open.add(out);
        writes.push(new Promise((resolve, reject) => { out!.on("finish", () => resolve()); out!.on("error", reject); out!.on("close", () => open.delete(out!)); }));
        out.write(all);
      } else memory = [all];
      head = [];
    };
    stream.on("data", (chunk: Buffer) => {
      file.bytes += chunk.length;
      if (!decided) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= 16) decide();
        return;
      }
      if (file.bytes > limit) {
        memory = null; // over the limit: keep draining, keep counting, store nothing
        return;
      }
      if (out) out.write(chunk);
      else memory?.push(chunk);
    });
    stream.on("end", () => {
      if (!decided) decide();
      if (memory && file.bytes <= limit) file.data = Buffer.concat(memory);
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
      Readable.fromWeb(request.body as unknown as NodeReadableStream).on("error", reject).pipe(bb);
    });
    await Promise.all(writes);
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

/** Read a submission body: JSON or multipart. @throws ApiError 415 for other content types. */
export async function readSubmission(request: Request, tempDir: () => string): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) return parseMultipart(request, tempDir());
  if (type.startsWith("application/json")) return { fields: await readJsonObject(request), files: [] };
  throw new ApiError(415, "Content-Type must be application/json or multipart/form-data", "unsupported_media_type");
}

/**
 * `handle()` for write actions: an error answer also closes the connection, because the request
 * body may be left unread (a 413 stops reading) and the socket must not be reused for the next request.
 */
function handleWrite<A>(fn: (args: A) => Promise<Response>): (args: A) => Promise<Response> {
  const wrapped = handle(fn);
  return async (args: A) => {
    const response = await wrapped(args);
    if (response.status >= 400) response.headers.set("connection", "close");
    return response;
  };
}

const methodNotAllowed = () => new ApiError(405, "Method not allowed: use POST", "method_not_allowed");

/** POST …/products/{key}/reviews (decisions.md §3) → 201 `{ review: { reviewId, status } }`. */
export const submitReviewAction = handleWrite(async ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") throw methodNotAllowed();
  const { services } = context;
  const input = await readSubmission(request, () => services.media.tempDir());
  try {
    const body = await services.submissions.submitReview(scopeParams(params), { ...input, clientIp: context.clientIp ?? "unknown" });
    return json(request, body, { status: 201 });
  } finally {
    services.submissions.cleanup(input.files);
  }
});

/** POST …/products/{key}/questions (decisions.md §3) → 201 `{ question: { questionId, status: "pending" } }`. */
export const askQuestionAction = handleWrite(async ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") throw methodNotAllowed();
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/json")) throw new ApiError(415, "Content-Type must be application/json", "unsupported_media_type");
  const fields = await readJsonObject(request);
  return json(request, context.services.questions.askQuestion(scopeParams(params), fields, context.clientIp ?? "unknown"), { status: 201 });
});

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
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
  const cookie = cookieValue(request, VISITOR_COOKIE);
  const existing = verifyVisitorCookie(secret, cookie);
  if (existing) return { visitorId: existing, token: cookie! };
  const fresh = newVisitorCookie(secret);
  const https = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const attrs = [`${VISITOR_COOKIE}=${fresh.value}`, `Path=/v1/stores/${encodeURIComponent(storeId)}`, `Max-Age=${VISITOR_COOKIE_MAX_AGE}`, "HttpOnly", https ? "SameSite=None; Secure" : "SameSite=Lax"];
  return { visitorId: fresh.visitorId, token: fresh.value, setCookie: attrs.join("; ") };
}

/**
 * POST /reviews/{reviewId}/votes (decisions.md §3) → 200 `{ helpfulCount, unhelpfulCount, visitorId }`, `visitorId`
 * being the signed visitor value to send with the next vote. 429 over the per-address limits (docs/writes.md).
 */
export const voteAction = handleWrite(async ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") throw methodNotAllowed();
  const parsed = voteBody.safeParse(await readJsonObject(request));
  if (!parsed.success) throw badRequest(zodIssue(parsed.error), "invalid_field");
  const storeId = params.storeId ?? "";
  const { visitorId, token, setCookie } = visitorOf(request, context.services.visitorSecret, storeId, parsed.data.visitorId);
  const counts = context.services.votes.vote(storeId, params.reviewId ?? "", parsed.data, visitorId, context.clientIp ?? "unknown");
  return json(request, { ...counts, visitorId: token }, { headers: setCookie ? { "set-cookie": setCookie } : undefined });
});

/** GET on a POST-only resource: 405 JSON. */
export const postOnlyLoader = handle(async (_args: LoaderFunctionArgs) => {
  throw methodNotAllowed();
});

/**
 * POST /enterprise/orders (Basic auth, decisions.md §5 credentials) `{ orders: [{ orderId, productId, email, dateCreated? }] }`
 * → 200 `{ inserted }`. Existing (order, product) lines are kept; the product ID is the platform's, without prefix.
 */
export const importOrdersAction = handle(async ({ request, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") throw methodNotAllowed();
  const storeId = context.services.apiKeys.authenticateBasic(request.headers.get("authorization"));
  const parsed = importOrdersBody.safeParse(await readJsonObject(request));
  if (!parsed.success) throw badRequest(zodIssue(parsed.error), "invalid_field");
  const inserted = context.services.orders.importOrders(storeId, parsed.data.orders.map((o) => ({
    orderId: o.orderId, productId: o.productId, email: o.email, orderedMs: o.dateCreated ? Date.parse(o.dateCreated) : Date.now(), source: "enterprise-api",
  })));
  return json(request, { inserted });
});

/**
 * Export files uploaded in the admin for a review-app import (app-import.ts; page
 * admin.stores.$storeId.import_.apps.tsx): the multipart body streams (busboy) to a private temporary file,
 * never whole in memory; the admin's preview (a dry run) and its confirmation then read that file, named
 * by a random upload token and the store. Uploads older than UPLOAD_TTL_MS are deleted on the next upload.
 */
import busboy from "busboy";
import { randomUUID } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ApiError, badRequest } from "../contract/errors.ts";

/** Largest export file accepted (bytes): 150 MB, several hundred thousand reviews (under the server-wide MAX_REQUEST_BYTES of 160 MB). */
export const MAX_EXPORT_BYTES = 150 * 1024 * 1024;
/** How long an uploaded file waits for its confirmation (ms). */
export const UPLOAD_TTL_MS = 24 * 3_600_000;
const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const uploadDir = (): string => {
  const dir = join(tmpdir(), "chorus-app-imports");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};

/** The file of an upload token of a store, or null when the token is malformed or the upload is gone. */
export function uploadPath(storeId: string, token: string): string | null {
  if (!TOKEN.test(token) || !/^[A-Za-z0-9_-]{1,100}$/.test(storeId)) return null;
  const path = join(uploadDir(), `${storeId}.${token}.csv`);
  return existsSync(path) ? path : null;
}

/** Delete an upload (no-op when it is gone). */
export function removeUpload(storeId: string, token: string): void {
  const path = uploadPath(storeId, token);
  if (path) rmSync(path, { force: true });
}

function sweep(nowMs: number): void {
  const dir = uploadDir();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (nowMs - statSync(path).mtimeMs > UPLOAD_TTL_MS) rmSync(path, { force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Receive a multipart form with one file field `file` (the export) and text fields, streaming the file
 * to its temporary place. @returns the text fields and the upload token (null when no file was chosen).
 * @throws ApiError 413 (over MAX_EXPORT_BYTES), 415 (not multipart), 400 (malformed body, a binary file).
 */
export async function receiveUpload(request: Request, storeId: string): Promise<{ fields: Record<string, string>; token: string | null; fileName: string }> {
  if (!/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) throw new ApiError(415, "Send the form with its file (multipart/form-data)", "unsupported_media_type");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_EXPORT_BYTES + 1024 * 1024)
    throw new ApiError(413, `The file is too large: at most ${MAX_EXPORT_BYTES / 1024 / 1024} MB`, "body_too_large");
  if (!request.body) throw badRequest("The request body is empty", "invalid_body");
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(storeId)) throw badRequest("Invalid store", "invalid_store");
  sweep(Date.now());
  const fields: Record<string, string> = {};
  let token: string | null = null;
  let path: string | null = null;
  let fileName = "";
  let failure: ApiError | null = null;
  const writes: Promise<void>[] = [];
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: Object.fromEntries(request.headers), limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: MAX_EXPORT_BYTES } });
  } catch {
    throw badRequest("The form body is malformed (missing boundary)", "invalid_body");
  }
  bb.on("field", (name, value) => (fields[name] = value));
  bb.on("file", (name, stream, info) => {
    if (name !== "file" || !info.filename || token) {
      stream.resume();
      return;
    }
    token = randomUUID();
    fileName = info.filename;
    path = join(uploadDir(), `${storeId}.${token}.csv`);
    stream.on("limit", () => (failure ??= new ApiError(413, `The file is too large: at most ${MAX_EXPORT_BYTES / 1024 / 1024} MB`, "body_too_large")));
    writes.push(pipeline(stream, createWriteStream(path, { mode: 0o600 })));
  });
  try {
    await pipeline(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), bb);
    await Promise.all(writes);
  } catch {
    failure ??= badRequest("The form body is malformed or was cut off: send the file again", "invalid_body");
  }
  if (!failure && path) {
    // A CSV export is text: a NUL byte in its first 8 KB means another kind of file (a spreadsheet, an image).
    const handle = await open(path, "r");
    try {
      const head = Buffer.alloc(8192);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (bytesRead === 0) failure = badRequest("The file is empty: choose the CSV export of your review app", "invalid_file");
      else if (head.subarray(0, bytesRead).includes(0)) failure = badRequest("This is not a CSV file (it has binary content): export your reviews as CSV and upload that file", "invalid_file");
    } finally {
      await handle.close();
    }
  }
  if (failure) {
    if (path) rmSync(path, { force: true });
    throw failure;
  }
  return { fields, token, fileName };
}

/** Keep the report of a confirmed import for its page (JSON next to the upload's place; the upload itself is deleted). */
export function saveResult(storeId: string, token: string, result: unknown): void {
  if (!TOKEN.test(token) || !/^[A-Za-z0-9_-]{1,100}$/.test(storeId)) return;
  writeFileSync(join(uploadDir(), `${storeId}.${token}.result.json`), JSON.stringify(result), { mode: 0o600 });
}

/** The kept report of a confirmed import, or null. */
export function readResult<T>(storeId: string, token: string): T | null {
  if (!TOKEN.test(token) || !/^[A-Za-z0-9_-]{1,100}$/.test(storeId)) return null;
  try {
    return JSON.parse(readFileSync(join(uploadDir(), `${storeId}.${token}.result.json`), "utf8")) as T;
  } catch {
    return null;
  }
}

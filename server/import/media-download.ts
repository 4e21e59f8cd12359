/**
 * Download one review photo or video named in an import file, bounded in bytes and time, into an
 * UploadedFile for the media pipeline (media.service.ts: sniff, probe, re-encode). Used by app-import.ts.
 *
 * Rules (docs/import.md "Photo and video downloads"): the request goes through the outgoing-request guard
 * (server/shared/outgoing-request.ts): http(s) only, every address of the host public unicast (loopback only
 * with `allowLoopback`, ALLOW_LOOPBACK_REQUESTS=1), the connection made to the addresses checked; at most
 * `maxRedirects` redirects, each checked again; the answer must be 2xx; more than `maxBytes` (declared or
 * streamed) or more than `timeoutMs` in all aborts the download. Errors are `MediaDownloadError` with a
 * message for the report.
 */
import { basename } from "node:path";
import { sniffType, type UploadedFile } from "../media/media.service.ts";
import { guardedFetch, isOutgoingRequestError, type Resolve } from "../shared/outgoing-request.ts";

export class MediaDownloadError extends Error {}

export type DownloadOptions = {
  maxBytes: number;
  timeoutMs: number;
  /** ALLOW_LOOPBACK_REQUESTS=1 (services.allowLoopbackRequests): loopback hosts may be fetched. */
  allowLoopback: boolean;
  /** Default 3. */
  maxRedirects?: number;
  /** DNS resolver (tests); default the system's. */
  resolve?: Resolve;
};

/**
 * Fetch `url` into memory. @returns an UploadedFile (bytes in `data`, `sniffed` from the first bytes).
 * @throws MediaDownloadError (refused host, name not found, HTTP status, too large, timeout, network error).
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<UploadedFile> {
  let answer;
  try {
    answer = await guardedFetch(url, {
      allowLoopback: options.allowLoopback,
      resolve: options.resolve,
      headers: { accept: "image/*,video/*" },
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
      redirects: options.maxRedirects ?? 3,
    });
  } catch (error) {
    if (isOutgoingRequestError(error)) throw new MediaDownloadError(error.kind === "refused" ? `refused: ${error.message}` : error.message);
    throw new MediaDownloadError(error instanceof Error ? error.message : String(error));
  }
  if (answer.status < 200 || answer.status >= 300) throw new MediaDownloadError(`HTTP ${answer.status}`);
  const data = answer.body;
  return { filename: basename(new URL(answer.url).pathname) || "media", claimedType: "", bytes: data.length, data, sniffed: sniffType(data.subarray(0, 64)) };
}

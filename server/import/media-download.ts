/**
 * Download one review photo or video named in an import file, bounded in bytes and time, into an
 * UploadedFile for the media pipeline (media.service.ts: sniff, probe, re-encode). Used by app-import.ts.
 *
 * Rules: http(s) only; at most `maxRedirects` redirects, each target checked again; unless
 * `allowPrivateHosts`, a host that resolves to a loopback, private, link-local or otherwise non-public
 * address is refused (the admin upload: a merchant's file must not make the server fetch internal
 * services); the answer must be 2xx; more than `maxBytes` (declared or streamed) or more than
 * `timeoutMs` in all aborts the download. Errors are `MediaDownloadError` with a message for the report.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { basename } from "node:path";
import { sniffType, type UploadedFile } from "../media/media.service.ts";

export class MediaDownloadError extends Error {}

export type DownloadOptions = { maxBytes: number; timeoutMs: number; allowPrivateHosts: boolean; maxRedirects?: number };

/** Whether an IP address is outside the public internet (loopback, private, link-local, CGNAT, multicast, unspecified, ULA). */
export function isPrivateAddress(address: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31)
      || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
  }
  const v6 = address.toLowerCase();
  return v6 === "::" || v6 === "::1" || v6.startsWith("fc") || v6.startsWith("fd") || v6.startsWith("fe8") || v6.startsWith("fe9")
    || v6.startsWith("fea") || v6.startsWith("feb") || v6.startsWith("ff");
}

async function checkHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new MediaDownloadError(`not an http(s) URL`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new MediaDownloadError(`host ${host} not found`);
  }
  if (addresses.some(isPrivateAddress)) throw new MediaDownloadError(`host ${host} is not on the public internet`);
}

/**
 * Fetch `url` into memory. @returns an UploadedFile (bytes in `data`, `sniffed` from the first bytes).
 * @throws MediaDownloadError (bad URL or host, HTTP status, too large, timeout, network error).
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<UploadedFile> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      await checkHost(current, options.allowPrivateHosts);
      const response = await fetch(current, { redirect: "manual", signal, headers: { accept: "image/*,video/*" } });
      if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
        await response.body?.cancel();
        if (hop >= (options.maxRedirects ?? 3)) throw new MediaDownloadError("too many redirects");
        current = new URL(response.headers.get("location")!, current);
        continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new MediaDownloadError(`HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get("content-length") ?? NaN);
      if (declared > options.maxBytes) {
        await response.body.cancel();
        throw new MediaDownloadError(`larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`);
      }
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (bytes > options.maxBytes) {
          await reader.cancel();
          throw new MediaDownloadError(`larger than ${Math.round(options.maxBytes / 1024 / 1024)} MB`);
        }
        chunks.push(value);
      }
      const data = Buffer.concat(chunks);
      return { filename: basename(current.pathname) || "media", claimedType: "", bytes, data, sniffed: sniffType(data.subarray(0, 64)) };
    }
  } catch (error) {
    if (error instanceof MediaDownloadError) throw error;
    if (signal.aborted) throw new MediaDownloadError(`no complete answer within ${options.timeoutMs >= 1000 ? `${options.timeoutMs / 1000} s` : `${options.timeoutMs} ms`}`);
    throw new MediaDownloadError(error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));
  }
}

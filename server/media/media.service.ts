/**
 * Review media pipeline (issue 3 item 2, issue 19 findings 4 and 13): sniff the real type from the bytes,
 * probe it (image: header dimensions against MAX_INPUT_PIXELS before any decoding; video: the whole
 * container's structure, media-probe.ts), decode and re-encode images with sharp (which drops every
 * metadata block: EXIF, GPS, XMP, ICC comments), write three renditions, and store videos as uploaded
 * with a placeholder poster (no video decoder is bundled).
 *
 * Files live under `mediaPath/<storeId>/<mediaId>/` and are served by media-http.ts at
 * `/media/<storeId>/<mediaId>/<file>`, only while the item and its review are published.
 *
 * Errors: ApiError 400 (empty, not the claimed type, not a valid container, undecodable, too many files),
 * 413 (too many bytes, too many pixels).
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp, { type Metadata } from "sharp";
import { ApiError, badRequest } from "../contract/errors.ts";
import { REVIEW_LIMITS } from "../contract/writes.ts";
import { probeVideo } from "./media-probe.ts";

import type { SniffedType, UploadedFile } from "./uploaded-file.ts";

export type { SniffedType, UploadedFile } from "./uploaded-file.ts";
export type MediaKind = "image" | "video";

/** A processed upload, ready to be written. */
export type PreparedMedia = {
  mediaId: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
  bytes: number;
  thumb: Buffer;
  large: Buffer;
  full: Buffer;
  video?: { tempPath?: string; data?: Buffer; ext: string };
};

/** A written media item: URLs (paths below the server origin) for review_media. */
export type StoredMedia = PreparedMedia & { thumbnailUrl: string; largeUrl: string; fullSizeUrl: string; streamUrl: string | null };

const IMAGE_TYPES: SniffedType[] = ["jpeg", "png", "gif", "webp", "avif", "heif"];
const VIDEO_EXT: Record<string, string> = { mp4: "mp4", webm: "webm", quicktime: "mov" };
/**
 * Decompression-bomb and CPU guard: images above this many pixels (width × height of one frame) are
 * refused with 413 `media_dimensions` from their header, before any decoding. 40 MP holds the default
 * output of current phone cameras (12–24 MP) with room to spare; full-sensor modes (48, 50, 200 MP)
 * are refused with a message asking for a smaller copy. Measured on this machine (one core, plain
 * PNGs): five 60-MP images cost ~1 s of CPU through the renditions, five 40-MP ~0.45 s (docs/writes.md).
 */
export const MAX_INPUT_PIXELS = 40_000_000;
export const RENDITIONS = { thumb: 120, large: 1200, full: 2400 } as const;

/**
 * The real type of a file from its first bytes (magic numbers), or null when it is neither a
 * supported image nor a supported video. Needs at least 12 bytes to tell ISO-BMFF brands apart.
 */
export function sniffType(head: Uint8Array): SniffedType | null {
  const b = head;
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 8 && b[0] === 0x89 && ascii(1, 4) === "PNG" && b[4] === 0x0d && b[5] === 0x0a) return "png";
  if (b.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "gif";
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "webm";
  if (b.length >= 12 && ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (brand === "avif" || brand === "avis") return "avif";
    if (["heic", "heix", "heim", "heis", "mif1", "msf1"].includes(brand)) return "heif";
    if (brand === "qt  ") return "quicktime";
    return "mp4";
  }
  return null;
}

export const kindOf = (t: SniffedType): MediaKind => (IMAGE_TYPES.includes(t) ? "image" : "video");

/** Byte limit of a file of this kind (REVIEW_LIMITS). */
export const byteLimit = (kind: MediaKind): number => (kind === "image" ? REVIEW_LIMITS.imageBytes : REVIEW_LIMITS.videoBytes);

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

/**
 * Check an upload's type and size. Rules (docs/writes.md): empty → 400; bytes that are no supported
 * image or video → 400; an image claimed as a video or the reverse → 400; a supported image under
 * another image type's name (a PNG named .jpg) is accepted as what its bytes are; too large → 413.
 * @returns the real kind.
 */
export function checkUpload(file: UploadedFile, index: number): MediaKind {
  const name = `media[${index}] (${file.filename || "unnamed"})`;
  if (file.bytes === 0) throw badRequest(`${name} is empty (0 bytes)`, "media_empty");
  if (!file.sniffed) {
    throw badRequest(
      /^(image|video)\//.test(file.claimedType)
        ? `${name} is not a ${file.claimedType} file: its bytes are not a supported image (JPEG, PNG, GIF, WebP, AVIF) or video (MP4, WebM, MOV)`
        : `${name} is not a supported image (JPEG, PNG, GIF, WebP, AVIF) or video (MP4, WebM, MOV)`,
      "media_type",
    );
  }
  const kind = kindOf(file.sniffed);
  const claimedKind = file.claimedType.startsWith("image/") ? "image" : file.claimedType.startsWith("video/") ? "video" : null;
  if (claimedKind && claimedKind !== kind) throw badRequest(`${name} claims to be ${file.claimedType} but its bytes are ${kind === "image" ? "an image" : "a video"}`, "media_type");
  if (file.bytes > byteLimit(kind)) throw new ApiError(413, `${name} is too large: ${kind}s may be at most ${mb(byteLimit(kind))}`, "media_too_large");
  return kind;
}

/**
 * Probe a checked upload before anything is decoded: an image's header dimensions against
 * MAX_INPUT_PIXELS (sharp reads only the header), a video's container (media-probe.ts).
 * @throws ApiError 413 `media_dimensions` (too many pixels), 400 `media_type` (not a valid container),
 * 400 `media_undecodable` (an image header sharp cannot read).
 */
export async function probeUpload(file: UploadedFile, kind: MediaKind, index: number): Promise<void> {
  if (kind === "video") return probeVideo(file, index);
  let meta: Metadata;
  try {
    meta = await sharp(file.data ?? file.tempPath!, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw badRequest(`media[${index}] (${file.filename || "unnamed"}) could not be decoded as an image`, "media_undecodable");
  }
  const pixels = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) throw tooManyPixels(index, meta.width ?? 0, meta.pageHeight ?? meta.height ?? 0);
}

const tooManyPixels = (index: number, width?: number, height?: number) =>
  new ApiError(
    413,
    `media[${index}] is too large to process: ${width && height ? `${width}×${height} is ${((width * height) / 1e6).toFixed(1)} megapixels, ` : ""}at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted (send a smaller copy)`,
    "media_dimensions",
  );

type Poster = { thumb: Buffer; large: Buffer };
/** Render the placeholder poster of videos (a dark frame with a play symbol). */
function renderPoster(): Promise<Poster> {
  return (async () => {
    const svg = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2b2f3a"/><stop offset="1" stop-color="#111318"/></linearGradient></defs><rect width="1200" height="675" fill="url(#g)"/><circle cx="600" cy="337" r="110" fill="#ffffff" fill-opacity="0.9"/><path d="M565 272 L565 402 L670 337 Z" fill="#111318"/></svg>`,
    );
    const large = await sharp(svg).jpeg({ quality: 80 }).toBuffer();
    const thumb = await sharp(svg).resize(RENDITIONS.thumb, RENDITIONS.thumb, { fit: "cover" }).jpeg({ quality: 80 }).toBuffer();
    return { thumb, large };
  })();
}

/**
 * Decode and re-encode one checked upload into renditions: thumbnail 120×120 (cover), large
 * (longest side ≤ 1200 px), full size (≤ 2400 px), all baseline JPEG without metadata, EXIF
 * orientation applied first. Videos get the placeholder poster. @throws ApiError 400 when undecodable.
 */
export async function prepareMedia(file: UploadedFile, kind: MediaKind, index: number, poster: () => Promise<Poster> = renderPoster): Promise<PreparedMedia> {
  const mediaId = randomUUID();
  if (kind === "video") {
    const p = await poster();
    return {
      mediaId,
      kind,
      width: null,
      height: null,
      bytes: file.bytes,
      thumb: p.thumb,
      large: p.large,
      full: p.large,
      video: { tempPath: file.tempPath, data: file.data, ext: VIDEO_EXT[file.sniffed!] ?? "mp4" },
    };
  }
  try {
    // Decode once, at most to the full-size rendition; the two smaller renditions are made from those pixels.
    const { data: pixels, info } = await sharp(file.data ?? file.tempPath!, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .flatten({ background: "#ffffff" })
      .resize(RENDITIONS.full, RENDITIONS.full, { fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const base = () => sharp(pixels, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const [thumb, large, full] = await Promise.all([
      base().resize(RENDITIONS.thumb, RENDITIONS.thumb, { fit: "cover" }).jpeg({ quality: 80 }).toBuffer(),
      base().resize(RENDITIONS.large, RENDITIONS.large, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 82 }).toBuffer(),
      base().jpeg({ quality: 85 }).toBuffer(),
    ]);
    return { mediaId, kind, width: info.width, height: info.height, bytes: file.bytes, thumb, large, full };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels(index);
    throw badRequest(`media[${index}] (${file.filename || "unnamed"}) could not be decoded as an image`, "media_undecodable");
  }
}

/** The media store of one installation, rooted at `mediaPath`. */
export function mediaStore(mediaPath: string) {
  const dirOf = (storeId: string, mediaId: string) => join(mediaPath, storeId, mediaId);
  const urlOf = (storeId: string, mediaId: string, file: string) => `/media/${encodeURIComponent(storeId)}/${mediaId}/${file}`;

  /** Delete the files of media items (missing ones are ignored). */
  function remove(storeId: string, mediaIds: string[]): void {
    for (const id of mediaIds) rmSync(dirOf(storeId, id), { recursive: true, force: true });
  }

  let poster: Promise<Poster> | undefined;
  return {
    root: mediaPath,
    /** prepareMedia with this store's cached placeholder poster. */
    prepare(file: UploadedFile, kind: MediaKind, index: number): Promise<PreparedMedia> {
      return prepareMedia(file, kind, index, () => (poster ??= renderPoster()));
    },
    /** A directory for upload temp files (videos stream there before they are checked). */
    tempDir(): string {
      const dir = join(mediaPath, ".uploads");
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    /**
     * Write prepared media of a store. All or nothing: when any write fails, the files already
     * written are deleted and the error is rethrown. @returns the items with their URLs.
     */
    write(storeId: string, items: PreparedMedia[]): StoredMedia[] {
      const out: StoredMedia[] = [];
      try {
        for (const m of items) {
          const dir = dirOf(storeId, m.mediaId);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, "thumb.jpg"), m.thumb);
          writeFileSync(join(dir, "large.jpg"), m.large);
          writeFileSync(join(dir, "full.jpg"), m.full);
          let streamUrl: string | null = null;
          if (m.video) {
            const file = `video.${m.video.ext}`;
            if (m.video.tempPath) copyFileSync(m.video.tempPath, join(dir, file));
            else writeFileSync(join(dir, file), m.video.data!);
            streamUrl = urlOf(storeId, m.mediaId, file);
          }
          out.push({ ...m, thumbnailUrl: urlOf(storeId, m.mediaId, "thumb.jpg"), largeUrl: urlOf(storeId, m.mediaId, "large.jpg"), fullSizeUrl: urlOf(storeId, m.mediaId, "full.jpg"), streamUrl });
        }
        return out;
      } catch (error) {
        remove(
          storeId,
          items.map((m) => m.mediaId),
        );
        throw error;
      }
    },
    remove,
  };
}
export type MediaStore = ReturnType<typeof mediaStore>;

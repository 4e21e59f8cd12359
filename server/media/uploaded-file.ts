/**
 * An uploaded media file, as the multipart parser (app/lib/writes.server.ts) or the import's download
 * (server/import/media-download.ts) hands it to the media pipeline: media.service.ts checks and prepares it,
 * media-probe.ts walks a video's container. Types only, so both import it without importing each other.
 */

/** The type read from the first bytes (`sniffType` in media.service.ts), whatever the upload claims. */
export type SniffedType = "jpeg" | "png" | "gif" | "webp" | "avif" | "heif" | "mp4" | "webm" | "quicktime";

/** An uploaded file: bytes in memory (images) or in a temp file (videos); `bytes` is its size in bytes. */
export type UploadedFile = { filename: string; claimedType: string; bytes: number; data?: Buffer; tempPath?: string; sniffed: SniffedType | null };

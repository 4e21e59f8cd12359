/**
 * An in-memory cache of API GET responses, in front of Remix (decision 0009).
 *
 * Correctness rule: an entry is served only while the caller's `isFresh` says so: its content stamp was
 * read *before* the response was computed, and no commit since (by this process or another) changed a
 * content scope the answer read (server/db/content-scopes.ts; an answer that names no scopes is stale
 * after any commit).
 *
 * Storage is `lru-cache`: bounded by entry count and by bytes (`maxSize`), least recently used first.
 * An entry's size is its body, its compressed copies and an estimate of the heap its key, headers and
 * objects take (`entrySize`), so the byte limit bounds what the cache keeps alive. Bodies and copies are
 * plain Buffers that own exactly their bytes (a view into a larger ArrayBuffer is copied, so a 300-byte
 * body never keeps an 8 KB pool chunk or a 16 KB zlib buffer alive); an evicted one is freed by the garbage
 * collector once no response still sends it.
 */
import { LRUCache } from "lru-cache";
import type { ContentStamp } from "../db/content-scopes.ts";
import { compress, type ContentCoding } from "./encoding.ts";

export type CachedResponse = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string | null;
  /** The committed data seen before the answer was computed. */
  stamp: ContentStamp;
  /** The content scopes the answer read (its route's declaration), or null: it may have read anything. */
  scopes: readonly string[] | null;
  /** Epoch ms after which the entry is not served (e.g. its Bearer token's expiry); none = no time limit. */
  expiresMs?: number;
  /** Compressed copies of `body` by content coding, made once the entry is served again (encoding.ts). */
  encoded?: Partial<Record<ContentCoding, Buffer>>;
  /** Codings due to be compressed (so one is not scheduled twice). */
  compressing?: Set<ContentCoding>;
};

/**
 * Heap bytes an entry takes besides its bytes and strings: the entry and headers objects and arrays, the
 * Buffer objects, the stamp, and the cache's Map entry for its key. Measured: 10,000 entries of a 100-byte
 * body, five headers and a 96-character key took 1,146 bytes of live heap each, about 830 beyond their
 * bytes and strings; rounded up. (lru-cache also allocates its slots for `maxEntries` up front: 1.45 MiB
 * for 50,000, not counted.)
 */
export const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * The bytes `entry` is counted as under `key`: body and compressed copies, two bytes per character of the
 * key and the header strings (V8 keeps a string with any non-Latin-1 character at two bytes each), and
 * ENTRY_OVERHEAD_BYTES.
 */
export function entrySize(key: string, entry: CachedResponse): number {
  let size = ENTRY_OVERHEAD_BYTES + entry.body.length + 2 * key.length;
  for (const copy of Object.values(entry.encoded ?? {})) size += copy.length;
  for (const [name, value] of entry.headers) size += 2 * (name.length + value.length);
  return size;
}

/** `bytes` in a Buffer of exactly their length (a copy when they are a view into a larger ArrayBuffer). */
function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse>;
  readonly maxEntries: number;
  readonly maxBytes: number;

  /**
   * @param maxEntries entry limit
   * @param maxBytes limit of the bytes entries are counted as (`entrySize`: bodies, compressed copies, keys,
   *   headers and a per-entry overhead); default 256 MiB, about 10,000 reviews pages of 17.5 KB with
   *   their 5.8 KB brotli copies. An entry larger than this is not kept.
   */
  constructor(maxEntries = 50_000, maxBytes = 256 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.entries = new LRUCache<string, CachedResponse>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (entry, key) => entrySize(key, entry) });
  }

  /**
   * The entry for `key` if `isFresh(entry)` and it has not expired at `nowMs` (epoch ms); it becomes the
   * most recently used. A stale or expired entry is dropped and undefined returned.
   */
  get(key: string, isFresh: (entry: CachedResponse) => boolean, nowMs = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!isFresh(entry) || (entry.expiresMs !== undefined && nowMs >= entry.expiresMs)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /**
   * Store `entry` under `key`, replacing any entry there, evicting least recently used entries to stay
   * within both limits. Its `body` is replaced by a Buffer of its own when it was a view into a larger one.
   * An entry larger than `maxBytes` is not kept (and any older entry under `key` is dropped).
   */
  set(key: string, entry: CachedResponse): void {
    entry.body = ownBytes(entry.body);
    this.entries.set(key, entry);
  }

  /**
   * Compress `entry` (stored under `key`) with `coding` once the current turn of the event loop is over
   * (`setImmediate`: after the response being written), unless it is already compressed or due. Skipped if
   * the entry was replaced or dropped meanwhile. The copy is counted in the entry's size while it is cached
   * (recounting it may evict least recently used entries; an entry that no longer fits at all is dropped).
   */
  compressLater(key: string, entry: CachedResponse, coding: ContentCoding): void {
    if (entry.encoded?.[coding] || entry.compressing?.has(coding)) return;
    (entry.compressing ??= new Set()).add(coding);
    setImmediate(() => {
      entry.compressing!.delete(coding);
      if (this.entries.peek(key) !== entry) return;
      (entry.encoded ??= {})[coding] = ownBytes(compress(entry.body, coding));
      // lru-cache counts a size when a key gets a new value, not when the same value is set again: re-insert it.
      this.entries.delete(key);
      this.entries.set(key, entry);
    });
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes the entries held are counted as (`entrySize`); at most `maxBytes`. */
  get byteSize(): number {
    return this.entries.calculatedSize;
  }
}

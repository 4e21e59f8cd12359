/**
 * An in-memory cache of public storefront GET responses, in front of Remix.
 *
 * Correctness rule: an entry is served only while `contentVersion()` equals the version read
 * *before* the response was computed, so any commit (by this process or another) invalidates
 * everything computed before it. Bounded by entry count and total bytes; the least recently used
 * entry goes first (approximately: a hit moves an entry to the front only once it is in the older half).
 */
import { compress, type ContentCoding } from "./encoding.ts";

export type CachedResponse = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string | null;
  version: number;
  /** Epoch ms after which the entry is not served (e.g. its Bearer token's expiry); none = no time limit. */
  expiresMs?: number;
  /** Compressed copies of `body` by content coding, made once the entry is served again (encoding.ts). */
  encoded?: Partial<Record<ContentCoding, Buffer>>;
  /** Codings being compressed now (so one is not started twice). */
  compressing?: Set<ContentCoding>;
};

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  /** Insertion counter, and the counter's value when each entry was (re)inserted. */
  private insertions = 0;
  private readonly positions = new WeakMap<CachedResponse, number>();
  private bytes = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;

  /**
   * @param maxEntries entry limit (each entry also costs ~1 KB of heap for its key and headers)
   * @param maxBytes limit of body bytes plus compressed copies (default 256 MiB: about 11,000 reviews pages of 17.5 KB with their 5.8 KB brotli copies)
   */
  constructor(maxEntries = 50_000, maxBytes = 256 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  /** The entry for `key` if it was computed at `version` and has not expired at `nowMs`; stale entries are dropped. */
  get(key: string, version: number, nowMs = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || (entry.expiresMs !== undefined && nowMs >= entry.expiresMs)) {
      this.delete(key);
      return undefined;
    }
    // Map keeps insertion order, so re-inserting makes this the most recently used entry. Only an entry in
    // the older half is moved: a delete + set on every hit of a full 20,000-entry Map cost 62 µs per hit
    // (V8 re-hashes the table), 0.08 µs without; an entry in the newer half is not near eviction anyway.
    if (this.insertions - (this.positions.get(entry) ?? 0) >= this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.positions.set(entry, ++this.insertions);
    }
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    if (entry.body.length > this.maxBytes / 16) return;
    this.entries.set(key, entry);
    this.positions.set(entry, ++this.insertions);
    this.bytes += entry.body.length;
    this.evictOverLimits();
  }

  /**
   * Start compressing `entry` (stored under `key`) with `coding` on the thread pool, unless it is
   * already compressed or under way. The copy counts towards the byte limit while the entry is cached.
   */
  compressInBackground(key: string, entry: CachedResponse, coding: ContentCoding): void {
    if (entry.encoded?.[coding] || entry.compressing?.has(coding)) return;
    (entry.compressing ??= new Set()).add(coding);
    compress(entry.body, coding).then(
      (bytes) => {
        entry.compressing!.delete(coding);
        (entry.encoded ??= {})[coding] = bytes;
        if (this.entries.get(key) !== entry) return; // dropped or replaced meanwhile: the copy goes with it
        this.bytes += bytes.length;
        this.evictOverLimits();
      },
      () => entry.compressing!.delete(coding), // never happens for a Buffer; the entry stays uncompressed
    );
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held: bodies and their compressed copies. */
  get byteSize(): number {
    return this.bytes;
  }

  /** Drop least recently used entries until both limits hold. */
  private evictOverLimits(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const leastRecentlyUsed = this.entries.keys().next().value as string;
      this.delete(leastRecentlyUsed);
    }
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (e) {
      this.bytes -= e.body.length + Object.values(e.encoded ?? {}).reduce((sum, copy) => sum + copy.length, 0);
      this.entries.delete(key);
    }
  }
}

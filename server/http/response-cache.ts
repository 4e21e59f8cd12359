/**
 * An in-memory cache of public storefront GET responses, in front of Remix.
 *
 * Correctness rule: an entry is served only while `contentVersion()` equals the version read
 * *before* the response was computed, so any commit (by this process or another) invalidates
 * everything computed before it. Bounded by entry count and total bytes; the least recently used
 * entry goes first.
 */
export type CachedResponse = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string | null;
  version: number;
  /** Epoch ms after which the entry is not served (e.g. its Bearer token's expiry); none = no time limit. */
  expiresMs?: number;
  /** gzip of `body`, made on first use by a client that accepts it. */
  gzip?: Buffer;
};

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;

  /** @param maxEntries entry limit; @param maxBytes total body bytes limit. */
  constructor(maxEntries = 20_000, maxBytes = 128 * 1024 * 1024) {
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
    // Map keeps insertion order: re-inserting makes this the most recently used entry.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    if (entry.body.length > this.maxBytes / 16) return;
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const leastRecentlyUsed = this.entries.keys().next().value as string;
      this.delete(leastRecentlyUsed);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (e) {
      this.bytes -= e.body.length;
      this.entries.delete(key);
    }
  }
}

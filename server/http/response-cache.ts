/**
 * An in-memory cache of public storefront GET responses, in front of Remix.
 *
 * Correctness rule: an entry is served only while the caller's `isFresh` says so: its content stamp was
 * read *before* the response was computed, and no commit since (by this process or another) changed a
 * content scope the answer read (server/db/content-scopes.ts; an answer that names no scopes is stale
 * after any commit). Bounded by entry count and total bytes; the least recently used
 * entry goes first (approximately: a hit moves an entry to the front only once it is in the older half).
 *
 * Bodies and compressed copies are kept in reusable slab chunks (body-slabs.ts), not a Buffer each, so
 * that replacing entries does not grow V8's external memory and trigger full garbage collections. The
 * byte limit counts what is held: the chunk size (at most 25% over the body). It is also a hard limit on
 * the memory the cache takes: nothing is kept outside the slabs, and when no chunk of the size needed is
 * free once every slab exists, the cache frees one by dropping least recently used entries, or cuts a
 * slab again for that size (`reclaim`). A body or copy larger than a slab is not kept.
 * A caller that sends cached bytes must call `holdWhileSending` right after handing them to the response,
 * with no `await` between `get` and that call (a chunk is only reused once nobody reads it).
 */
import type { ServerResponse } from "node:http";
import type { ContentStamp } from "../db/content-scopes.ts";
import { BodySlabs, type Slab, type SlabChunk } from "./body-slabs.ts";
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

/** Entries `reclaim` looks through, from the least recently used, for one holding a chunk of the size needed. */
const RECLAIM_SCAN = 64;
/** Slabs `reclaim` tries to empty and cut again before it gives up (their chunks are pinned by slow clients). */
const RECLAIM_SLABS = 4;

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  /** Insertion counter, and the counter's value when each entry was (re)inserted. */
  private insertions = 0;
  private readonly positions = new WeakMap<CachedResponse, number>();
  private bytes = 0;
  private readonly slabs: BodySlabs;
  /** The slab chunk behind each stored body or copy (keyed by the view handed out). */
  private readonly chunks = new WeakMap<Buffer, SlabChunk>();
  readonly maxEntries: number;
  readonly maxBytes: number;

  /**
   * @param maxEntries entry limit (each entry also costs ~1 KB of heap for its key and headers)
   * @param maxBytes limit of bytes held for bodies plus compressed copies, and of the slabs holding them (default 256 MiB: about 11,000 reviews pages of 17.5 KB with their 5.8 KB brotli copies)
   * @param slabBytes slab size (body-slabs.ts; default 1 MiB, or maxBytes / 16 if smaller): the largest body kept
   */
  constructor(maxEntries = 50_000, maxBytes = 256 * 1024 * 1024, slabBytes = Math.min(1024 * 1024, Math.floor(maxBytes / 16))) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.slabs = new BodySlabs(maxBytes, slabBytes);
  }

  /** The entry for `key` if `isFresh(entry)` and it has not expired at `nowMs`; stale entries are dropped. */
  get(key: string, isFresh: (entry: CachedResponse) => boolean, nowMs = Date.now()): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!isFresh(entry) || (entry.expiresMs !== undefined && nowMs >= entry.expiresMs)) {
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

  /**
   * Store `entry` under `key` (its `body` is replaced by the stored copy). A body larger than a slab, or
   * one no chunk can be freed for (`reclaim`), is not kept.
   */
  set(key: string, entry: CachedResponse): void {
    this.delete(key);
    const size = this.slabs.chunkSizeFor(entry.body.length);
    if (size === null) return;
    this.makeRoom(size, 1);
    const body = this.keep(entry.body, key);
    if (!body) return;
    entry.body = body;
    this.entries.set(key, entry);
    this.positions.set(entry, ++this.insertions);
    this.bytes += size;
  }

  /**
   * Keep the slab chunk behind `bytes` (a body or copy from this cache, just passed to `res.end`) from
   * reuse until the response has left: until its 'close' if any of it is still queued in Node.
   */
  holdWhileSending(bytes: Buffer, res: ServerResponse): void {
    const chunk = this.chunks.get(bytes);
    if (!chunk || res.writableLength === 0) return; // not in a slab, or already handed to the kernel
    this.slabs.pin(chunk);
    res.once("close", () => this.slabs.unpin(chunk));
  }

  /**
   * Compress `entry` (stored under `key`) with `coding` once the current turn of the event loop is over
   * (`setImmediate`: after the response being written), unless it is already compressed or due. Skipped if
   * the entry was dropped meanwhile. The copy counts towards the byte limit while the entry is cached.
   */
  compressLater(key: string, entry: CachedResponse, coding: ContentCoding): void {
    if (entry.encoded?.[coding] || entry.compressing?.has(coding)) return;
    (entry.compressing ??= new Set()).add(coding);
    setImmediate(() => {
      entry.compressing!.delete(coding);
      // Checked before reading the body: a dropped entry's slab chunk may already hold another body.
      if (this.entries.get(key) !== entry) return;
      const bytes = compress(entry.body, coding);
      const size = this.slabs.chunkSizeFor(bytes.length);
      if (size === null) return;
      this.makeRoom(size, 0);
      if (this.entries.get(key) !== entry) return; // it was the least recently used one
      const copy = this.keep(bytes, key);
      if (!copy) return;
      if (this.entries.get(key) !== entry) {
        // Dropped to make room for its own copy: the copy has nobody to serve.
        this.slabs.free(this.chunkOf(copy));
        this.chunks.delete(copy);
        return;
      }
      (entry.encoded ??= {})[coding] = copy;
      this.bytes += size;
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held: bodies and their compressed copies. */
  get byteSize(): number {
    return this.bytes;
  }

  /** Slab chunks pinned by responses still being sent (holdWhileSending). */
  get pinnedChunks(): number {
    return this.slabs.pinnedChunks;
  }

  /** Bytes of slabs allocated (they stay allocated; at most maxBytes): all the memory bodies and copies take. */
  get slabBytes(): number {
    return this.slabs.allocatedBytes;
  }

  /**
   * Drop least recently used entries until `held` more bytes and `added` more entries fit under both
   * limits (or none is left). Run before storing, so the dropped entries' chunks can take the new bytes.
   */
  private makeRoom(held: number, added: number): void {
    while (this.entries.size > 0 && (this.entries.size + added > this.maxEntries || this.bytes + held > this.maxBytes)) {
      this.delete(this.entries.keys().next().value as string);
    }
  }

  /**
   * A copy of `bytes` (at most a slab) in a slab chunk owned by `key`, or null when no chunk of their
   * size is free and `reclaim` cannot free one.
   */
  private keep(bytes: Buffer, key: string): Buffer | null {
    const chunk = this.slabs.store(bytes) ?? (this.reclaim(this.slabs.sizeClassFor(bytes.length)) ? this.slabs.store(bytes) : null);
    if (!chunk) return null;
    chunk.owner = key;
    this.chunks.set(chunk.bytes, chunk);
    return chunk.bytes;
  }

  /**
   * Make a chunk of `sizeClass` free once every slab exists (the only case in which `store` declines bytes
   * no larger than a slab), in this order:
   * 1. cut again a slab with no chunk in use;
   * 2. drop the least recently used entry holding a chunk of that size, among the RECLAIM_SCAN least recently used;
   * 3. drop every entry holding a chunk in the slab of the least recently used entry, and cut that slab
   *    again (a slab whose chunks slow clients still pin cannot be: then the next one, at most RECLAIM_SLABS).
   * @returns whether a chunk of `sizeClass` is free now.
   */
  private reclaim(sizeClass: number): boolean {
    const idle = this.slabs.idleSlab();
    if (idle) return this.slabs.reassign(idle, sizeClass);
    let scanned = 0;
    for (const [key, entry] of this.entries) {
      if (scanned++ === RECLAIM_SCAN) break;
      if (this.chunksOf(entry).some((chunk) => chunk.sizeClass === sizeClass && chunk.pins === 0)) {
        this.delete(key);
        return true;
      }
    }
    const tried = new Set<Slab>();
    // Deleting while iterating a Map is safe: deleted entries are not visited.
    for (const entry of this.entries.values()) {
      const slab = this.chunkOf(entry.body).slab;
      if (tried.has(slab)) continue;
      tried.add(slab);
      for (const owner of new Set(slab.chunks.map((chunk) => chunk.owner))) if (owner !== undefined) this.delete(owner);
      if (this.slabs.reassign(slab, sizeClass)) return true;
      if (tried.size === RECLAIM_SLABS) break;
    }
    return false;
  }

  /** The slab chunk holding `bytes` (a body or copy of an entry of this cache). */
  private chunkOf(bytes: Buffer): SlabChunk {
    return this.chunks.get(bytes)!;
  }

  /** The slab chunks of an entry: its body's and its copies'. */
  private chunksOf(entry: CachedResponse): SlabChunk[] {
    return [entry.body, ...Object.values(entry.encoded ?? {})].map((bytes) => this.chunkOf(bytes));
  }

  private release(bytes: Buffer): void {
    const chunk = this.chunkOf(bytes);
    this.bytes -= chunk.capacity;
    this.chunks.delete(bytes);
    this.slabs.free(chunk);
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.release(e.body);
    for (const copy of Object.values(e.encoded ?? {})) this.release(copy);
  }
}

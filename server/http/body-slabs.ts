/**
 * Reusable chunks of a few large buffers ("slabs") for the bytes the response cache keeps.
 *
 * Why: a Buffer per cached body is V8 "external memory". A cache that keeps taking in new entries and
 * dropping old ones makes that memory grow until the next full garbage collection frees the dropped
 * ones, and V8 starts a full mark-compact every ~64 MB of such growth ("external memory pressure"):
 * a 10–25 ms pause for every request in flight (docs/performance.md, "Why p99 stays above 20 ms").
 * Chunks carved from slabs and reused after eviction keep external memory flat once the slabs exist.
 *
 * The design is memcached's slab allocator: chunk sizes (size classes) a factor 1.25 apart from 64 bytes
 * up to the slab size, slabs of one class each, taken on demand until `maxBytes` is reached, and one
 * free list per class. Once every slab exists, a slab none of whose chunks is in use can be cut again for
 * another class (`reassign`, memcached's slab reassignment), so the mix of sizes can change over time
 * without memory beyond `maxBytes` (slab calcification). Slabs are cut from regions of up to 256 MiB allocated in one piece: V8 counts a
 * region once, when it is allocated (Linux only backs the pages the slabs write to), so a cache filling
 * up does not add to the external-memory growth that starts full collections either. Bytes that do not fit a chunk (larger than a slab, or no free chunk of their class
 * once all slabs exist) are not stored here: `store` declines them, and the caller frees chunks or a
 * slab (response-cache.ts) or does without.
 *
 * A chunk can still be read after its entry is dropped: by a socket write the kernel has not taken yet.
 * Such a reader pins the chunk; freeing a pinned chunk only marks it, and it goes back to its free list
 * when the last pin is released.
 */

/** One slab: `bytes` cut into equal chunks of one size class. */
export class Slab {
  readonly bytes: Buffer;
  /** Its size class (index in `BodySlabs.chunkSizes`); changed by `BodySlabs.reassign`. */
  sizeClass: number;
  /** Its chunks, in address order. */
  chunks: SlabChunk[] = [];
  /** Chunks handed out by `store` and not yet back on the free list (pinned ones included). */
  used = 0;

  constructor(bytes: Buffer, sizeClass: number) {
    this.bytes = bytes;
    this.sizeClass = sizeClass;
  }
}

/** One chunk of a slab, holding a copy of some bytes. */
export class SlabChunk {
  /** The stored bytes: a view into the slab (no copy, no allocation outside the V8 heap). */
  bytes: Buffer;
  /** Readers that have not finished with `bytes` yet. */
  pins = 0;
  /** Freed by its owner while pinned: returns to the free list at the last unpin. */
  freeWhenUnpinned = false;
  /** Whose bytes these are (the response cache's key), set by the caller; undefined once freed. */
  owner: string | undefined;

  readonly slab: Slab;
  /** Byte offset of the chunk in its slab. */
  readonly offset: number;
  /** Chunk size (bytes): its size class's, at least `bytes.length`. */
  readonly capacity: number;
  /** Index of its size class in `BodySlabs.chunkSizes`. */
  readonly sizeClass: number;

  constructor(slab: Slab, offset: number, capacity: number, sizeClass: number) {
    this.slab = slab;
    this.offset = offset;
    this.capacity = capacity;
    this.sizeClass = sizeClass;
    this.bytes = slab.bytes.subarray(offset, offset);
  }
}

const SMALLEST_CHUNK = 64;
const GROWTH_FACTOR = 1.25;
const MAX_REGION_BYTES = 256 * 1024 * 1024;

export class BodySlabs {
  /** Chunk size (bytes) of each size class, ascending; the last equals the slab size. */
  readonly chunkSizes: number[] = [];
  private readonly freeChunks: SlabChunk[][];
  private allocated = 0;
  private pinned = 0;
  /** Slabs with no chunk in use: the first ones `reassign` can take. */
  private readonly idle = new Set<Slab>();
  /** The region slabs are being cut from, and the offset of its next slab. */
  private region: Buffer | null = null;
  private regionOffset = 0;

  /** Bytes of slabs allocated at most. */
  readonly maxBytes: number;
  /** Size of one slab, and so of the largest chunk. */
  readonly slabBytes: number;

  /**
   * @param maxBytes bytes of slabs allocated at most (each slab is taken on first need and kept)
   * @param slabBytes size of one slab, and so of the largest chunk (default 1 MiB, as memcached)
   */
  constructor(maxBytes: number, slabBytes = 1024 * 1024) {
    this.maxBytes = maxBytes;
    this.slabBytes = slabBytes;
    for (let size = SMALLEST_CHUNK; size < slabBytes; size = Math.ceil((size * GROWTH_FACTOR) / 8) * 8) this.chunkSizes.push(size);
    this.chunkSizes.push(slabBytes);
    this.freeChunks = this.chunkSizes.map(() => []);
  }

  /** Bytes of slabs taken so far (they stay allocated). */
  get allocatedBytes(): number {
    return this.allocated;
  }

  /** Chunks that some reader has pinned (for tests and diagnostics). */
  get pinnedChunks(): number {
    return this.pinned;
  }

  /** The chunk size `length` bytes would take, or null when larger than a slab. */
  chunkSizeFor(length: number): number | null {
    const sizeClass = this.sizeClassFor(length);
    return sizeClass === -1 ? null : this.chunkSizes[sizeClass]!;
  }

  /** The size class (index in `chunkSizes`) of `length` bytes, or -1 when larger than a slab. */
  sizeClassFor(length: number): number {
    if (length > this.slabBytes) return -1;
    let low = 0;
    let high = this.chunkSizes.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.chunkSizes[mid]! >= length) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  /** A slab with no chunk in use, if any (to `reassign`). */
  idleSlab(): Slab | undefined {
    return this.idle.values().next().value;
  }

  /**
   * A chunk holding a copy of `bytes`, or null when they are larger than a slab, or no chunk of their
   * size class is free and another slab would exceed `maxBytes`.
   */
  store(bytes: Uint8Array): SlabChunk | null {
    const sizeClass = this.sizeClassFor(bytes.length);
    if (sizeClass === -1) return null;
    const free = this.freeChunks[sizeClass]!;
    if (free.length === 0 && !this.addSlab(sizeClass)) return null;
    const chunk = free.pop()!;
    if (chunk.slab.used++ === 0) this.idle.delete(chunk.slab);
    chunk.slab.bytes.set(bytes, chunk.offset);
    chunk.bytes = chunk.slab.bytes.subarray(chunk.offset, chunk.offset + bytes.length);
    return chunk;
  }

  /**
   * Cut `slab` again into chunks of `sizeClass` (memcached's slab reassignment), for a class that has no
   * free chunk once every slab exists. Only a slab none of whose chunks is in use or pinned can be cut:
   * its old chunks leave their free list and are never handed out again.
   * @returns false (nothing changed) when some chunk of the slab is still in use.
   */
  reassign(slab: Slab, sizeClass: number): boolean {
    if (slab.used > 0) return false;
    if (slab.sizeClass === sizeClass) return true;
    const old = new Set(slab.chunks);
    this.freeChunks[slab.sizeClass] = this.freeChunks[slab.sizeClass]!.filter((chunk) => !old.has(chunk));
    this.carve(slab, sizeClass);
    return true;
  }

  /** Give `chunk` back for reuse: now, or at its last unpin if it is pinned. */
  free(chunk: SlabChunk): void {
    chunk.owner = undefined;
    if (chunk.pins > 0) chunk.freeWhenUnpinned = true;
    else this.release(chunk);
  }

  /** A reader starts reading `chunk.bytes`: the chunk is not reused until `unpin`. */
  pin(chunk: SlabChunk): void {
    if (chunk.pins++ === 0) this.pinned++;
  }

  /** A reader of `chunk.bytes` is done. */
  unpin(chunk: SlabChunk): void {
    chunk.pins--;
    if (chunk.pins === 0) this.pinned--;
    if (chunk.pins === 0 && chunk.freeWhenUnpinned) {
      chunk.freeWhenUnpinned = false;
      this.release(chunk);
    }
  }

  /** Free chunks of each size class (for tests and diagnostics). */
  freeChunkCount(sizeClass: number): number {
    return this.freeChunks[sizeClass]?.length ?? 0;
  }

  private release(chunk: SlabChunk): void {
    chunk.bytes = chunk.slab.bytes.subarray(chunk.offset, chunk.offset);
    this.freeChunks[chunk.sizeClass]!.push(chunk);
    if (--chunk.slab.used === 0) this.idle.add(chunk.slab);
  }

  private addSlab(sizeClass: number): boolean {
    if (this.allocated + this.slabBytes > this.maxBytes) return false;
    if (!this.region || this.regionOffset + this.slabBytes > this.region.length) {
      const slabsLeft = Math.floor((this.maxBytes - this.allocated) / this.slabBytes);
      const slabsPerRegion = Math.max(1, Math.floor(MAX_REGION_BYTES / this.slabBytes));
      this.region = Buffer.allocUnsafeSlow(Math.min(slabsLeft, slabsPerRegion) * this.slabBytes);
      this.regionOffset = 0;
    }
    const slab = new Slab(this.region.subarray(this.regionOffset, this.regionOffset + this.slabBytes), sizeClass);
    this.regionOffset += this.slabBytes;
    this.allocated += this.slabBytes;
    this.carve(slab, sizeClass);
    this.idle.add(slab);
    return true;
  }

  /** Cut `slab` into free chunks of `sizeClass`. */
  private carve(slab: Slab, sizeClass: number): void {
    const size = this.chunkSizes[sizeClass]!;
    const free = this.freeChunks[sizeClass]!;
    slab.sizeClass = sizeClass;
    slab.chunks = [];
    for (let offset = 0; offset + size <= this.slabBytes; offset += size) slab.chunks.push(new SlabChunk(slab, offset, size, sizeClass));
    // Pushed in reverse so that pop() hands out the chunks in address order.
    for (let i = slab.chunks.length - 1; i >= 0; i--) free.push(slab.chunks[i]!);
  }
}

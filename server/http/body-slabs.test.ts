import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BodySlabs } from "./body-slabs.ts";

describe("BodySlabs", () => {
  it("stores a copy of the bytes in the smallest chunk that fits them", () => {
    const slabs = new BodySlabs(1024 * 1024, 64 * 1024);
    const source = randomBytes(17_800);
    const chunk = slabs.store(source)!;
    expect(Buffer.compare(chunk.bytes, source)).toBe(0);
    expect(chunk.capacity).toBeGreaterThanOrEqual(17_800);
    expect(chunk.capacity).toBeLessThanOrEqual(17_800 * 1.25 + 8);
    const smaller = slabs.chunkSizes.filter((size) => size < chunk.capacity);
    expect(Math.max(...smaller)).toBeLessThan(17_800);
    source.fill(0); // a copy: the caller's buffer can be reused
    expect(chunk.bytes.every((byte) => byte === 0)).toBe(false);
  });

  it("reuses freed chunks instead of allocating more slabs", () => {
    const slabs = new BodySlabs(1024 * 1024, 64 * 1024);
    for (let i = 0; i < 1_000; i++) slabs.free(slabs.store(randomBytes(5_000))!);
    expect(slabs.allocatedBytes).toBe(64 * 1024);
  });

  it("does not reuse a pinned chunk until its last reader unpins it", () => {
    const slabs = new BodySlabs(1024 * 1024, 4096); // one 4,096-byte chunk per slab at this size
    const first = slabs.store(Buffer.alloc(4000, 1))!;
    slabs.pin(first);
    slabs.pin(first);
    slabs.free(first);
    const second = slabs.store(Buffer.alloc(4000, 2))!;
    expect(second.slab).not.toBe(first.slab);
    expect(first.bytes.every((byte) => byte === 1)).toBe(true);
    slabs.unpin(first);
    expect(slabs.freeChunkCount(first.sizeClass)).toBe(0); // one reader left
    slabs.unpin(first);
    expect(slabs.freeChunkCount(first.sizeClass)).toBe(1);
    expect(slabs.store(Buffer.alloc(4000, 3))!.slab).toBe(first.slab);
  });

  it("declines bytes larger than a slab, and new slabs beyond its byte limit", () => {
    const slabs = new BodySlabs(8192, 4096);
    expect(slabs.store(Buffer.alloc(4097))).toBeNull();
    expect(slabs.store(Buffer.alloc(4000))).not.toBeNull();
    expect(slabs.store(Buffer.alloc(4000))).not.toBeNull();
    expect(slabs.store(Buffer.alloc(4000))).toBeNull();
    expect(slabs.allocatedBytes).toBe(8192);
  });

  it("cuts a slab with no chunk in use again for another size class, and never one with a chunk in use or pinned", () => {
    const slabs = new BodySlabs(8192, 4096); // two slabs of one 4,096-byte chunk at this size
    const kept = slabs.store(Buffer.alloc(4000, 1))!;
    const dropped = slabs.store(Buffer.alloc(4000, 2))!;
    const small = slabs.sizeClassFor(100);
    expect(slabs.reassign(kept.slab, small)).toBe(false);
    slabs.pin(dropped);
    slabs.free(dropped);
    expect(slabs.reassign(dropped.slab, small)).toBe(false); // a slow client still reads it
    expect(dropped.bytes.every((byte) => byte === 2)).toBe(true);
    slabs.unpin(dropped);
    expect(slabs.idleSlab()).toBe(dropped.slab);
    expect(slabs.reassign(dropped.slab, small)).toBe(true);
    expect(slabs.idleSlab()).toBe(dropped.slab); // cut again, none of its chunks in use yet
    const chunks = Array.from({ length: Math.floor(4096 / slabs.chunkSizes[small]!) }, (_, i) => slabs.store(Buffer.alloc(100, i))!);
    expect(chunks.every((chunk) => chunk.slab === dropped.slab)).toBe(true);
    expect(slabs.idleSlab()).toBeUndefined();
    expect(slabs.store(Buffer.alloc(4000))).toBeNull(); // its old 4,096-byte chunk is gone with the cut
    expect(kept.bytes.every((byte) => byte === 1)).toBe(true);
    expect(slabs.allocatedBytes).toBe(8192);
  });
});

import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { ResponseCache, type CachedResponse } from "./response-cache.ts";

const entry = (version: number, bytes = 10): CachedResponse => ({ status: 200, headers: [], body: Buffer.alloc(bytes), etag: null, version });

describe("ResponseCache", () => {
  it("serves an entry only at the version it was computed at", () => {
    const cache = new ResponseCache();
    cache.set("a", entry(1));
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("a", 2)).toBeUndefined();
    expect(cache.get("a", 1)).toBeUndefined(); // the stale entry was dropped
  });

  it("does not serve an entry at or after its expiry", () => {
    const cache = new ResponseCache();
    cache.set("a", { ...entry(1), expiresMs: 1_000 });
    expect(cache.get("a", 1, 999)).toBeDefined();
    expect(cache.get("a", 1, 1_000)).toBeUndefined();
  });

  it("evicts the least recently used entry when over the entry limit", () => {
    const cache = new ResponseCache(2);
    cache.set("a", entry(1));
    cache.set("b", entry(1));
    cache.get("a", 1); // a is now more recent than b
    cache.set("c", entry(1));
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("c", 1)).toBeDefined();
  });

  it("keeps total body bytes under its byte limit", () => {
    const cache = new ResponseCache(100, 1600);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, entry(1, 100));
    expect(cache.size).toBe(16);
    expect(cache.get("k0", 1)).toBeUndefined();
    expect(cache.get("k19", 1)).toBeDefined();
  });

  it("compresses an entry once, in the background, and counts the copy towards the byte limit", async () => {
    const cache = new ResponseCache();
    const e = { ...entry(1), body: Buffer.from("chorus ".repeat(500)) };
    cache.set("a", e);
    cache.compressInBackground("a", e, "br");
    cache.compressInBackground("a", e, "br"); // under way: not started twice
    expect(e.encoded?.br).toBeUndefined();
    await vi.waitFor(() => expect(e.encoded?.br).toBeDefined());
    expect(e.compressing?.size).toBe(0);
    expect(cache.byteSize).toBe(e.body.length + e.encoded!.br!.length);
    cache.set("a", entry(1)); // replacing the entry releases both
    expect(cache.byteSize).toBe(10);
  });

  it("a compressed copy that takes the cache over its byte limit evicts the least recently used entries", async () => {
    const cache = new ResponseCache(100, 8000); // bodies up to 500 bytes are kept
    const bodies = Array.from({ length: 16 }, () => Buffer.from(randomBytes(245).toString("hex"))); // 490 bytes each, 7,840 in all
    bodies.forEach((body, i) => cache.set(`k${i}`, { ...entry(1), body }));
    const last = cache.get("k15", 1)!;
    cache.compressInBackground("k15", last, "gzip"); // hex compresses to about half: well over the 160 bytes left
    await vi.waitFor(() => expect(last.encoded?.gzip).toBeDefined());
    expect(cache.byteSize).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.get("k0", 1)).toBeUndefined();
    expect(cache.get("k15", 1)).toBe(last);
  });
});

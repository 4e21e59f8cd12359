import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { connect, type AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { ResponseCache, type CachedResponse } from "./response-cache.ts";

const entry = (version: number, bytes = 10): CachedResponse => ({ status: 200, headers: [], body: Buffer.alloc(bytes), etag: null, stamp: { dataVersion: version, seq: version }, scopes: null });
/** Freshness at commit counter `version`: the rule for answers that name no scopes. */
const at = (version: number) => (e: CachedResponse) => e.stamp.dataVersion === version;

describe("ResponseCache", () => {
  it("serves an entry only while it is fresh, and drops it when not", () => {
    const cache = new ResponseCache();
    cache.set("a", entry(1));
    expect(cache.get("a", at(1))).toBeDefined();
    expect(cache.get("a", at(2))).toBeUndefined();
    expect(cache.get("a", at(1))).toBeUndefined(); // the stale entry was dropped
  });

  it("does not serve an entry at or after its expiry", () => {
    const cache = new ResponseCache();
    cache.set("a", { ...entry(1), expiresMs: 1_000 });
    expect(cache.get("a", at(1), 999)).toBeDefined();
    expect(cache.get("a", at(1), 1_000)).toBeUndefined();
  });

  it("evicts the least recently used entry when over the entry limit", () => {
    const cache = new ResponseCache(2);
    cache.set("a", entry(1));
    cache.set("b", entry(1));
    cache.get("a", at(1)); // a is now more recent than b
    cache.set("c", entry(1));
    expect(cache.get("a", at(1))).toBeDefined();
    expect(cache.get("b", at(1))).toBeUndefined();
    expect(cache.get("c", at(1))).toBeDefined();
  });

  it("keeps total body bytes under its byte limit", () => {
    const cache = new ResponseCache(100, 1600);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, entry(1, 100));
    expect(cache.size).toBe(16);
    expect(cache.get("k0", at(1))).toBeUndefined();
    expect(cache.get("k19", at(1))).toBeDefined();
  });

  it("compresses an entry once, after the current turn, and counts the copy towards the byte limit", async () => {
    const cache = new ResponseCache();
    const e = { ...entry(1), body: Buffer.from("chorus ".repeat(500)) };
    cache.set("a", e);
    cache.compressLater("a", e, "br");
    cache.compressLater("a", e, "br"); // due: not scheduled twice
    expect(e.encoded?.br).toBeUndefined();
    await vi.waitFor(() => expect(e.encoded?.br).toBeDefined());
    expect(e.compressing?.size).toBe(0);
    // Held bytes are the slab chunks' sizes: at most a quarter (plus 8 bytes of rounding) over the lengths.
    const lengths = e.body.length + e.encoded!.br!.length;
    expect(cache.byteSize).toBeGreaterThanOrEqual(lengths);
    expect(cache.byteSize).toBeLessThanOrEqual(lengths * 1.25 + 16);
    cache.set("a", entry(1)); // replacing the entry releases both
    expect(cache.byteSize).toBe(64); // the smallest chunk
  });

  it("a compressed copy that takes the cache over its byte limit evicts the least recently used entries", async () => {
    const cache = new ResponseCache(100, 8000); // bodies up to 500 bytes are kept
    const bodies = Array.from({ length: 16 }, () => Buffer.from(randomBytes(245).toString("hex"))); // 490 bytes each, 7,840 in all
    bodies.forEach((body, i) => cache.set(`k${i}`, { ...entry(1), body }));
    const last = cache.get("k15", at(1))!;
    cache.compressLater("k15", last, "gzip"); // hex compresses to about half: well over the 160 bytes left
    await vi.waitFor(() => expect(last.encoded?.gzip).toBeDefined());
    expect(cache.byteSize).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.get("k0", at(1))).toBeUndefined();
    expect(cache.get("k15", at(1))).toBe(last);
  });
});

/**
 * A paused client over a real socket receiving `key`'s cached body (a slow shopper): resolves once part of
 * the body is still queued in Node; `receive()` then reads it all and returns the body bytes.
 */
async function slowClient(cache: ResponseCache, key: string): Promise<{ receive: () => Promise<Buffer> }> {
  let queuedAfterEnd = 0;
  const server = createServer((req, res) => {
    const cached = cache.get(key, at(1))!;
    res.writeHead(200, { "content-length": String(cached.body.length) });
    res.end(cached.body);
    queuedAfterEnd = res.writableLength;
    cache.holdWhileSending(cached.body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = connect(port, "127.0.0.1");
  client.pause(); // reads nothing yet
  client.write("GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
  await vi.waitFor(() => expect(queuedAfterEnd).toBeGreaterThan(0));
  return {
    async receive() {
      const received: Buffer[] = [];
      client.on("data", (data: Buffer) => received.push(data));
      client.resume();
      await new Promise((resolve) => client.on("end", resolve));
      server.close();
      const response = Buffer.concat(received);
      return response.subarray(response.indexOf("\r\n\r\n") + 4);
    },
  };
}

describe("ResponseCache slab storage", () => {
  it("churning through many times its byte limit keeps its slabs within the limit and every body intact", () => {
    const cache = new ResponseCache(50_000, 4 * 1024 * 1024, 256 * 1024);
    const originals = new Map<string, Buffer>();
    for (let i = 0; i < 4_000; i++) {
      const key = `k${i % 1_500}`;
      const body = randomBytes(200 + ((i * 7919) % 20_000)); // 200 B – 20 KB, like aggregates to reviews pages
      originals.set(key, Buffer.from(body));
      cache.set(key, { ...entry(1), body });
      const probe = `k${(i * 31) % 1_500}`;
      const hit = cache.get(probe, at(1));
      if (hit) expect(Buffer.compare(hit.body, originals.get(probe)!)).toBe(0);
    }
    expect(cache.slabBytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.byteSize).toBeLessThanOrEqual(cache.maxBytes);
    for (const [key, original] of originals) {
      const hit = cache.get(key, at(1));
      if (hit) expect(Buffer.compare(hit.body, original)).toBe(0);
    }
  });

  it("keeps all it holds inside its byte limit when the sizes of its bodies change: slabs are cut again, not added to", async () => {
    v8.setFlagsFromString("--expose_gc");
    const gc = vm.runInNewContext("gc") as () => void;
    // Bytes of ArrayBuffers alive: after full collections, with turns in between for their backing stores to be freed.
    const external = async () => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return process.memoryUsage().arrayBuffers;
    };
    const maxBytes = 16 * 1024 * 1024;
    const before = await external();
    const cache = new ResponseCache(200_000, maxBytes, 256 * 1024);
    // Bodies derived from their number, so nothing outside the cache keeps a copy of them.
    const body = (i: number, size: number) => Buffer.alloc(size, `${i}:`);
    const intact = (i: number, size: number) => {
      const hit = cache.get(`k${i}`, at(1));
      return hit !== undefined && Buffer.compare(hit.body, body(i, size)) === 0;
    };
    // Reviews pages of 20 KB take every slab; then the traffic turns to 300-byte aggregates, then back.
    for (let i = 0; i < 2_000; i++) cache.set(`k${i}`, { ...entry(1), body: body(i, 20_000) });
    expect(cache.slabBytes).toBe(maxBytes);
    for (let i = 2_000; i < 80_000; i++) cache.set(`k${i}`, { ...entry(1), body: body(i, 300) });
    const small = (await external()) - before;
    for (let i = 80_000; i < 82_000; i++) cache.set(`k${i}`, { ...entry(1), body: body(i, 20_000) });
    const large = (await external()) - before;

    // Before slabs were cut again, the aggregates were kept in Buffers of their own beside the full slabs.
    expect(small).toBeLessThanOrEqual(maxBytes + 1024 * 1024);
    expect(large).toBeLessThanOrEqual(maxBytes + 1024 * 1024);
    expect(cache.slabBytes).toBe(maxBytes);
    expect(cache.byteSize).toBeLessThanOrEqual(maxBytes);
    // And the cache still keeps what is asked of it now: the most recent pages (768 of 20 KB fit) are served, intact.
    for (let i = 81_600; i < 82_000; i++) expect(intact(i, 20_000)).toBe(true);
  });

  it("drops the compressed copy of an entry that had to go to make room for that very copy", async () => {
    const cache = new ResponseCache(100, 8000); // 16 slabs of 500 bytes: two 190-byte bodies each (224-byte chunks)
    const kept: CachedResponse[] = [];
    for (let i = 0; i < 32; i++) {
      const e = { ...entry(1), body: Buffer.alloc(190, "a") };
      cache.set(`k${i}`, e);
      kept.push(e);
    }
    for (let i = 1; i < 32; i += 2) cache.get(`k${i}`, () => false); // every slab now half used, none idle
    expect(cache.slabBytes).toBe(8000);
    // k0's gzip copy (~30 bytes) needs a chunk size no slab has: the slab cut again for it is k0's own.
    cache.compressLater("k0", kept[0]!, "gzip");
    await vi.waitFor(() => expect(kept[0]!.compressing?.size).toBe(0));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.get("k0", at(1))).toBeUndefined();
    expect(kept[0]!.encoded?.gzip).toBeUndefined();
    expect(cache.size).toBe(15);
    expect(cache.byteSize).toBe(15 * 224);
    // The chunk the copy took went back: the cut slab takes the next small bodies.
    cache.set("small", { ...entry(1), body: Buffer.alloc(40, 1) });
    expect(cache.get("small", at(1))?.body.every((byte) => byte === 1)).toBe(true);
    expect(cache.slabBytes).toBe(8000);
  });

  it("never cuts again a slab holding a body a slow client is still receiving", async () => {
    const size = 7 * 1024 * 1024; // more than loopback socket buffers take at once; two chunks per 16 MiB slab
    const cache = new ResponseCache(4, 32 * 1024 * 1024, 16 * 1024 * 1024);
    const original = randomBytes(size);
    cache.set("big", { ...entry(1), body: Buffer.from(original) });
    for (const fill of [1, 2, 3]) cache.set(`other${fill}`, { ...entry(1), body: Buffer.alloc(size, fill) });
    expect(cache.slabBytes).toBe(32 * 1024 * 1024);
    const client = await slowClient(cache, "big");

    // "big" goes (entry limit 4), and a small body needs a slab of its own size: the slab that still holds
    // big's bytes has to be passed over, the other one is emptied and cut again.
    for (let i = 0; i < 4; i++) cache.set(`small${i}`, { ...entry(1), body: Buffer.alloc(300, i) });
    for (let i = 0; i < 4; i++) expect(cache.get(`small${i}`, at(1))?.body.every((byte) => byte === i)).toBe(true);
    expect(cache.slabBytes).toBe(32 * 1024 * 1024);
    expect(Buffer.compare(await client.receive(), original)).toBe(0);
  });

  it("does not overwrite a body a slow client is still receiving when its entry is evicted", async () => {
    const size = 7 * 1024 * 1024; // more than loopback socket buffers take at once
    const cache = new ResponseCache(2, 128 * 1024 * 1024, 8 * 1024 * 1024); // two entries; a chunk of 8 MiB each
    const original = randomBytes(size);
    cache.set("big", { ...entry(1), body: Buffer.from(original) });
    const client = await slowClient(cache, "big");

    // The entry is evicted, and a freed chunk of its size is taken, while the response is still queued.
    for (const fill of [1, 2, 3]) cache.set(`other${fill}`, { ...entry(1), body: Buffer.alloc(size, fill) });
    expect(cache.get("big", at(1))).toBeUndefined();

    const body = await client.receive();
    expect(body.length).toBe(size);
    expect(Buffer.compare(body, original)).toBe(0);
  });

  it("releases the chunks of pipelined responses still queued when their client disconnects", async () => {
    const size = 512 * 1024;
    const cache = new ResponseCache(16, 64 * 1024 * 1024, 1024 * 1024);
    cache.set("big", { ...entry(1), body: randomBytes(size) });
    let sent = 0;
    let queued = 0;
    const server = createServer((req, res) => {
      const cached = cache.get("big", at(1))!;
      res.writeHead(200, { "content-length": String(cached.body.length) });
      res.end(cached.body);
      if (res.writableLength > 0) queued++;
      cache.holdWhileSending(cached.body, res);
      sent++;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client = connect(port, "127.0.0.1");
    client.pause(); // reads nothing: the first response fills the socket, the later ones wait in Node's queue
    client.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n".repeat(20));
    await vi.waitFor(() => expect(sent).toBe(20));
    expect(queued).toBeGreaterThan(10); // responses whose bytes Node still holds: each pins the chunk
    expect(cache.pinnedChunks).toBe(1); // every response sends the same chunk
    client.destroy();
    await vi.waitFor(() => expect(cache.pinnedChunks).toBe(0));
    // The entry can now be replaced and its chunk reused.
    cache.set("big", { ...entry(1), body: randomBytes(size) });
    server.close();
  });
});

import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { ENTRY_OVERHEAD_BYTES, entrySize, ResponseCache, type CachedResponse } from "./response-cache.ts";

const entry = (version: number, bytes = 10): CachedResponse => ({ status: 200, headers: [], body: Buffer.alloc(bytes), etag: null, stamp: { dataVersion: version, seq: version }, scopes: null });
/** Freshness at commit counter `version`: the rule for answers that name no scopes. */
const at = (version: number) => (e: CachedResponse) => e.stamp.dataVersion === version;
/** Resolves after the `setImmediate` callbacks queued so far (compressLater's) have run. */
const afterImmediates = () => new Promise((resolve) => setImmediate(resolve));

describe("ResponseCache", () => {
  it("serves an entry only while it is fresh, and drops it when not", () => {
    const cache = new ResponseCache();
    cache.set("a", entry(1));
    expect(cache.get("a", at(1))).toBeDefined();
    expect(cache.get("a", at(2))).toBeUndefined();
    expect(cache.get("a", at(1))).toBeUndefined(); // the stale entry was dropped
    expect(cache.size).toBe(0);
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

  it("counts an entry as its bytes, key and headers plus a fixed overhead", () => {
    const e = {
      ...entry(1, 100),
      headers: [
        ["etag", '"abc"'],
        ["content-type", "application/json"],
      ] as [string, string][],
    };
    expect(entrySize("key", e)).toBe(ENTRY_OVERHEAD_BYTES + 100 + 2 * 3 + 2 * (4 + 5 + 12 + 16));
  });

  it("keeps the bytes of its entries under its byte limit, dropping the least recently used", () => {
    const perEntry = entrySize("k10", entry(1, 100));
    const cache = new ResponseCache(100, 16 * perEntry);
    for (let i = 10; i < 30; i++) cache.set(`k${i}`, entry(1, 100));
    expect(cache.size).toBe(16);
    expect(cache.byteSize).toBe(16 * perEntry);
    expect(cache.get("k10", at(1))).toBeUndefined();
    expect(cache.get("k13", at(1))).toBeUndefined();
    expect(cache.get("k14", at(1))).toBeDefined();
    expect(cache.get("k29", at(1))).toBeDefined();
  });

  it("does not keep an entry larger than its byte limit", () => {
    const cache = new ResponseCache(100, 4096);
    cache.set("small", entry(1, 100));
    cache.set("big", entry(1, 4096));
    expect(cache.get("big", at(1))).toBeUndefined();
    expect(cache.get("small", at(1))).toBeDefined();
  });

  it("keeps a body that is a view into a larger buffer as its own bytes, not the larger buffer", () => {
    const cache = new ResponseCache();
    const pool = Buffer.alloc(16 * 1024, 7);
    cache.set("a", { ...entry(1), body: pool.subarray(100, 400) });
    const kept = cache.get("a", at(1))!.body;
    expect(kept.length).toBe(300);
    expect(kept.buffer.byteLength).toBe(300);
    expect(kept.every((byte) => byte === 7)).toBe(true);
  });

  it("compresses an entry once, after the current turn, and counts the copy towards the byte limit", async () => {
    const cache = new ResponseCache();
    const e = { ...entry(1), body: Buffer.from("chorus ".repeat(500)) };
    cache.set("a", e);
    const before = cache.byteSize;
    cache.compressLater("a", e, "br");
    cache.compressLater("a", e, "br"); // due: not scheduled twice
    expect(e.encoded?.br).toBeUndefined();
    await vi.waitFor(() => expect(e.encoded?.br).toBeDefined());
    expect(e.compressing?.size).toBe(0);
    expect(e.encoded!.br!.buffer.byteLength).toBe(e.encoded!.br!.length); // its own bytes, not zlib's output buffer
    expect(cache.byteSize).toBe(before + e.encoded!.br!.length);
    cache.set("a", entry(1)); // replacing the entry releases both
    expect(cache.byteSize).toBe(entrySize("a", entry(1)));
  });

  it("does not compress an entry dropped before its turn came", async () => {
    const cache = new ResponseCache();
    const e = { ...entry(1), body: Buffer.from("chorus ".repeat(500)) };
    cache.set("a", e);
    cache.compressLater("a", e, "gzip");
    expect(cache.get("a", at(2))).toBeUndefined(); // stale: dropped
    await afterImmediates();
    expect(e.encoded?.gzip).toBeUndefined();
    expect(cache.byteSize).toBe(0);
  });

  it("a compressed copy that takes the cache over its byte limit evicts the least recently used entries", async () => {
    const bodies = Array.from({ length: 16 }, () => Buffer.from(randomBytes(245).toString("hex"))); // 490 bytes each
    const cache = new ResponseCache(100, 16 * entrySize("k10", { ...entry(1), body: bodies[0]! }) + 100);
    bodies.forEach((body, i) => cache.set(`k${i + 10}`, { ...entry(1), body }));
    expect(cache.size).toBe(16);
    const last = cache.get("k25", at(1))!;
    cache.compressLater("k25", last, "gzip"); // hex compresses to about half: well over the 100 bytes left
    await vi.waitFor(() => expect(last.encoded?.gzip).toBeDefined());
    expect(cache.byteSize).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.size).toBe(15);
    expect(cache.get("k10", at(1))).toBeUndefined();
    expect(cache.get("k25", at(1))).toBe(last);
  });

  it("churning through many times its byte limit keeps within the limit and every body it serves intact", () => {
    const cache = new ResponseCache(50_000, 4 * 1024 * 1024);
    const originals = new Map<string, Buffer>();
    for (let i = 0; i < 4_000; i++) {
      const key = `k${i % 1_500}`;
      const body = randomBytes(200 + ((i * 7919) % 20_000)); // 200 B – 20 KB, like aggregates to reviews pages
      originals.set(key, Buffer.from(body));
      cache.set(key, { ...entry(1), body });
      const probe = `k${(i * 31) % 1_500}`;
      const hit = cache.get(probe, at(1));
      if (hit) expect(Buffer.compare(hit.body, originals.get(probe)!)).toBe(0);
      expect(cache.byteSize).toBeLessThanOrEqual(cache.maxBytes);
    }
    for (const [key, original] of originals) {
      const hit = cache.get(key, at(1));
      if (hit) expect(Buffer.compare(hit.body, original)).toBe(0);
    }
  });
});

describe("ResponseCache memory", () => {
  it("keeps the live heap and buffers it holds within its byte limit while 4x the limit goes through it, and serves the newest entries intact", async () => {
    v8.setFlagsFromString("--expose_gc");
    const gc = vm.runInNewContext("gc") as () => void;
    // Live JS heap plus the ArrayBuffers' bytes outside it: after full collections, with turns in between
    // for the backing stores of collected Buffers to be freed.
    const live = async () => {
      for (let i = 0; i < 4; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const maxBytes = 16 * 1024 * 1024;
    // A JSON-like body derived from its number (compressible, as API answers are), so that nothing outside
    // the cache keeps a copy of it: aggregates of 300 B to reviews pages of 40 KB.
    const size = (i: number) => 300 + ((i * 7919) % 40_000);
    const body = (i: number) => Buffer.from(`{"n":${i},"text":"${"review text of an entry ".repeat(Math.ceil(size(i) / 24))}"}`.slice(0, size(i)));
    const key = (i: number) => `127.0.0.1:3000/v1/stores/6b7c2a1e-0000-4000-8000-00000000000${i % 10}/products/shopify-${i}/reviews?limit=20`;
    const headers = (i: number): [string, string][] => [
      ["content-type", "application/json; charset=utf-8"],
      ["cache-control", "public, max-age=60"],
      ["etag", `"${i.toString(36).padStart(27, "0")}"`],
      ["access-control-allow-origin", "*"],
      ["content-length", String(size(i))],
    ];
    const before = await live();
    const cache = new ResponseCache(undefined, maxBytes);
    let put = 0;
    let n = 0;
    for (; put < 4 * maxBytes; n++) {
      const e: CachedResponse = { ...entry(1), headers: headers(n), body: body(n) };
      cache.set(key(n), e);
      put += e.body.length;
      // A third of the entries are served again and compressed, half of those twice (gzip and brotli).
      if (n % 3 === 0) cache.compressLater(key(n), e, n % 2 ? "gzip" : "br");
      if (n % 6 === 0) cache.compressLater(key(n), e, "gzip");
      if (n % 50 === 0) await afterImmediates();
    }
    await afterImmediates();
    const held = (await live()) - before;
    const report = `${n} entries, ${(put / 1048576).toFixed(1)} MiB of bodies through a ${maxBytes / 1048576} MiB cache: ${cache.size} entries counted as ${(cache.byteSize / 1048576).toFixed(2)} MiB; live heap + buffers ${(held / 1048576).toFixed(2)} MiB above the start`;
    console.log(report);
    expect(cache.byteSize, report).toBeLessThanOrEqual(maxBytes);
    // The margin: lru-cache's slots for 50,000 entries, allocated up front (1.45 MiB), and the collector's slack.
    expect(held, report).toBeLessThanOrEqual(maxBytes + 2 * 1024 * 1024);
    // The newest entries are served, with their bytes and compressed copies intact.
    for (let i = n - 100; i < n; i++) {
      const hit = cache.get(key(i), at(1));
      expect(hit, key(i)).toBeDefined();
      expect(Buffer.compare(hit!.body, body(i))).toBe(0);
      if (i % 6 === 0) expect(hit!.encoded?.gzip).toBeDefined();
    }
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

describe("ResponseCache and responses still being sent", () => {
  it("a slow client receives the whole body of an entry evicted and replaced by others meanwhile", async () => {
    const size = 7 * 1024 * 1024; // more than loopback socket buffers take at once
    const cache = new ResponseCache(2, 128 * 1024 * 1024);
    const original = randomBytes(size);
    cache.set("big", { ...entry(1), body: Buffer.from(original) });
    const client = await slowClient(cache, "big");

    // The entry is evicted, and bodies of its size are stored, while the response is still queued.
    for (const fill of [1, 2, 3]) cache.set(`other${fill}`, { ...entry(1), body: Buffer.alloc(size, fill) });
    expect(cache.get("big", at(1))).toBeUndefined();
    for (let i = 0; i < 4; i++) cache.set(`small${i}`, { ...entry(1), body: Buffer.alloc(300, i) });
    for (let i = 2; i < 4; i++) expect(cache.get(`small${i}`, at(1))?.body.every((byte) => byte === i)).toBe(true);

    const body = await client.receive();
    expect(body.length).toBe(size);
    expect(Buffer.compare(body, original)).toBe(0);
  });

  it("pipelined responses queued behind a paused client each carry the body they were given, across a replacement of the entry", async () => {
    const size = 512 * 1024;
    const cache = new ResponseCache(16, 64 * 1024 * 1024);
    const bodies = [randomBytes(size), randomBytes(size)];
    cache.set("big", { ...entry(1), body: Buffer.from(bodies[0]!) });
    const responses: ServerResponse[] = [];
    const server = createServer((req, res) => {
      const cached = cache.get("big", at(1))!;
      res.writeHead(200, { "content-length": String(cached.body.length) });
      res.end(cached.body);
      responses.push(res);
      // Halfway through, the answer changes: the later responses send the new entry's body.
      if (responses.length === 10) cache.set("big", { ...entry(1), body: Buffer.from(bodies[1]!) });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client = connect(port, "127.0.0.1");
    client.pause(); // reads nothing: the first response fills the socket, the later ones wait in Node's queue
    client.write("GET / HTTP/1.1\r\nHost: test\r\n\r\n".repeat(19) + "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    await vi.waitFor(() => expect(responses).toHaveLength(20));
    expect(responses.filter((res) => res.writableLength > 0).length).toBeGreaterThan(10); // bytes Node still holds
    const received: Buffer[] = [];
    client.on("data", (data: Buffer) => received.push(data));
    client.resume();
    await new Promise((resolve) => client.on("end", resolve));
    server.close();
    const stream = Buffer.concat(received);
    let offset = 0;
    for (let i = 0; i < 20; i++) {
      offset = stream.indexOf("\r\n\r\n", offset) + 4;
      expect(Buffer.compare(stream.subarray(offset, offset + size), bodies[i < 10 ? 0 : 1]!), `response ${i + 1}`).toBe(0);
      offset += size;
    }
  });
});

/**
 * Bounds of the import's media downloads (media-download.ts) against a real local HTTP server: loopback
 * hosts refused unless ALLOW_LOOPBACK_REQUESTS (the forms and redirects in server/shared/outgoing-request.test.ts),
 * byte limit declared and streamed, time limit, redirect limit, HTTP errors.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadMedia } from "./media-download.ts";

let server: Server;
let origin: string;
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/ok.png") res.writeHead(200).end(Buffer.concat([PNG_HEAD, Buffer.alloc(100)]));
    else if (req.url === "/declared-big") res.writeHead(200, { "content-length": String(5_000_000) }).end();
    else if (req.url === "/streamed-big") {
      res.writeHead(200); // chunked: no declared length
      for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024));
      res.end();
    } else if (req.url === "/slow")
      res.writeHead(200).write(PNG_HEAD); // never ends
    else if (req.url === "/loop") res.writeHead(302, { location: "/loop" }).end();
    else if (req.url === "/to-ok") res.writeHead(301, { location: "/ok.png" }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const allowed = { maxBytes: 1024 * 1024, timeoutMs: 2000, allowLoopback: true };

describe("downloadMedia", () => {
  it("downloads and sniffs a file, following a redirect", async () => {
    const file = await downloadMedia(`${origin}/to-ok`, allowed);
    expect(file).toMatchObject({ filename: "ok.png", bytes: 108, sniffed: "png" });
  });

  it("refuses loopback hosts unless allowed, by address and by name, and other schemes", async () => {
    await expect(downloadMedia(`${origin}/ok.png`, { ...allowed, allowLoopback: false })).rejects.toThrow(/^refused: 127\.0\.0\.1 is a loopback address, not on the public internet$/);
    await expect(downloadMedia(`${origin.replace("127.0.0.1", "localhost")}/ok.png`, { ...allowed, allowLoopback: false })).rejects.toThrow(/not on the public internet/);
    await expect(downloadMedia("http://[::1]:9/x.png", { ...allowed, allowLoopback: false })).rejects.toThrow(/not on the public internet/);
    await expect(downloadMedia("ftp://example.com/x.png", allowed)).rejects.toThrow(/refused: not an http:\/\/ or https:\/\/ URL/);
    await expect(downloadMedia("http://10.0.0.1:9/x.png", allowed)).rejects.toThrow(/refused: 10\.0\.0\.1 is a private address/); // the switch allows loopback only
  });

  it("stops at the byte limit, declared or streamed, and at the time limit", async () => {
    await expect(downloadMedia(`${origin}/declared-big`, allowed)).rejects.toThrow(/larger than 1 MB/);
    await expect(downloadMedia(`${origin}/streamed-big`, allowed)).rejects.toThrow(/larger than 1 MB/);
    const started = Date.now();
    await expect(downloadMedia(`${origin}/slow`, { ...allowed, timeoutMs: 300 })).rejects.toThrow(/no complete answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reports HTTP errors and redirect loops", async () => {
    await expect(downloadMedia(`${origin}/nothing.jpg`, allowed)).rejects.toThrow("HTTP 404");
    await expect(downloadMedia(`${origin}/loop`, allowed)).rejects.toThrow("too many redirects");
  });
});

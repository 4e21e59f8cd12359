/**
 * A merchant's shop page on another origin than Chorus (a server of its own on `localhost`; the Chorus
 * e2e server is `127.0.0.1`), for specs that paste the widget snippet into a shop: `html` is what it
 * serves next, at any path.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ShopOrigin = { html: string; url(path: string): string; close(): Promise<void> };

/** Start the shop's server (call in `beforeAll`, close in `afterAll`). */
export async function startShopOrigin(): Promise<ShopOrigin> {
  const shop: ShopOrigin = { html: "", url: () => "", close: async () => {} };
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(shop.html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  shop.url = (path) => `http://localhost:${port}${path}`;
  shop.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return shop;
}

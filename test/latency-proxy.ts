/**
 * A TCP proxy that adds latency: every chunk in either direction is passed on `delayMs` later (order kept), so a
 * node talks to PostgreSQL as across a network (issue #34: "5 ms of latency injected between a node and
 * PostgreSQL"). Used by test/db-latency.test.ts and `npm run bench:cluster`.
 *
 *   const proxy = await startLatencyProxy({ target: { host: "127.0.0.1", port: 5432 }, delayMs: 5 });
 *   // connect to 127.0.0.1:proxy.port; … await proxy.close();
 */
import { createServer, connect, type Socket } from "node:net";

export type LatencyProxy = {
  /** The loopback port the proxy listens on. */
  port: number;
  /** Stop listening and close every open connection. */
  close(): Promise<void>;
};

/** Start a proxy to `target` adding `delayMs` (ms) one way, so `2 × delayMs` per round trip. */
export async function startLatencyProxy(options: { target: { host: string; port: number }; delayMs: number }): Promise<LatencyProxy> {
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) => {
    // setTimeout with one delay fires in the order set: chunks keep their order.
    from.on("data", (chunk) => {
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
      }, options.delayMs);
    });
    from.on("end", () => setTimeout(() => to.end(), options.delayMs));
    from.on("error", () => to.destroy());
    from.on("close", () => setTimeout(() => to.destroy(), options.delayMs));
  };
  const server = createServer((client) => {
    const upstream = connect(options.target.port, options.target.host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    client.on("close", () => sockets.delete(client));
    upstream.on("close", () => sockets.delete(upstream));
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("latency proxy: no port");
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

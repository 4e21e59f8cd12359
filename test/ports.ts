/** Test and bench harness: picking a loopback port for a server a test starts. */
import { createServer } from "node:net";

/**
 * Ports above 1023 that `fetch` refuses to connect to ("bad port", Fetch standard, section 2.9 "port blocking"):
 * a test server on one of them is unreachable from the test's own requests.
 */
const FETCH_BLOCKED_PORTS = new Set([1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080]);

/**
 * A port in [from, to] nobody listens on at the moment (loopback), never one `fetch` blocks.
 * @throws when all are taken.
 */
export async function freePort(from: number, to: number): Promise<number> {
  const start = from + Math.floor(Math.random() * (to - from + 1));
  for (let i = 0; i <= to - from; i++) {
    const port = from + ((start - from + i) % (to - from + 1));
    if (FETCH_BLOCKED_PORTS.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once("error", () => resolve(false))
        .listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`No free port in ${from}-${to}`);
}

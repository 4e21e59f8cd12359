/**
 * The database-latency figures of issue #34 (`npm run bench:cluster` prints them; test/db-latency.test.ts holds
 * them): Chorus nodes on PostgreSQL 15 reached through test/latency-proxy.ts, which adds `delayMs` each way
 * (default 5 ms: 10 ms per round trip), as across a network.
 *
 * 1. **healthz under writes:** p99 (ms) of `GET /healthz`, one request every 5 ms, while 40 clients POST helpful
 *    votes back to back on the same node.
 * 2. **Uncached reads overlap:** product review pages with the response cache off (RESPONSE_CACHE=0), spread
 *    over the store's products: requests/s with 20 connections ÷ requests/s with 1.
 * 3. **Writes scale with nodes:** helpful votes from 40 clients: votes/s sent to two nodes (alternating) ÷ votes/s
 *    sent to one node.
 * Every vote is a new visitor on a new address (X-Forwarded-For from a trusted proxy), so none is refused.
 * Store: the first `reviews` rows (default 600) of the real review file. Needs `npm run build` and the PostgreSQL
 * 15 server binaries.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../server/services.ts";
import { seedRealReviews, TEST_STORE_ID } from "../test/fixtures.ts";
import { startLatencyProxy, type LatencyProxy } from "../test/latency-proxy.ts";
import { freeLoopbackPort, startPostgres } from "../test/postgres.ts";
import { startProcess, stopProcess } from "./lib.ts";

export type DbLatencyFigures = {
  delayMs: number;
  seconds: number;
  healthz: { p50: number; p99: number; max: number; samples: number; votesPerSec: number };
  reads: { one: number; twenty: number; ratio: number };
  writes: { oneNode: number; twoNodes: number; ratio: number; failed: number };
};

const PREFIX = `/v1/stores/${TEST_STORE_ID}`;

/** Run the three measurements (see the module comment); each lasts `seconds` (default 5). */
export async function runDbLatencyBench(options: { delayMs?: number; seconds?: number; reviews?: number; log?: (line: string) => void } = {}): Promise<DbLatencyFigures> {
  const delayMs = options.delayMs ?? 5;
  const seconds = options.seconds ?? 5;
  const log = options.log ?? (() => {});
  const postgres = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), "chorus-db-latency-"));
  const proxies: LatencyProxy[] = [];
  const children: Awaited<ReturnType<typeof startProcess>>[] = [];
  try {
    log("seeding");
    const services = await createServices({ databasePath: postgres.url, mediaPath: join(dir, "media") });
    const seeded = await seedRealReviews(services, { limit: options.reviews ?? 600 });
    await services.close();
    const products = [...new Set(seeded.map((r) => r.productId))];

    const target = { host: "127.0.0.1", port: postgres.port };
    const nodes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const proxy = await startLatencyProxy({ target, delayMs });
      proxies.push(proxy);
      const port = await freeLoopbackPort();
      const url = new URL(postgres.url);
      url.port = String(proxy.port);
      url.hostname = "127.0.0.1";
      children.push(
        await startProcess(
          ["server/http/main.ts"],
          {
            DATABASE_URL: url.toString(),
            DATABASE_PATH: join(dir, "unused.sqlite"),
            MEDIA_PATH: join(dir, "media"),
            HOST: "127.0.0.1",
            PORT: String(port),
            CHORUS_DEMO: "0",
            CHORUS_AI_WORKER: "0",
            LOG_LEVEL: "warn",
            RESPONSE_CACHE: "0",
            READ_WORKERS: "0",
            VOTES_PER_IP_PER_HOUR: "100000000",
            TRUSTED_PROXIES: "127.0.0.1",
          },
          `http://127.0.0.1:${port}/healthz`,
        ),
      );
      nodes.push(`http://127.0.0.1:${port}`);
    }
    const reviewIds = (
      await Promise.all(
        products
          .slice(0, 100)
          .map(async (p) => ((await (await fetch(`${nodes[0]}${PREFIX}/products/shopify-${p}/reviews?limit=10`)).json()) as { reviews: { reviewId: string }[] }).reviews.map((r) => r.reviewId)),
      )
    ).flat();
    if (!reviewIds.length) throw new Error("no reviews to vote on");

    // 1. healthz while 40 clients write on the same node.
    log("healthz under writes");
    await votes([nodes[0]!], reviewIds, 40, 1); // warm-up: pool connections open
    const healthz: number[] = [];
    const during = votes([nodes[0]!], reviewIds, 40, seconds);
    const until = performance.now() + seconds * 1000;
    const probes: Promise<void>[] = [];
    while (performance.now() < until) {
      probes.push(
        (async () => {
          const started = performance.now();
          const res = await fetch(`${nodes[0]}/healthz`);
          await res.arrayBuffer();
          if (res.ok) healthz.push(performance.now() - started);
        })(),
      );
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(probes);
    const load = await during;
    healthz.sort((a, b) => a - b);

    // 2. Uncached reads, 1 connection then 20.
    log("uncached reads");
    const paths = products.flatMap((p) => [`${PREFIX}/products/shopify-${p}/reviews?limit=5`, `${PREFIX}/products/shopify-${p}/review_aggregate`]);
    const one = await reads(nodes[0]!, paths, 1, seconds);
    const twenty = await reads(nodes[0]!, paths, 20, seconds);

    // 3. Writes: one node, then two.
    log("writes on one node, then two");
    const oneNode = await votes([nodes[0]!], reviewIds, 40, seconds);
    const twoNodes = await votes(nodes, reviewIds, 40, seconds);

    const round = (n: number) => Number(n.toFixed(2));
    return {
      delayMs,
      seconds,
      healthz: {
        p50: round(healthz[Math.floor(healthz.length * 0.5)] ?? 0),
        p99: round(healthz[Math.floor(healthz.length * 0.99)] ?? 0),
        max: round(healthz.at(-1) ?? 0),
        samples: healthz.length,
        votesPerSec: Math.round(load.perSec),
      },
      reads: { one: Math.round(one), twenty: Math.round(twenty), ratio: round(twenty / one) },
      writes: { oneNode: Math.round(oneNode.perSec), twoNodes: Math.round(twoNodes.perSec), ratio: round(twoNodes.perSec / oneNode.perSec), failed: oneNode.failed + twoNodes.failed },
    };
  } finally {
    for (const child of children) await stopProcess(child);
    for (const proxy of proxies) await proxy.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

let sent = Math.floor(Math.random() * 1e6);

/** `clients` clients POSTing helpful votes back to back for `seconds`, spread over `bases`: votes/s and failures. */
async function votes(bases: string[], reviewIds: string[], clients: number, seconds: number): Promise<{ perSec: number; failed: number }> {
  let ok = 0;
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < until) {
        const i = sent++;
        const res = await fetch(`${bases[c % bases.length]}${PREFIX}/reviews/${reviewIds[i % reviewIds.length]}/votes`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
          body: JSON.stringify({ vote: i % 3 === 0 ? "unhelpful" : "helpful", visitorId: `bench-${crypto.randomUUID()}` }),
        }).catch(() => null);
        await res?.arrayBuffer();
        if (res?.ok) ok++;
        else failed++;
      }
    }),
  );
  return { perSec: ok / seconds, failed };
}

/** `connections` clients GETting `paths` in turn for `seconds`: successful requests/s. */
async function reads(base: string, paths: string[], connections: number, seconds: number): Promise<number> {
  let ok = 0;
  let i = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const res = await fetch(`${base}${paths[i++ % paths.length]}`).catch(() => null);
        await res?.arrayBuffer();
        if (res?.ok) ok++;
      }
    }),
  );
  return ok / seconds;
}

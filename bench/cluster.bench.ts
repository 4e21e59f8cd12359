/**
 * The cluster column of `npm run bench` (issue #26; also alone: `npm run bench:cluster`): the cluster of
 * `npm run cluster` (test/cluster.ts: Varnish in front of two Chorus nodes over one PostgreSQL 15), measured in
 * the same run as the embedded server.
 * - Reads: storefront product reviews through Varnish, one hot URL and a Zipf spread (alpha 0.8) over every
 *   product, each as a ratio to a bare node:http endpoint measured right after it at the same connection count,
 *   with p99 and Varnish's hit ratio (varnishstat cache_hit / (hit + miss) over the measurement); beside them the
 *   same reads sent to node A directly (Chorus's own response cache over PostgreSQL, no Varnish) and to one node
 *   on SQLite (the embedded default, same store).
 * - Writes: helpful votes, each a commit (a new review, visitor and address every time: X-Forwarded-For from a
 *   trusted proxy), sent by WRITERS concurrent clients for BENCH_SECONDS: to one node on SQLite (the embedded
 *   default), and through Varnish to both nodes on PostgreSQL; writes/s and p99.
 * Store: the first CLUSTER_BENCH_REVIEWS rows (default 3,000) of the real review file, seeded into both engines
 * through the real data modules (the scale store of `npm run bench:data` is SQLite only).
 * Then (`npm run bench:cluster` only) the three database-latency figures of bench/db-latency.ts, as one table.
 * Env: BENCH_SECONDS (default 5), BENCH_WARMUP_SECONDS (default 2), BENCH_CONNECTIONS (default "10,50").
 * Needs `npm run build`, varnishd with varnish-modules and the PostgreSQL 15 server binaries.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createServices } from "../server/services.ts";
import { startCluster } from "../test/cluster.ts";
import { seedRealReviews, TEST_STORE_ID } from "../test/fixtures.ts";
import { freeLoopbackPort } from "../test/postgres.ts";
import { findVarnishd } from "../test/varnish.ts";
import { runDbLatencyBench, type DbLatencyFigures } from "./db-latency.ts";
import { loadInChild, printTable, startProcess, stopProcess, writeResults, type LoadResult } from "./lib.ts";

export type ClusterReadRow = LoadResult & { target: "varnish" | "node A" | "sqlite node"; ratio: number; hitRatio?: number; bare: LoadResult };
export type ClusterWriteRow = { engine: "sqlite" | "postgres"; target: string; writers: number; seconds: number; writesPerSec: number; p99: number; failed: number };
export type ClusterBench = { reviews: number; products: number; reads: ClusterReadRow[]; writes: ClusterWriteRow[] };

const WRITERS = 10;
const ZIPF_ALPHA = 0.8;

/**
 * Run the cluster measurements (see the module comment). `headers` go with every read (e.g. Chromium's
 * Accept-Encoding). @throws when Varnish or PostgreSQL is missing or a part does not start.
 */
export async function runClusterBench(options: { seconds: number; warmupSeconds: number; connections: number[]; headers: Record<string, string> }): Promise<ClusterBench> {
  if (!findVarnishd()) throw new Error("varnishd is not installed: apt-get install -y varnish varnish-modules");
  const reviewCount = Number(process.env.CLUSTER_BENCH_REVIEWS ?? 3000);
  const env = { CHORUS_AI_WORKER: "0", LOG_LEVEL: "warn", VOTES_PER_IP_PER_HOUR: "100000000", TRUSTED_PROXIES: "127.0.0.1" };
  const cluster = await startCluster({ nodes: 2, env });
  const dir = mkdtempSync(join(tmpdir(), "chorus-cluster-bench-"));
  const barePort = await freeLoopbackPort();
  const sqlitePort = await freeLoopbackPort();
  const children: Awaited<ReturnType<typeof startProcess>>[] = [];
  try {
    // The same store on both engines.
    const pg = await createServices({ databasePath: cluster.postgres.url, mediaPath: cluster.mediaPath });
    await seedRealReviews(pg, { limit: reviewCount });
    const products = (await pg.stores.topProducts(TEST_STORE_ID, 100_000)).map((p) => p.productId);
    await pg.close();
    const sqlitePath = join(dir, "chorus.sqlite");
    const lite = await createServices({ databasePath: sqlitePath, mediaPath: join(dir, "media") });
    await seedRealReviews(lite, { limit: reviewCount });
    await lite.close();
    const prefix = `/v1/stores/${TEST_STORE_ID}`;
    children.push(await startProcess(["bench/bare-server.ts"], { PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`));
    children.push(
      await startProcess(
        ["server/http/main.ts"],
        {
          ...env,
          PORT: String(sqlitePort),
          HOST: "127.0.0.1",
          DATABASE_PATH: sqlitePath,
          MEDIA_PATH: join(dir, "media"),
          CHORUS_DEMO: "0",
        },
        `http://127.0.0.1:${sqlitePort}${prefix}/review_aggregate`,
      ),
    );

    const counters = () => {
      const out = JSON.parse(execFileSync("varnishstat", ["-n", join(cluster.varnish.dir, "work"), "-1", "-j", "-f", "MAIN.cache_hit", "-f", "MAIN.cache_miss"], { encoding: "utf8" })) as {
        counters?: Record<string, { value: number }>;
      } & Record<string, { value: number }>;
      const c = out.counters ?? out;
      return { hit: c["MAIN.cache_hit"]!.value, miss: c["MAIN.cache_miss"]!.value };
    };
    const hot = [`${prefix}/products/shopify-${products[0]}/reviews`];
    const spread = products.map((p) => `${prefix}/products/shopify-${p}/reviews`);
    const reads: ClusterReadRow[] = [];
    for (const connections of options.connections) {
      for (const [name, paths, zipf] of [
        ["product reviews (hot)", hot, false],
        [`product reviews (Zipf spread, ${spread.length} products)`, spread, true],
      ] as const) {
        for (const [target, baseUrl] of [
          ["varnish", cluster.frontUrl],
          ["node A", cluster.nodes[0]!.url],
          ["sqlite node", `http://127.0.0.1:${sqlitePort}`],
        ] as const) {
          const before = target === "varnish" ? counters() : null;
          const r = await loadInChild({
            name,
            baseUrl,
            paths: [...paths],
            connections,
            seconds: options.seconds,
            warmupSeconds: options.warmupSeconds,
            headers: options.headers,
            ...(zipf ? { zipfAlpha: ZIPF_ALPHA } : {}),
          });
          const after = before ? counters() : null;
          const bare = await loadInChild({
            name: "bare node:http JSON",
            baseUrl: `http://127.0.0.1:${barePort}`,
            paths: ["/"],
            connections,
            seconds: options.seconds,
            warmupSeconds: options.warmupSeconds,
            headers: options.headers,
          });
          const hitRatio = before && after ? (after.hit - before.hit) / Math.max(1, after.hit - before.hit + after.miss - before.miss) : undefined;
          reads.push({ ...r, target, ratio: r.requestsPerSec / bare.requestsPerSec, hitRatio, bare });
        }
      }
    }

    // Writes: reviews to vote on (each engine has its own review IDs), by many addresses and visitors.
    const writes: ClusterWriteRow[] = [];
    for (const [engine, target, baseUrl] of [
      ["sqlite", "one node", `http://127.0.0.1:${sqlitePort}`],
      ["postgres", "2 nodes via Varnish", cluster.frontUrl],
    ] as const) {
      const reviewIds = (
        await Promise.all(
          products
            .slice(0, 300)
            .map(async (p) => ((await (await fetch(`${baseUrl}${prefix}/products/shopify-${p}/reviews?limit=10`)).json()) as { reviews: { reviewId: string }[] }).reviews.map((r) => r.reviewId)),
        )
      ).flat();
      writes.push({ engine, target, ...(await voteLoad(baseUrl, prefix, reviewIds, WRITERS, options.seconds)) });
    }
    return { reviews: reviewCount, products: products.length, reads, writes };
  } finally {
    for (const child of children) await stopProcess(child);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `writers` clients POSTing helpful votes back to back for `seconds` (after 1 s unmeasured): writes/s, p99 (ms), failures. */
async function voteLoad(
  baseUrl: string,
  prefix: string,
  reviewIds: string[],
  writers: number,
  seconds: number,
): Promise<{ writers: number; seconds: number; writesPerSec: number; p99: number; failed: number }> {
  let n = Math.floor(Math.random() * 1e6);
  const latencies: number[] = [];
  let failed = 0;
  const vote = async (measure: boolean) => {
    const i = n++;
    const started = performance.now();
    const res = await fetch(`${baseUrl}${prefix}/reviews/${reviewIds[i % reviewIds.length]}/votes`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      body: JSON.stringify({ vote: i % 3 === 0 ? "unhelpful" : "helpful", visitorId: `bench-${crypto.randomUUID()}` }),
    }).catch(() => null);
    await res?.arrayBuffer();
    if (!measure) return;
    if (res?.ok) latencies.push(performance.now() - started);
    else if (failed++ === 0) console.error(`bench: a vote on ${baseUrl} failed: ${res ? res.status : "no answer"}`);
  };
  const run = async (ms: number, measure: boolean) => {
    const until = performance.now() + ms;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (performance.now() < until) await vote(measure);
      }),
    );
  };
  await run(1_000, false);
  await run(seconds * 1000, true);
  latencies.sort((a, b) => a - b);
  return { writers, seconds, writesPerSec: Math.round(latencies.length / seconds), p99: Number((latencies[Math.floor(latencies.length * 0.99)] ?? 0).toFixed(1)), failed };
}

/** Print the two tables of `result`. */
export function printClusterBench(result: ClusterBench): void {
  console.log(`\nCluster (Varnish, 2 Chorus nodes, PostgreSQL 15; ${result.reviews} reviews over ${result.products} products):`);
  printTable(
    result.reads.map((r) => ({
      scenario: r.name,
      target: r.target,
      conns: r.connections,
      "req/s": r.requestsPerSec,
      "p50 ms": r.p50,
      "p99 ms": r.p99,
      "bare req/s": r.bare.requestsPerSec,
      "vs bare": `${Math.round(r.ratio * 100)}%`,
      "hit ratio": r.hitRatio === undefined ? "-" : `${(r.hitRatio * 100).toFixed(2)}%`,
      errors: r.errors,
      non2xx: r.non2xx,
    })),
  );
  console.log("");
  printTable(result.writes.map((w) => ({ writes: "helpful votes", engine: w.engine, target: w.target, clients: w.writers, "writes/s": w.writesPerSec, "p99 ms": w.p99, failed: w.failed })));
}

/** Print the three figures of bench/db-latency.ts as one table. */
export function printDbLatency(f: DbLatencyFigures): void {
  console.log(`\nPostgreSQL 15 behind ${f.delayMs} ms of injected latency each way (bench/db-latency.ts, ${f.seconds} s each):`);
  printTable([
    {
      figure: "healthz p99 under 40 writers (one node)",
      value: `${f.healthz.p99} ms`,
      detail: `p50 ${f.healthz.p50} ms, max ${f.healthz.max} ms, ${f.healthz.samples} probes, ${f.healthz.votesPerSec} votes/s`,
    },
    { figure: "uncached reads, 20 connections vs 1", value: `${f.reads.ratio}x`, detail: `${f.reads.twenty} req/s vs ${f.reads.one} req/s` },
    { figure: "helpful votes, 2 nodes vs 1 (40 clients)", value: `${f.writes.ratio}x`, detail: `${f.writes.twoNodes} votes/s vs ${f.writes.oneNode} votes/s, ${f.writes.failed} failed` },
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runClusterBench({
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
    connections: (process.env.BENCH_CONNECTIONS ?? "10,50").split(",").map(Number),
    headers: { "accept-encoding": "gzip, deflate, br, zstd" },
  });
  printClusterBench(result);
  // The database-latency figures of issue #34 (bench/db-latency.ts), on a PostgreSQL of their own.
  const dbLatency = await runDbLatencyBench({ seconds: Number(process.env.BENCH_SECONDS ?? 5), log: (line) => console.error(`db-latency: ${line}`) });
  printDbLatency(dbLatency);
  console.log(`Results written to ${writeResults("cluster", { ...result, dbLatency })}`);
}

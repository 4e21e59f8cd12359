/**
 * `npm run bench` (issue 8): the storefront and enterprise APIs over the scale store built by
 * `npm run bench:data` (DATABASE_PATH, default data/bench.sqlite). For each scenario, autocannon on
 * loopback at 10 and 50 connections reports requests/s, p50, p99, errors, and the ratio to a bare
 * node:http JSON endpoint measured right after that scenario, at the same connection count; "spread" scenarios cycle through many distinct URLs,
 * "hot" ones repeat one URL. The realistic spread ("Zipf spread") draws product or group URLs by
 * popularity, most-reviewed first, with a Zipf-like law (alpha 0.8, see bench/lib.ts zipfSampler);
 * "uniform" rows cycle through every URL in turn; the reviews one walks all 70,000 product × order
 * URLs, more than the response cache holds, so every request misses (the worst case). The "votes/s" row
 * repeats the date-desc Zipf spread while this process posts helpful votes (10/s, bench/lib.ts writeLoad)
 * on reviews of popular products: a shop with a steady trickle of writes, each one a commit. Each measurement follows an unmeasured warm-up on the same URL stream, as a
 * long-running server sees traffic, and runs in a fresh load-generator process (bench/load-child.ts). A new
 * server process first gets an unmeasured warm-up of its own, on URLs no scenario requests (`limit=7`). Prints a table and writes JSON under bench/results/.
 * Requests carry Chromium's `Accept-Encoding: gzip, deflate, br, zstd` by default, as every request
 * from the widgets does: an answer served again from the response cache comes back as brotli
 * (server/http/encoding.ts), a first one uncompressed. BENCH_ACCEPT_ENCODING=identity measures
 * uncompressed answers throughout (API clients that do not ask for compression). The load generator no
 * longer decodes the bodies it receives (bench/lib.ts), which had made it the bottleneck for compressed
 * and for large answers.
 * Env: BENCH_SECONDS (default 5) per measurement, BENCH_WARMUP_SECONDS (default 2),
 * BENCH_CONNECTIONS (default "10,50"), BENCH_ONLY (a substring: run only the scenarios whose name has it),
 * BENCH_ACCEPT_ENCODING.
 * Goals: no errors; p99 < 20 ms at 50 connections; spread ≥ 20 % and hot ≥ 50 % of bare.
 * Then the cluster column (bench/cluster.bench.ts: Varnish in front of two nodes over PostgreSQL, reads as ratios
 * to bare, hit ratio, p99, and writes/s on PostgreSQL vs SQLite); BENCH_CLUSTER=0 or BENCH_ONLY skips it.
 * The server runs with CHORUS_AI_WORKER=0. The AI worker runs in its own thread and no longer stalls
 * the API, but on the scale store it would start generating for thousands of products: it takes the
 * second core from the load generator, and each of its commits makes the cached answers of the product
 * it wrote stale, so the figures would measure a sweep in progress (generate first with
 * `npm run ai -- summarise`, see docs/ai.md).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";
import { BENCH_STORE_ID } from "../server/cli/bench-data.constants.ts";
import { REVIEW_ORDERS } from "../server/contract/storefront.ts";
import { createServices } from "../server/services.ts";
import { loadInChild, printTable, startProcess, stopProcess, writeLoad, writeResults, zipfSampler, type LoadResult } from "./lib.ts";
import { extraScenarios, type Scenario } from "./scenarios.ts";
import { printClusterBench, runClusterBench } from "./cluster.bench.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ZIPF_ALPHA = 0.8;
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? "10,50").split(",").map(Number);
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br, zstd";
/** Headers added to every request (the bare endpoint's too). */
const CLIENT_HEADERS: Record<string, string> = ACCEPT_ENCODING ? { "accept-encoding": ACCEPT_ENCODING } : {};
const databasePath = resolve(process.env.DATABASE_PATH ?? join(PROJECT_ROOT, "data/bench.sqlite"));
if (!existsSync(databasePath)) {
  console.error(`No scale store at ${databasePath}: run \`npm run bench:data\` first.`);
  process.exit(1);
}

const services = await createServices({ databasePath });
const products = (await services.stores.topProducts(BENCH_STORE_ID, 100_000)).map((p) => p.productId);
const groups = (await services.stores.listGroups(BENCH_STORE_ID)).map((g) => g.groupId);
await services.close();
if (products.length === 0) {
  console.error(`${databasePath} has no bench store: run \`npm run bench:data\`.`);
  process.exit(1);
}

const port = 3903;
const base = `http://127.0.0.1:${port}`;
const prefix = `/v1/stores/${BENCH_STORE_ID}`;
const enc = encodeURIComponent;

/** Follow nextUrl `pages` times from `path`; returns the deep page's absolute path. */
async function deepPage(path: string, pages: number): Promise<string> {
  let current = path;
  for (let i = 0; i < pages; i++) {
    const body = (await (await fetch(base + current)).json()) as { nextUrl?: string };
    if (!body.nextUrl) break;
    current = `/v1${body.nextUrl}`; // nextUrl is relative to /v1 (docs/api.md, Paging)
  }
  return current;
}

const server = await startProcess(
  ["server/http/main.ts"],
  { PORT: String(port), HOST: "127.0.0.1", DATABASE_PATH: databasePath, CHORUS_DEMO: "0", CHORUS_AI_WORKER: "0" },
  `${base}${prefix}/review_aggregate`,
);
const top = products[0];
const deepPaths = await Promise.all(products.slice(0, 20).map((p) => deepPage(`${prefix}/products/shopify-${p}/reviews?limit=25`, 20)));
const zipf = "zipf" as const;
// Helpful votes for the "with votes" row: reviews of the 500 most popular products, read through URLs no
// scenario requests (`limit=5`), voted on by product popularity (the same Zipf law, its own seed), each
// by a new visitor. Each run adds its votes to the scale store (~140 at 10 votes/s).
const VOTES_PER_SECOND = 10;
const voteTargets = await Promise.all(
  products
    .slice(0, 500)
    .map(async (p) => ((await (await fetch(`${base}${prefix}/products/shopify-${p}/reviews?limit=5`)).json()) as { reviews: { reviewId: string }[] }).reviews.map((r) => r.reviewId)),
);
const voteSampler = zipfSampler(ZIPF_ALPHA, 7);
const nextVote = () => {
  const reviews = voteTargets[voteSampler(voteTargets.length)]!;
  return { path: `${prefix}/reviews/${reviews[Math.floor(Math.random() * reviews.length)]}/votes`, body: { vote: "helpful", visitorId: `bench-${crypto.randomUUID()}` } };
};
const allScenarios: Scenario[] = [
  { name: "list reviews, product, date desc (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews`), popularity: zipf },
  // The same spread on a shop with a steady trickle of writes: each vote is a commit (content scopes,
  // decision 0007, keep the cached answers of the other products). `limit=25` is the default: the same
  // answers under URLs of their own, so this row starts with none of them cached, as the others do.
  {
    name: `list reviews, product, date desc (Zipf spread, ${VOTES_PER_SECOND} votes/s)`,
    paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews?limit=25`),
    popularity: zipf,
    writes: { perSecond: VOTES_PER_SECOND, next: nextVote },
  },
  // Every product in every order, in turn: 70,000 URLs, more than the response cache holds, so a cyclic
  // walk misses on every request (least recently used goes first).
  { name: "list reviews, product, every order (uniform, all misses)", paths: REVIEW_ORDERS.flatMap((o) => products.map((p) => `${prefix}/products/shopify-${p}/reviews?orderBy=${enc(o)}`)) },
  { name: "list reviews, product, date desc (hot)", paths: [`${prefix}/products/shopify-${top}/reviews`] },
  // Server-rendered snippets (issue #25): HTML of the element with its first page, beside the JSON hit it replaces.
  { name: "reviews snippet, product, date desc (hot)", paths: [`${prefix}/products/shopify-${top}/snippets/reviews`] },
  { name: "reviews snippet, product, date desc (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/snippets/reviews`), popularity: zipf },
  { name: "list reviews, product, rating asc (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews?orderBy=${enc("rating asc")}`), popularity: zipf },
  { name: "list reviews, product, helpful desc (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews?orderBy=${enc("helpful desc")}`), popularity: zipf },
  { name: "list reviews, product, page ~20 via nextUrl", paths: deepPaths },
  { name: "list reviews, group, has_media desc (Zipf spread)", paths: groups.map((g) => `${prefix}/collections/${g}/reviews?orderBy=${enc("has_media desc")}`), popularity: zipf },
  { name: "list reviews, store, date desc (hot)", paths: [`${prefix}/reviews`] },
  { name: "review aggregate, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/review_aggregate`), popularity: zipf },
  { name: "star-rating snippet, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/snippets/star-rating`), popularity: zipf },
  { name: "review aggregate, product (uniform, 10,000 URLs)", paths: products.map((p) => `${prefix}/products/shopify-${p}/review_aggregate`) },
  { name: "review media, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/review_media`), popularity: zipf },
  { name: "questions, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/questions`), popularity: zipf },
  ...(await extraScenarios({ base, prefix, products, groups, databasePath })),
];
/** URLs of the server warm-up: product pages of every order with a page size no scenario uses. */
const SERVER_WARMUP_PATHS = REVIEW_ORDERS.flatMap((o) => products.slice(0, 2000).map((p) => `${prefix}/products/shopify-${p}/reviews?limit=7&orderBy=${enc(o)}`));
const scenarios = allScenarios.filter((s) => !process.env.BENCH_ONLY || s.name.includes(process.env.BENCH_ONLY));
await stopProcess(server);

// The bare endpoint is measured right after each scenario, at the same connection count and durations:
// this machine's speed drifts by up to 2x within one run (other tenants of the host), so a baseline taken
// once per block made the ratios of later scenarios depend on when they ran. Both servers stay up; only
// the one being measured has traffic.
const results: (LoadResult & { ratio: number; bare: LoadResult; writes?: { accepted: number; failed: number } })[] = [];
for (const c of CONNECTIONS) {
  const bareServer = await startProcess(["bench/bare-server.ts"], { PORT: "3904" }, "http://127.0.0.1:3904/");
  const app = await startProcess(
    ["server/http/main.ts"],
    { PORT: String(port), HOST: "127.0.0.1", DATABASE_PATH: databasePath, CHORUS_DEMO: "0", CHORUS_AI_WORKER: "0" },
    `${base}${prefix}/review_aggregate`,
  );
  // The server process is new: before the first scenario, run its code paths (HTTP thread and read worker:
  // JIT, prepared statements) on URLs no scenario requests (`limit=7`), as a server that has been running
  // would have. The response cache holds none of the scenarios' URLs afterwards.
  await loadInChild({ name: "server warm-up", baseUrl: base, paths: SERVER_WARMUP_PATHS, connections: c, seconds: WARMUP_SECONDS + 1, warmupSeconds: 0, headers: CLIENT_HEADERS });
  for (const s of scenarios) {
    const writer = s.writes && writeLoad(base, s.writes.perSecond, s.writes.next);
    const r = await loadInChild({
      name: s.name,
      baseUrl: base,
      paths: s.paths,
      connections: c,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      headers: { ...CLIENT_HEADERS, ...s.headers },
      requests: s.requests,
      ...(s.popularity === "zipf" ? { zipfAlpha: ZIPF_ALPHA } : {}),
    });
    const writes = await writer?.stop();
    const bare = await loadInChild({
      name: "bare node:http JSON",
      baseUrl: "http://127.0.0.1:3904",
      paths: ["/"],
      connections: c,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      headers: CLIENT_HEADERS,
    });
    results.push({ ...r, ratio: r.requestsPerSec / bare.requestsPerSec, bare, ...(writes ? { writes } : {}) });
  }
  await stopProcess(app);
  await stopProcess(bareServer);
}

printTable(
  results.map((r) => ({
    scenario: r.name,
    conns: r.connections,
    "req/s": r.requestsPerSec,
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    "bare req/s": r.bare.requestsPerSec,
    "vs bare": `${Math.round(r.ratio * 100)}%`,
    "KB/answer": (r.bytesPerRequest / 1024).toFixed(1),
    errors: r.errors,
    non2xx: r.non2xx,
    "writes ok/failed": r.writes ? `${r.writes.accepted}/${r.writes.failed}` : "-",
  })),
);
console.log(
  `\nGoals: no errors; p99 < 20 ms at 50 connections; spread >= 20% and hot >= 50% of bare. Zipf alpha ${ZIPF_ALPHA}, warm-up ${WARMUP_SECONDS} s, ${SECONDS} s measured, Accept-Encoding: ${ACCEPT_ENCODING || "(none)"}.`,
);
// The cluster column (bench/cluster.bench.ts): Varnish, two nodes, PostgreSQL, in the same run. BENCH_CLUSTER=0 skips it.
const cluster =
  process.env.BENCH_CLUSTER === "0" || process.env.BENCH_ONLY
    ? undefined
    : await runClusterBench({ seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, headers: CLIENT_HEADERS });
if (cluster) printClusterBench(cluster);
console.log(`Results written to ${writeResults("api", { seconds: SECONDS, databasePath, acceptEncoding: ACCEPT_ENCODING, results, cluster })}`);

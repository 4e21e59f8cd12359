/**
 * `npm run bench:ai`: keyword extraction and summary throughput (reviews/s) on the real clothing reviews
 * (../shared/data or DEMO_DATA_DIR). Extraction: the wink-nlp engine over N reviews (default 3000,
 * BENCH_AI_REVIEWS). Summary: full generation (analysis + counts + template + store) for the products
 * with 30+ reviews among them, on a temp SQLite file; then regeneration with the analysis already cached.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeywordEngine } from "../server/ai/keywords.ts";
import { createServices } from "../server/services.ts";
import { realReviews, seedRealReviews, TEST_STORE_ID } from "../test/fixtures.ts";

const N = Number(process.env.BENCH_AI_REVIEWS ?? 3000);
const rows = realReviews().slice(0, N);

const engine = createKeywordEngine();
engine.analyse("Warm-up.", "The fabric is soft.", 5); // model load is not part of the rate
let t0 = performance.now();
let mentions = 0;
for (const r of rows) mentions += engine.analyse(r.title, r.body, r.rating).length;
const extractMs = performance.now() - t0;
console.log(`keyword extraction: ${rows.length} reviews in ${extractMs.toFixed(0)} ms = ${Math.round(rows.length / (extractMs / 1000))} reviews/s (${mentions} keyword identifications)`);

const dir = mkdtempSync(join(tmpdir(), "chorus-bench-ai-"));
const services = await createServices({ databasePath: join(dir, "bench.sqlite"), ai: { llm: null, translation: null } });
try {
  const productIds = [...new Set(rows.map((r) => r.productId))];
  await seedRealReviews(services, { productIds });
  const products = (await services.stores.topProducts(TEST_STORE_ID, 100_000)).filter((p) => p.reviewCount >= services.aiConfig.minReviews);
  const total = products.reduce((n, p) => n + p.reviewCount, 0);
  for (const label of ["summary (cold: analysis + generation)", "summary (warm: analysis cached)"]) {
    t0 = performance.now();
    for (const p of products) await services.ai.generate(TEST_STORE_ID, { type: "product", id: p.productId });
    const ms = performance.now() - t0;
    console.log(
      `${label}: ${products.length} products, ${total} reviews in ${ms.toFixed(0)} ms = ${Math.round(total / (ms / 1000))} reviews/s (${((ms / total) * 1000).toFixed(0)} ms per 1,000 reviews)`,
    );
  }
} finally {
  await services.close();
  rmSync(dir, { recursive: true, force: true });
}

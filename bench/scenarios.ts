/**
 * Benchmark scenarios of areas beyond reviews (AI content, enterprise surveys, loyalty). Each area adds
 * its scenarios here; `bench/api.bench.ts` runs them with the reviews scenarios.
 */
export type Scenario = { name: string; paths: string[]; headers?: Record<string, string> };
export type ScenarioContext = { base: string; prefix: string; products: string[]; groups: string[]; databasePath: string };

/** Scenarios of the other areas for the scale store. */
export async function extraScenarios(ctx: ScenarioContext): Promise<Scenario[]> {
  const { prefix, products } = ctx;
  return [
    { name: "reviews summary, product (spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews_summary`) },
    { name: "reviews keywords, product (spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews_keywords`) },
  ];
}

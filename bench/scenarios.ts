/**
 * Benchmark scenarios beyond the reviews listings: AI content, the enterprise survey-responses
 * listing (first and deep pages, Basic auth), and loyalty reads (general, and tailored with a Bearer
 * customer token per customer). `bench/api.bench.ts` runs them with the reviews scenarios.
 */
import { BENCH_PLATFORM_SECRET, BENCH_STORE_ID } from "../server/cli/bench-data.constants.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { createServices } from "../server/services.ts";
import { DEMO_SURVEY_IDS } from "../server/surveys/surveys.demo.ts";

export type Request = { path: string; headers?: Record<string, string> };
/** A JSON POST sent alongside a scenario's reads. */
export type Write = { path: string; body: unknown };
/**
 * `popularity: "zipf"` draws the paths (most popular first) by a Zipf-like law (bench/lib.ts zipfSampler); else round-robin.
 * `writes`: POSTs sent at `perSecond` during the scenario's warm-up and measurement (bench/lib.ts writeLoad).
 */
export type Scenario = {
  name: string;
  paths: string[];
  headers?: Record<string, string>;
  requests?: Request[];
  popularity?: "zipf";
  writes?: { perSecond: number; next: () => Write };
};
export type ScenarioContext = { base: string; prefix: string; products: string[]; groups: string[]; databasePath: string };

/** Scenarios of the other areas for the scale store. The server at `ctx.base` is running. */
export async function extraScenarios(ctx: ScenarioContext): Promise<Scenario[]> {
  const { base, prefix, products, databasePath } = ctx;
  const out: Scenario[] = [
    { name: "reviews summary, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews_summary`), popularity: "zipf" },
    { name: "reviews keywords, product (Zipf spread)", paths: products.map((p) => `${prefix}/products/shopify-${p}/reviews_keywords`), popularity: "zipf" },
  ];

  // Loyalty: general rules (public) and the customer's own details with a Bearer token (tailored).
  out.push({ name: "loyalty earning rules, general (hot)", paths: [`${prefix}/loyalty/earning_rules`] });
  const requests: Request[] = [];
  for (let c = 0; c < 200; c++) {
    const platformToken = await signPlatformToken(BENCH_PLATFORM_SECRET, { platformCustomerId: `bench-${c}`, email: `bench-${c}@example.com` });
    const res = await fetch(`${base}${prefix}/loyalty/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken: platformToken }) });
    if (!res.ok) break;
    const { customerToken } = (await res.json()) as { customerToken: string };
    requests.push({ path: `${prefix}/loyalty/customer`, headers: { authorization: `Bearer ${customerToken}` } });
  }
  if (requests.length) out.push({ name: `loyalty customer, Bearer, ${requests.length} customers (spread)`, paths: [], requests });
  // Enterprise last: its 100-row pages (~110 KB each) are the heaviest for the load generator too.
  // Enterprise: a bench API key, then the first page and pages deep into the listing (via nextUrl).
  const services = await createServices({ databasePath });
  const key = (await services.apiKeys.create(BENCH_STORE_ID, `bench ${new Date().toISOString()}`)).key;
  const surveyPages: string[] = [];
  let page = await services.surveys.listResponses(BENCH_STORE_ID, DEMO_SURVEY_IDS.nps, { limit: 100, orderBy: "date desc" });
  surveyPages.push(`/enterprise/surveys/${DEMO_SURVEY_IDS.nps}/responses?limit=100`);
  for (let i = 1; page.nextUrl && i < 1000; i++) {
    if (i % 50 === 0) surveyPages.push(page.nextUrl);
    const lastEvaluated = new URL(page.nextUrl, "http://x").searchParams.get("lastEvaluated")!;
    page = await services.surveys.listResponses(BENCH_STORE_ID, DEMO_SURVEY_IDS.nps, { limit: 100, orderBy: "date desc", lastEvaluated });
  }
  await services.close();
  const basic = { authorization: `Basic ${Buffer.from(`${BENCH_STORE_ID}:${key}`).toString("base64")}` };
  if (surveyPages.length > 1) {
    out.push({ name: "enterprise responses, limit=100, first page (hot)", paths: [surveyPages[0]], headers: basic });
    out.push({ name: `enterprise responses, limit=100, ${surveyPages.length - 1} deep pages`, paths: surveyPages.slice(1), headers: basic });
  }

  return out;
}

/**
 * `npm run bench:data` — build a scale store for benchmarks in DATABASE_PATH (default
 * data/bench.sqlite): BENCH_REVIEWS (default 1,000,000) published reviews over BENCH_PRODUCTS (10,000)
 * products in BENCH_GROUPS (500) groups, reusing the real review texts of the shared clothing file
 * with varied products, dates (over two years) and helpful counts; ratings stay those of the real text;
 * BENCH_RESPONSES (100,000) NPS survey responses from the real NPS answers; BENCH_CUSTOMERS (10,000)
 * enrolled loyalty customers with BENCH_TRANSACTIONS (200,000) ledger transactions.
 * Prints progress. Refuses to touch a database that already has the bench store.
 */
import { createHash } from "node:crypto";
import { loadConfig, PROJECT_ROOT } from "../config.ts";
import { join, resolve } from "node:path";
import { bulkLoadReviews } from "../reviews/bulk.repo.ts";
import { transaction } from "../db/database.ts";
import { createServices } from "../services.ts";
import { progress } from "./progress.ts";
import { parse } from "csv-parse/sync";
import { readFileSync } from "node:fs";
import { decodeHTML } from "entities";

import { BENCH_PLATFORM_SECRET, BENCH_STORE_ID } from "./bench-data.constants.ts";
import { demoProgram } from "../loyalty/loyalty.demo.ts";
import { DEMO_CHANNEL_IDS, DEMO_NPS_FILE, DEMO_SURVEY_IDS, NPS_SURVEY, npsResponses, readNpsRows } from "../surveys/surveys.demo.ts";
import { validateAnswers } from "../surveys/answers.ts";

const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const REVIEWS = n("BENCH_REVIEWS", 1_000_000);
const PRODUCTS = n("BENCH_PRODUCTS", 10_000);
const GROUPS = n("BENCH_GROUPS", 500);
const BATCH = 50_000;

const databasePath = resolve(process.env.DATABASE_PATH ?? join(PROJECT_ROOT, "data/bench.sqlite"));
const config = loadConfig({ ...process.env, DATABASE_PATH: databasePath });
const services = await createServices({ databasePath });
const { db } = services;
if (await services.stores.get(BENCH_STORE_ID)) {
  console.error(`${databasePath} already has the bench store; delete the file to rebuild it.`);
  process.exit(1);
}
const started = performance.now();
const file = join(config.DEMO_DATA_DIR, "womens_clothing_ecommerce_reviews.csv");
const real = (parse(readFileSync(file), { columns: true, bom: true }) as Record<string, string>[]).map((r) => ({
  title: decodeHTML(r.Title ?? ""),
  body: decodeHTML(r["Review Text"] ?? ""),
  rating: Number(r.Rating),
  recommended: r["Recommended IND"] === "1",
  helpful: Number(r["Positive Feedback Count"]) || 0,
}));
console.log(`Building ${REVIEWS.toLocaleString()} reviews over ${PRODUCTS.toLocaleString()} products and ${GROUPS} groups from ${real.length.toLocaleString()} real review texts into ${databasePath}`);

await services.stores.create({ storeId: BENCH_STORE_ID, name: "Scale bench store", platform: "shopify" });
await transaction(db, async () => {
  for (let g = 0; g < GROUPS; g++) await services.stores.upsertGroup({ storeId: BENCH_STORE_ID, groupId: `group-${g}`, name: `Group ${g}` });
  for (let p = 0; p < PRODUCTS; p++) await services.stores.upsertProduct({ storeId: BENCH_STORE_ID, productId: String(100_000 + p), name: `Product ${100_000 + p}`, groupId: `group-${p % GROUPS}` });
});

// Deterministic pseudo-randomness so two runs build the same store.
const rand = (i: number, salt: string) => createHash("sha1").update(`${salt}:${i}`).digest().readUInt32BE(0) / 2 ** 32;
const now = Date.now();
const bar = progress("bench:data reviews", REVIEWS);
await bulkLoadReviews(db, BENCH_STORE_ID, async (insert) => {
  for (let start = 0; start < REVIEWS; start += BATCH) {
    await transaction(db, async () => {
      for (let i = start; i < Math.min(start + BATCH, REVIEWS); i++) {
        const r = real[i % real.length];
        // Skewed popularity: a few products get many reviews, most get a few.
        const product = Math.floor(PRODUCTS * rand(i, "p") ** 2);
        await insert({
          reviewId: crypto.randomUUID(),
          storeId: BENCH_STORE_ID,
          productId: String(100_000 + product),
          rating: r.rating,
          title: r.title,
          body: r.body,
          createdMs: now - Math.floor(rand(i, "d") * 730 * 86_400_000),
          status: "published",
          reviewerName: "Anonymous shopper",
          helpfulCount: Math.floor(r.helpful * rand(i, "h") * 2),
          isRecommended: r.recommended,
          languageCode: "en",
          source: "bench",
          sourceKey: String(i),
        });
      }
    });
    bar.update(Math.min(start + BATCH, REVIEWS));
  }
});
bar.stop();
const agg = await services.reviewsData.aggregate(BENCH_STORE_ID, { type: "store" });
console.log(`Reviews: ${agg.review_count.toLocaleString()} published (average ${(agg.rating_total / agg.review_count).toFixed(2)}) in ${Math.round((performance.now() - started) / 1000)} s`);

// Survey responses: the real NPS answers (validated once by the one schema module), cycled.
const RESPONSES = n("BENCH_RESPONSES", 100_000);
const surveysStarted = performance.now();
await services.surveys.createSurvey(BENCH_STORE_ID, NPS_SURVEY);
const questions = await services.surveysData.questionsOf(BENCH_STORE_ID, DEMO_SURVEY_IDS.nps);
const templates = npsResponses(readNpsRows(join(config.DEMO_DATA_DIR, DEMO_NPS_FILE))).map((r) => validateAnswers(DEMO_SURVEY_IDS.nps, questions, r.answeredQuestions));
const surveyBar = progress("bench:data survey responses", RESPONSES);
for (let start = 0; start < RESPONSES; start += BATCH) {
  await transaction(db, async () => {
    for (let i = start; i < Math.min(start + BATCH, RESPONSES); i++) {
      const answers = templates[i % templates.length];
      const nps = answers.find((a) => a.type === "nps");
      await services.surveysData.insertResponse(
        {
          survey_response_id: crypto.randomUUID(),
          store_id: BENCH_STORE_ID,
          survey_id: DEMO_SURVEY_IDS.nps,
          channel_survey_id: DEMO_CHANNEL_IDS.npsEmail,
          answered_questions_json: JSON.stringify(answers),
          customer_id: null,
          customer_email: null,
          email_marketing_opt_in: null,
          is_archived: 0,
          remote_order_id: null,
          reward_type: null,
          reward_description: null,
          reward_value: null,
          nps_score: nps?.type === "nps" ? nps.answer : null,
          nps_category: nps?.type === "nps" ? nps.answerNpsCategory : null,
          created_ms: now - (RESPONSES - i) * 60_000,
          idempotency_key: null,
          request_hash: null,
        },
        "",
      );
    }
  });
  surveyBar.update(Math.min(start + BATCH, RESPONSES));
}
surveyBar.stop();
console.log(`Survey responses: ${RESPONSES.toLocaleString()} in ${Math.round((performance.now() - surveysStarted) / 1000)} s`);

// Loyalty: customers enrolled through the real service (sign-up points, initial tier), then order
// earnings, so the ledger is built exactly as production builds it.
const CUSTOMERS = n("BENCH_CUSTOMERS", 10_000);
const TRANSACTIONS = n("BENCH_TRANSACTIONS", 200_000);
const loyaltyStarted = performance.now();
await services.loyalty.setupProgram(BENCH_STORE_ID, demoProgram(BENCH_PLATFORM_SECRET));
const perCustomer = Math.max(1, Math.round(TRANSACTIONS / CUSTOMERS));
const loyaltyBar = progress("bench:data loyalty transactions", CUSTOMERS * perCustomer);
for (let start = 0; start < CUSTOMERS; start += 500) {
  await transaction(db, async () => {
    for (let c = start; c < Math.min(start + 500, CUSTOMERS); c++) {
      const id = crypto.randomUUID();
      await services.loyaltyData.insertCustomer({ loyaltyCustomerId: id, storeId: BENCH_STORE_ID, platformCustomerId: `bench-${c}`, email: `bench-${c}@example.com` });
      await services.loyalty.activate(BENCH_STORE_ID, id, { enrollmentChannel: "bench", legalPoliciesVersionAccepted: (await services.loyalty.legalPolicies(BENCH_STORE_ID)).version }, null);
      for (let k = 1; k < perCustomer; k++) {
        await services.loyalty.earnForOrder(BENCH_STORE_ID, { customer: { platformCustomerId: `bench-${c}` }, orderId: `bench-${c}-${k}`, amount: 10 + Math.floor(rand(c * 100 + k, "o") * 200) });
      }
    }
  });
  loyaltyBar.update(Math.min(start + 500, CUSTOMERS) * perCustomer);
}
loyaltyBar.stop();
const mismatches = (await services.loyaltyData.ledgerMismatches(BENCH_STORE_ID)).length;
console.log(
  `Loyalty: ${CUSTOMERS.toLocaleString()} customers, ${(CUSTOMERS * perCustomer).toLocaleString()} transactions in ${Math.round((performance.now() - loyaltyStarted) / 1000)} s (ledger mismatches: ${mismatches})`,
);
console.log(`Done in ${Math.round((performance.now() - started) / 1000)} s.`);
await services.close();

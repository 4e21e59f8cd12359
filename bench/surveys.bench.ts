/**
 * `npm run bench:surveys` (after `npm run build`): the enterprise survey-responses listing over
 * 100,000 responses, `limit=100`, first page vs last page, through the real HTTP server on loopback
 * with autocannon. Keyset paging means the last page should cost about the same as the first.
 *
 * Data: the real NPS rows (../shared/data/nps_verbatims_broadband.csv) cycled to 100,000 responses,
 * one minute apart. Prints requests/s and latency p50/p99 (ms) per page, plus the in-process cost of
 * one page (µs), and writes bench/results/surveys.json.
 * Env: BENCH_RESPONSES (default 100000), BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10).
 */
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";
import { NPS_SURVEY, DEMO_CHANNEL_IDS, DEMO_NPS_FILE, DEMO_SURVEY_IDS, npsResponses, readNpsRows } from "../server/surveys/surveys.demo.ts";
import { validateAnswers } from "../server/surveys/surveys.service.ts";
import { DATA_DIR, TEST_STORE_ID } from "../test/fixtures.ts";
import { startTestServer } from "../test/server.ts";
import { exec, transaction } from "../server/db/database.ts";

const TOTAL = Number(process.env.BENCH_RESPONSES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const t = await startTestServer();
try {
  const { services } = t;
  await services.stores.create({ storeId: TEST_STORE_ID, name: "Bench store", platform: "shopify" });
  const key = (await services.apiKeys.create(TEST_STORE_ID, "bench")).key;
  const authorization = `Basic ${Buffer.from(`${TEST_STORE_ID}:${key}`).toString("base64")}`;
  await services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);

  // Validate each real row's answers once (the one schema module), then store TOTAL responses.
  const started = Date.now();
  const questions = await services.surveysData.questionsOf(TEST_STORE_ID, DEMO_SURVEY_IDS.nps);
  const templates = npsResponses(readNpsRows(join(DATA_DIR, DEMO_NPS_FILE))).map((r) => validateAnswers(DEMO_SURVEY_IDS.nps, questions, r.answeredQuestions));
  const base = Date.UTC(2018, 0, 1);
  await transaction(services.db, async () => {
    for (let i = 0; i < TOTAL; i++) {
      const answers = templates[i % templates.length];
      const nps = answers.find((a) => a.type === "nps");
      await services.surveysData.insertResponse(
        {
          survey_response_id: randomUUID(),
          store_id: TEST_STORE_ID,
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
          created_ms: base + i * 60_000,
          idempotency_key: null,
          request_hash: null,
        },
        "",
      );
    }
  });
  await exec(services.db, "ANALYZE");
  console.log(`Seeded ${TOTAL} survey responses in ${Date.now() - started} ms`);

  // Follow the cursors (in process) to the last page, as a client following nextUrl would.
  const firstPath = `/enterprise/surveys/${DEMO_SURVEY_IDS.nps}/responses?limit=100`;
  let lastPath = firstPath;
  let pages = 1;
  for (let page = await services.surveys.listResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.nps, { limit: 100, orderBy: "date desc" }); page.nextUrl; pages++) {
    lastPath = page.nextUrl;
    const lastEvaluated = new URL(page.nextUrl, "http://x").searchParams.get("lastEvaluated")!;
    page = await services.surveys.listResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.nps, { limit: 100, orderBy: "date desc", lastEvaluated });
  }
  console.log(`${pages} pages of 100; last page: ${lastPath.slice(0, 90)}...`);

  const check = async (path: string) => {
    const res = await fetch(t.url(path), { headers: { authorization } });
    const body = await res.json();
    if (res.status !== 200 || body.surveyResponses.length !== 100) throw new Error(`unexpected answer for ${path}: ${res.status}`);
  };
  await check(firstPath);
  await check(lastPath);

  /** Mean µs of one page in process (service + SQL + shaping, no HTTP). */
  const inProcess = async (path: string) => {
    const lastEvaluated = new URL(path, "http://x").searchParams.get("lastEvaluated") ?? undefined;
    const n = 300;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await services.surveys.listResponses(TEST_STORE_ID, DEMO_SURVEY_IDS.nps, { limit: 100, orderBy: "date desc", lastEvaluated });
    return Number(process.hrtime.bigint() - t0) / n / 1000;
  };

  const results: Record<string, unknown> = { responses: TOTAL, limit: 100, seconds: SECONDS, connections: CONNECTIONS };
  for (const [name, path] of [
    ["first page", firstPath],
    ["last page", lastPath],
    ["first page (again)", firstPath],
    ["last page (again)", lastPath],
  ] as const) {
    const r = await autocannon({ url: t.url(path), headers: { authorization }, connections: CONNECTIONS, duration: SECONDS });
    const row = { requestsPerSecond: Math.round(r.requests.average), p50ms: r.latency.p50, p99ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, inProcessUs: Math.round(await inProcess(path)) };
    results[name] = row;
    console.log(`${name.padEnd(20)} ${String(row.requestsPerSecond).padStart(6)} req/s   p50 ${row.p50ms} ms   p99 ${row.p99ms} ms   non-2xx ${row.non2xx}   in-process ${row.inProcessUs} µs/page`);
  }
  mkdirSync(join(PROJECT_ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(PROJECT_ROOT, "bench/results/surveys.json"), JSON.stringify(results, null, 2));
} finally {
  await new Promise((resolve) => setTimeout(resolve, 1000)); // let autocannon's last in-flight requests finish
  await t.close();
}

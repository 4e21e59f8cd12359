/**
 * Demo surveys seeder (appended to DEMO_SEEDERS): two surveys of the demo store that together use all
 * eight question types:
 * - an NPS survey whose responses are the real rows of ../shared/data/nps_verbatims_broadband.csv
 *   (2,385 rows): score, category, reason (text answer), journey stage and date, nothing added (the 32
 *   rows without a score keep their comment and stage but carry no NPS answer: the respondent skipped
 *   the score);
 * - a post-purchase attribution survey marked as **sample data** (`sampleData: true`, shown as such in
 *   the admin): its 1,200 responses are generated (seeded pseudo-random choices among the survey's own
 *   options, example.com addresses, no free text), because no public dataset of such answers exists.
 * Also (`demoApiKeySeeder`, run before the server listens) the demo store's enterprise API key: DEMO_API_KEY when set, else a random key, printed once, with
 * the command that issues a new one (`npm run keys -- create`, server/cli/keys.ts).
 */
import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { mersenne } from "pure-rand/generator/mersenne";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { transaction } from "../db/database.ts";
import type { DemoSeeder } from "../demo/seeder.ts";
import type { SurveyDefinition } from "../contract/surveys.ts";
import type { ResponseImport } from "./surveys.service.ts";

export const DEMO_NPS_FILE = "nps_verbatims_broadband.csv";
/** Fixed IDs so documentation and integrations can name the demo surveys. */
export const DEMO_SURVEY_IDS = { nps: "5b0c9a3e-6f41-4d2a-9c8e-1e2f3a4b5c6d", attribution: "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a" } as const;
export const DEMO_CHANNEL_IDS = {
  npsEmail: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
  npsCheckout: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  attrCheckout: "2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901",
  attrOnSite: "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a12",
  attrReview: "4d5e6f70-8192-43a4-b5c6-d7e8f90a1b23",
} as const;
export const DEMO_QUESTION_IDS = {
  nps: "a0000000-0000-4000-8000-000000000001",
  reason: "a0000000-0000-4000-8000-000000000002",
  stage: "a0000000-0000-4000-8000-000000000003",
  services: "a0000000-0000-4000-8000-000000000004",
  heard: "b0000000-0000-4000-8000-000000000001",
  why: "b0000000-0000-4000-8000-000000000002",
  ease: "b0000000-0000-4000-8000-000000000003",
  stars: "b0000000-0000-4000-8000-000000000004",
  email: "b0000000-0000-4000-8000-000000000005",
  birthday: "b0000000-0000-4000-8000-000000000006",
  location: "b0000000-0000-4000-8000-000000000007",
  departments: "b0000000-0000-4000-8000-000000000008",
} as const;
const STAGES = ["Order", "Equipment Received", "First Payment", "Service in Use"];
const SERVICES = ["Broadband", "TV", "Home phone", "Mobile"];
const HEARD = ["Instagram", "TikTok", "Google search", "A friend or family member", "Podcast", "YouTube"];
/** The department names of the demo store's clothing (the reviews file's Department Name column). */
const DEPARTMENTS = ["Tops", "Dresses", "Bottoms", "Intimate", "Jackets", "Trend"];
const WHY = ["Free shipping", "A discount code", "Product reviews", "The size guide", "Fast delivery"];
const COUNTRIES = [
  { countryCode: "GB", countryName: "United Kingdom", zones: ["ENG", "SCT", "WLS", "NIR"] },
  { countryCode: "US", countryName: "United States", zones: ["CA", "NY", "TX", "WA"] },
  { countryCode: "IE", countryName: "Ireland", zones: [] },
  { countryCode: "CA", countryName: "Canada", zones: ["ON", "QC", "BC"] },
  { countryCode: "AU", countryName: "Australia", zones: ["NSW", "VIC", "QLD"] },
];

export const NPS_SURVEY: SurveyDefinition = {
  surveyId: DEMO_SURVEY_IDS.nps,
  name: "Broadband NPS",
  dateCreated: "2017-12-01T09:00:00.000Z",
  questions: [
    { id: DEMO_QUESTION_IDS.nps, type: "nps", text: "How likely are you to recommend company to a friend or colleague?" },
    { id: DEMO_QUESTION_IDS.reason, type: "text", text: "What is the main reason for your score?" },
    {
      id: DEMO_QUESTION_IDS.stage,
      type: "profile",
      text: "Where are you in your journey with us?",
      profileAnswerType: "single-value",
      profileQuestionId: "c0000000-0000-4000-8000-000000000001",
      options: STAGES,
    },
    {
      id: DEMO_QUESTION_IDS.services,
      type: "profile",
      text: "Which of our services do you use?",
      profileAnswerType: "multi-value",
      profileQuestionId: "c0000000-0000-4000-8000-000000000002",
      options: SERVICES,
    },
  ],
  channelSurveys: [
    { channelSurveyId: DEMO_CHANNEL_IDS.npsEmail, channel: "shareable-link", description: "NPS link e-mailed after delivery, first payment and first use" },
    { channelSurveyId: DEMO_CHANNEL_IDS.npsCheckout, channel: "post-checkout", description: "NPS on the order confirmation page" },
  ],
};

export const ATTRIBUTION_SURVEY: SurveyDefinition = {
  surveyId: DEMO_SURVEY_IDS.attribution,
  name: "Post-purchase attribution",
  dateCreated: "2017-12-15T09:00:00.000Z",
  questions: [
    { id: DEMO_QUESTION_IDS.heard, type: "single-select", text: "How did you first hear about us?", options: HEARD, allowCustomAnswer: true, customAnswerOptionText: "Other" },
    { id: DEMO_QUESTION_IDS.why, type: "multi-select", text: "What made you decide to buy today?", options: WHY, allowCustomAnswer: true, customAnswerOptionText: "Something else" },
    { id: DEMO_QUESTION_IDS.ease, type: "five-point", text: "How easy was it to complete your purchase?" },
    { id: DEMO_QUESTION_IDS.stars, type: "star", text: "How would you rate your shopping experience?" },
    { id: DEMO_QUESTION_IDS.email, type: "email", text: "Where should we send your discount code?" },
    { id: DEMO_QUESTION_IDS.birthday, type: "profile", text: "When is your birthday?", profileAnswerType: "date-components", profileQuestionId: "c0000000-0000-4000-8000-000000000003" },
    { id: DEMO_QUESTION_IDS.location, type: "profile", text: "Where are you shopping from?", profileAnswerType: "location", profileQuestionId: "c0000000-0000-4000-8000-000000000004" },
    {
      id: DEMO_QUESTION_IDS.departments,
      type: "profile",
      text: "Which of our departments do you shop in?",
      profileAnswerType: "multi-value",
      profileQuestionId: "c0000000-0000-4000-8000-000000000005",
      options: DEPARTMENTS,
    },
  ],
  channelSurveys: [
    {
      channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout,
      channel: "post-checkout",
      description: "Thank-you page survey",
      reward: { type: "coupon", description: "10% off your next order", value: "THANKYOU10" },
    },
    { channelSurveyId: DEMO_CHANNEL_IDS.attrOnSite, channel: "on-site", description: "Returning-visitor pop-up" },
    { channelSurveyId: DEMO_CHANNEL_IDS.attrReview, channel: "post-review", description: "After a product review" },
  ],
};

/** "dd/mm/yyyy HH:MM" (the file's format) → ms. The file gives no zone; it is read as UTC. */
export function parseNpsDate(text: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`unexpected date ${text}`);
  return Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]));
}

export type NpsRow = { CUSTOMER_RESPONSE_DATE: string; SURVEY_SUB_TYPE: string; NPS_RATING: string; NPS_SCORE: string; text: string };

/** Rows of the real NPS file. */
export function readNpsRows(file: string): NpsRow[] {
  return parse(readFileSync(file), { columns: true, bom: true, skip_empty_lines: true }) as NpsRow[];
}

/**
 * A name-based UUID (RFC 9562 version 5: SHA-1 of the name in the given namespace), so the same demo row
 * gets the same response ID on every machine and a re-import finds it again.
 */
export function nameBasedUuid(namespace: string, name: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const h = createHash("sha1").update(ns).update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * The NPS survey's responses from the real rows: score and category, reason (text), journey stage and
 * date exactly as the file has them; nothing generated is added. Response IDs are name-based UUIDs of
 * the row number (stable across machines).
 */
export function npsResponses(rows: NpsRow[]): ResponseImport[] {
  return rows.map((r, i) => {
    const answers: unknown[] = [];
    if (r.NPS_SCORE !== "") answers.push({ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: Number(r.NPS_SCORE), answerNpsCategory: r.NPS_RATING.toLowerCase() });
    if (r.text.trim()) answers.push({ id: DEMO_QUESTION_IDS.reason, type: "text", answer: r.text });
    if (STAGES.includes(r.SURVEY_SUB_TYPE)) answers.push({ id: DEMO_QUESTION_IDS.stage, type: "profile", answer: { type: "single-value", value: r.SURVEY_SUB_TYPE } });
    return {
      surveyResponseId: nameBasedUuid(DEMO_SURVEY_IDS.nps, `row:${i + 1}`),
      channelSurveyId: r.SURVEY_SUB_TYPE === "Order" ? DEMO_CHANNEL_IDS.npsCheckout : DEMO_CHANNEL_IDS.npsEmail,
      answeredQuestions: answers,
      createdMs: parseNpsDate(r.CUSTOMER_RESPONSE_DATE),
      isArchived: false,
    };
  });
}

/** Seeded choices for sample data (pure-rand's Mersenne Twister: the same seed gives the same data everywhere). */
function sampler(seed: number) {
  const rng = mersenne(seed);
  const int = (min: number, max: number) => uniformInt(rng, min, max);
  const chance = (p: number) => int(0, 999_999) < p * 1_000_000;
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const weighted = (weights: readonly number[]): number => {
    let roll = int(
      1,
      weights.reduce((a, b) => a + b, 0),
    );
    for (let i = 0; i < weights.length; i++) if ((roll -= weights[i]) <= 0) return i;
    return weights.length - 1;
  };
  /** 1 to `max` distinct items, in the list's order. */
  const some = <T>(items: readonly T[], max: number): T[] => {
    const n = int(1, Math.min(max, items.length));
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(int(0, items.length - 1));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]);
  };
  return { int, chance, pick, weighted, some };
}

/**
 * `count` sample post-purchase attribution responses between `fromMs` and `toMs`, chosen with `seed`
 * among the survey's own options (no free text; addresses `shopper-N@example.com`). Sample data: the
 * survey is marked `sampleData` and the admin says so.
 */
export function attributionResponses(count: number, seed: number, fromMs: number, toMs: number): ResponseImport[] {
  const r = sampler(seed);
  const channels = [DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrOnSite, DEMO_CHANNEL_IDS.attrReview];
  const out: ResponseImport[] = [];
  for (let i = 0; i < count; i++) {
    const email = `shopper-${seed}-${i + 1}@example.com`;
    const answers: unknown[] = [];
    answers.push({ id: DEMO_QUESTION_IDS.heard, type: "single-select", answer: r.pick(HEARD) });
    if (r.chance(0.8)) answers.push({ id: DEMO_QUESTION_IDS.why, type: "multi-select", answer: r.some(WHY, 3) });
    answers.push({ id: DEMO_QUESTION_IDS.ease, type: "five-point", answer: 1 + r.weighted([1, 1, 3, 8, 10]) });
    answers.push({ id: DEMO_QUESTION_IDS.stars, type: "star", answer: 1 + r.weighted([1, 1, 2, 6, 12]) });
    if (r.chance(0.7)) answers.push({ id: DEMO_QUESTION_IDS.email, type: "email", answer: email, marketingOptIn: r.chance(0.4) });
    if (r.chance(0.5)) {
      const born = new Date(fromMs - r.int(18 * 365, 80 * 365) * 86_400_000);
      answers.push({
        id: DEMO_QUESTION_IDS.birthday,
        type: "profile",
        answer: { type: "date-components", value: { day: born.getUTCDate(), month: born.getUTCMonth() + 1, year: born.getUTCFullYear() } },
      });
    }
    if (r.chance(0.6)) {
      const c = r.pick(COUNTRIES);
      answers.push({
        id: DEMO_QUESTION_IDS.location,
        type: "profile",
        answer: { type: "location", value: { countryCode: c.countryCode, countryName: c.countryName, ...(c.zones.length ? { zoneCode: r.pick(c.zones) } : {}) } },
      });
    }
    if (r.chance(0.6)) answers.push({ id: DEMO_QUESTION_IDS.departments, type: "profile", answer: { type: "multi-value", value: r.some(DEPARTMENTS, 3) } });
    out.push({
      surveyResponseId: nameBasedUuid(DEMO_SURVEY_IDS.attribution, `sample:${seed}:${i + 1}`),
      channelSurveyId: r.pick(channels),
      answeredQuestions: answers,
      createdMs: fromMs + r.int(0, Math.max(0, Math.floor((toMs - fromMs) / 1000))) * 1000,
      customer: { customerId: nameBasedUuid(DEMO_SURVEY_IDS.attribution, `customer:${email}`), email },
      order: { remoteOrderId: String(100000 + r.int(0, 899999)) },
      isArchived: r.chance(0.03),
    });
  }
  return out;
}

/** The demo surveys seeder for the store `DEMO_STORE_ID` (see the module docstring). Idempotent. */
export const demoSurveysSeeder = (DEMO_STORE_ID: string): DemoSeeder => ({
  name: "surveys",
  async run({ services, config, log }) {
    const file = join(config.DEMO_DATA_DIR, DEMO_NPS_FILE);
    let done = true;
    // One transaction, and ensureDemoStore holds the demo seeding lock on PostgreSQL: two nodes seeding at once
    // (npm run cluster) create the surveys once.
    await transaction(services.db, async () => {
      if (!(await services.surveysData.getSurvey(DEMO_STORE_ID, DEMO_SURVEY_IDS.nps))) {
        if (!existsSync(file)) {
          log(`Demo NPS file not found at ${file}: set DEMO_DATA_DIR to the folder holding ${DEMO_NPS_FILE}; demo surveys are imported on a later start once it is there.`);
          done = false;
        } else {
          await services.surveys.createSurvey(DEMO_STORE_ID, NPS_SURVEY);
          await services.surveys.createSurvey(DEMO_STORE_ID, ATTRIBUTION_SURVEY);
          await services.surveys.markSampleData(DEMO_STORE_ID, DEMO_SURVEY_IDS.attribution);
          const rows = readNpsRows(file);
          const nps = await services.surveys.importResponses(DEMO_STORE_ID, npsResponses(rows));
          const attribution = await services.surveys.importResponses(DEMO_STORE_ID, attributionResponses(1200, 20261121, Date.UTC(2017, 11, 11), Date.UTC(2018, 5, 20, 23, 59)));
          log(`Imported ${nps} real NPS responses (${rows.filter((r) => r.NPS_SCORE === "").length} without a score) and ${attribution} generated attribution responses (marked as sample data).`);
        }
      }
    });
    return done;
  },
});

/**
 * The demo store's enterprise API key ("Demo key"; DEMO_API_KEY when set, else random and shown once with the command
 * that makes a new one). Its own seeder so that it runs before the server listens (server/demo/demo.ts), with the
 * admin user, while the surveys come with the background import. Idempotent: no new key while one is active.
 */
export const demoApiKeySeeder = (DEMO_STORE_ID: string): DemoSeeder => ({
  name: "api-key",
  async run({ services, config, log, notice = log }) {
    let demoKey: string | undefined;
    // ensureDemoStore runs this under the demo preparation lock on PostgreSQL: two nodes starting at once create one key.
    await transaction(services.db, async () => {
      if (!(await services.apiKeys.list(DEMO_STORE_ID)).some((k) => k.name === "Demo key" && !k.dateRevoked)) {
        demoKey = (await services.apiKeys.create(DEMO_STORE_ID, "Demo key", config.DEMO_API_KEY)).key;
      }
    });
    // Shown once it is committed.
    if (demoKey) {
      notice(`Enterprise API key of the demo store (shown once; Basic user ${DEMO_STORE_ID}): ${demoKey}`);
      notice(`  A new key at any time: npm run keys -- create --store ${DEMO_STORE_ID} (npm run keys -- list, revoke <apiKeyId>)`);
    }
  },
});

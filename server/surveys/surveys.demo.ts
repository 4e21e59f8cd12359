/**
 * Demo surveys seeder (appended to DEMO_SEEDERS): two surveys of the demo store that together use all
 * eight question types and all four profile answer variants, with 3,585 responses:
 * - an NPS survey whose scores, categories, reasons (text answers), journey stages and dates are the
 *   real rows of ../shared/data/nps_verbatims_broadband.csv (2,385 rows; the 32 rows without a score
 *   keep their comment and stage but carry no NPS answer: the respondent skipped the score);
 * - a post-purchase attribution survey (1,200 responses) whose answers are generated deterministically
 *   with @faker-js/faker (fixed seed), dated over the same period.
 * Also issues the demo store's enterprise API key: DEMO_API_KEY when set, else a random key, printed once.
 */
import { Faker, en } from "@faker-js/faker";
import { parse } from "csv-parse/sync";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DemoSeeder } from "../demo/seeder.ts";
import type { SurveyDefinition } from "../contract/surveys.ts";
import type { ResponseImport } from "./surveys.service.ts";

export const DEMO_NPS_FILE = "nps_verbatims_broadband.csv";
/** Fixed IDs so documentation and integrations can name the demo surveys. */
export const DEMO_SURVEY_IDS = { nps: "5b0c9a3e-6f41-4d2a-9c8e-1e2f3a4b5c6d", attribution: "8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a" } as const;
export const DEMO_CHANNEL_IDS = {
  npsEmail: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0", npsCheckout: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  attrCheckout: "2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901", attrOnSite: "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a12", attrReview: "4d5e6f70-8192-43a4-b5c6-d7e8f90a1b23",
} as const;
export const DEMO_QUESTION_IDS = {
  nps: "a0000000-0000-4000-8000-000000000001", reason: "a0000000-0000-4000-8000-000000000002", stage: "a0000000-0000-4000-8000-000000000003",
  services: "a0000000-0000-4000-8000-000000000004", heard: "b0000000-0000-4000-8000-000000000001", why: "b0000000-0000-4000-8000-000000000002",
  ease: "b0000000-0000-4000-8000-000000000003", stars: "b0000000-0000-4000-8000-000000000004", email: "b0000000-0000-4000-8000-000000000005",
  birthday: "b0000000-0000-4000-8000-000000000006", location: "b0000000-0000-4000-8000-000000000007",
} as const;
const STAGES = ["Order", "Equipment Received", "First Payment", "Service in Use"];
const SERVICES = ["Broadband", "TV", "Home phone", "Mobile"];
const HEARD = ["Instagram", "TikTok", "Google search", "A friend or family member", "Podcast", "YouTube"];
const WHY = ["Free shipping", "A discount code", "Product reviews", "The size guide", "Fast delivery"];
const COUNTRIES = [
  { countryCode: "GB", countryName: "United Kingdom", zones: ["ENG", "SCT", "WLS", "NIR"] },
  { countryCode: "US", countryName: "United States", zones: ["CA", "NY", "TX", "WA"] },
  { countryCode: "IE", countryName: "Ireland", zones: [] },
  { countryCode: "CA", countryName: "Canada", zones: ["ON", "QC", "BC"] },
  { countryCode: "AU", countryName: "Australia", zones: ["NSW", "VIC", "QLD"] },
];

export const NPS_SURVEY: SurveyDefinition = {
  surveyId: DEMO_SURVEY_IDS.nps, name: "Broadband NPS", dateCreated: "2017-12-01T09:00:00.000Z",
  questions: [
    { id: DEMO_QUESTION_IDS.nps, type: "nps", text: "How likely are you to recommend company to a friend or colleague?" },
    { id: DEMO_QUESTION_IDS.reason, type: "text", text: "What is the main reason for your score?" },
    { id: DEMO_QUESTION_IDS.stage, type: "profile", text: "Where are you in your journey with us?", profileAnswerType: "single-value", profileQuestionId: "c0000000-0000-4000-8000-000000000001", options: STAGES },
    { id: DEMO_QUESTION_IDS.services, type: "profile", text: "Which of our services do you use?", profileAnswerType: "multi-value", profileQuestionId: "c0000000-0000-4000-8000-000000000002", options: SERVICES },
  ],
  channelSurveys: [
    { channelSurveyId: DEMO_CHANNEL_IDS.npsEmail, channel: "shareable-link", description: "NPS link e-mailed after delivery, first payment and first use" },
    { channelSurveyId: DEMO_CHANNEL_IDS.npsCheckout, channel: "post-checkout", description: "NPS on the order confirmation page" },
  ],
};

export const ATTRIBUTION_SURVEY: SurveyDefinition = {
  surveyId: DEMO_SURVEY_IDS.attribution, name: "Post-purchase attribution", dateCreated: "2017-12-15T09:00:00.000Z",
  questions: [
    { id: DEMO_QUESTION_IDS.heard, type: "single-select", text: "How did you first hear about us?", options: HEARD, allowCustomAnswer: true, customAnswerOptionText: "Other" },
    { id: DEMO_QUESTION_IDS.why, type: "multi-select", text: "What made you decide to buy today?", options: WHY, allowCustomAnswer: true, customAnswerOptionText: "Something else" },
    { id: DEMO_QUESTION_IDS.ease, type: "five-point", text: "How easy was it to complete your purchase?" },
    { id: DEMO_QUESTION_IDS.stars, type: "star", text: "How would you rate your shopping experience?" },
    { id: DEMO_QUESTION_IDS.email, type: "email", text: "Where should we send your discount code?" },
    { id: DEMO_QUESTION_IDS.birthday, type: "profile", text: "When is your birthday?", profileAnswerType: "date-components", profileQuestionId: "c0000000-0000-4000-8000-000000000003" },
    { id: DEMO_QUESTION_IDS.location, type: "profile", text: "Where are you shopping from?", profileAnswerType: "location", profileQuestionId: "c0000000-0000-4000-8000-000000000004" },
  ],
  channelSurveys: [
    { channelSurveyId: DEMO_CHANNEL_IDS.attrCheckout, channel: "post-checkout", description: "Thank-you page survey", reward: { type: "coupon", description: "10% off your next order", value: "THANKYOU10" } },
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

/** The NPS survey's responses from the real rows (answers other than score/reason/stage from `faker`). */
export function npsResponses(rows: NpsRow[], faker: Faker): ResponseImport[] {
  return rows.map((r) => {
    const answers: unknown[] = [];
    if (r.NPS_SCORE !== "") answers.push({ id: DEMO_QUESTION_IDS.nps, type: "nps", answer: Number(r.NPS_SCORE), answerNpsCategory: r.NPS_RATING.toLowerCase() });
    if (r.text.trim()) answers.push({ id: DEMO_QUESTION_IDS.reason, type: "text", answer: r.text });
    if (STAGES.includes(r.SURVEY_SUB_TYPE)) answers.push({ id: DEMO_QUESTION_IDS.stage, type: "profile", answer: { type: "single-value", value: r.SURVEY_SUB_TYPE } });
    if (faker.datatype.boolean(0.6)) answers.push({ id: DEMO_QUESTION_IDS.services, type: "profile", answer: { type: "multi-value", value: faker.helpers.arrayElements(SERVICES, { min: 1, max: 3 }) } });
    return {
      surveyResponseId: faker.string.uuid(),
      channelSurveyId: r.SURVEY_SUB_TYPE === "Order" ? DEMO_CHANNEL_IDS.npsCheckout : DEMO_CHANNEL_IDS.npsEmail,
      answeredQuestions: answers, createdMs: parseNpsDate(r.CUSTOMER_RESPONSE_DATE),
      ...(faker.datatype.boolean(0.5) ? { customer: { customerId: faker.string.uuid() } } : {}),
      isArchived: faker.datatype.boolean(0.02),
    };
  });
}

/** `count` generated post-purchase attribution responses between `fromMs` and `toMs`. */
export function attributionResponses(count: number, faker: Faker, fromMs: number, toMs: number): ResponseImport[] {
  const channels = [DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrCheckout, DEMO_CHANNEL_IDS.attrOnSite, DEMO_CHANNEL_IDS.attrReview];
  const out: ResponseImport[] = [];
  for (let i = 0; i < count; i++) {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    const email = faker.internet.exampleEmail({ firstName: first, lastName: last }).toLowerCase();
    const optIn = faker.datatype.boolean(0.4);
    const answers: unknown[] = [];
    const heardOther = faker.datatype.boolean(0.12);
    answers.push(heardOther
      ? { id: DEMO_QUESTION_IDS.heard, type: "single-select", answer: "Other", customAnswer: faker.helpers.arrayElement(["A billboard", "Saw it on a friend", "Newsletter", "Pinterest", "Local magazine"]) }
      : { id: DEMO_QUESTION_IDS.heard, type: "single-select", answer: faker.helpers.arrayElement(HEARD) });
    if (faker.datatype.boolean(0.8)) {
      const chosen = faker.helpers.arrayElements(WHY, { min: 1, max: 3 });
      const custom = faker.datatype.boolean(0.08);
      answers.push({ id: DEMO_QUESTION_IDS.why, type: "multi-select", answer: custom ? [...chosen, "Something else"] : chosen, ...(custom ? { customAnswer: faker.commerce.productAdjective() + " " + faker.commerce.product().toLowerCase() } : {}) });
    }
    answers.push({ id: DEMO_QUESTION_IDS.ease, type: "five-point", answer: faker.helpers.weightedArrayElement([{ weight: 1, value: 1 }, { weight: 1, value: 2 }, { weight: 3, value: 3 }, { weight: 8, value: 4 }, { weight: 10, value: 5 }]) });
    answers.push({ id: DEMO_QUESTION_IDS.stars, type: "star", answer: faker.helpers.weightedArrayElement([{ weight: 1, value: 1 }, { weight: 1, value: 2 }, { weight: 2, value: 3 }, { weight: 6, value: 4 }, { weight: 12, value: 5 }]) });
    if (faker.datatype.boolean(0.7)) answers.push({ id: DEMO_QUESTION_IDS.email, type: "email", answer: email, marketingOptIn: optIn });
    if (faker.datatype.boolean(0.5)) {
      const born = faker.date.birthdate({ mode: "age", min: 18, max: 80, refDate: new Date(fromMs) });
      answers.push({ id: DEMO_QUESTION_IDS.birthday, type: "profile", answer: { type: "date-components", value: { day: born.getUTCDate(), month: born.getUTCMonth() + 1, year: born.getUTCFullYear() } } });
    }
    if (faker.datatype.boolean(0.6)) {
      const c = faker.helpers.arrayElement(COUNTRIES);
      answers.push({ id: DEMO_QUESTION_IDS.location, type: "profile", answer: { type: "location", value: { countryCode: c.countryCode, countryName: c.countryName, ...(c.zones.length ? { zoneCode: faker.helpers.arrayElement(c.zones) } : {}) } } });
    }
    out.push({
      surveyResponseId: faker.string.uuid(), channelSurveyId: faker.helpers.arrayElement(channels), answeredQuestions: answers,
      createdMs: faker.number.int({ min: fromMs, max: toMs }),
      customer: { customerId: faker.string.uuid(), email }, order: { remoteOrderId: String(faker.number.int({ min: 100000, max: 999999 })) },
      isArchived: faker.datatype.boolean(0.03),
    });
  }
  return out;
}

/** The demo surveys seeder for the store `DEMO_STORE_ID` (see the module docstring). Idempotent. */
export const demoSurveysSeeder = (DEMO_STORE_ID: string): DemoSeeder => ({
  name: "surveys",
  run({ services, config, log }) {
    const file = join(config.DEMO_DATA_DIR, DEMO_NPS_FILE);
    let done = true;
    if (!services.surveysData.getSurvey(DEMO_STORE_ID, DEMO_SURVEY_IDS.nps)) {
      if (!existsSync(file)) {
        log(`Demo NPS file not found at ${file}: set DEMO_DATA_DIR to the folder holding ${DEMO_NPS_FILE}; demo surveys are imported on a later start once it is there.`);
        done = false;
      } else {
        const faker = new Faker({ locale: [en] });
        faker.seed(20261121);
        services.surveys.createSurvey(DEMO_STORE_ID, NPS_SURVEY);
        services.surveys.createSurvey(DEMO_STORE_ID, ATTRIBUTION_SURVEY);
        const rows = readNpsRows(file);
        const nps = services.surveys.importResponses(DEMO_STORE_ID, npsResponses(rows, faker));
        const attribution = services.surveys.importResponses(DEMO_STORE_ID, attributionResponses(1200, faker, Date.UTC(2017, 11, 11), Date.UTC(2018, 5, 20, 23, 59)));
        log(`Imported ${nps} real NPS responses (${rows.filter((r) => r.NPS_SCORE === "").length} without a score) and ${attribution} generated attribution responses.`);
      }
    }
    if (!services.apiKeys.list(DEMO_STORE_ID).some((k) => k.name === "Demo key" && !k.dateRevoked)) {
      const { key } = services.apiKeys.create(DEMO_STORE_ID, "Demo key", config.DEMO_API_KEY);
      log(`Enterprise API key of the demo store (shown once; Basic user ${DEMO_STORE_ID}): ${key}`);
    }
    return done;
  },
});

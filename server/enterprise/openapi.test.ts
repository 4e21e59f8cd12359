import { Ajv2020 as Ajv, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_DIR, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { ATTRIBUTION_SURVEY, attributionResponses, DEMO_NPS_FILE, DEMO_SURVEY_IDS, NPS_SURVEY, npsResponses, readNpsRows } from "../surveys/surveys.demo.ts";

// ajv-formats is CommonJS: its default export arrives wrapped under native ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

let t: TestServer;
let auth: string;
let doc: {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: unknown;
};
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  auth = `Basic ${Buffer.from(`${TEST_STORE_ID}:${(await t.services.apiKeys.create(TEST_STORE_ID, "test")).key}`).toString("base64")}`;
  await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
  await t.services.surveys.createSurvey(TEST_STORE_ID, ATTRIBUTION_SURVEY);
  // Include the real rows without a score (no NPS answer) among them.
  const rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE));
  await t.services.surveys.importResponses(TEST_STORE_ID, npsResponses([...rows.slice(0, 60), ...rows.filter((r) => r.NPS_SCORE === "").slice(0, 5)]));
  await t.services.surveys.importResponses(TEST_STORE_ID, attributionResponses(120, 7, Date.UTC(2018, 0, 1), Date.UTC(2018, 2, 1)));
  const res = await fetch(t.url("/enterprise/openapi.json"));
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => t.close());

/** A validator for the JSON body of `status` of GET `path`, with the document's components in scope. */
function responseValidator(path: string, status: string): ValidateFunction {
  const schema = doc.paths[path].get.responses[status].content!["application/json"].schema as object;
  return ajv.compile({ ...schema, components: doc.components });
}

async function getJson(path: string) {
  const res = await fetch(t.url(path), { headers: { authorization: auth } });
  return { status: res.status, body: await res.json() };
}

describe("enterprise OpenAPI document (docs/api.md, Versions; docs/api.md, Authentication)", () => {
  it("is OpenAPI 3 with info.version 1.2.1 and the server URL /enterprise", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.2.1");
    expect(doc.servers).toEqual([{ url: "/enterprise" }]);
    // The survey paths (docs/surveys.md, Enterprise API) and the ones Chorus adds beside them: shopper data, exports, loyalty
    // customers (docs/loyalty.md "Enterprise loyalty API"), settings, webhooks.
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/customers/data_export",
      "/customers/erasure",
      "/exports/loyalty_customers.csv",
      "/exports/loyalty_transactions.csv",
      "/exports/orders.csv",
      "/exports/questions.csv",
      "/exports/reviews.csv",
      "/loyalty/customers",
      "/loyalty/customers/{loyaltyCustomerId}",
      "/loyalty/customers/{loyaltyCustomerId}/adjustments",
      "/loyalty/customers/{loyaltyCustomerId}/rewards",
      "/loyalty/customers/{loyaltyCustomerId}/transactions",
      "/loyalty/earning_transactions",
      "/openapi.json",
      "/orders",
      "/settings",
      "/surveys",
      "/surveys/{surveyId}/responses",
      "/webhook_subscriptions",
      "/webhook_subscriptions/{subscriptionId}",
      "/webhook_subscriptions/{subscriptionId}/rotate_secret",
    ]);
  });

  it("every page of real survey responses of both surveys validates against the 200 schema", async () => {
    const validate = responseValidator("/surveys/{surveyId}/responses", "200");
    let seen = 0;
    const types = new Set<string>();
    for (const surveyId of [DEMO_SURVEY_IDS.nps, DEMO_SURVEY_IDS.attribution]) {
      let next: string | undefined = `/enterprise/surveys/${surveyId}/responses?limit=50`;
      while (next) {
        const { status, body } = await getJson(next);
        expect(status).toBe(200);
        expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
        seen += body.surveyResponses.length;
        for (const r of body.surveyResponses) for (const a of r.answeredQuestions) types.add(a.type === "profile" ? `profile:${a.answer.type}` : a.type);
        next = body.nextUrl;
      }
    }
    expect(seen).toBe(185);
    // The validated data covers every question type and profile variant.
    expect([...types].sort()).toEqual([
      "email",
      "five-point",
      "multi-select",
      "nps",
      "profile:date-components",
      "profile:location",
      "profile:multi-value",
      "profile:single-value",
      "single-select",
      "star",
      "text",
    ]);
  });

  it("the survey discovery answer validates against its 200 schema", async () => {
    const validate = responseValidator("/surveys", "200");
    const { status, body } = await getJson("/enterprise/surveys");
    expect(status).toBe(200);
    expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
  });

  it("400 and 404 answers validate against their error schemas", async () => {
    const bad = await getJson(`/enterprise/surveys/${DEMO_SURVEY_IDS.nps}/responses?limit=0`);
    expect(bad.status).toBe(400);
    expect(responseValidator("/surveys/{surveyId}/responses", "400")(bad.body)).toBe(true);
    const missing = await getJson("/enterprise/surveys/6f1c2b7e-0d55-4c1e-9a35-3b1f0f6e2a11/responses");
    expect(missing.status).toBe(404);
    expect(responseValidator("/surveys/{surveyId}/responses", "404")(missing.body)).toBe(true);
  });

  it("the schema rejects a response that breaks the contract (a null optional field)", async () => {
    const validate = responseValidator("/surveys/{surveyId}/responses", "200");
    const { body } = await getJson(`/enterprise/surveys/${DEMO_SURVEY_IDS.nps}/responses?limit=1`);
    body.surveyResponses[0].channelSurveyDescription = null;
    expect(validate(body)).toBe(false);
  });
});

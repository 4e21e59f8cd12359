/**
 * Admin survey responses over real HTTP (the real server and Remix build, a temp SQLite file, real
 * session cookies): store isolation of every loader and action of the section (page, response,
 * export, archive), CSRF on archive, the streamed CSV export (rows = the filter's count, headers before
 * the body), and the NPS panel against a direct count of the real NPS file.
 */
import { parse } from "csv-parse/sync";
import { get as httpGet, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { DATA_DIR, OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { ATTRIBUTION_SURVEY, attributionResponses, DEMO_NPS_FILE, DEMO_SURVEY_IDS, NPS_SURVEY, npsResponses, readNpsRows, type NpsRow } from "../surveys/surveys.demo.ts";
import { npsScore } from "../surveys/surveys.service.ts";
import { all, sql, value, values } from "../db/database.ts";

let t: TestServer;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
const NPS = DEMO_SURVEY_IDS.nps; // store A's survey
const ATTR = DEMO_SURVEY_IDS.attribution; // store B's survey
let alice: AdminAgent;
let bob: AdminAgent;
let rows: NpsRow[];

const responseIds = async (storeId: string) => (await values(t.services.db, sql`SELECT survey_response_id FROM survey_responses WHERE store_id = ${storeId} ORDER BY created_ms DESC`)) as string[];
const archivedOf = async (id: string) => (await value(t.services.db, sql`SELECT is_archived FROM survey_responses WHERE survey_response_id = ${id}`)) as number;
const snapshotB = async () => await all(t.services.db, sql`SELECT survey_response_id, is_archived FROM survey_responses WHERE store_id = ${B} ORDER BY survey_response_id`);

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Store B (other merchant)", platform: "shopify" });
  await t.services.surveys.createSurvey(A, NPS_SURVEY);
  await t.services.surveys.createSurvey(B, ATTRIBUTION_SURVEY);
  rows = readNpsRows(join(DATA_DIR, DEMO_NPS_FILE)).slice(0, 1200); // more than two export batches of 500
  await t.services.surveys.importResponses(
    A,
    npsResponses(rows).map((r) => ({ ...r, isArchived: false })),
  );
  await t.services.surveys.importResponses(
    B,
    attributionResponses(40, 7, Date.UTC(2018, 0, 1), Date.UTC(2018, 1, 1)).map((r) => ({ ...r, isArchived: false })),
  );
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "correct horse battery A", storeIds: [A] });
  await t.services.admin.createUser({ email: "bob@shop-b.test", password: "correct horse battery B", storeIds: [B] });
  alice = await signInAgent(t, "alice@shop-a.test", "correct horse battery A", A);
  bob = await signInAgent(t, "bob@shop-b.test", "correct horse battery B", B);
}, 60_000);
afterAll(() => t.close());

describe("store isolation of the survey section", () => {
  const bResponse = async () => (await responseIds(B))[0];
  const READS: [string, () => string | Promise<string>][] = [
    ["B's survey page on B's URL", () => `/admin/stores/${B}/surveys?survey=${ATTR}`],
    ["B's survey on A's URL", () => `/admin/stores/${A}/surveys?survey=${ATTR}`],
    ["B's response on B's URL", async () => `/admin/stores/${B}/surveys/responses/${await bResponse()}`],
    ["B's response on A's URL", async () => `/admin/stores/${A}/surveys/responses/${await bResponse()}`],
    ["B's export on B's URL", () => `/admin/stores/${B}/surveys/export.csv?survey=${ATTR}`],
    ["B's export on A's URL", () => `/admin/stores/${A}/surveys/export.csv?survey=${ATTR}`],
  ];

  it.each(READS)("a user of store A reading %s gets 404 and none of B's data", async (_name, path) => {
    const res = await adminGet(t, alice, await path());
    expect(res.status).toBe(404);
    const body = await res.text();
    expect(body).not.toContain("Store B (other merchant)");
    expect(body).not.toContain("Post-purchase attribution");
    for (const id of (await responseIds(B)).slice(0, 5)) expect(body).not.toContain(id);
  });

  it("the owner of store B reads the same page, response and export (200)", async () => {
    for (const [, path] of READS.filter(([name]) => name.includes("B's URL"))) expect((await adminGet(t, bob, await path())).status).toBe(200);
  });

  it.each([
    ["archive on B's URL", async () => `/admin/stores/${B}/surveys/responses/${await bResponse()}`, "archive"],
    ["archive on A's URL naming B's response", async () => `/admin/stores/${A}/surveys/responses/${await bResponse()}`, "archive"],
    ["unarchive on A's URL naming B's response", async () => `/admin/stores/${A}/surveys/responses/${await bResponse()}`, "unarchive"],
  ] as const)("%s by a user of store A: 404 and store B unchanged", async (_name, path, intent) => {
    const before = await snapshotB();
    const res = await adminPost(t, alice, await path(), { intent });
    expect(res.status).toBe(404);
    expect(await snapshotB()).toEqual(before);
  });

  it("the survey list of store A shows only store A's surveys", async () => {
    const html = await (await adminGet(t, alice, `/admin/stores/${A}/surveys`)).text();
    expect(html).toContain("Broadband NPS");
    expect(html).not.toContain("Post-purchase attribution");
  });
});

describe("archive and CSRF", () => {
  it("an archive form without the CSRF token is rejected with 403 and changes nothing", async () => {
    const id = (await responseIds(A))[3];
    const res = await adminPost(t, alice, `/admin/stores/${A}/surveys/responses/${id}`, { intent: "archive" }, null);
    expect(res.status).toBe(403);
    expect(await archivedOf(id)).toBe(0);
  });

  it("archive with the token hides the response from the default list; unarchive brings it back", async () => {
    const id = (await responseIds(A))[0]; // the newest: first row of the first page
    expect((await adminPost(t, alice, `/admin/stores/${A}/surveys/responses/${id}`, { intent: "archive" })).status).toBe(200);
    expect(await archivedOf(id)).toBe(1);
    expect(await (await adminGet(t, alice, `/admin/stores/${A}/surveys?survey=${NPS}`)).text()).not.toContain(id);
    expect(await (await adminGet(t, alice, `/admin/stores/${A}/surveys?survey=${NPS}&archived=archived`)).text()).toContain(id);
    expect((await adminPost(t, alice, `/admin/stores/${A}/surveys/responses/${id}`, { intent: "unarchive" })).status).toBe(200);
    expect(await archivedOf(id)).toBe(0);
  });

  it("a bad filter answers 400 with a message naming it, not a crash", async () => {
    const res = await adminGet(t, alice, `/admin/stores/${A}/surveys?survey=${NPS}&nps=happy`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("nps must be one of");
  });
});

/** GET over node:http as `agent`, recording when the headers and each chunk arrived. */
function rawGet(agent: AdminAgent, path: string): Promise<{ res: IncomingMessage; headersAt: number; chunkTimes: number[]; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    httpGet(t.url(path), { headers: { cookie: agent.cookie } }, (res) => {
      const headersAt = performance.now() - started;
      const chunks: Buffer[] = [];
      const chunkTimes: number[] = [];
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        chunkTimes.push(performance.now() - started);
      });
      res.on("end", () => resolve({ res, headersAt, chunkTimes, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    }).on("error", reject);
  });
}

describe("CSV export", () => {
  it("streams: chunked (no Content-Length), headers before the body, several chunks, a header row and every matching row", async () => {
    const { res, headersAt, chunkTimes, body } = await rawGet(alice, `/admin/stores/${A}/surveys/export.csv?survey=${NPS}&archived=all`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="broadband-nps-responses-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(chunkTimes.length).toBeGreaterThan(2); // header + at least 3 batches of 500 for 1,200 rows
    expect(headersAt).toBeLessThanOrEqual(chunkTimes[chunkTimes.length - 1]);
    const records = parse(body, { bom: true }) as string[][];
    expect(records[0].slice(0, 3)).toEqual(["surveyResponseId", "dateCreated", "channel"]);
    expect(records[0]).toContain("How likely are you to recommend company to a friend or colleague?");
    expect(records.length - 1).toBe(rows.length);
    expect(new Set(records.slice(1).map((r) => r[0]))).toEqual(new Set(await responseIds(A)));
  });

  it("a filtered export holds exactly the filter's rows (the count the page shows)", async () => {
    const path = `survey=${NPS}&nps=detractor&q=engineer&from=2018-01-01&to=2018-12-31`;
    const { body } = await rawGet(alice, `/admin/stores/${A}/surveys/export.csv?${path}`);
    const records = parse(body, { bom: true }) as string[][];
    const expected = await t.services.surveys.countResponses(A, {
      surveyId: NPS,
      npsCategory: "detractor",
      search: "engineer",
      fromMs: Date.UTC(2018, 0, 1),
      toMs: Date.UTC(2019, 0, 1),
      archived: false,
    });
    expect(expected).toBeGreaterThan(0);
    expect(records.length - 1).toBe(expected);
    const npsColumn = records[0].indexOf("How likely are you to recommend company to a friend or colleague?");
    const reasonColumn = records[0].indexOf("What is the main reason for your score?");
    for (const r of records.slice(1)) {
      expect(r[npsColumn]).toMatch(/^\d+ \(detractor\)$/);
      expect(r[reasonColumn].toLowerCase()).toContain("engineer");
    }
    const page = await (await adminGet(t, alice, `/admin/stores/${A}/surveys?${path}`)).text();
    expect(page).toContain(`${expected} response${expected === 1 ? "" : "s"} match`);
  });
});

describe("NPS panel", () => {
  it("the score and counts match a direct count of the real NPS file's rows", async () => {
    const scored = rows.filter((r) => r.NPS_SCORE !== "");
    const promoters = scored.filter((r) => Number(r.NPS_SCORE) >= 9).length;
    const detractors = scored.filter((r) => Number(r.NPS_SCORE) <= 6).length;
    const passives = scored.length - promoters - detractors;
    const expected = Math.round((100 * (promoters - detractors)) / scored.length);
    const summary = await t.services.surveys.npsSummary(A, { surveyId: NPS });
    expect(summary).toMatchObject({ promoters, passives, detractors, answered: scored.length, score: expected });
    expect(summary.weeks.reduce((n, w) => n + w.answered, 0)).toBe(scored.length);
    const html = await (await adminGet(t, alice, `/admin/stores/${A}/surveys?survey=${NPS}&archived=all`)).text();
    expect(html).toMatch(new RegExp(`data-testid="nps-score">${expected > 0 ? "\\+" : ""}${expected}<`));
    expect(html).toContain(`data-testid="nps-promoters">${promoters}`);
  });

  it("each week's score is the direct count of that week's rows (weeks start Monday UTC)", async () => {
    const weekOf = (ms: number) => {
      const d = new Date(ms);
      const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * 86_400_000;
      return new Date(monday).toISOString().slice(0, 10);
    };
    const byWeek = new Map<string, number[]>();
    for (const r of rows.filter((x) => x.NPS_SCORE !== "")) {
      const [dd, mm, rest] = r.CUSTOMER_RESPONSE_DATE.split("/");
      const [yyyy, hm] = rest.split(" ");
      const [h, m] = hm.split(":");
      const key = weekOf(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd), Number(h), Number(m)));
      byWeek.set(key, [...(byWeek.get(key) ?? []), Number(r.NPS_SCORE)]);
    }
    const weeks = (await t.services.surveys.npsSummary(A, { surveyId: NPS })).weeks;
    expect(weeks.map((w) => w.weekStart)).toEqual([...byWeek.keys()].sort());
    for (const w of weeks) {
      const scores = byWeek.get(w.weekStart)!;
      expect(w.score).toBe(npsScore(scores.filter((s) => s >= 9).length, scores.filter((s) => s === 7 || s === 8).length, scores.filter((s) => s <= 6).length));
    }
  });

  it("npsScore: −100…100, rounded, undefined without answers", () => {
    expect(npsScore(0, 0, 0)).toBeUndefined();
    expect(npsScore(10, 0, 0)).toBe(100);
    expect(npsScore(0, 0, 10)).toBe(-100);
    expect(npsScore(1, 1, 1)).toBe(0);
    expect(npsScore(2, 1, 0)).toBe(67);
  });
});

describe("sample data", () => {
  it("a survey marked as sample data says so on its list entry, its responses and each response; a real one does not", async () => {
    const real = await (await adminGet(t, alice, `/admin/stores/${A}/surveys?survey=${NPS}`)).text();
    expect(real).not.toContain("Sample data");
    await t.services.surveys.markSampleData(B, ATTR);
    try {
      const list = await (await adminGet(t, bob, `/admin/stores/${B}/surveys?survey=${ATTR}`)).text();
      expect(list).toContain(">Sample data</span>");
      expect(list).toContain("no shopper gave them");
      const one = await (await adminGet(t, bob, `/admin/stores/${B}/surveys/responses/${(await responseIds(B))[0]}`)).text();
      expect(one).toContain("no shopper gave it");
    } finally {
      await t.services.surveys.markSampleData(B, ATTR, false);
    }
  });
});

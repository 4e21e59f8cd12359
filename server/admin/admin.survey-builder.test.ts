/**
 * The admin survey builder over real HTTP (the real server and Remix build, a real database, real session cookies):
 * store isolation of its page and every intent (another store's survey, question or channel survey is not found and
 * unchanged), CSRF, per-field errors as a 400 page with the message beside the field, and a valid save that redirects
 * and writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminPost, signInAgent, type AdminAgent } from "../../test/admin-http.ts";
import { OTHER_STORE_ID, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import type { Survey } from "../contract/surveys.ts";

let t: TestServer;
const A = TEST_STORE_ID;
const B = OTHER_STORE_ID;
let alice: AdminAgent;
let mine: Survey;
let theirs: Survey;

const definition = (name: string) => ({
  name,
  channelSurveys: [{ channel: "shareable-link" as const }],
  questions: [
    { type: "text" as const, text: "First" },
    { type: "nps" as const, text: "Second" },
  ],
});

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: A, name: "Store A", platform: "shopify" });
  await t.services.stores.create({ storeId: B, name: "Store B", platform: "shopify" });
  mine = await t.services.surveys.createSurvey(A, definition("Mine"));
  theirs = await t.services.surveys.createSurvey(B, definition("Theirs"));
  await t.services.admin.createUser({ email: "alice@shop-a.test", password: "correct horse battery A", storeIds: [A] });
  alice = await signInAgent(t, "alice@shop-a.test", "correct horse battery A", A);
}, 60_000);
afterAll(() => t.close());

const theirsNow = () => t.services.surveys.getSurvey(B, theirs.surveyId);

describe("store isolation and CSRF", () => {
  it("another store's survey is not found on either store's URL", async () => {
    expect((await adminGet(t, alice, `/admin/stores/${A}/surveys/${theirs.surveyId}`)).status).toBe(404);
    expect((await adminGet(t, alice, `/admin/stores/${B}/surveys/${theirs.surveyId}`)).status).toBe(404);
    expect((await adminGet(t, alice, `/admin/stores/${A}/surveys/not-a-uuid`)).status).toBe(404);
  });

  it("another store's question or channel survey posted to one's own survey is not found, and unchanged", async () => {
    const before = await theirsNow();
    const path = `/admin/stores/${A}/surveys/${mine.surveyId}`;
    const q = theirs.questions[1].id;
    const attempts: Record<string, string>[] = [
      { intent: "move-up", questionId: q },
      { intent: "delete-question", questionId: q },
      { intent: "save-question", questionId: q, text: "Hijacked", type: "text" },
      { intent: "save-channel", channelSurveyId: theirs.channelSurveys[0].channelSurveyId, channel: "on-site", rewardDescription: "x", rewardCode: "y" },
    ];
    for (const fields of attempts) {
      expect((await adminPost(t, alice, path, fields)).status).toBe(404);
    }
    expect((await adminPost(t, alice, `/admin/stores/${A}/surveys/${theirs.surveyId}`, { intent: "survey-off" })).status).toBe(404);
    expect(await theirsNow()).toEqual(before);
  });

  it("a post without the CSRF token is refused and changes nothing", async () => {
    const res = await adminPost(t, alice, `/admin/stores/${A}/surveys/${mine.surveyId}`, { intent: "move-up", questionId: mine.questions[1].id }, null);
    expect(res.status).toBe(403);
    expect((await t.services.surveys.getSurvey(A, mine.surveyId)).questions.map((x) => x.text)).toEqual(["First", "Second"]);
  });
});

describe("saving", () => {
  it("a refused field answers 400 with the message beside it; a valid save redirects and writes", async () => {
    const path = `/admin/stores/${A}/surveys/${mine.surveyId}`;
    const bad = await adminPost(t, alice, path, { intent: "add-question", text: "Pick", type: "single-select", options: "" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('id="new-question-options-error"');
    expect(html).toContain("a single-select question needs options");
    expect(html).toMatch(/id="new-question-options"[^>]*aria-invalid="true"/);

    const ok = await adminPost(t, alice, path, {
      intent: "add-question",
      text: "Pick",
      type: "single-select",
      options: "Red\r\nBlue\r\n",
      allowCustomAnswer: "on",
      customAnswerOptionText: "Other",
      required: "on",
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toMatch(new RegExp(`^/admin/stores/${A}/surveys/${mine.surveyId}\\?done=`));
    const moved = await adminPost(t, alice, path, { intent: "move-up", questionId: mine.questions[1].id });
    expect(moved.status).toBe(302);
    const now = await t.services.surveys.getSurvey(A, mine.surveyId);
    expect(now.questions.map(({ id: _id, ...q }) => q)).toEqual([
      { type: "nps", text: "Second" },
      { type: "text", text: "First" },
      { type: "single-select", text: "Pick", options: ["Red", "Blue"], allowCustomAnswer: true, customAnswerOptionText: "Other", required: true },
    ]);
    const page = await adminGet(t, alice, `${path}?preview=${mine.channelSurveys[0].channelSurveyId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<chorus-survey");
  });

  it('the reward value field explains the rule (docs/surveys.md "Rewards"), tied to the field by aria-describedby', async () => {
    const html = await (await adminGet(t, alice, `/admin/stores/${A}/surveys/${mine.surveyId}`)).text();
    const k = `c-${mine.channelSurveys[0].channelSurveyId}`;
    const input = new RegExp(`<input[^>]*id="${k}-rewardCode"[^>]*>`).exec(html)?.[0] ?? "";
    expect(input).toContain(`aria-describedby="${k}-rewardCode-hint"`);
    const hint = new RegExp(`<p[^>]*id="${k}-rewardCode-hint"[^>]*>([\\s\\S]*?)</p>`).exec(html)?.[1] ?? "";
    const words = hint.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, "");
    expect(words).toContain("10%");
    expect(words).toContain("free shipping");
    expect(words).toMatch(/single-use code, created on your shop platform/);
    expect(words).toMatch(/THANKYOU10.*as it is/);
  });
});

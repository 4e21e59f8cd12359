/**
 * The store's default language for shopper-facing pages (docs/surveys.md "Languages of the hosted pages") and the
 * post-review survey in place on the hosted review page (docs/surveys.md "Post-review"): the `shopperPages` section of
 * `GET/PATCH /enterprise/settings`; `/s/{id}` and the survey under `/r/{token}`'s thank-you speak the shopper's
 * Accept-Language when shipped, else the store's default; the review page's survey form posts back to the review page,
 * shows its problems there and stores the response with channel `post-review`, the request's address and order.
 * Real HTTP against the real server (the Remix build). Runs on SQLite and on PostgreSQL (vitest.postgres.config.ts).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { surveyField } from "../contract/survey-form.ts";
import type { Survey } from "../contract/surveys.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";
import { UI_LOCALES } from "../contract/widget-locales.ts";
import { reviewRequestsRepo } from "../review-requests/review-requests.repo.ts";
import { hashToken, newToken, REVIEW_LINK_TTL_MS } from "../review-requests/tokens.ts";
import { hostedPageLanguage } from "./hosted-texts.ts";

const API_KEY = "store-default-language-key-0123456789";
const basic = `Basic ${Buffer.from(`${TEST_STORE_ID}:${API_KEY}`).toString("base64")}`;
let t: TestServer;
let survey: Survey;
let link: string;
const de = TRANSLATIONS.de;
const ja = TRANSLATIONS.ja;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
const settings = async (body?: unknown) =>
  fetch(
    t.url("/enterprise/settings"),
    body === undefined ? { headers: { authorization: basic } } : { method: "PATCH", headers: { authorization: basic, "content-type": "application/json" }, body: JSON.stringify(body) },
  );
const page = (path: string, headers: Record<string, string> = {}) => fetch(t.url(path), { redirect: "manual", headers });

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify", moderation: "auto-publish-all" });
  await t.services.apiKeys.create(TEST_STORE_ID, "tests", API_KEY);
  await t.services.stores.upsertProduct({ storeId: TEST_STORE_ID, productId: "4242", name: "Wool scarf" });
  survey = await t.services.surveys.createSurvey(TEST_STORE_ID, {
    name: "After your review",
    questions: [
      { type: "star", text: "How was writing the review?", required: true },
      { type: "text", text: "Anything else?" },
    ],
    channelSurveys: [{ channel: "shareable-link" }, { channel: "post-review", reward: { type: "coupon", description: "10% off", value: "REVIEW10" } }],
  });
  link = `/s/${survey.channelSurveys.find((c) => c.channel === "shareable-link")!.channelSurveyId}`;
});
afterAll(() => t.close());

describe("the shopperPages settings section", () => {
  it("English by default; a PATCH sets one of the 16 widget languages; anything else is a 400 that changes nothing", async () => {
    expect(((await (await settings()).json()) as { shopperPages: unknown }).shopperPages).toEqual({ defaultLanguage: "en" });
    // The storefront read of a survey names it (the element's language on a page without one); cached until it changes.
    const read = async () =>
      ((await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/surveys/${survey.channelSurveys[0]!.channelSurveyId}`))).json()) as { channelSurvey: { defaultLanguage: string } }).channelSurvey
        .defaultLanguage;
    expect(await read()).toBe("en");
    for (const bad of [{ defaultLanguage: "ru" }, { defaultLanguage: "" }, { defaultLanguage: 7 }, { other: 1 }, "de"]) {
      const res = await settings({ shopperPages: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(((await res.json()) as { error: { description: string } }).error.description).toMatch(/defaultLanguage|shopperPages|other/);
    }
    const res = await settings({ shopperPages: { defaultLanguage: "de" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { shopperPages: unknown }).shopperPages).toEqual({ defaultLanguage: "de" });
    expect((await t.services.stores.get(TEST_STORE_ID))!.defaultLanguage).toBe("de");
    expect(await read()).toBe("de");
    expect(UI_LOCALES).not.toContain("ru");
  });

  it("the fallback of the page language rule", () => {
    expect(hostedPageLanguage(null, "ru-RU, ru;q=0.9", "de")).toEqual({ ui: "de", lang: "de" });
    expect(hostedPageLanguage(null, "ru, ja;q=0.5", "de")).toEqual({ ui: "ja", lang: "ja" });
    expect(hostedPageLanguage("pt-BR", "ru", "de")).toEqual({ ui: "pt-BR", lang: "pt-BR" });
    expect(hostedPageLanguage(null, "en-GB", "de")).toEqual({ ui: "en", lang: "en" });
    expect(hostedPageLanguage(null, null, "ja")).toEqual({ ui: "ja", lang: "ja" });
  });
});

describe("the hosted survey page of a German store", () => {
  it("German to a browser asking only for Russian (not shipped), Japanese to one asking for Japanese", async () => {
    const russian = await (await page(link, { "accept-language": "ru-RU,ru;q=0.9" })).text();
    expect(russian).toMatch(/<html lang="de"/);
    expect(russian).toContain(`>${esc(de["survey.submit"]!)}</button>`);
    expect(russian).not.toContain("Send answers");
    const japanese = await (await page(link, { "accept-language": "ja" })).text();
    expect(japanese).toMatch(/<html lang="ja"/);
    expect(japanese).toContain(`>${esc(ja["survey.submit"]!)}</button>`);
    // No Accept-Language at all: the store's default too; an English browser keeps English.
    expect(await (await page(link)).text()).toMatch(/<html lang="de"/);
    expect(await (await page(link, { "accept-language": "en-US" })).text()).toMatch(/<html lang="en"/);
  });
});

describe("the post-review survey on the hosted review page, without JavaScript", () => {
  /** A review request of the store for its product, as the scheduler makes it: the review link's path. */
  async function reviewLink(email: string, orderId: string): Promise<string> {
    const repo = reviewRequestsRepo(t.services.db);
    const now = Date.now();
    const requestId = randomUUID();
    await repo.insertRequest({
      request_id: requestId,
      store_id: TEST_STORE_ID,
      order_id: orderId,
      email,
      customer_name: "Ada Lovelace",
      locale: "en",
      fulfilled_ms: now,
      created_ms: now,
      status: "sent",
      skip_reason: null,
      next_step: null,
      due_ms: null,
    });
    await repo.insertProduct(requestId, TEST_STORE_ID, "4242", 0);
    const token = newToken();
    await repo.insertToken({
      token_hash: hashToken(token),
      request_id: requestId,
      store_id: TEST_STORE_ID,
      purpose: "review",
      product_id: "4242",
      created_ms: now,
      expires_ms: now + REVIEW_LINK_TTL_MS,
    });
    return `/r/${token}`;
  }
  const postForm = (path: string, form: [string, string][], headers: Record<string, string> = {}) =>
    fetch(t.url(path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() });

  it("follows the review in place: problems shown on the review page, then stored with channel, address and order, and the reward shown", async () => {
    const email = "reviewer@example.com";
    const path = await reviewLink(email, "5551234");
    const review = new FormData();
    for (const [k, v] of Object.entries({ rating: "5", body: "Warm and soft, it keeps its shape after washing.", displayName: "Ada L." })) review.append(k, v);
    const posted = await fetch(t.url(path), { method: "POST", body: review, redirect: "manual" });
    expect(posted.status).toBe(302);
    const thanks = posted.headers.get("location")!;
    expect(thanks).toBe(`${path}?done=published`);

    // The thank-you page: the survey as a plain form posting back here, in the store's default language (German).
    const html = await (await page(thanks, { "accept-language": "ru" })).text();
    expect(html).toContain("Thank you for your review!");
    expect(html).toContain('<section class="follow-up" aria-labelledby="survey-title" lang="de">');
    expect(html).toContain(`<form method="post" action="?done=published&amp;survey" novalidate="">`);
    expect(html).toContain(`>${esc(de["survey.submit"]!)}</button>`);
    expect(html).not.toContain(`/s/${survey.channelSurveys.find((c) => c.channel === "post-review")!.channelSurveyId}`);
    const q = survey.questions.map((x) => x.id);

    // Nothing answered: 400, the problem at its question on the review page (the thank-you kept), nothing stored.
    const refused = await postForm(`${path}?done=published&survey`, [[surveyField(q[1]!), "Only a comment"]], { "accept-language": "ru" });
    expect(refused.status).toBe(400);
    const problem = await refused.text();
    expect(problem).toContain("Thank you for your review!");
    expect(problem).toContain(esc(de["survey.notSent"]!));
    expect(problem).toMatch(new RegExp(`id="e-${q[0]}"[^>]*>${de["survey.problemRequired"]}<`));
    expect(problem).toContain(">Only a comment</textarea>");
    const listed = async () => (await t.services.surveys.listResponses(TEST_STORE_ID, survey.surveyId, { limit: 10, orderBy: "date desc" } as never)).surveyResponses;
    expect(await listed()).toHaveLength(0);

    // Answered: back to the review page's thank-you, the survey's thanks with the reward code in place of the form.
    const stored = await postForm(`${path}?done=published&survey`, [
      [surveyField(q[0]!), "4"],
      [surveyField(q[1]!), "Easy"],
      // A form cannot choose whose response it is: the request's address and order are used.
      ["email", "someone-else@example.com"],
      ["orderId", "999"],
    ]);
    expect(stored.status).toBe(302);
    const location = stored.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^${path}\\?done=published&answered=[0-9a-f-]{36}$`));
    const after = await (await page(location, { "accept-language": "en" })).text();
    expect(after).toContain("Thank you for your review!");
    expect(after).toContain("Thank you for your answers!");
    expect(after).toContain("REVIEW10");
    expect(after).not.toContain("<form");
    const [response] = await listed();
    expect(response).toMatchObject({ channel: "post-review", customer: { email }, order: { remoteOrderId: "5551234" }, reward: { value: "REVIEW10" } });
    expect(response!.answeredQuestions.map((a) => a.answer)).toEqual([4, "Easy"]);

    // A survey post to a link not used for a review yet is not a survey answer: the link's own refusal.
    const open = await reviewLink("other@example.com", "5551235");
    const notYet = (await postForm(`${open}?survey`, [[surveyField(q[0]!), "4"]])).status;
    expect(notYet >= 400 && notYet < 500, String(notYet)).toBe(true);
    expect(await listed()).toHaveLength(1);
  });
});

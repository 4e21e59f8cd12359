/**
 * The hosted survey page in the shopper's language (docs/surveys.md, "Shareable link"): `?locale=`, else
 * `Accept-Language`, else English; `<html lang>`; problems, thank-you and reward words in that language; countries named
 * in it; a posted country's ISO 3166-2 regions offered without JavaScript and stored as codes. Real HTTP against the real
 * server (the Remix build), plain form posts as a browser without JavaScript sends them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { surveyField } from "../contract/survey-form.ts";
import type { Survey } from "../contract/surveys.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";
import { hostedPageLanguage } from "./hosted-texts.ts";

let t: TestServer;
let survey: Survey;
let link: string;
const q = (i: number) => survey.questions[i]!.id;
const page = (path: string, headers: Record<string, string> = {}) => fetch(t.url(path), { redirect: "manual", headers });
const post = (path: string, form: [string, string][], headers: Record<string, string> = {}) =>
  fetch(t.url(path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form).toString() });
const de = TRANSLATIONS.de;
const ja = TRANSLATIONS.ja;
/** Text as React writes it into HTML (quotes and ampersands escaped). */
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

beforeAll(async () => {
  t = await startTestServer();
  await t.services.stores.create({ storeId: TEST_STORE_ID, name: "Test store", platform: "shopify" });
  survey = await t.services.surveys.createSurvey(TEST_STORE_ID, {
    name: "Kurze Umfrage",
    questions: [
      { type: "star", text: "Wie gefällt dir der Shop?", required: true },
      { type: "email", text: "E-Mail" },
      { type: "profile", text: "Wo wohnst du?", profileAnswerType: "location" },
    ],
    channelSurveys: [{ channel: "shareable-link", reward: { type: "coupon", description: "5 % Rabatt", value: "DANKE5" } }],
  });
  link = `/s/${survey.channelSurveys[0]!.channelSurveyId}`;
});
afterAll(() => t.close());

describe("the page's language", () => {
  it("?locale= first, then Accept-Language by preference (only shipped languages), else English", () => {
    expect(hostedPageLanguage("de", "ja")).toEqual({ ui: "de", lang: "de" });
    expect(hostedPageLanguage(null, "ru;q=1, ja-JP;q=0.8, de;q=0.9")).toEqual({ ui: "de", lang: "de" });
    expect(hostedPageLanguage(null, "ru, ja-JP;q=0.5")).toEqual({ ui: "ja", lang: "ja" });
    expect(hostedPageLanguage(null, "en-GB, de;q=0.9")).toEqual({ ui: "en", lang: "en" });
    expect(hostedPageLanguage(null, "de;q=0, ru")).toEqual({ ui: "en", lang: "en" });
    expect(hostedPageLanguage("<x>", "pt-BR")).toEqual({ ui: "pt-BR", lang: "pt-BR" });
    expect(hostedPageLanguage(undefined, undefined)).toEqual({ ui: "en", lang: "en" });
  });

  it("German by ?locale=: <html lang>, the element's German words, countries named in German", async () => {
    const res = await page(`${link}?locale=de`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html lang="de"/);
    expect(html).toContain(esc(de["survey.required"]!.replace("{question}", "Wie gefällt dir der Shop?")));
    expect(html).toContain(esc(de["survey.rewardFor"]!.replace("{reward}", "5 % Rabatt")));
    expect(html).toContain(`>${esc(de["survey.submit"]!)}</button>`);
    expect(html).toContain(esc(de["survey.optIn"]!));
    expect(html).toContain(">Deutschland</option>");
    expect(html).toContain(">Vereinigtes Königreich</option>");
    for (const english of ["Send answers", "(required)", "Choose…", "Country", "For your answers", "Send me news"]) expect(html).not.toContain(english);
  });

  it("Japanese by Accept-Language: the whole page, the unknown-survey page included", async () => {
    const html = await (await page(link, { "accept-language": "ja-JP,ja;q=0.9,en;q=0.8" })).text();
    expect(html).toMatch(/<html lang="ja"/);
    expect(html).toContain(`>${esc(ja["survey.submit"]!)}</button>`);
    expect(html).toContain(">日本</option>");
    const missing = await page("/s/00000000-0000-4000-8000-000000000000", { "accept-language": "ja" });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(ja["survey.notFoundTitle"]);
    expect(await (await page(link)).text()).toMatch(/<html lang="en"/);
  });
});

describe("a form post without JavaScript, in German", () => {
  it("problems in German at their question; a posted country's regions offered as a select", async () => {
    const res = await post(`${link}?locale=de`, [
      [surveyField(q(1)), "kein-mail"],
      [surveyField(q(2), "country"), "DE"],
    ]);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain(esc(de["survey.notSent"]!));
    expect(html).toMatch(new RegExp(`id="e-${q(0)}"[^>]*>${de["survey.problemRequired"]}<`));
    expect(html).toContain(esc(de["survey.problemEmail"]!));
    expect(html).toMatch(new RegExp(`<select id="${q(2)}-zone" name="${surveyField(q(2), "zone").replace(/\./g, "\\.")}"`));
    expect(html).toContain('<option value="BY">Bayern</option>');
    expect(html).toContain(esc(de["survey.region"]!));
  });

  it("a full post stores the region code, and the thank-you page and its reward words stay German", async () => {
    const res = await post(`${link}?locale=de`, [
      [surveyField(q(0)), "5"],
      [surveyField(q(2), "country"), "DE"],
      [surveyField(q(2), "zone"), "BY"],
    ]);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/&locale=de$/);
    const thanks = await (await page(location)).text();
    expect(thanks).toMatch(/<html lang="de"/);
    expect(thanks).toContain(de["survey.thanks"]);
    expect(thanks).toContain(esc(de["survey.sentTo"]!.replace("{store}", "Test store")));
    expect(thanks).toContain(de["survey.code"]!.replace("{code}", "").trim());
    expect(thanks).toContain("DANKE5");
    const id = new URL(location, "http://x").searchParams.get("done")!;
    const [row] = (await t.services.surveys.listResponses(TEST_STORE_ID, survey.surveyId, { limit: 10, orderBy: "date desc" } as never)).surveyResponses.filter((r) => r.surveyResponseId === id);
    expect(row!.answeredQuestions.find((a) => a.id === q(2))!.answer).toEqual({ type: "location", value: { countryCode: "DE", zoneCode: "BY" } });
  });
});

/**
 * The AI summary and keyword topics in the page's language (docs/ai.md, Languages): sentences rendered from the
 * version's stored facts per language, numbers with Intl.NumberFormat, topic names from the translated table, the
 * shoppers' keywords as written. Real HTTP against the real server over real reviews.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { UI_LOCALES } from "../contract/widget-locales.ts";
import type { KeywordTopic } from "../contract/storefront.ts";
import { TOPICS } from "./keywords.ts";
import { keywordLabel, renderSummary, type SummaryClaim } from "./summary.ts";
import { SIZING_KEYWORDS, SUMMARY_TEXTS, TOPIC_KEYS } from "./summary-texts.ts";

const P30 = "1088";
/** 36 reviews whose fit keywords include three sizing keywords ("true to size", "size up", "runs small"). */
const SIZING = "995";
const prefix = `/v1/stores/${TEST_STORE_ID}/products/shopify-${P30}`;
let t: TestServer;
const get = async (path: string) => {
  const res = await fetch(t.url(prefix + path));
  return { status: res.status, body: await res.json() };
};

/** The English template words of the summary (placeholders cut out): none may show on another language's page. */
const englishFragments = (): string[] => {
  const en = SUMMARY_TEXTS.en;
  return [en.rating.other, en.recommend, en.praised, en.criticised, en.noComplaint, ...Object.values(en.topics)]
    .flatMap((s) => s.split(/\{\w+\}/))
    .map((s) => s.replace(/^[\s:.,()]+|[\s:.,()]+$/g, ""))
    .filter((s) => s.length >= 4);
};

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: [P30, SIZING] });
  await t.services.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: true });
  for (const id of [P30, SIZING]) {
    const r = await t.services.ai.generate(TEST_STORE_ID, { type: "product", id });
    if (r.status !== "generated") throw new Error("expected a version");
  }
});
afterAll(() => t.close());

describe("summary in the page's language", () => {
  it("German: the same facts as the English text, in German sentences, numbers formatted for German, keywords quoted as written", async () => {
    const en = (await get("/reviews_summary")).body.reviewsSummary;
    const de = (await get("/reviews_summary?locale=de")).body.reviewsSummary;
    expect({ ...de, body: "" }).toEqual({ ...en, body: "" });
    const [, average] = /Average rating: (\d\.\d) out of 5 from 30 reviews\./.exec(en.body)!;
    expect(de.body).toContain(`Durchschnittliche Bewertung: ${average.replace(".", ",")} von 5 aus 30 Bewertungen.`);
    for (const fragment of englishFragments()) expect(de.body).not.toContain(fragment);
    const [v] = await t.services.ai.versions(TEST_STORE_ID, { type: "product", id: P30 });
    const claims = JSON.parse(v.claims_json) as SummaryClaim[];
    const topical = claims.filter((c) => c.kind !== "aggregate");
    expect(topical.length).toBeGreaterThan(0);
    for (const c of topical) {
      expect(de.body).toContain(`${SUMMARY_TEXTS.de.topics[c.topicKey!]}: ${c.kind === "praise" ? "gelobt" : "bemängelt"} in ${c.sharePercent}\u00a0% der Bewertungen`);
      for (const k of c.keywords ?? []) expect(de.body).toContain(`„${keywordLabel(k, "de")}“`);
    }
  });

  it("Japanese (and a region tag) render from the same facts; an unshipped language gets the English text", async () => {
    const ja = (await get("/reviews_summary?locale=ja-JP")).body.reviewsSummary.body as string;
    expect(ja).toMatch(/^平均評価：5点中\d\.\d点（レビュー30件）。/);
    for (const fragment of englishFragments()) expect(ja).not.toContain(fragment);
    expect((await get("/reviews_summary?locale=tlh")).body).toEqual((await get("/reviews_summary")).body);
  });

  it("a malformed locale answers 400 with a description, never a 500", async () => {
    const r = await get("/reviews_summary?locale=%3Cscript%3E");
    expect(r.status).toBe(400);
    expect(r.body.error.description).toMatch(/locale/);
    expect((await get(`/reviews_keywords?locale=${"y".repeat(40)}`)).status).toBe(400);
  });
});

describe("keyword topic names in the page's language", () => {
  it("topic names from the translated table, keywords and counts exactly as in English", async () => {
    const en = (await get("/reviews_keywords")).body.reviewsKeywords.keywordTopics as KeywordTopic[];
    for (const locale of ["de", "ja", "zh-Hant"] as const) {
      const translated = (await get(`/reviews_keywords?locale=${locale}`)).body.reviewsKeywords.keywordTopics as KeywordTopic[];
      expect(translated.map((x) => x.keywords)).toEqual(en.map((x) => x.keywords));
      expect(translated.map((x) => x.topic)).toEqual(en.map((x) => SUMMARY_TEXTS[locale].topics[TOPIC_KEYS.find((k) => TOPICS[k] === x.topic)!]));
    }
  });
});

describe("the sizing keywords Chorus generates in the page's language", () => {
  it("German: a label in German beside each sizing keyword, whose stored name still filters the reviews", async () => {
    const get = async (path: string) => (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${SIZING}${path}`))).json();
    const en = (await get("/reviews_keywords")).reviewsKeywords.keywordTopics as KeywordTopic[];
    const de = (await get("/reviews_keywords?locale=de")).reviewsKeywords.keywordTopics as KeywordTopic[];
    const sizing = en.flatMap((x) => x.keywords).filter((k) => (SIZING_KEYWORDS as readonly string[]).includes(k.name));
    expect(sizing.length, "the product's keywords include sizing advice").toBeGreaterThan(0);
    for (const k of de.flatMap((x) => x.keywords)) {
      const generated = (SIZING_KEYWORDS as readonly string[]).includes(k.name);
      expect(k.label, k.name).toBe(generated ? SUMMARY_TEXTS.de.sizing[k.name as (typeof SIZING_KEYWORDS)[number]] : undefined);
    }
    expect(
      en.flatMap((x) => x.keywords).every((k) => !("label" in k)),
      "no label without ?locale=",
    ).toBe(true);
    for (const k of sizing) {
      // the filter value is the stored name: the German page's chip filters exactly like the English one
      const byName = (await get(`/reviews?keyword=${encodeURIComponent(k.name)}&limit=25`)).reviews as { reviewId: string }[];
      expect(byName.length, k.name).toBe(k.occurrences);
      expect(new Set(byName.map((r) => r.reviewId)).size, `${k.name}: no duplicates`).toBe(k.occurrences);
      // the German label is a display text, never a filter value
      expect((await get(`/reviews?keyword=${encodeURIComponent(SUMMARY_TEXTS.de.sizing[k.name as (typeof SIZING_KEYWORDS)[number]])}`)).reviews).toEqual([]);
    }
  });

  it("every language has a label for every sizing keyword; the summary quotes them in that language", () => {
    const claims: SummaryClaim[] = [
      { kind: "aggregate", text: "", average: 4, reviewCount: 40, recommendPercent: null, reviewIds: [] },
      { kind: "complaint", text: "", topic: TOPICS.fit, topicKey: "fit", keywords: ["runs small", "waist"], sharePercent: 20, reviewIds: ["b"] },
    ];
    for (const locale of UI_LOCALES) {
      const texts = SUMMARY_TEXTS[locale];
      expect(Object.keys(texts.sizing).sort(), locale).toEqual([...SIZING_KEYWORDS].sort());
      const body = renderSummary(claims, locale)!;
      expect(body, locale).toContain(`${texts.quote[0]}${texts.sizing["runs small"]}${texts.quote[1]}`);
      expect(body, locale).toContain(`${texts.quote[0]}waist${texts.quote[1]}`);
      if (locale !== "en") for (const k of SIZING_KEYWORDS) expect(texts.sizing[k], `${locale} ${k}`).not.toBe(k);
    }
  });
});

describe("the templates of all 16 languages", () => {
  const claims: SummaryClaim[] = [
    { kind: "aggregate", text: "", average: 4.25, reviewCount: 1024, recommendPercent: 87, reviewIds: [] },
    { kind: "praise", text: "", topic: TOPICS.fabric, topicKey: "fabric", keywords: ["soft fabric", "quality"], sharePercent: 41, reviewIds: ["a"] },
    { kind: "complaint", text: "", topic: TOPICS.fit, topicKey: "fit", keywords: ["runs small"], sharePercent: 12, reviewIds: ["b"] },
  ];
  it("every language has every topic and template, and renders every fact with its own number format", () => {
    for (const locale of UI_LOCALES) {
      const texts = SUMMARY_TEXTS[locale];
      expect(Object.keys(texts.topics).sort()).toEqual([...TOPIC_KEYS].sort());
      const body = renderSummary(claims, locale)!;
      expect(body, locale).not.toMatch(/[{}]/);
      const intl = locale === "de-formal" ? "de" : locale;
      expect(body, locale).toContain(new Intl.NumberFormat(intl).format(1024));
      expect(body, locale).toContain(new Intl.NumberFormat(intl, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(4.3));
      for (const p of [87, 41, 12]) expect(body, locale).toContain(new Intl.NumberFormat(intl, { style: "percent" }).format(p / 100));
      for (const k of ["soft fabric", "quality", texts.sizing["runs small"]]) expect(body, locale).toContain(`${texts.quote[0]}${k}${texts.quote[1]}`);
      expect(body, locale).toContain(texts.topics.fabric);
      if (locale !== "en") for (const fragment of englishFragments()) expect(body, locale).not.toContain(fragment);
    }
    expect(renderSummary(claims, "en")).toContain("1,024");
    expect(renderSummary(claims, "de")).toContain("1.024");
  });

  it("without facts (a version stored before them) there is nothing to render: the stored text is served", () => {
    expect(renderSummary([{ kind: "aggregate", text: "old", reviewIds: [] }], "de")).toBeNull();
  });
});

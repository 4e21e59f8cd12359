/**
 * The persisted queue across a restart, the language-model provider and the translation provider,
 * each against a real local HTTP stub server started by the test, over real SQLite files (PostgreSQL databases
 * with CHORUS_TEST_POSTGRES_URL: test/test-databases.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { testDatabases } from "../../test/test-databases.ts";
import { createServices, type Services, type ServicesOptions } from "../services.ts";
import { run, sql, value, values } from "../db/database.ts";
import type { AiConfig, LlmConfig } from "./config.ts";
import { toTargetLocale } from "../translation/locales.ts";
import { decodeHtmlText } from "../../widgets/internal/html-text.ts";

const P30 = "1088"; // 30 real reviews
const dbs = testDatabases("chorus-ai-");
let made = 0;
/** A fresh database's location. */
const tempDb = () => dbs.location(`chorus-${++made}.sqlite`);
const open = async (location: string | Promise<string>, ai: Partial<AiConfig> = {}) =>
  createServices({ databasePath: await location, mediaPath: join(dbs.dir, "media"), ai: { llm: null, translation: null, ...ai } } satisfies ServicesOptions);
afterAll(() => dbs.removeAll());

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
/** A local HTTP stub; `handler` can be swapped per test; `calls` counts requests. */
async function stubServer(): Promise<{ url: string; calls: { body: string }[]; handle: (h: Handler) => void; close: () => Promise<void> }> {
  let handler: Handler = (_req, _b, res) => res.end("{}");
  const calls: { body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      calls.push({ body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    handle: (h) => (handler = h),
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
const chatAnswer = (content: string) => JSON.stringify({ choices: [{ message: { role: "assistant", content } }] });

describe("persisted queue", () => {
  it("a job enqueued before the services close is completed by a worker after reopening", async () => {
    const path = tempDb();
    let s: Services = await open(path);
    await seedRealReviews(s, { productIds: [P30] });
    await s.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: true });
    expect(await s.ai.enqueue(TEST_STORE_ID, { type: "product", id: P30 }, "test")).toBe(true);
    expect(await s.ai.enqueue(TEST_STORE_ID, { type: "product", id: P30 }, "test")).toBe(false); // one queued job per scope
    await s.close();

    s = await open(path);
    try {
      expect((await s.aiData.jobCounts()).queued).toBe(1);
      await s.aiWorker.start();
      await expect.poll(async () => (await s.aiData.jobCounts()).done, { timeout: 20_000 }).toBe(1);
      await s.aiWorker.stop();
      expect(await s.ai.getSummary({ storeId: TEST_STORE_ID, productKey: `shopify-${P30}` })).toHaveProperty("reviewsSummary.contributingReviewCount", 30);
    } finally {
      await s.close();
    }
  });

  it("a job left running by a stopped process is queued again and completed", async () => {
    const path = tempDb();
    let s: Services = await open(path);
    await seedRealReviews(s, { productIds: [P30] });
    await s.ai.enqueue(TEST_STORE_ID, { type: "product", id: P30 }, "test");
    // the process "dies" mid-job, and its claim runs out (at once here: on PostgreSQL another node takes back only expired claims)
    expect((await s.aiData.claimNext(Date.now(), Date.now(), "a process that died"))?.status).toBe("running");
    await s.close();
    s = await open(path);
    try {
      expect(await s.aiWorker.runUntilIdle()).toBe(1);
      expect(await s.aiData.jobCounts()).toMatchObject({ queued: 0, running: 0, done: 1 });
      expect(await s.ai.versions(TEST_STORE_ID, { type: "product", id: P30 })).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});

describe("claims across nodes (two services on one database: on PostgreSQL two pools)", () => {
  it("40 jobs claimed by two nodes' loops at once: each job once, none left; a lost lease records nothing", async () => {
    const path = tempDb();
    const a: Services = await open(path);
    const b: Services = await open(path);
    try {
      await a.stores.create({ storeId: TEST_STORE_ID, name: "Claims", platform: "shopify" });
      const now = Date.now();
      for (let i = 0; i < 40; i++) expect(await a.aiData.enqueue(TEST_STORE_ID, { type: "product", id: `claim-${i}` }, "test", now)).toBe(true);
      const claimed: number[] = [];
      const loop = async (s: Services, workerId: string) => {
        for (;;) {
          const job = await s.aiData.claimNext(Date.now(), Date.now() + 60_000, workerId);
          if (!job) return;
          claimed.push(job.job_id);
        }
      };
      await Promise.all([loop(a, "node-a-1"), loop(a, "node-a-2"), loop(b, "node-b-1"), loop(b, "node-b-2")]);
      expect(claimed).toHaveLength(40);
      expect(new Set(claimed).size).toBe(40);
      expect(await a.aiData.jobCounts()).toMatchObject({ queued: 0, running: 40 });

      // The lease is the fencing token: a loop whose claim was taken back (lease ran out, requeued, claimed again) records nothing.
      const [first] = (await a.aiData.listJobs(TEST_STORE_ID)).filter((j) => j.status === "running");
      expect(await b.aiData.requeueInterrupted(Date.now() + 120_000, null)).toBe(40);
      const again = (await b.aiData.claimNext(Date.now(), Date.now() + 60_000, "node-b-3"))!;
      expect(again.job_id).toBe(first.job_id);
      expect(await a.aiData.finishJob(first, Date.now())).toBe(false);
      expect(await b.aiData.finishJob(again, Date.now())).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("language-model provider (OpenAI-compatible) against a local stub", () => {
  let stub: Awaited<ReturnType<typeof stubServer>>;
  let s: Services;
  const llm = (): LlmConfig => ({ baseUrl: `${stub.url}/v1`, model: "stub-model", apiKey: "k", timeoutMs: 300, retries: 1, backoffMs: 10 });
  beforeAll(async () => {
    stub = await stubServer();
    s = await open(tempDb());
    await seedRealReviews(s, { productIds: [P30] });
    await s.stores.updateSettings(TEST_STORE_ID, { aiAutoPublish: true });
  });
  afterAll(async () => {
    await s.close();
    await stub.close();
  });
  const generate = async () => {
    s.aiConfig.llm = llm();
    const r = await s.ai.generate(TEST_STORE_ID, { type: "product", id: P30 });
    if (r.status !== "generated") throw new Error("expected a version");
    return r;
  };

  it("success: the model's summary is published, with the model named as engine", async () => {
    const text = "Shoppers mostly love the fit and the colour of this dress, though some find the fabric thin.";
    stub.handle((req, body, res) => {
      expect(req.url).toBe("/v1/chat/completions");
      expect(req.headers.authorization).toBe("Bearer k");
      expect(JSON.parse(body).model).toBe("stub-model");
      res.setHeader("content-type", "application/json");
      res.end(chatAnswer(text));
    });
    const r = await generate();
    expect(r.fallbackReason).toBeUndefined();
    expect(r.version.engine).toBe("llm:stub-model");
    expect(await s.ai.getSummary({ storeId: TEST_STORE_ID, productKey: `shopify-${P30}` })).toHaveProperty("reviewsSummary.body", text);
  });

  it("timeout: every attempt times out, retried, then the embedded engine's summary is used", async () => {
    stub.calls.length = 0;
    stub.handle((_req, _body, res) => {
      setTimeout(() => res.end(chatAnswer("late")), 1000).unref();
    });
    const r = await generate();
    expect(r.fallbackReason).toMatch(/timeout/);
    expect(stub.calls).toHaveLength(2); // 1 + 1 retry
    expect(r.version.engine).toBe("embedded");
    expect(r.version.summary_body).toMatch(/^Average rating: [\d.]+ out of 5 from \d+ reviews\./); // the embedded engine's summary (server/ai/summary-texts.ts)
  });

  it("malformed output: not JSON, or JSON without choices, falls back to the embedded engine", async () => {
    for (const answer of ["<html>oops</html>", JSON.stringify({ result: "no choices" }), chatAnswer("   ")]) {
      stub.handle((_req, _body, res) => res.end(answer));
      const r = await generate();
      expect(r.version.engine, answer).toBe("embedded");
      expect(r.fallbackReason).toMatch(/JSON|choices/);
    }
  });

  it("a summary naming a topic no review supports is rejected", async () => {
    stub.handle((_req, _body, res) => res.end(chatAnswer("Shoppers praise the fast shipping and the careful packaging.")));
    const r = await generate();
    expect(r.version.engine).toBe("embedded");
    expect(r.fallbackReason).toMatch(/shipping|packaging/);
  });
});

describe("translation (docs/ai.md, Translation) against a local LibreTranslate stub", () => {
  let stub: Awaited<ReturnType<typeof stubServer>>;
  let s: Services;
  let ids: string[];
  beforeAll(async () => {
    stub = await stubServer();
    stub.handle((req, body, res) => {
      const { q, source, target } = JSON.parse(body) as { q: string[]; source: string; target: string };
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ translatedText: q.map((x) => `[${source}>${target}] ${x}`) }));
    });
    s = await open(tempDb(), { translation: { provider: "libretranslate", url: stub.url, timeoutMs: 2000 } });
    await seedRealReviews(s, { productIds: [P30] });
    await s.stores.updateSettings(TEST_STORE_ID, { translation: "on-load" });
    ids = await values<string>(s.db, sql`SELECT review_id FROM reviews WHERE product_id = ${P30} ORDER BY created_ms DESC`);
    await run(s.db, sql`UPDATE reviews SET language_code = NULL WHERE review_id = ${ids[0]}`); // detection failed for this one
  });
  afterAll(async () => {
    await s.close();
    await stub.close();
  });
  const list = (locale: string) => s.reviews.listReviews({ storeId: TEST_STORE_ID, productKey: `shopify-${P30}` }, { limit: 5, orderBy: "date desc", locale }, "http://x");

  it("translates only auto-detected reviews in another language, adds translatedLocale, and caches per review and locale", async () => {
    const first = await list("de-formal");
    expect(first.reviews[0].reviewId).toBe(ids[0]);
    expect(first.reviews[0].translatedLocale).toBeUndefined(); // language not detected: original text
    expect(first.reviews[0].languageCode).toBeUndefined();
    for (const r of first.reviews.slice(1)) {
      expect(r.translatedLocale).toBe("de-formal");
      expect(decodeHtmlText(r.body).startsWith("[en>de] ")).toBe(true); // bodies come HTML-safe (docs/api.md, Okendo-compatible)
    }
    expect(stub.calls).toHaveLength(1);
    const again = await list("de-formal");
    expect(again.reviews.map((r) => r.body)).toEqual(first.reviews.map((r) => r.body));
    expect(stub.calls).toHaveLength(1); // served from the SQLite cache
    expect(await value<number>(s.db, sql`SELECT count(*) AS n FROM review_translations WHERE locale_key = 'de-formal'`)).toBe(4);
  });

  it("the review's own language is not translated; pt-PT and pt-pt share one cache entry", async () => {
    expect((await list("en")).reviews.every((r) => r.translatedLocale === undefined)).toBe(true);
    const before = stub.calls.length;
    await list("pt-PT");
    await list("pt-pt");
    expect(stub.calls.length).toBe(before + 1);
    expect(JSON.parse(stub.calls.at(-1)!.body).target).toBe("pt");
  });

  it("translation setting off: original text", async () => {
    await s.stores.updateSettings(TEST_STORE_ID, { translation: "off" });
    try {
      expect((await list("fr")).reviews.every((r) => r.translatedLocale === undefined && !r.body.startsWith("["))).toBe(true);
    } finally {
      await s.stores.updateSettings(TEST_STORE_ID, { translation: "on-load" });
    }
  });

  it("no provider configured, or the provider failing: original text", async () => {
    const bare = await open(tempDb());
    try {
      await seedRealReviews(bare, { productIds: [P30] });
      await bare.stores.updateSettings(TEST_STORE_ID, { translation: "on-load" });
      const r = await bare.reviews.listReviews({ storeId: TEST_STORE_ID, productKey: `shopify-${P30}` }, { limit: 5, orderBy: "date desc", locale: "fr" }, "http://x");
      expect(r.reviews.every((x) => x.translatedLocale === undefined)).toBe(true);
    } finally {
      await bare.close();
    }
    stub.handle((_req, _body, res) => {
      res.statusCode = 500;
      res.end("{}");
    });
    expect((await list("it")).reviews.every((r) => r.translatedLocale === undefined && !r.body.startsWith("["))).toBe(true);
  });

  it("both locale lists map onto one internal set", () => {
    expect(toTargetLocale("pt-PT")).toEqual(toTargetLocale("pt-pt"));
    expect(toTargetLocale("zh-TW")?.key).toBe("zh-tw");
    expect(toTargetLocale("de-informal")).toMatchObject({ language: "de", register: "informal" });
    expect(toTargetLocale("xx")).toBeNull();
  });
});

/**
 * `npm run snippets` (server/cli/snippets.ts) against a real Chorus server and a local fake of Shopify's Admin
 * GraphQL endpoint: the request shape of `metafieldsSet` (URL, token header, mutation, one metafield per
 * product and widget in namespace `chorus` holding the snippet the API serves), Shopify's userErrors reported
 * as a failure, and `--out` files for any shop; the same write from the admin's Platform page (a token typed
 * there, never stored).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSnippetsCli } from "../cli/snippets.ts";
import { adminGet, adminPost, signInAgent } from "../../test/admin-http.ts";
import { publishRealReview, seedRealReviews, TEST_STORE_ID } from "../../test/fixtures.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { all, sql } from "../db/database.ts";

let t: TestServer;
let shopify: Server;
let shopifyUrl: string;
type Received = { method: string; url: string; headers: IncomingMessage["headers"]; body: { query: string; variables: { metafields: Record<string, string>[] } } };
const received: Received[] = [];
let answer: (body: Received["body"]) => unknown = (body) => ({
  data: { metafieldsSet: { metafields: body.variables.metafields.map((m) => ({ key: m.key, namespace: m.namespace })), userErrors: [] } },
});
const PRODUCTS = ["1078", "862"];

beforeAll(async () => {
  t = await startTestServer();
  await seedRealReviews(t.services, { productIds: PRODUCTS });
  await t.services.platforms.updateSettings(TEST_STORE_ID, { shopDomain: "chorus-test.myshopify.com" });
  shopify = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => shopify.listen(0, "127.0.0.1", resolve));
  shopifyUrl = `http://127.0.0.1:${(shopify.address() as AddressInfo).port}/admin/api/2025-01/graphql.json`;
});
afterAll(async () => {
  await new Promise((resolve) => shopify.close(resolve));
  await t.close();
});

// The CLI opens the server's database: its SQLite file, or its PostgreSQL database (CHORUS_TEST_POSTGRES_URL).
const env = () => ({
  ...process.env,
  ...(/^postgres(ql)?:/.test(t.services.databasePath) ? { DATABASE_URL: t.services.databasePath } : { DATABASE_PATH: join(t.dir, "chorus.sqlite") }),
  MEDIA_PATH: join(t.dir, "media"),
  SHOPIFY_ADMIN_TOKEN: "shpat_test_token",
});
const run = async (args: string[]) => {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runSnippetsCli(
    ["--store", TEST_STORE_ID, "--chorus-url", t.baseUrl, ...args],
    env(),
    (l) => lines.push(l),
    (l) => errors.push(l),
  );
  return { code, lines, errors };
};

describe("npm run snippets", () => {
  it("--shopify writes each product's star-rating and reviews snippets with one metafieldsSet call", async () => {
    received.length = 0;
    const { code, lines, errors } = await run(["--shopify", "--shopify-api-url", shopifyUrl]);
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe("Wrote 4 metafields (namespace chorus) of 2 products to chorus-test.myshopify.com.");
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe("/admin/api/2025-01/graphql.json");
    expect(request!.headers["x-shopify-access-token"]).toBe("shpat_test_token");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.body.query).toMatch(/mutation \w+\(\$metafields: \[MetafieldsSetInput!\]!\) \{\s*metafieldsSet\(metafields: \$metafields\) \{/);
    expect(request!.body.query).toMatch(/userErrors \{ field message code \}/);
    const sent = request!.body.variables.metafields;
    expect(sent.map((m) => `${m.ownerId} ${m.namespace}.${m.key} ${m.type}`).sort()).toEqual(
      PRODUCTS.flatMap((p) => [`gid://shopify/Product/${p} chorus.reviews_snippet multi_line_text_field`, `gid://shopify/Product/${p} chorus.star_rating_snippet multi_line_text_field`]).sort(),
    );
    for (const m of sent) {
      const id = m.ownerId!.split("/").pop();
      const widget = m.key === "reviews_snippet" ? "reviews" : "star-rating";
      const served = await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-${id}/snippets/${widget}`))).text();
      // A reviews snippet over a metafield's size is sent with fewer reviews (the CLI asks again with a smaller limit).
      if (served.length <= 65_000) expect(m.value).toBe(served);
      else expect(m.value).toMatch(/^<chorus-reviews server-rendered [^>]*page-size="(12|6|3|1)"/);
      expect(m.value!.length).toBeLessThanOrEqual(65_000);
      expect(m.value).toContain("shadowrootmode");
    }
  });

  it("--watch delivers again only what changed: a new review of one product rewrites that product's two metafields", async () => {
    answer = (body) => ({ data: { metafieldsSet: { metafields: body.variables.metafields.map((m) => ({ key: m.key, namespace: m.namespace })), userErrors: [] } } });
    received.length = 0;
    const running = run(["--shopify", "--shopify-api-url", shopifyUrl, "--watch", "1", "--cycles", "3"]);
    await expect.poll(() => received.length, { timeout: 5000, interval: 20 }).toBe(1);
    expect(received[0]!.body.variables.metafields).toHaveLength(4);
    await publishRealReview(t.services, "1078");
    const { code, lines, errors } = await running;
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    expect(received).toHaveLength(2); // the third round had nothing to write: no request
    expect(received[1]!.body.variables.metafields.map((m) => `${m.ownerId} ${m.key}`).sort()).toEqual(["gid://shopify/Product/1078 reviews_snippet", "gid://shopify/Product/1078 star_rating_snippet"]);
    expect(lines.map((l) => l.replace(/ of \d+ products.*/, ""))).toEqual(["Wrote 4 metafields (namespace chorus)", "Wrote 2 metafields (namespace chorus)", "Wrote 0 metafields (namespace chorus)"]);
  });

  it("Shopify's userErrors and HTTP failures are reported and the exit code is 1", async () => {
    answer = () => ({ data: { metafieldsSet: { metafields: [], userErrors: [{ field: ["metafields", "0", "value"], message: "Value is too long", code: "INVALID_VALUE" }] } } });
    const { code, errors } = await run(["--shopify", "--shopify-api-url", shopifyUrl, "--product", "shopify-1078", "--widget", "star-rating"]);
    expect(code).toBe(1);
    expect(errors).toEqual(["Shopify: metafields.0.value Value is too long"]);
    const unreachable = await run(["--shopify", "--shopify-api-url", "http://127.0.0.1:9/graphql.json", "--product", "1078", "--widget", "star-rating"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.errors[0]).toMatch(/^Shopify could not be reached/);
  });

  it("--out writes files for any shop; usage errors exit 2 without a token or with an unknown widget", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-snippets-"));
    try {
      const { code } = await run(["--out", dir, "--product", "1078", "--widget", "star-rating,questions"]);
      expect(code).toBe(0);
      const file = join(dir, "shopify-1078", "star-rating.html");
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, "utf8")).toBe(await (await fetch(t.url(`/v1/stores/${TEST_STORE_ID}/products/shopify-1078/snippets/star-rating`))).text());
      expect(existsSync(join(dir, "shopify-1078", "questions.html"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await run(["--widget", "carousel"])).code).toBe(2);
    const noToken = await runSnippetsCli(
      ["--store", TEST_STORE_ID, "--shopify"],
      { ...env(), SHOPIFY_ADMIN_TOKEN: "" },
      () => {},
      () => {},
    );
    expect(noToken).toBe(2);
  });
});

describe("admin Platform page: Write snippets to Shopify", () => {
  it("writes the metafields with the typed token, reports the count; per-field error without a token; the token is not stored", async () => {
    await t.services.admin.createUser({ email: "owner@snippets.test", password: "snippets owner password", storeIds: [TEST_STORE_ID] });
    const agent = await signInAgent(t, "owner@snippets.test", "snippets owner password", TEST_STORE_ID);
    const page = `/admin/stores/${TEST_STORE_ID}/platform`;
    answer = (body) => ({ data: { metafieldsSet: { metafields: body.variables.metafields.map((m) => ({ key: m.key, namespace: m.namespace })), userErrors: [] } } });
    process.env.SHOPIFY_ADMIN_API_URL = shopifyUrl;
    try {
      received.length = 0;
      const res = await adminPost(t, agent, page, { intent: "write-snippets", accessToken: "shpat_typed_in_admin" });
      const html = (await res.text()).replace(/<!-- -->/g, ""); // React's text separators
      expect(res.status).toBe(200);
      expect(html).toContain("Wrote 4 metafields for 2 products.");
      expect(received).toHaveLength(1);
      expect(received[0]!.headers["x-shopify-access-token"]).toBe("shpat_typed_in_admin");
      expect(received[0]!.body.variables.metafields.map((m) => m.key).sort()).toEqual(["reviews_snippet", "reviews_snippet", "star_rating_snippet", "star_rating_snippet"]);
      expect(received[0]!.body.variables.metafields.find((m) => m.key === "star_rating_snippet")!.value).toMatch(/^<chorus-star-rating server-rendered /);
      expect(html).not.toContain("shpat_typed_in_admin");
      const dump = await all(t.services.db, sql`SELECT * FROM platform_connections`);
      expect(JSON.stringify(dump)).not.toContain("shpat_typed_in_admin");

      const empty = await adminPost(t, agent, page, { intent: "write-snippets", accessToken: "" });
      expect(empty.status).toBe(400);
      const emptyHtml = await empty.text();
      expect(emptyHtml).toMatch(/id="accessToken"[^>]*aria-invalid="true"[^>]*aria-describedby="accessToken-hint accessToken-error"/);
      expect(emptyHtml).toContain('id="accessToken-error"');

      answer = () => ({ data: { metafieldsSet: { metafields: [], userErrors: [{ field: ["metafields", "0", "ownerId"], message: "Owner does not exist" }] } } });
      const refused = await adminPost(t, agent, page, { intent: "write-snippets", accessToken: "shpat_typed_in_admin" });
      expect(refused.status).toBe(502);
      expect((await refused.text()).replace(/<!-- -->/g, "")).toContain("Shopify refused some: Shopify: metafields.0.ownerId Owner does not exist");
    } finally {
      delete process.env.SHOPIFY_ADMIN_API_URL;
    }
    expect((await adminGet(t, agent, page)).status).toBe(200);
  });
});

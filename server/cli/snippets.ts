/**
 * Delivers server-rendered widget snippets (issue #25, docs/snippets.md) to a shop:
 *
 *   npm run snippets -- --store <storeId> [--product <id> ...] [--widget star-rating,reviews,questions] [--lang en]
 *                       [--chorus-url URL] [--out DIR | --shopify [--shop DOMAIN] [--shopify-api-url URL]]
 *
 * Reads each snippet from the Chorus server's snippet API (`--chorus-url`, default PUBLIC_URL, else
 * http://127.0.0.1:PORT), for the given products (platform IDs without prefix, or `shopify-123` keys) or every
 * product of the store with published reviews. Then:
 * - `--out DIR`: writes `DIR/<productKey>/<widget>.html` (any shop: its theme or build includes the files);
 * - `--shopify`: writes them as product metafields `chorus.<widget>_snippet` through the Admin GraphQL API
 *   (server/snippets/shopify-metafields.ts), with the access token in SHOPIFY_ADMIN_TOKEN and the shop's
 *   domain from `--shop` or the store's platform connection; a reviews snippet too large for a metafield is
 *   fetched again with fewer reviews;
 * - neither: prints the snippets.
 * Run it again after content changes (e.g. from cron): snippets are cached answers, so unchanged ones cost little.
 * Uses DATABASE_PATH like the server (for the product list and the shop domain). Exit codes: 0 done, 1 a failure, 2 usage.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.ts";
import { createServices } from "../services.ts";
import { SHOPIFY_VALUE_MAX, writeShopifyMetafields, type SnippetMetafield } from "../snippets/shopify-metafields.ts";

const USAGE = `usage:
  npm run snippets -- --store <storeId> [--product <id> ...] [--widget star-rating,reviews,questions] [--lang en]
                      [--chorus-url URL] [--out DIR | --shopify [--shop DOMAIN] [--shopify-api-url URL]]
  --shopify reads the Admin API access token from SHOPIFY_ADMIN_TOKEN.`;
const WIDGETS = ["star-rating", "reviews", "questions"];

/** Run the CLI with `argv` (without node and script) and `env`. @returns the exit code. */
export async function runSnippetsCli(
  argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log, err: (line: string) => void = console.error,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv, allowPositionals: false,
      options: {
        store: { type: "string" }, product: { type: "string", multiple: true }, widget: { type: "string" }, lang: { type: "string" },
        "chorus-url": { type: "string" }, out: { type: "string" }, shopify: { type: "boolean", default: false }, shop: { type: "string" },
        "shopify-api-url": { type: "string" }, help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    err(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help) return (out(USAGE), 0);
  const widgets = values.widget ? values.widget.split(",").map((w) => w.trim()) : ["star-rating", "reviews"];
  if (!values.store || widgets.some((w) => !WIDGETS.includes(w)) || (values.out && values.shopify)) return (err(USAGE), 2);
  const token = env.SHOPIFY_ADMIN_TOKEN;
  if (values.shopify && !token) return (err("--shopify needs the Admin API access token in SHOPIFY_ADMIN_TOKEN"), 2);

  const config = loadConfig(env);
  const services = createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, ai: { worker: false, workerInline: false } });
  let products: string[];
  let platform: string;
  let shopDomain: string | null | undefined;
  try {
    const store = services.stores.get(values.store);
    if (!store) return (err(`No store ${values.store} in ${config.DATABASE_PATH}`), 1);
    platform = store.platform;
    products = values.product?.length
      ? values.product.map((p) => (p.startsWith(`${platform}-`) ? p.slice(platform.length + 1) : p))
      : services.stores.topProducts(store.storeId, 1_000_000).map((p) => p.productId);
    shopDomain = values.shop ?? services.platforms.settings(store.storeId, "").shopDomain;
  } finally {
    services.close();
  }
  if (values.shopify && !shopDomain) return (err("--shopify needs the shop's domain: --shop, or connect the store to its shop (admin, Platform)"), 2);

  const chorus = (values["chorus-url"] ?? config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, "");
  const lang = values.lang ? `lang=${encodeURIComponent(values.lang)}` : "";
  /** One snippet; the reviews one with `limit` reviews when given. @throws on a failed request. */
  const snippet = async (productId: string, widget: string, limit?: number): Promise<string> => {
    const query = [lang, limit ? `limit=${limit}` : ""].filter(Boolean).join("&");
    const url = `${chorus}/v1/stores/${encodeURIComponent(values.store!)}/products/${encodeURIComponent(`${platform}-${productId}`)}/snippets/${widget}${query ? `?${query}` : ""}`;
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };

  const metafields: SnippetMetafield[] = [];
  let failures = 0;
  for (const productId of products) {
    for (const widget of widgets) {
      try {
        let html = await snippet(productId, widget);
        // A metafield holds at most ~64 KB: fewer reviews on the first page until it fits.
        for (let limit = 12; values.shopify && widget === "reviews" && html.length > SHOPIFY_VALUE_MAX && limit >= 1; limit = Math.floor(limit / 2)) html = await snippet(productId, widget, limit);
        if (values.out) {
          const dir = join(values.out, `${platform}-${productId}`);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, `${widget}.html`), html);
        } else if (values.shopify) metafields.push({ productId, widget, html });
        else out(`<!-- ${platform}-${productId} ${widget} -->\n${html}`);
      } catch (error) {
        failures++;
        err(error instanceof Error ? error.message : String(error));
      }
    }
  }
  if (values.out) out(`Wrote ${products.length * widgets.length - failures} snippets of ${products.length} products to ${values.out}.`);
  if (values.shopify) {
    const report = await writeShopifyMetafields({ shopDomain: shopDomain!, accessToken: token!, apiUrl: values["shopify-api-url"] ?? config.SHOPIFY_ADMIN_API_URL }, metafields);
    for (const e of report.errors) err(e);
    failures += report.errors.length;
    out(`Wrote ${report.written} metafields (namespace chorus) of ${products.length} products to ${shopDomain}.`);
  }
  return failures ? 1 : 0;
}

if (import.meta.main) process.exitCode = await runSnippetsCli(process.argv.slice(2));

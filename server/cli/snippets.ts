/**
 * Delivers server-rendered widget snippets (issue #25, docs/snippets.md) to a shop:
 *
 *   npm run snippets -- --store <storeId> [--product <id> ...] [--widget star-rating,reviews,questions] [--lang en]
 *                       [--chorus-url URL] [--out DIR | --shopify [--shop DOMAIN] [--shopify-api-url URL]]
 *                       [--watch SECONDS [--cycles N]]
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
 * `--watch SECONDS` keeps it running and delivers again, each round, only what changed: every snippet is asked
 * with the ETag of what was delivered last, and the server's ETag changes exactly when a content scope the
 * snippet read changes (a new or moderated review, a reply, the widget settings); unchanged ones answer 304.
 * `--cycles N` stops after N rounds.
 * Uses the server's database (DATABASE_URL when set, else DATABASE_PATH) for the product list and the shop domain. Exit codes: 0 done, 1 a failure, 2 usage.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, loopbackRequestsAllowed, databaseLabel } from "../config.ts";
import { createServices } from "../services.ts";
import { SHOPIFY_VALUE_MAX, writeShopifyMetafields, type SnippetMetafield } from "../snippets/shopify-metafields.ts";

const USAGE = `usage:
  npm run snippets -- --store <storeId> [--product <id> ...] [--widget star-rating,reviews,questions] [--lang en]
                      [--chorus-url URL] [--out DIR | --shopify [--shop DOMAIN] [--shopify-api-url URL]]
                      [--watch SECONDS [--cycles N]]
  --shopify reads the Admin API access token from SHOPIFY_ADMIN_TOKEN.
  --watch (with --out or --shopify) delivers again every SECONDS what changed since (N rounds, default: until stopped).`;
const WIDGETS = ["star-rating", "reviews", "questions"];

/** Run the CLI with `argv` (without node and script) and `env`. @returns the exit code. */
export async function runSnippetsCli(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        store: { type: "string" },
        product: { type: "string", multiple: true },
        widget: { type: "string" },
        lang: { type: "string" },
        "chorus-url": { type: "string" },
        out: { type: "string" },
        shopify: { type: "boolean", default: false },
        shop: { type: "string" },
        "shopify-api-url": { type: "string" },
        watch: { type: "string" },
        cycles: { type: "string" },
        help: { type: "boolean", default: false },
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

  const watchSeconds = values.watch === undefined ? 0 : Number(values.watch);
  const cycles = values.cycles === undefined ? (watchSeconds ? Infinity : 1) : Number(values.cycles);
  if (!Number.isFinite(watchSeconds) || watchSeconds < 0 || !(cycles >= 1) || (watchSeconds && !values.out && !values.shopify)) return (err(USAGE), 2);

  const config = loadConfig(env);
  /** The store's platform, the products (each round: newly reviewed products join) and the shop domain. */
  const readStore = async () => {
    const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, ai: { worker: false, workerInline: false } });
    try {
      const store = await services.stores.get(values.store!);
      if (!store) return null;
      const platform = store.platform;
      const products = values.product?.length
        ? values.product.map((p) => (p.startsWith(`${platform}-`) ? p.slice(platform.length + 1) : p))
        : (await services.stores.topProducts(store.storeId, 1_000_000)).map((p) => p.productId);
      return { platform, products, shopDomain: values.shop ?? (await services.platforms.settings(store.storeId, "")).shopDomain };
    } finally {
      await services.close();
    }
  };
  const first = await readStore();
  if (!first) return (err(`No store ${values.store} in ${databaseLabel(config.DATABASE_PATH)}`), 1);
  if (values.shopify && !first.shopDomain) return (err("--shopify needs the shop's domain: --shop, or connect the store to its shop (admin, Platform)"), 2);

  const chorus = (values["chorus-url"] ?? config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, "");
  const lang = values.lang ? `lang=${encodeURIComponent(values.lang)}` : "";
  /** ETag of each snippet URL as last delivered: with --watch an unchanged snippet answers 304 and is not written again. */
  const delivered = new Map<string, string>();
  /** One snippet (null: unchanged since delivered); the reviews one with `limit` reviews when given. @throws on a failed request. */
  const snippet = async (platform: string, productId: string, widget: string, limit?: number): Promise<{ url: string; html: string; etag: string | null } | null> => {
    const query = [lang, limit ? `limit=${limit}` : ""].filter(Boolean).join("&");
    const url = `${chorus}/v1/stores/${encodeURIComponent(values.store!)}/products/${encodeURIComponent(`${platform}-${productId}`)}/snippets/${widget}${query ? `?${query}` : ""}`;
    const known = delivered.get(url);
    const res = await fetch(url, { headers: known ? { "if-none-match": known } : {}, signal: AbortSignal.timeout(30_000) });
    if (res.status === 304) return null;
    const text = await res.text();
    if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
    return { url, html: text, etag: res.headers.get("etag") };
  };

  /** One delivery round. @returns the number of failures. */
  const round = async (): Promise<number> => {
    const current = await readStore();
    if (!current) return (err(`No store ${values.store} in ${databaseLabel(config.DATABASE_PATH)}`), 1);
    const { platform, products, shopDomain } = current;
    const metafields: (SnippetMetafield & { url: string; etag: string | null })[] = [];
    let failures = 0;
    let written = 0;
    for (const productId of products) {
      for (const widget of widgets) {
        try {
          // With --shopify the reviews snippet is asked with the limit that fitted last (see below), so its ETag matches.
          let got = await snippet(platform, productId, widget);
          if (!got) continue;
          // A metafield holds at most ~64 KB: fewer reviews on the first page until it fits.
          for (let limit = 12; values.shopify && widget === "reviews" && got && got.html.length > SHOPIFY_VALUE_MAX && limit >= 1; limit = Math.floor(limit / 2)) {
            got = await snippet(platform, productId, widget, limit);
          }
          if (!got) continue;
          if (values.out) {
            const dir = join(values.out, `${platform}-${productId}`);
            mkdirSync(dir, { recursive: true });
            writeFileSync(join(dir, `${widget}.html`), got.html);
            if (got.etag) delivered.set(got.url, got.etag);
            written++;
          } else if (values.shopify) metafields.push({ productId, widget, html: got.html, url: got.url, etag: got.etag });
          else out(`<!-- ${platform}-${productId} ${widget} -->\n${got.html}`);
        } catch (error) {
          failures++;
          err(error instanceof Error ? error.message : String(error));
        }
      }
    }
    if (values.out) out(`Wrote ${written} snippets of ${products.length} products to ${values.out}.`);
    if (values.shopify) {
      const report = metafields.length
        ? await writeShopifyMetafields({ shopDomain: shopDomain!, accessToken: token!, apiUrl: values["shopify-api-url"] ?? config.SHOPIFY_ADMIN_API_URL }, metafields, {
            allowLoopback: loopbackRequestsAllowed(config),
          })
        : { written: 0, errors: [] };
      for (const e of report.errors) err(e);
      failures += report.errors.length;
      // Remembered only when Shopify took the whole round: a refused one is written again next round.
      if (!report.errors.length) for (const m of metafields) if (m.etag) delivered.set(m.url, m.etag);
      out(`Wrote ${report.written} metafields (namespace chorus) of ${products.length} products to ${shopDomain}.`);
    }
    return failures;
  };

  let failures = 0;
  for (let n = 1; n <= cycles; n++) {
    failures = await round();
    if (n < cycles) await new Promise((resolve) => setTimeout(resolve, watchSeconds * 1000));
  }
  return failures ? 1 : 0;
}

if (import.meta.main) process.exitCode = await runSnippetsCli(process.argv.slice(2));

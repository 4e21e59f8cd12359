/**
 * A stand-in for Shopify's Admin GraphQL API (a real HTTP server on a loopback port) for the loyalty reward
 * tests (docs/loyalty.md "Rewards at checkout"): it checks the `X-Shopify-Access-Token` header, the path, the
 * JSON body and the mutation's variables the way Shopify's schema needs them, keeps the discounts it created by
 * code, and answers `codeDiscountNodeByCode` from them. `mode` makes it fail: `error` (500), `hang` (never
 * answers), `create-then-hang` (creates the discount, then never answers: a crash or timeout after creation).
 *
 *   const shopify = await startShopifyStandIn({ token: "shpat_…" });
 *   process.env.SHOPIFY_ADMIN_API_URL = shopify.url;
 *   ... shopify.discounts.get(code) ...
 *   await shopify.close();
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StandInDiscount = { id: string; mutation: string; input: Record<string, unknown> };
export type StandInMode = "ok" | "error" | "hang" | "create-then-hang";

export type ShopifyStandIn = {
  url: string;
  token: string;
  mode: StandInMode;
  /** Discounts created, by code. */
  discounts: Map<string, StandInDiscount>;
  /** Every request's problem, when the stand-in refused one (empty when all were well-formed). */
  refusals: string[];
  /** Requests received (any kind). */
  requests: number;
  close(): Promise<void>;
};

const BASIC_FIELDS = ["title", "code", "startsAt", "usageLimit", "customerSelection", "customerGets"];
const FREE_SHIPPING_FIELDS = ["title", "code", "startsAt", "usageLimit", "customerSelection", "destination"];

/** Start the stand-in on a free loopback port. */
export async function startShopifyStandIn(options: { token: string }): Promise<ShopifyStandIn> {
  const hanging = new Set<ServerResponse>();
  let next = 1;
  const state: ShopifyStandIn = {
    url: "",
    token: options.token,
    mode: "ok",
    discounts: new Map(),
    refusals: [],
    requests: 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, why: string) => {
    state.refusals.push(why);
    answer(res, status, { errors: [{ message: why }] });
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    state.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== "POST" || !/\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(req.url ?? "")) return refuse(res, 404, `unexpected ${req.method} ${req.url}`);
    if (req.headers["x-shopify-access-token"] !== state.token) return refuse(res, 401, "X-Shopify-Access-Token is missing or wrong");
    if (!String(req.headers["content-type"]).startsWith("application/json")) return refuse(res, 415, "content-type must be application/json");
    let body: { query?: string; variables?: Record<string, Record<string, unknown>> };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
    } catch {
      return refuse(res, 400, "body is not JSON");
    }
    const query = body.query ?? "";
    if (/codeDiscountNodeByCode\s*\(\s*code:\s*\$code\s*\)/.test(query)) {
      const code = String(body.variables?.code ?? "");
      const d = state.discounts.get(code);
      return answer(res, 200, { data: { codeDiscountNodeByCode: d ? { id: d.id } : null } });
    }
    const basic = /discountCodeBasicCreate\s*\(\s*basicCodeDiscount:\s*\$basicCodeDiscount\s*\)/.test(query) && /\$basicCodeDiscount:\s*DiscountCodeBasicInput!/.test(query);
    const free =
      /discountCodeFreeShippingCreate\s*\(\s*freeShippingCodeDiscount:\s*\$freeShippingCodeDiscount\s*\)/.test(query) && /\$freeShippingCodeDiscount:\s*DiscountCodeFreeShippingInput!/.test(query);
    if (!basic && !free) return refuse(res, 200, `unknown operation: ${query.slice(0, 80)}`);
    const mutation = basic ? "discountCodeBasicCreate" : "discountCodeFreeShippingCreate";
    const input = (basic ? body.variables?.basicCodeDiscount : body.variables?.freeShippingCodeDiscount) ?? {};
    const missing = (basic ? BASIC_FIELDS : FREE_SHIPPING_FIELDS).filter((f) => input[f] === undefined);
    if (missing.length)
      return answer(res, 200, { data: { [mutation]: { codeDiscountNode: null, userErrors: missing.map((f) => ({ field: ["basicCodeDiscount", f], message: `${f} is required` })) } } });
    if (state.mode === "error") return answer(res, 500, { errors: [{ message: "Internal error" }] });
    if (state.mode === "hang") return void hanging.add(res);
    const code = String(input.code);
    if (state.discounts.has(code)) return answer(res, 200, { data: { [mutation]: { codeDiscountNode: null, userErrors: [{ field: ["code"], message: "Code must be unique" }] } } });
    const id = `gid://shopify/DiscountCodeNode/${next++}`;
    state.discounts.set(code, { id, mutation, input });
    if (state.mode === "create-then-hang") return void hanging.add(res);
    answer(res, 200, { data: { [mutation]: { codeDiscountNode: { id }, userErrors: [] } } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answer(res, 500, { errors: [{ message: String(error) }] }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/admin/api/2025-01/graphql.json`;
  return state;
}

/**
 * Connect `storeId` to Shopify through `shopify` (a shop domain and the Admin API token) so redemptions create
 * their discounts there; sets SHOPIFY_ADMIN_API_URL for this process (read at call time).
 */
export async function connectShopifyStandIn(
  services: { platforms: { updateSettings(storeId: string, patch: { shopDomain?: string | null; adminApiToken?: string | null }): Promise<void> } },
  storeId: string,
  shopify: ShopifyStandIn,
  shopDomain = `${storeId.slice(0, 8)}.myshopify.com`,
): Promise<void> {
  process.env.SHOPIFY_ADMIN_API_URL = shopify.url;
  await services.platforms.updateSettings(storeId, { shopDomain, adminApiToken: shopify.token });
}

/**
 * For suites whose shoppers redeem rewards but which test other things: a started stand-in with `storeId` connected
 * to it (close it after the suite). Without a platform connection a redemption is 503 (docs/loyalty.md).
 */
export async function rewardPlatformFor(services: Parameters<typeof connectShopifyStandIn>[0], storeId: string): Promise<ShopifyStandIn> {
  const shopify = await startShopifyStandIn({ token: "shpat_test_rewards_0123456789abcdef" });
  await connectShopifyStandIn(services, storeId, shopify);
  return shopify;
}

import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { platformSettingsPatch } from "../../server/platforms/platforms.service.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { adminHeaders, field, isOwner, requireStore, requireStoreAction, requireStoreOwner } from "~/lib/admin.server";
import { shopifyAdminApiUrl, writeSnippetsToShopify } from "~/lib/snippets.server";

export const meta: MetaFunction = () => [{ title: "Shop platform · Chorus admin" }];
export const headers = adminHeaders;

/** The platform connection (issue #22 items 1, 5): the same service as PATCH /enterprise/settings section `platform`. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  // Where loyalty rewards are created (docs/loyalty.md "Rewards at checkout"); never the token itself.
  const target = await context.services.platformRewards.target(store.storeId);
  const rewards = target.platform === null ? { platform: null, description: target.description } : { platform: target.platform, description: null };
  const demoCodes =
    target.platform === "demo"
      ? (await context.services.platformRewards.list(store.storeId, { platform: "demo", limit: 20 })).map((r) => ({ code: r.code, state: r.state, createdMs: r.created_ms, rewardType: r.reward_type }))
      : [];
  return { storeId: store.storeId, isOwner: isOwner(session, store.storeId, "platform"), settings: await context.services.platforms.settings(store.storeId, context.publicOrigin), rewards, demoCodes };
}

type WooField = "siteUrl" | "consumerKey" | "consumerSecret" | "webhookSecret";
const WOO_FIELDS: readonly WooField[] = ["siteUrl", "consumerKey", "consumerSecret", "webhookSecret"];
type Errors = Partial<Record<"shopDomain" | "appSecret" | "adminApiToken" | "accessToken" | "form" | WooField, string>>;
/** What writing the snippets to Shopify did (intent `write-snippets`). */
type SnippetResult = { written: number; products: number; errors: string[] };

/**
 * Intents: `save` (shop domain; a non-empty app secret sets or rotates it, an empty one keeps it),
 * `remove-secret`, `save-woocommerce` (site address; non-empty REST key, secret and webhook secret set them, empty ones keep
 * them) and `remove-woocommerce` (the site and its secrets). Per-field errors with 400 (409 for a shop domain of another store); redirect after success.
 * `save` and `remove-secret` are an owner's (403 for a member, docs/admin.md "Who may do what"); `write-snippets`
 * (with the merchant's own access token, to the saved shop) is anyone's.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  const intent = field(form, "intent");
  if (intent !== "write-snippets") requireStoreOwner(session, store.storeId, "platform");
  if (intent === "write-snippets") {
    // Server-rendered snippets into the shop's product metafields (docs/snippets.md); the token is used for this run only.
    const accessToken = field(form, "accessToken").trim();
    const shopDomain = (await context.services.platforms.settings(store.storeId, context.publicOrigin)).shopDomain;
    if (!shopDomain) return data({ errors: { form: "Save the shop domain first: the snippets are written to that shop." } as Errors }, { status: 400 });
    if (!/^[\x21-\x7e]{8,200}$/.test(accessToken)) {
      return data({ errors: { accessToken: "Enter the Admin API access token of your shop's custom app (8 to 200 characters without spaces)." } as Errors }, { status: 400 });
    }
    const report = await writeSnippetsToShopify(context.services, { storeId: store.storeId, shopDomain, accessToken, publicOrigin: context.publicOrigin, apiUrl: shopifyAdminApiUrl() });
    return data({ snippets: { written: report.written, products: report.products, errors: report.errors.slice(0, 10) } as SnippetResult }, { status: report.errors.length ? 502 : 200 });
  }
  if (intent === "save-woocommerce" || intent === "remove-woocommerce") {
    const woo =
      intent === "remove-woocommerce"
        ? { type: "woocommerce" as const, siteUrl: null, consumerKey: null, consumerSecret: null, webhookSecret: null }
        : {
            type: "woocommerce" as const,
            siteUrl: field(form, "siteUrl").trim() || null,
            ...Object.fromEntries(
              WOO_FIELDS.slice(1)
                .filter((k) => field(form, k))
                .map((k) => [k, field(form, k)]),
            ),
          };
    const wooParsed = platformSettingsPatch.safeParse(woo);
    if (!wooParsed.success) {
      const errors: Errors = {};
      for (const issue of wooParsed.error.issues) {
        const key = WOO_FIELDS.find((k) => k === issue.path[0]) ?? "form";
        errors[key] ??= issue.message;
      }
      return data({ errors }, { status: 400 });
    }
    try {
      await context.services.platforms.updateSettings(store.storeId, wooParsed.data);
    } catch (error) {
      if (isApiError(error) && (error.status === 400 || error.status === 409)) {
        return data({ errors: { siteUrl: error.status === 409 ? "This WooCommerce site is connected to another store." : error.message } as Errors }, { status: error.status });
      }
      throw error;
    }
    return redirect(`/admin/stores/${store.storeId}/platform?saved=${intent === "remove-woocommerce" ? "woocommerce-removed" : "woocommerce"}`);
  }
  const patch =
    intent === "remove-secret"
      ? { appSecret: null }
      : intent === "remove-token"
        ? { adminApiToken: null }
        : intent === "save"
          ? {
              shopDomain: field(form, "shopDomain") || null,
              ...(field(form, "appSecret") ? { appSecret: field(form, "appSecret") } : {}),
              ...(field(form, "adminApiToken") ? { adminApiToken: field(form, "adminApiToken") } : {}),
            }
          : null;
  if (!patch) return data({ errors: { form: `Unknown action ${JSON.stringify(intent)}.` } as Errors }, { status: 400 });
  const parsed = platformSettingsPatch.safeParse(patch);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "appSecret" ? "appSecret" : issue.path[0] === "adminApiToken" ? "adminApiToken" : "shopDomain";
      errors[key] ??= issue.message;
    }
    return data({ errors }, { status: 400 });
  }
  try {
    await context.services.platforms.updateSettings(store.storeId, parsed.data);
  } catch (error) {
    if (isApiError(error) && error.status === 409) return data({ errors: { shopDomain: "This shop is connected to another store." } as Errors }, { status: 409 });
    throw error;
  }
  return redirect(`/admin/stores/${store.storeId}/platform?saved=${intent === "remove-secret" ? "removed" : intent === "remove-token" ? "token-removed" : "saved"}`);
}

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "");

export default function Platform() {
  const { settings, isOwner, rewards, demoCodes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const snippets = result && "snippets" in result ? (result.snippets as SnippetResult) : undefined;
  const busy = useNavigation().state !== "idle";
  const [search] = useSearchParams();
  const saved = search.get("saved");
  const invalid = (name: "shopDomain" | "appSecret" | "adminApiToken" | "accessToken" | WooField, hint?: string) => ({
    ...(errors[name] ? { "aria-invalid": true as const } : {}),
    "aria-describedby": [hint, errors[name] ? `${name}-error` : undefined].filter(Boolean).join(" ") || undefined,
  });
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Shop platform</h1>
      {saved && !result ? (
        <p className="flash flash-ok" role="status">
          {saved === "removed"
            ? "App secret removed: webhooks are refused until a new one is set."
            : saved === "token-removed"
              ? "Admin API access token removed: rewards cannot be redeemed until a new one is set."
              : saved === "woocommerce"
                ? "WooCommerce connection saved."
                : saved === "woocommerce-removed"
                  ? "WooCommerce disconnected: its webhooks are refused."
                  : "Platform connection saved."}
        </p>
      ) : null}
      {errors.form ? (
        <p className="flash flash-error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <p>
        Orders and products reach Chorus as webhooks from your shop: orders name verified buyers, start review requests and earn loyalty points; products get their real name, page and picture.
        Platform: <strong>{settings.platform}</strong>.
      </p>

      <h2>Webhook addresses</h2>
      <p>
        Shopify (Settings → Notifications → Webhooks, or your app's webhook subscriptions; JSON format; topics orders/create, orders/fulfilled, orders/cancelled, fulfillments/create, products/create,
        products/update, products/delete):
      </p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Shopify webhook address">
        <code id="shopify-webhook-url">{settings.webhookUrls.shopify}</code>
      </pre>
      <CopyButton targetId="shopify-webhook-url" label="Copy Shopify address" />
      <p>
        WooCommerce (WooCommerce → Settings → Advanced → Webhooks, API version WP REST API Integration v3; topics order.created, order.updated, product.created, product.updated, customer.created):
      </p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="WooCommerce webhook address">
        <code id="woocommerce-webhook-url">{settings.webhookUrls.woocommerce}</code>
      </pre>
      <CopyButton targetId="woocommerce-webhook-url" label="Copy WooCommerce address" />
      <p>Other platforms (Chorus's signed JSON, see the documentation):</p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Signed webhook address">
        <code id="signed-webhook-url">{settings.webhookUrls.signed}</code>
      </pre>
      <CopyButton targetId="signed-webhook-url" label="Copy signed-webhook address" />

      <h2>Connection</h2>
      <p data-testid="secret-state">
        App secret: {settings.appSecretSet ? <>set{settings.appSecretSetAt ? ` on ${when(settings.appSecretSetAt)}` : ""} (it is never shown again)</> : <strong>not set: webhooks are refused</strong>}
      </p>
      {isOwner ? (
        <>
          <Form method="post" className="stack panel" noValidate aria-label="Platform connection">
            <CsrfField />
            <input type="hidden" name="intent" value="save" />
            <label htmlFor="shopDomain">Shop domain (Shopify)</label>
            <input
              id="shopDomain"
              name="shopDomain"
              defaultValue={settings.shopDomain ?? ""}
              placeholder="example.myshopify.com"
              maxLength={255}
              autoComplete="off"
              {...invalid("shopDomain", "shopDomain-hint")}
            />
            <p id="shopDomain-hint" className="muted">
              The shop's myshopify.com domain, as Shopify sends it with every webhook. Leave empty for other platforms.
            </p>
            {errors.shopDomain ? (
              <p id="shopDomain-error" className="field-error">
                {errors.shopDomain}
              </p>
            ) : null}
            <label htmlFor="appSecret">{settings.appSecretSet ? "New app secret (to rotate it; leave empty to keep the current one)" : "App secret"}</label>
            <input id="appSecret" name="appSecret" type="password" autoComplete="new-password" maxLength={200} {...invalid("appSecret", "appSecret-hint")} />
            <p id="appSecret-hint" className="muted">
              Shopify: the app's client secret (it signs the webhooks). Other platforms: any random string of 16 or more characters, shared with the shop.
            </p>
            {errors.appSecret ? (
              <p id="appSecret-error" className="field-error">
                {errors.appSecret}
              </p>
            ) : null}
            <label htmlFor="adminApiToken">{settings.adminApiTokenSet ? "New Admin API access token (Shopify; leave empty to keep the current one)" : "Admin API access token (Shopify)"}</label>
            <input id="adminApiToken" name="adminApiToken" type="password" autoComplete="new-password" maxLength={200} {...invalid("adminApiToken", "adminApiToken-hint")} />
            <p id="adminApiToken-hint" className="muted">
              The token of your shop's custom app with the <code>write_discounts</code> scope: loyalty rewards are created with it as Shopify discount codes before shoppers see them. It is never shown
              again.
            </p>
            {errors.adminApiToken ? (
              <p id="adminApiToken-error" className="field-error">
                {errors.adminApiToken}
              </p>
            ) : null}
            <button type="submit" disabled={busy}>
              Save
            </button>
          </Form>
          {settings.appSecretSet ? (
            <Form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="remove-secret" />
              <button type="submit" className="danger" disabled={busy}>
                Remove app secret
              </button>
            </Form>
          ) : null}
          {settings.adminApiTokenSet ? (
            <Form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="remove-token" />
              <button type="submit" className="danger" disabled={busy}>
                Remove Admin API access token
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <p className="notice">Only an owner of this store can change its shop domain or app secret.</p>
      )}

      <h2 id="woocommerce-heading">WooCommerce</h2>
      <p data-testid="woocommerce-state">
        {settings.woocommerce.siteUrl ? (
          <>
            Connected to <strong>{settings.woocommerce.siteUrl}</strong>
            {settings.woocommerce.updatedAt ? ` (changed ${when(settings.woocommerce.updatedAt)})` : ""}.{" "}
          </>
        ) : (
          <>Not connected. </>
        )}
        REST API key: {settings.woocommerce.consumerKeySet && settings.woocommerce.consumerSecretSet ? "set" : "not set"}; webhook secret:{" "}
        {settings.woocommerce.webhookSecretSet ? "set" : <strong>not set: WooCommerce webhooks are refused</strong>} (secrets are never shown again).
      </p>
      {isOwner ? (
        <>
          <Form method="post" className="stack panel" noValidate aria-labelledby="woocommerce-heading">
            <CsrfField />
            <input type="hidden" name="intent" value="save-woocommerce" />
            <label htmlFor="siteUrl">Shop address</label>
            <input
              id="siteUrl"
              name="siteUrl"
              type="url"
              inputMode="url"
              defaultValue={settings.woocommerce.siteUrl ?? ""}
              placeholder="https://shop.example"
              maxLength={2000}
              autoComplete="off"
              {...invalid("siteUrl", "siteUrl-hint")}
            />
            <p id="siteUrl-hint" className="muted">
              Your WordPress site's address (https), as WooCommerce sends it with every webhook. Saving it replaces a Shopify shop domain.
            </p>
            {errors.siteUrl ? (
              <p id="siteUrl-error" className="field-error">
                {errors.siteUrl}
              </p>
            ) : null}
            <label htmlFor="consumerKey">{settings.woocommerce.consumerKeySet ? "New consumer key (leave empty to keep the current one)" : "Consumer key"}</label>
            <input id="consumerKey" name="consumerKey" type="password" autoComplete="new-password" maxLength={110} {...invalid("consumerKey", "wooKey-hint")} />
            {errors.consumerKey ? (
              <p id="consumerKey-error" className="field-error">
                {errors.consumerKey}
              </p>
            ) : null}
            <label htmlFor="consumerSecret">{settings.woocommerce.consumerSecretSet ? "New consumer secret (leave empty to keep the current one)" : "Consumer secret"}</label>
            <input id="consumerSecret" name="consumerSecret" type="password" autoComplete="new-password" maxLength={110} {...invalid("consumerSecret", "wooKey-hint")} />
            {errors.consumerSecret ? (
              <p id="consumerSecret-error" className="field-error">
                {errors.consumerSecret}
              </p>
            ) : null}
            <p id="wooKey-hint" className="muted">
              A REST API key with Read/Write permissions (WooCommerce → Settings → Advanced → REST API): loyalty rewards are created with it as coupons before shoppers see them.
            </p>
            <label htmlFor="webhookSecret">{settings.woocommerce.webhookSecretSet ? "New webhook secret (leave empty to keep the current one)" : "Webhook secret"}</label>
            <input id="webhookSecret" name="webhookSecret" type="password" autoComplete="new-password" maxLength={200} {...invalid("webhookSecret", "webhookSecret-hint")} />
            <p id="webhookSecret-hint" className="muted">
              The Secret you give each WooCommerce webhook (the same for all of them): it signs every delivery.
            </p>
            {errors.webhookSecret ? (
              <p id="webhookSecret-error" className="field-error">
                {errors.webhookSecret}
              </p>
            ) : null}
            <button type="submit" disabled={busy}>
              Connect WooCommerce
            </button>
          </Form>
          {settings.woocommerce.siteUrl || settings.woocommerce.webhookSecretSet ? (
            <Form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="remove-woocommerce" />
              <button type="submit" className="danger" disabled={busy}>
                Disconnect WooCommerce
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <p className="notice">Only an owner of this store can connect WooCommerce.</p>
      )}

      <h2 id="rewards-heading">Loyalty rewards at checkout</h2>
      <p data-testid="rewards-platform">
        {rewards.platform === "shopify" ? (
          <>
            Rewards are created as Shopify discount codes (usage limit 1, for that customer) before shoppers see them. Admin API access token: set
            {settings.adminApiTokenSetAt ? ` on ${when(settings.adminApiTokenSetAt)}` : ""}.
          </>
        ) : rewards.platform === "woocommerce" ? (
          <>Rewards are created as WooCommerce coupons (usage limit 1, for the shopper's e-mail) before shoppers see them.</>
        ) : rewards.platform === "webhook" ? (
          <>
            Rewards are sent to your shop as the signed <code>loyalty_reward.created</code> webhook; a code is shown once your shop answers 2xx.
          </>
        ) : rewards.platform === "demo" ? (
          <>
            <strong>Demo platform</strong> (built in): this demo store's codes are only listed here and work at no real checkout. Setting a shop domain replaces it.
          </>
        ) : (
          <strong>
            {rewards.description} Set the shop domain and the Admin API access token above (Shopify), or subscribe a webhook to <code>loyalty_reward.created</code> (other platforms).
          </strong>
        )}{" "}
        <span title="docs/loyalty.md">See the documentation, “Rewards at checkout”.</span>
      </p>
      {rewards.platform === "demo" ? (
        <table>
          <caption>Demo platform codes (newest first)</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Reward</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {demoCodes.length ? (
              demoCodes.map((c) => (
                <tr key={c.code}>
                  <td>
                    <code>{c.code}</code>
                  </td>
                  <td>{c.rewardType}</td>
                  <td>{c.state}</td>
                  <td>{when(new Date(c.createdMs).toISOString())}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={4}>No codes yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      ) : null}

      <h2 id="snippets-heading">Review snippets in Shopify</h2>
      <p>
        Writes every reviewed product's star rating and reviews, rendered by Chorus with the product's review structured data, into the shop as product metafields{" "}
        <code>chorus.star_rating_snippet</code> and <code>chorus.reviews_snippet</code>, for the theme to print: shoppers without JavaScript and search engines see them. Run it again after reviews
        change, or schedule <code>npm run snippets</code> (see the documentation).
      </p>
      {snippets ? (
        <p className={`flash ${snippets.errors.length ? "flash-error" : "flash-ok"}`} role={snippets.errors.length ? "alert" : "status"}>
          Wrote {snippets.written} metafields for {snippets.products} products{snippets.errors.length ? `; Shopify refused some: ${snippets.errors.join("; ")}` : "."}
        </p>
      ) : null}
      <Form method="post" className="stack panel" noValidate aria-labelledby="snippets-heading">
        <CsrfField />
        <input type="hidden" name="intent" value="write-snippets" />
        <label htmlFor="accessToken">Admin API access token</label>
        <input id="accessToken" name="accessToken" type="password" autoComplete="off" maxLength={200} {...invalid("accessToken", "accessToken-hint")} />
        <p id="accessToken-hint" className="muted">
          From your shop's custom app with the <code>write_products</code> scope. Used for this run only, never stored.
        </p>
        {errors.accessToken ? (
          <p id="accessToken-error" className="field-error">
            {errors.accessToken}
          </p>
        ) : null}
        <button type="submit" disabled={busy || !settings.shopDomain}>
          Write snippets to Shopify
        </button>
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

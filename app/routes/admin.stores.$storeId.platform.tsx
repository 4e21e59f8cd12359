import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { platformSettingsPatch } from "../../server/platforms/platforms.service.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Shop platform · Chorus admin" }];
export const headers = adminHeaders;

/** The platform connection (issue #22 items 1, 5): the same service as PATCH /enterprise/settings section `platform`. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = requireStore(request, context, params.storeId);
  return { storeId: store.storeId, settings: context.services.platforms.settings(store.storeId, context.publicOrigin) };
}

type Errors = Partial<Record<"shopDomain" | "appSecret" | "form", string>>;

/**
 * Intents: `save` (shop domain; a non-empty app secret sets or rotates it, an empty one keeps it) and
 * `remove-secret`. Per-field errors with 400 (409 for a shop domain of another store); redirect after success.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const intent = field(form, "intent");
  const patch = intent === "remove-secret"
    ? { appSecret: null }
    : intent === "save"
      ? { shopDomain: field(form, "shopDomain") || null, ...(field(form, "appSecret") ? { appSecret: field(form, "appSecret") } : {}) }
      : null;
  if (!patch) return data({ errors: { form: `Unknown action ${JSON.stringify(intent)}.` } as Errors }, { status: 400 });
  const parsed = platformSettingsPatch.safeParse(patch);
  if (!parsed.success) {
    const errors: Errors = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "appSecret" ? "appSecret" : "shopDomain";
      errors[key] ??= issue.message;
    }
    return data({ errors }, { status: 400 });
  }
  try {
    context.services.platforms.updateSettings(store.storeId, parsed.data);
  } catch (error) {
    if (isApiError(error) && error.status === 409) return data({ errors: { shopDomain: "This shop is connected to another store." } as Errors }, { status: 409 });
    throw error;
  }
  return redirect(`/admin/stores/${store.storeId}/platform?saved=${intent === "remove-secret" ? "removed" : "saved"}`);
}

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "");

export default function Platform() {
  const { settings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Errors = result?.errors ?? {};
  const busy = useNavigation().state !== "idle";
  const [search] = useSearchParams();
  const saved = search.get("saved");
  const invalid = (name: "shopDomain" | "appSecret", hint?: string) => ({
    ...(errors[name] ? { "aria-invalid": true as const } : {}),
    "aria-describedby": [hint, errors[name] ? `${name}-error` : undefined].filter(Boolean).join(" ") || undefined,
  });
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Shop platform</h1>
      {saved && !result ? <p className="flash flash-ok" role="status">{saved === "removed" ? "App secret removed: webhooks are refused until a new one is set." : "Platform connection saved."}</p> : null}
      {errors.form ? <p className="flash flash-error" role="alert">{errors.form}</p> : null}
      <p>
        Orders and products reach Chorus as webhooks from your shop: orders name verified buyers, start review requests and earn loyalty points;
        products get their real name, page and picture. Platform: <strong>{settings.platform}</strong>.
      </p>

      <h2>Webhook addresses</h2>
      <p>Shopify (Settings → Notifications → Webhooks, or your app's webhook subscriptions; JSON format; topics orders/create, orders/fulfilled, orders/cancelled, fulfillments/create, products/create, products/update, products/delete):</p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Shopify webhook address"><code id="shopify-webhook-url">{settings.webhookUrls.shopify}</code></pre>
      <CopyButton targetId="shopify-webhook-url" label="Copy Shopify address" />
      <p>Other platforms (Chorus's signed JSON, see the documentation):</p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Signed webhook address"><code id="signed-webhook-url">{settings.webhookUrls.signed}</code></pre>
      <CopyButton targetId="signed-webhook-url" label="Copy signed-webhook address" />

      <h2>Connection</h2>
      <p data-testid="secret-state">
        App secret: {settings.appSecretSet ? <>set{settings.appSecretSetAt ? ` on ${when(settings.appSecretSetAt)}` : ""} (it is never shown again)</> : <strong>not set: webhooks are refused</strong>}
      </p>
      <Form method="post" className="stack panel" noValidate aria-label="Platform connection">
        <CsrfField />
        <input type="hidden" name="intent" value="save" />
        <label htmlFor="shopDomain">Shop domain (Shopify)</label>
        <input id="shopDomain" name="shopDomain" defaultValue={settings.shopDomain ?? ""} placeholder="example.myshopify.com" maxLength={255} autoComplete="off" {...invalid("shopDomain", "shopDomain-hint")} />
        <p id="shopDomain-hint" className="muted">The shop's myshopify.com domain, as Shopify sends it with every webhook. Leave empty for other platforms.</p>
        {errors.shopDomain ? <p id="shopDomain-error" className="field-error">{errors.shopDomain}</p> : null}
        <label htmlFor="appSecret">{settings.appSecretSet ? "New app secret (to rotate it; leave empty to keep the current one)" : "App secret"}</label>
        <input id="appSecret" name="appSecret" type="password" autoComplete="new-password" maxLength={200} {...invalid("appSecret", "appSecret-hint")} />
        <p id="appSecret-hint" className="muted">Shopify: the app's client secret (it signs the webhooks). Other platforms: any random string of 16 or more characters, shared with the shop.</p>
        {errors.appSecret ? <p id="appSecret-error" className="field-error">{errors.appSecret}</p> : null}
        <button type="submit" disabled={busy}>Save</button>
      </Form>
      {settings.appSecretSet ? (
        <Form method="post" className="inline-form">
          <CsrfField />
          <input type="hidden" name="intent" value="remove-secret" />
          <button type="submit" className="danger" disabled={busy}>Remove app secret</button>
        </Form>
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

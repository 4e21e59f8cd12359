import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, isOwner, requireOwnerAction, requireStore } from "~/lib/admin.server";
import { carouselSnippet, widgetSnippet } from "~/lib/widget-snippet";

export const meta: MetaFunction = () => [{ title: "Integration · Chorus admin" }];
export const headers = adminHeaders;

/** API keys of the store (never the key itself) and the widget snippet (script from PUBLIC_URL, the widgets the store shows). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const top = (await context.services.stores.topProducts(store.storeId, 1))[0];
  const shown = (await context.services.widgetSettings.get(store.storeId)).widgets;
  return {
    store: { storeId: store.storeId, platform: store.platform },
    snippet: widgetSnippet({
      origin: context.publicOrigin,
      storeId: store.storeId,
      productKey: `${store.platform}-${top?.productId ?? "PRODUCT_ID"}`,
      shown,
    }),
    carousel: shown.reviews ? carouselSnippet({ origin: context.publicOrigin, storeId: store.storeId }) : null,
    keys: await context.services.apiKeys.list(store.storeId),
    isOwner: isOwner(session, store.storeId, "api-keys"),
  };
}

/**
 * Intents (owners only, 403 for a member: an API key opens the whole enterprise API, docs/admin.md "Who may do
 * what"): `create` (name; the key is shown once in the response) and `revoke` (apiKeyId of this store, else 404).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireOwnerAction(request, context, params.storeId, "api-keys");
  const intent = field(form, "intent");
  if (intent === "create") {
    const name = field(form, "name");
    if (!name || name.length > 100) return data({ error: "Name: give the key a name of 1 to 100 characters (for example, the system that will use it)." }, { status: 400 });
    const { key, info } = await context.services.apiKeys.create(store.storeId, name);
    return { ok: `API key “${info.name}” created.`, createdKey: key };
  }
  if (intent === "revoke") {
    if (!(await context.services.apiKeys.revoke(store.storeId, field(form, "apiKeyId")))) return data({ error: "API key not found (or already revoked)." }, { status: 404 });
    return { ok: "API key revoked. Requests with it now answer 401." };
  }
  return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
}

const day = (iso?: string) => (iso ? iso.replace("T", " ").slice(0, 16) + " UTC" : "never");

export default function Integration() {
  const { store, keys, snippet, carousel, isOwner } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const createdKey = result && "createdKey" in result ? result.createdKey : undefined;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Integration</h1>
      <Flash result={result} />

      <h2>Widgets on your store</h2>
      <p>
        Paste this into your theme: the script and the <code>&lt;style&gt;</code> once per page (in the <code>&lt;head&gt;</code> or before the widgets), each element where that widget goes. Replace
        the product ID with each product's ID (<code>{store.platform}-</code> followed by your platform's product ID). The style reserves each widget's space while it loads, so your page does not
        shift. Widgets you turned off on the <Link to={`/admin/stores/${store.storeId}/widgets`}>Widgets</Link> page are left out.
      </p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Widget snippet">
        <code id="widget-snippet">{snippet}</code>
      </pre>
      <CopyButton targetId="widget-snippet" label="Copy snippet" />
      <p className="muted">
        Store ID: <code>{store.storeId}</code>
      </p>
      {carousel ? (
        <>
          <h3>Reviews carousel for your home or collection pages</h3>
          <p>
            Your newest reviews of 4 and 5 stars from every product, one at a time, with buttons, arrow keys and swipe. Add <code>autoplay</code> to move on every 6 seconds (paused while shoppers
            point at it or use it, never for shoppers who ask for reduced motion), <code>with-media</code> for reviews with photos only, or <code>group-id</code> for one collection (see
            docs/widgets.md).
          </p>
          <pre className="snippet" tabIndex={0} role="region" aria-label="Reviews carousel snippet">
            <code id="carousel-snippet">{carousel}</code>
          </pre>
          <CopyButton targetId="carousel-snippet" label="Copy carousel snippet" />
        </>
      ) : null}

      <h2>Shop platform</h2>
      <p>
        Orders and products arrive as webhooks from your shop: <a href={`/admin/stores/${store.storeId}/platform`}>connect your shop platform</a> (shop domain, app secret and the webhook addresses).
      </p>

      <h2 id="api-keys">API keys</h2>
      <p>API keys let your systems read survey responses from the enterprise API (HTTP Basic: user name = store ID, password = key).</p>
      {createdKey ? (
        <div className="panel key-once" role="status">
          <p>
            <strong>Copy this key now: it is shown only once.</strong>
          </p>
          <pre className="snippet" tabIndex={0} role="region" aria-label="New API key">
            <code id="new-key">{createdKey}</code>
          </pre>
          <CopyButton targetId="new-key" label="Copy key" />
        </div>
      ) : null}
      {isOwner ? (
        <Form method="post" className="inline-form">
          <CsrfField />
          <input type="hidden" name="intent" value="create" />
          <label htmlFor="key-name">Name of the new key</label>
          <input id="key-name" name="name" required maxLength={100} placeholder="e.g. Data warehouse" />
          <button type="submit">Create API key</button>
        </Form>
      ) : (
        <p className="notice">Only an owner of this store can create or revoke API keys.</p>
      )}
      {keys.length === 0 ? (
        <p className="empty">No API keys yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">API keys of this store</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.apiKeyId}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.keyPrefix}…</code>
                  </td>
                  <td>{day(k.dateCreated)}</td>
                  <td>{day(k.dateLastUsed)}</td>
                  <td>
                    {k.dateRevoked ? (
                      <span className="badge badge-rejected">Revoked {day(k.dateRevoked)}</span>
                    ) : !isOwner ? (
                      <span className="badge badge-published">Active</span>
                    ) : (
                      <Form method="post">
                        <CsrfField />
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="apiKeyId" value={k.apiKeyId} />
                        <button type="submit" className="danger" aria-label={`Revoke ${k.name}`}>
                          Revoke
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, isOwner, requireStore, requireStoreAction, requireStoreOwner } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import { marketingSettingsPatch } from "../../server/marketing/klaviyo.service.ts";

export const meta: MetaFunction = () => [{ title: "Klaviyo · Chorus admin" }];
export const headers = adminHeaders;

/** Rows of the delivery log shown. */
const LOG_ROWS = 100;

/**
 * Klaviyo (issue #38 item 3, docs/klaviyo.md): connect with a private API key (write-only: only its last four
 * characters are shown), disconnect, and the delivery log of the calls to Klaviyo, newest first.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  const { klaviyo } = context.services;
  return data(
    {
      flash,
      isOwner: isOwner(session, store.storeId, "marketing"),
      keyHint: await klaviyo.keyHint(store.storeId),
      log: await klaviyo.log(store.storeId, LOG_ROWS),
    },
    { headers },
  );
}

type ActionResult = { error?: string; fieldError?: string };

/** Intents (an owner's: a key sends shopper data to Klaviyo): `connect` (privateApiKey), `disconnect`. Success redirects with a flash. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  requireStoreOwner(session, store.storeId, "marketing");
  const here = `/admin/stores/${store.storeId}/klaviyo`;
  const intent = field(form, "intent");
  if (intent === "disconnect") {
    await context.services.klaviyo.updateSettings(store.storeId, { klaviyo: { privateApiKey: null } });
    return redirectWithFlash(request, context, here, { ok: "Klaviyo disconnected: nothing more is sent, and calls not sent yet were dropped." });
  }
  if (intent !== "connect") return data<ActionResult>({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
  const parsed = marketingSettingsPatch.safeParse({ klaviyo: { privateApiKey: field(form, "privateApiKey") } });
  if (!parsed.success) return data<ActionResult>({ error: "Check the highlighted field.", fieldError: parsed.error.issues[0]?.message ?? "Enter a private API key." }, { status: 400 });
  await context.services.klaviyo.updateSettings(store.storeId, parsed.data);
  return redirectWithFlash(request, context, here, { ok: "Klaviyo connected: new reviews, questions, loyalty and survey events are sent from now on." });
}

const when = (iso: string | null) => (iso ? iso.replace("T", " ").slice(0, 19) + " UTC" : "");
const BADGE: Record<string, string> = { delivered: "badge badge-published", failed: "badge badge-rejected", skipped: "badge badge-rejected" };

export default function Klaviyo() {
  const { flash, isOwner, keyHint, log } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Klaviyo</h1>
      <Flash result={result?.error ? result : flash} />
      <p>
        With a Klaviyo private API key, Chorus sends Klaviyo an event when a shopper submits a review or a question, earns loyalty points, redeems a reward, changes VIP tier, answers a survey or
        unsubscribes from review requests, and keeps their points balance, VIP tier and last review date on their Klaviyo profile. Use them in flows, for example to thank a 5-star reviewer or remind a
        shopper of their points.
      </p>
      <p data-testid="klaviyo-status" role="status">
        {keyHint ? (
          <>
            Connected with the private API key ending in <code>{keyHint}</code>.
          </>
        ) : (
          "Not connected."
        )}
      </p>

      {isOwner ? (
        <>
          <Form method="post" className="stack panel" noValidate aria-labelledby="connect-title">
            <h2 id="connect-title">{keyHint ? "Replace the private API key" : "Connect Klaviyo"}</h2>
            <CsrfField />
            <input type="hidden" name="intent" value="connect" />
            <p id="key-hint" className="muted">
              In Klaviyo: Settings → API keys → Create Private API Key, with write access to Events, Profiles and Data Privacy. The key is stored encrypted and never shown again.
            </p>
            <label htmlFor="privateApiKey">Private API key</label>
            <input
              id="privateApiKey"
              name="privateApiKey"
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder="pk_…"
              aria-describedby={result?.fieldError ? "key-hint privateApiKey-error" : "key-hint"}
              aria-invalid={result?.fieldError ? true : undefined}
            />
            <FieldError id="privateApiKey" error={result?.fieldError} />
            <button type="submit" disabled={busy}>
              {keyHint ? "Save key" : "Connect"}
            </button>
          </Form>
          {keyHint ? (
            <Form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="disconnect" />
              <button type="submit" className="danger" disabled={busy}>
                Disconnect Klaviyo
              </button>
            </Form>
          ) : null}
        </>
      ) : (
        <p className="notice">Only an owner of this store can connect or disconnect Klaviyo.</p>
      )}

      <h2 id="log-title">Delivery log</h2>
      {log.length === 0 ? (
        <p className="empty">Nothing sent to Klaviyo yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="log-title">
            <caption className="muted">The last {LOG_ROWS} calls at most, newest first. Failed calls are retried with growing waits for about two days.</caption>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">Shopper</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {log.map((l) => (
                <tr key={l.jobId}>
                  <th scope="row">{l.kind === "event" ? l.name : l.kind === "profile" ? "Profile properties" : "Profile deletion"}</th>
                  <td>{l.email.startsWith("sha256:") ? "(erased)" : l.email}</td>
                  <td>
                    <span className={BADGE[l.status] ?? "badge badge-pending"}>{l.status}</span>
                    {l.nextAttempt && l.attempts > 0 ? (
                      <>
                        <br />
                        <span className="muted">next try {when(l.nextAttempt)}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{l.attempts}</td>
                  <td>
                    {l.lastStatusCode ?? (l.attempts ? "none" : "")}
                    {l.lastError ? (
                      <>
                        <br />
                        <span className="muted">{l.lastError}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{when(l.created)}</td>
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

import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, isOwner, requireStore, requireStoreAction, requireStoreOwner } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import { isApiError } from "../../server/contract/errors.ts";
import { createWebhookSubscriptionSchema, updateWebhookSubscriptionSchema, WEBHOOK_EVENT_TYPES } from "../../server/contract/webhooks.ts";

import webhookStyles from "~/styles/admin-webhooks.css?url";

export const meta: MetaFunction = () => [{ title: "Webhooks · Chorus admin" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: webhookStyles }];
export const headers = adminHeaders;

const PAGE = 50;

/** Subscriptions (with the disabled notice), the delivery log newest first (`?before=<seq>` pages), the secret shown once. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  const before = Number(new URL(request.url).searchParams.get("before"));
  const deliveries = await context.services.webhooks.deliveries(store.storeId, { beforeSeq: Number.isSafeInteger(before) && before > 0 ? before : undefined, limit: PAGE + 1 });
  return data(
    {
      storeId: store.storeId,
      flash,
      isOwner: isOwner(session, store.storeId, "webhooks"),
      subscriptions: await context.services.webhooks.list(store.storeId),
      deliveries: deliveries.slice(0, PAGE),
      nextBefore: deliveries.length > PAGE ? deliveries[PAGE - 1].seq : null,
    },
    { headers },
  );
}

type ActionResult = { error?: string; errors?: Record<string, string>; values?: Record<string, string | string[]>; subscriptionId?: string };

/** Field errors of a zod error or a service ApiError ("url: …" names the field). */
function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

/**
 * Intents: `create` (url, eventType[], description; the secret goes to the flash, shown once), `update`
 * (subscriptionId and the same fields), `enable`, `disable`, `delete`, `rotate` (new secret, shown once),
 * `replay` (deliveryId). Success redirects with a flash; invalid fields answer 400 with a message per field.
 * Every intent but `replay` is an owner's (403 for a member: a subscription sends the store's data where it
 * points, docs/admin.md "Who may do what"); replaying a delivery to an existing subscription is anyone's.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  const here = `/admin/stores/${store.storeId}/webhooks`;
  const hooks = context.services.webhooks;
  const intent = field(form, "intent");
  if (intent !== "replay") requireStoreOwner(session, store.storeId, "webhooks");
  const subscriptionId = field(form, "subscriptionId");
  try {
    if (intent === "create" || intent === "update") {
      const values = { url: field(form, "url"), eventTypes: form.getAll("eventType").map(String), description: field(form, "description") };
      const schema = intent === "create" ? createWebhookSubscriptionSchema : updateWebhookSubscriptionSchema;
      const parsed = schema.safeParse(values);
      if (!parsed.success) {
        // Every field's error at once: the URL's rules too when its syntax passed.
        const errors = fieldErrors(parsed.error.issues);
        if (!errors.url && values.url) {
          const problem = await hooks.urlProblem(values.url);
          if (problem) errors.url = problem;
        }
        return data<ActionResult>({ errors, values, subscriptionId }, { status: 400 });
      }
      try {
        if (intent === "create") {
          const { secret } = await hooks.create(store.storeId, parsed.data as never);
          return redirectWithFlash(request, context, here, { ok: "Subscription created. Copy its signing secret below: it is shown only now.", shownOnce: secret });
        }
        await hooks.update(store.storeId, subscriptionId, parsed.data);
        return redirectWithFlash(request, context, here, { ok: "Subscription saved." });
      } catch (error) {
        if (isApiError(error) && error.status === 400 && error.message.startsWith("url: ")) {
          return data<ActionResult>({ errors: { url: error.message.slice(5) }, values, subscriptionId }, { status: 400 });
        }
        throw error;
      }
    }
    if (intent === "enable" || intent === "disable") {
      await hooks.update(store.storeId, subscriptionId, { status: intent === "enable" ? "enabled" : "disabled" });
      return redirectWithFlash(request, context, here, {
        ok: intent === "enable" ? "Subscription enabled: new events are delivered again." : "Subscription disabled: nothing is delivered until you enable it.",
      });
    }
    if (intent === "delete") {
      await hooks.remove(store.storeId, subscriptionId);
      return redirectWithFlash(request, context, here, { ok: "Subscription deleted with its delivery log." });
    }
    if (intent === "rotate") {
      const { secret } = await hooks.rotateSecret(store.storeId, subscriptionId);
      return redirectWithFlash(request, context, here, { ok: "New signing secret generated; the old one no longer signs deliveries. Copy it below: it is shown only now.", shownOnce: secret });
    }
    if (intent === "replay") {
      await hooks.replay(store.storeId, field(form, "deliveryId"));
      return redirectWithFlash(request, context, here, { ok: "Delivery queued again: it is sent within a few seconds and shows at the top of the log." });
    }
    return data<ActionResult>({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data<ActionResult>({ error: error.message }, { status: error.status });
    throw error;
  }
}

const when = (iso: string | number | null | undefined) => (iso === null || iso === undefined ? "" : new Date(iso).toISOString().replace("T", " ").slice(0, 19) + " UTC");

/** URL, description and event-type fields of a subscription form; IDs prefixed with `prefix`. */
function SubscriptionFields({ prefix, values, errors }: { prefix: string; values: { url?: string; description?: string; eventTypes?: string[] }; errors: Record<string, string> }) {
  return (
    <>
      <label htmlFor={`${prefix}-url`}>Receiver URL</label>
      <input
        id={`${prefix}-url`}
        name="url"
        type="url"
        required
        maxLength={2048}
        defaultValue={values.url ?? ""}
        placeholder="https://example.com/chorus-webhooks"
        {...invalidProps(`${prefix}-url`, errors.url)}
      />
      <FieldError id={`${prefix}-url`} error={errors.url} />
      <label htmlFor={`${prefix}-description`}>Description (optional)</label>
      <input id={`${prefix}-description`} name="description" maxLength={200} defaultValue={values.description ?? ""} {...invalidProps(`${prefix}-description`, errors.description)} />
      <FieldError id={`${prefix}-description`} error={errors.description} />
      <fieldset aria-describedby={errors.eventTypes ? `${prefix}-events-error` : undefined}>
        <legend>Events</legend>
        <div className="event-types">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="choice">
              <input type="checkbox" name="eventType" value={type} defaultChecked={values.eventTypes?.includes(type) ?? false} /> <code>{type}</code>
            </label>
          ))}
        </div>
        <FieldError id={`${prefix}-events`} error={errors.eventTypes} />
      </fieldset>
    </>
  );
}

export default function Webhooks() {
  const { storeId, flash, isOwner, subscriptions, deliveries, nextBefore } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state !== "idle";
  const errors = result?.errors ?? {};
  const values = (result?.values ?? {}) as { url?: string; description?: string; eventTypes?: string[] };
  const createErrors = result?.subscriptionId ? {} : errors;
  const disabled = subscriptions.filter((s) => s.status === "disabled");
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Webhooks</h1>
      <Flash result={result?.error ? result : flash} />
      <p className="muted">
        Chorus POSTs a signed JSON event to your URL when reviews, survey responses or loyalty customers change. Check the <code>Chorus-Signature</code> header with the subscription's secret (see the
        webhooks guide in the documentation). Failed deliveries are retried for about a day.
      </p>

      {disabled.length ? (
        <div className="panel notice" role="alert" aria-labelledby="disabled-title">
          <h2 id="disabled-title">{disabled.length === 1 ? "A subscription is disabled" : `${disabled.length} subscriptions are disabled`}</h2>
          <ul>
            {disabled.map((s) => (
              <li key={s.subscriptionId}>
                <code>{s.url}</code>: {s.disabledReason ?? "disabled"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {flash?.shownOnce ? (
        <div className="panel notice" aria-labelledby="secret-title">
          <h2 id="secret-title">Signing secret</h2>
          <p>
            Use it to verify each delivery's <code>Chorus-Signature</code>. It is shown only now.
          </p>
          <p>
            <code id="webhook-secret" data-testid="webhook-secret">
              {flash.shownOnce}
            </code>{" "}
            <CopyButton targetId="webhook-secret" label="Copy the secret" />
          </p>
        </div>
      ) : null}

      <h2>Subscriptions</h2>
      {subscriptions.length === 0 ? (
        <p className="empty">No subscriptions yet.</p>
      ) : (
        <ul className="subscriptions">
          {subscriptions.map((s) => {
            const editing = result?.subscriptionId === s.subscriptionId;
            return (
              <li key={s.subscriptionId} className="panel">
                <p>
                  <strong>
                    <code>{s.url}</code>
                  </strong>{" "}
                  <span className={s.status === "enabled" ? "badge badge-published" : "badge badge-rejected"}>{s.status === "enabled" ? "Enabled" : "Disabled"}</span>
                </p>
                {s.description ? <p>{s.description}</p> : null}
                <p className="muted">
                  Events: {s.eventTypes.join(", ")} · secret {s.secretPrefix}… · {s.consecutiveFailures === 1 ? "1 failed attempt" : `${s.consecutiveFailures} failed attempts`} in a row
                </p>
                {isOwner ? (
                  <>
                    <details open={editing}>
                      <summary>Edit {s.url}</summary>
                      <Form method="post" className="stack" noValidate>
                        <CsrfField />
                        <input type="hidden" name="intent" value="update" />
                        <input type="hidden" name="subscriptionId" value={s.subscriptionId} />
                        <SubscriptionFields prefix={`s-${s.subscriptionId}`} values={editing ? values : s} errors={editing ? errors : {}} />
                        <button type="submit" disabled={busy}>
                          Save subscription
                        </button>
                      </Form>
                    </details>
                    <div className="inline-form">
                      {(["enable", "disable", "rotate", "delete"] as const)
                        .filter((i) => (i === "enable" ? s.status === "disabled" : i === "disable" ? s.status === "enabled" : true))
                        .map((i) => (
                          <Form method="post" key={i}>
                            <CsrfField />
                            <input type="hidden" name="intent" value={i} />
                            <input type="hidden" name="subscriptionId" value={s.subscriptionId} />
                            <button
                              type="submit"
                              className={i === "delete" ? "danger" : undefined}
                              disabled={busy}
                              aria-label={`${{ enable: "Enable", disable: "Disable", rotate: "New secret for", delete: "Delete" }[i]} ${s.url}`}
                            >
                              {{ enable: "Enable", disable: "Disable", rotate: "New secret", delete: "Delete" }[i]}
                            </button>
                          </Form>
                        ))}
                    </div>
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      {isOwner ? (
        <Form method="post" className="stack panel" noValidate aria-labelledby="create-title">
          <h2 id="create-title">Add a subscription</h2>
          <CsrfField />
          <input type="hidden" name="intent" value="create" />
          <SubscriptionFields prefix="new" values={result?.subscriptionId ? {} : values} errors={createErrors} />
          <button type="submit" disabled={busy}>
            Create subscription
          </button>
        </Form>
      ) : (
        <p className="notice">Only an owner of this store can add, change or delete subscriptions.</p>
      )}

      <h2>Delivery log</h2>
      {deliveries.length === 0 ? (
        <p className="empty">No deliveries yet.</p>
      ) : (
        <div className="table-wrap delivery-log">
          <table>
            <caption className="visually-hidden">Webhook deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">Replay</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.delivery_id}>
                  <th scope="row">
                    <code>{d.event_type}</code>
                    <br />
                    <span className="muted">{d.event_id}</span>
                  </th>
                  <td>
                    <code>{d.url}</code>
                  </td>
                  <td>
                    <span className={d.status === "delivered" ? "badge badge-published" : d.status === "failed" ? "badge badge-rejected" : "badge badge-pending"}>{d.status}</span>
                    {d.status === "queued" && d.attempts > 0 ? (
                      <>
                        <br />
                        <span className="muted">next try {when(d.next_attempt_ms)}</span>
                      </>
                    ) : null}
                    {d.replay_of ? (
                      <>
                        <br />
                        <span className="muted">replay</span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {d.attemptLog.length ? (
                      <details>
                        <summary>
                          {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                        </summary>
                        <ol>
                          {d.attemptLog.map((a) => (
                            <li key={a.attempt}>
                              {when(a.attempted_ms)}: {a.status_code ?? "no answer"}, {a.latency_ms} ms{a.error ? ` (${a.error})` : ""}
                            </li>
                          ))}
                        </ol>
                      </details>
                    ) : (
                      d.attempts
                    )}
                  </td>
                  <td>
                    {d.last_status_code ?? (d.attempts ? "none" : "")}
                    {d.last_latency_ms !== null ? ` · ${d.last_latency_ms} ms` : ""}
                    {d.last_error ? (
                      <>
                        <br />
                        <span className="muted">{d.last_error}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{when(d.created_ms)}</td>
                  <td>
                    {d.status === "delivered" || d.status === "failed" ? (
                      <Form method="post">
                        <CsrfField />
                        <input type="hidden" name="intent" value="replay" />
                        <input type="hidden" name="deliveryId" value={d.delivery_id} />
                        <button type="submit" disabled={busy} aria-label={`Replay ${d.event_type} ${d.event_id}`}>
                          Replay
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextBefore ? (
        <p>
          <Link to={`/admin/stores/${storeId}/webhooks?before=${nextBefore}`}>Older deliveries</Link>
        </p>
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

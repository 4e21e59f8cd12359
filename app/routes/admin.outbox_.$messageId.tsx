import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { decodeHTMLAttribute } from "entities";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { OutboxHeader } from "~/components/OutboxHeader";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, readAdminForm, requireCsrf } from "~/lib/admin.server";
import { deliveryNote, formatUtc, isoTime, STATUS_LABEL } from "~/lib/outbox";
import { outboxReader, requireOutboxMessage } from "~/lib/outbox.server";
import outboxStyles from "~/styles/admin-outbox.css?url";

export const meta: MetaFunction = () => [{ title: "Message · Outbox · Chorus admin" }];
export const headers = adminHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: outboxStyles }];

/**
 * /admin/outbox/:messageId: one message: recipient, subject, kind, store, delivery state (attempts, last
 * error), its extra headers, the HTML version in a sandboxed frame (served by the `/html` resource route with
 * a policy that runs no script and loads nothing) and the plain-text version. 404 unless visible to the user
 * (outbox.server.ts: invitations and resets are owners' or operators').
 */
/** The http(s) links of a message's HTML, in order, once each (to open them from the admin; the frame cannot). */
function linksOf(html: string): string[] {
  const links = new Set<string>();
  for (const [, raw] of html.matchAll(/\shref\s*=\s*"([^"]*)"/gi)) {
    const href = decodeHTMLAttribute(raw);
    if (URL.canParse(href) && /^https?:$/.test(new URL(href).protocol)) links.add(new URL(href).href);
  }
  return [...links];
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, message } = await requireOutboxMessage(request, context, params.messageId);
  const storeName = message.storeId ? (session.stores.find((s) => s.storeId === message.storeId)?.name ?? message.storeId) : null;
  const canSendAgain = context.services.mail.sending && (message.status === "failed" || message.status === "kept") && message.html !== "";
  return { email: session.email, csrf: session.csrfToken, firstStoreId: session.stores[0]?.storeId ?? null, message, storeName, links: linksOf(message.html), canSendAgain };
}

/**
 * Intent `send-again`: a failed message (or one kept before a mail server was configured) is queued again with
 * fresh attempts (mail.service.ts `sendAgain`). CSRF checked; a message not visible to the user is a 404.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, message } = await requireOutboxMessage(request, context, params.messageId);
  const form = await readAdminForm(request);
  requireCsrf(form, session);
  if (field(form, "intent") !== "send-again") return data({ error: "Unknown action." }, { status: 400 });
  const queued = await context.services.mail.sendAgain({ ...(await outboxReader(session, context)), messageId: message.messageId });
  if (!queued) {
    return data({ error: context.services.mail.sending ? "Only a failed or kept message can be sent again." : "Nothing can be sent: no mail server is configured (SMTP_URL)." }, { status: 409 });
  }
  return { ok: "The message is queued and will be sent in a moment." };
}

/** One term of the message's facts (a `dt`/`dd` pair grouped in a `div`, as HTML allows inside `dl`). */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export default function OutboxMessage() {
  const { email, csrf, firstStoreId, message: m, storeName, links, canSendAgain } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const headers = Object.entries(m.headers);
  return (
    <>
      <OutboxHeader email={email} csrf={csrf} firstStoreId={firstStoreId} />
      <main id="main" className="admin-main" tabIndex={-1}>
        <p>
          <Link to="/admin/outbox">← Back to the outbox</Link>
        </p>
        <h1>{m.subject}</h1>
        <Flash result={result} />
        <dl className="mail-facts">
          <Fact term="To">{m.to}</Fact>
          <Fact term="Kind">{m.kind}</Fact>
          <Fact term="Store">{storeName ?? <span className="muted">none (mail of the instance, e.g. a password reset)</span>}</Fact>
          <Fact term="Created">
            <time dateTime={isoTime(m.createdMs)}>{formatUtc(m.createdMs)}</time>
          </Fact>
          <Fact term="Status">
            <span className={`badge badge-mail-${m.status}`}>{STATUS_LABEL[m.status]}</span> {deliveryNote(m)}
          </Fact>
          {m.lastError ? <Fact term="Last error">{m.lastError}</Fact> : null}
          {headers.map(([name, value]) => (
            <Fact key={name} term={name}>
              {value}
            </Fact>
          ))}
        </dl>
        {canSendAgain ? (
          <Form method="post" className="inline-form">
            <input type="hidden" name="csrf" value={csrf} />
            <button type="submit" name="intent" value="send-again" disabled={busy}>
              Send again
            </button>
            <span className="muted">{m.status === "failed" ? "for example after fixing the mail server settings" : "this message was kept while no mail server was configured"}</span>
          </Form>
        ) : null}
        {m.html === "" ? (
          <p className="notice">The content of this message is no longer kept (the outbox keeps it for a limited number of days, MAIL_KEEP_DAYS).</p>
        ) : (
          <>
            <h2>HTML version</h2>
            <iframe className="mail-preview" title={`HTML version of “${m.subject}”`} src={`/admin/outbox/${m.messageId}/html`} sandbox="" referrerPolicy="no-referrer" />
            {links.length > 0 ? (
              <>
                <h2>Links in this message</h2>
                <p className="muted">The preview above does not follow links; open them here (for example an invitation kept while no mail server is configured).</p>
                <ul className="mail-links">
                  {links.map((href) => (
                    <li key={href}>
                      <a href={href} target="_blank" rel="noreferrer noopener">
                        {href}
                      </a>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            <h2>Text version</h2>
            <pre className="mail-text" tabIndex={0}>
              {m.text}
            </pre>
          </>
        )}
      </main>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="admin-plain">
      <AdminErrorBoundary />
    </main>
  );
}

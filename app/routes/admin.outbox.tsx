import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { OutboxHeader } from "~/components/OutboxHeader";
import { adminHeaders, requireSession } from "~/lib/admin.server";
import outboxStyles from "~/styles/admin-outbox.css?url";
import { deliveryNote, formatUtc, isoTime, STATUS_LABEL } from "~/lib/outbox";
import { outboxReader } from "~/lib/outbox.server";

export const meta: MetaFunction = () => [{ title: "Outbox · Chorus admin" }];
export const headers = adminHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: outboxStyles }];

/** Messages per page. */
const PAGE_SIZE = 25;

/**
 * /admin/outbox: the mail Chorus sent or will send (server/mail, docs/mail.md), newest first, keyset-paged by
 * the service's signed cursor (`after`): what the signed-in user may read (mail.service.ts `mayRead`): their stores'
 * messages, invitations only of the stores they own, and mail of no store (password resets) only for an
 * operator. A cursor that is not this listing's answers 400
 * with the error shown in the page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  const storeNames = Object.fromEntries(session.stores.map((s) => [s.storeId, s.name]));
  const reader = await outboxReader(session, context);
  const base = {
    email: session.email,
    csrf: session.csrfToken,
    sending: context.services.mail.sending,
    storeNames,
    firstPage: after === undefined,
    firstStoreId: session.stores[0]?.storeId ?? null,
    ownsAll: reader.memberOf.length === 0,
    operator: reader.operator,
  };
  try {
    const page = await context.services.mail.listVisible({ ...reader, after, limit: PAGE_SIZE });
    return { ...base, messages: page.messages, next: page.next ?? null, error: null };
  } catch (error) {
    if (isApiError(error) && error.status === 400) {
      return data({ ...base, messages: [], next: null, error: "This page link is not valid (it was changed, or belongs to another account). Start again from the newest messages." }, { status: 400 });
    }
    throw error;
  }
}

export default function Outbox() {
  const { email, csrf, sending, storeNames, messages, next, error, firstPage, firstStoreId, ownsAll, operator } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <>
      <OutboxHeader email={email} csrf={csrf} firstStoreId={firstStoreId} />
      <main id="main" className="admin-main" tabIndex={-1} aria-busy={navigation.state === "loading"}>
        <p>
          <a href={firstStoreId ? `/admin/stores/${firstStoreId}` : "/admin"}>← Back to the admin</a>
        </p>
        <h1>Outbox</h1>
        <p>
          Every e-mail Chorus sends for your stores (review requests, team invitations){operator ? " and every password reset" : ""}, newest first.
          {ownsAll ? "" : " Team invitations are shown only to a store's owners: their links open the store."}
          {operator ? "" : " Password resets are shown only to the instance's operators."}
        </p>
        {sending ? null : (
          <p className="notice">
            No mail server is configured (<code>SMTP_URL</code>), so messages are kept here and not sent. See the operator guide, docs/mail.md.
          </p>
        )}
        {error ? (
          <>
            <p className="flash flash-error" role="alert">
              {error}
            </p>
            <p>
              <Link to="/admin/outbox">Newest messages</Link>
            </p>
          </>
        ) : messages.length === 0 ? (
          <p className="empty" role="status">
            {firstPage ? "No e-mail yet. Messages appear here as soon as Chorus has one to send." : "No more messages."}
          </p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Messages, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Subject</th>
                  <th scope="col">To</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Store</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {messages.map((m) => (
                  <tr key={m.messageId}>
                    <td>
                      <time dateTime={isoTime(m.createdMs)}>{formatUtc(m.createdMs)}</time>
                    </td>
                    <td>
                      <Link to={`/admin/outbox/${m.messageId}`}>{m.subject}</Link>
                    </td>
                    <td>{m.to}</td>
                    <td>{m.kind}</td>
                    <td>{m.storeId ? (storeNames[m.storeId] ?? m.storeId) : <span className="muted">none</span>}</td>
                    <td>
                      <span className={`badge badge-mail-${m.status}`}>{STATUS_LABEL[m.status]}</span>
                      <br />
                      <span className="meta">{deliveryNote(m)}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {next || !firstPage ? (
          <nav className="pager" aria-label="Pages">
            {firstPage ? null : <Link to="/admin/outbox">Newest messages</Link>}
            {next ? (
              <Link to={`/admin/outbox?${new URLSearchParams({ after: next })}`} rel="next">
                Older messages
              </Link>
            ) : null}
          </nav>
        ) : null}
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

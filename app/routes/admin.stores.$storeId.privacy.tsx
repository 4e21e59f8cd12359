import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { isApiError } from "../../server/contract/errors.ts";
import type { HoldingCounts } from "../../server/privacy/privacy.service.ts";

export const meta: MetaFunction = () => [{ title: "Shopper data · Chorus admin" }];
export const headers = adminHeaders;

/** The kinds of records, in the order shown, with their labels. */
const KINDS: [keyof HoldingCounts, string][] = [
  ["reviews", "Reviews"],
  ["mediaItems", "Review photos and videos"],
  ["questions", "Questions"],
  ["answers", "Answers"],
  ["surveyResponses", "Survey responses"],
  ["loyaltyCustomers", "Loyalty accounts"],
  ["loyaltyTransactions", "Points transactions"],
  ["loyaltyRewards", "Loyalty rewards"],
  ["orders", "Orders"],
  ["orderLines", "Order lines"],
  ["mail", "E-mails"],
  ["reviewRequests", "Review requests"],
  ["referralSenders", "Referral links"],
  ["referralFriends", "Referral friend discounts"],
  ["profileAnswers", "Customer profile answers"],
];

/**
 * Shopper data requests (issue 24 item 1): find what the store holds about an e-mail address (`?email=`),
 * download it as a zip, or erase it (confirmed by typing the address again); the audit log of requests.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { privacy } = context.services;
  const asked = new URL(request.url).searchParams.get("email");
  let found: { email: string; counts: HoldingCounts; total: number } | null = null;
  let emailError: string | null = null;
  if (asked !== null) {
    try {
      found = await privacy.summary(store.storeId, asked);
    } catch (error) {
      if (!isApiError(error)) throw error;
      emailError = "Enter a shopper's e-mail address, e.g. shopper@example.com.";
    }
  }
  return { storeId: store.storeId, asked: asked ?? "", found, emailError, requests: await privacy.recentRequests(store.storeId, 20) };
}

/** Intent `erase` (the `confirm` field must repeat the address). The export is a resource route (`privacy/export.zip`), so it downloads. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  const { privacy } = context.services;
  const intent = field(form, "intent");
  let email: string;
  try {
    email = privacy.parseEmail(field(form, "email"));
  } catch {
    return data({ error: "Enter a shopper's e-mail address, e.g. shopper@example.com." }, { status: 400 });
  }
  const actor = `admin:${session.email}`;
  if (intent === "erase") {
    if (field(form, "confirm").toLowerCase() !== email) {
      return data({ error: "To erase, type the shopper's e-mail address again in the confirmation field.", confirmError: true }, { status: 400 });
    }
    const erased = await privacy.erase(store.storeId, email, actor);
    const total = Object.entries(erased)
      .filter(([k]) => k !== "mediaFilesDeleted")
      .reduce((a, [, n]) => a + n, 0);
    return {
      ok: total
        ? `Erased ${total} record${total === 1 ? "" : "s"} of ${email} (${erased.mediaFilesDeleted} media file${erased.mediaFilesDeleted === 1 ? "" : "s"} deleted). Loyalty accounts are kept anonymised so the points ledger stays whole.`
        : `Nothing was held about ${email}.`,
    };
  }
  return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
}

export default function ShopperData() {
  const { storeId, asked, found, emailError, requests } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const confirmError = result && "confirmError" in result;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Shopper data</h1>
      <p className="muted">Answer a shopper's request to see or delete their data (GDPR, CCPA): everything this store holds about one e-mail address.</p>
      <Flash result={result} />
      <Form method="get" className="stack panel" role="search" aria-label="Find a shopper's data">
        <label htmlFor="shopper-email">Shopper's e-mail address</label>
        <input
          id="shopper-email"
          name="email"
          type="email"
          required
          defaultValue={asked}
          autoComplete="off"
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "shopper-email-error" : undefined}
        />
        {emailError ? (
          <p id="shopper-email-error" className="field-error">
            {emailError}
          </p>
        ) : null}
        <button type="submit">Find data</button>
      </Form>

      {found ? (
        <div className="stack panel">
          <h2>Data held about {found.email}</h2>
          {found.total === 0 ? (
            <p className="empty" role="status">
              This store holds nothing about {found.email}.
            </p>
          ) : (
            <>
              <table>
                <caption className="visually-hidden">Records held about {found.email}</caption>
                <thead>
                  <tr>
                    <th scope="col">Kind</th>
                    <th scope="col" className="num">
                      Records
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {KINDS.filter(([k]) => found.counts[k] > 0).map(([k, label]) => (
                    <tr key={k}>
                      <td>{label}</td>
                      <td className="num">{found.counts[k]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Form method="post" action={`/admin/stores/${storeId}/privacy/export.zip`} reloadDocument>
                <CsrfField />
                <input type="hidden" name="email" value={found.email} />
                <button type="submit">Download as zip</button>
              </Form>
              <Form method="post" className="stack danger-zone">
                <CsrfField />
                <input type="hidden" name="intent" value="erase" />
                <input type="hidden" name="email" value={found.email} />
                <h3>Erase</h3>
                <p>
                  Deletes their reviews (with photos and videos), questions, answers, survey responses, orders, e-mails and review requests, and removes the address from their loyalty account. This
                  cannot be undone.
                </p>
                <label htmlFor="erase-confirm">Type {found.email} to confirm</label>
                <input
                  id="erase-confirm"
                  name="confirm"
                  type="text"
                  required
                  autoComplete="off"
                  aria-invalid={confirmError ? true : undefined}
                  aria-describedby={confirmError ? "erase-confirm-error" : undefined}
                />
                {confirmError ? (
                  <p id="erase-confirm-error" className="field-error">
                    The confirmation must be the address above.
                  </p>
                ) : null}
                <button type="submit" className="danger">
                  Erase all data of {found.email}
                </button>
              </Form>
            </>
          )}
        </div>
      ) : null}

      <div className="stack panel">
        <h2>Requests handled</h2>
        {requests.length === 0 ? (
          <p className="empty">No shopper data has been exported or erased yet.</p>
        ) : (
          <table>
            <caption className="visually-hidden">Latest exports and erasures, newest first (addresses are not kept)</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Request</th>
                <th scope="col">By</th>
                <th scope="col" className="num">
                  Records
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.requestId}>
                  <td>{new Date(r.createdMs).toISOString().replace("T", " ").slice(0, 16)} UTC</td>
                  <td>{r.kind === "export" ? "Export" : r.kind === "erasure" ? "Erasure" : "Data request (passed on to the team)"}</td>
                  <td>{r.actor.replace(/^admin:/, "")}</td>
                  <td className="num">{Object.values(r.counts).reduce((a, b) => a + b, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

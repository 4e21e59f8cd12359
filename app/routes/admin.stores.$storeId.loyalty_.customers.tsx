import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty customers · Chorus admin" }];
export const headers = adminHeaders;

const PAGE = 25;
const querySchema = z.object({
  status: z.enum(["", "pending", "enrolled", "blocked"], { error: "status must be pending, enrolled or blocked" }).default(""),
  q: z.string().trim().max(200, "search is too long (at most 200 characters)").default(""),
  after: z.string().max(1000).optional(),
  customer: z.string().max(100).optional(),
});

/** Loyalty customers (issue 7 item 5): paged list with status; `?customer=` opens one with its transactions and ledger check. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? "Bad filter");
  const { status, q, after, customer } = parsed.data;
  const { loyalty } = context.services;
  let page;
  try {
    page = await loyalty.adminCustomers(store.storeId, { status: status || undefined, search: q || undefined, after, limit: PAGE });
  } catch (error) {
    if (isApiError(error)) throw httpError(400, "This page link is no longer valid (the filter changed). Start again from the first page.");
    throw error;
  }
  let detail = null;
  if (customer) {
    try {
      detail = await loyalty.adminCustomer(store.storeId, customer);
    } catch (error) {
      if (isApiError(error)) throw httpError(404, "No such loyalty customer in this store.");
      throw error;
    }
  }
  return { storeId: store.storeId, query: { status, q }, next: page.next, customers: page.customers, detail };
}

/** Intents: block, unblock, adjust (signed points with a reason: an `adjustment` transaction). Another store's customer → 404. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { loyalty } = context.services;
  const intent = field(form, "intent");
  const customerId = field(form, "customer");
  try {
    switch (intent) {
      case "block":
      case "unblock": {
        const status = await loyalty.setCustomerBlocked(store.storeId, customerId, intent === "block");
        return { ok: intent === "block" ? "Customer blocked: they can no longer earn or redeem points." : `Customer unblocked (now ${status}).` };
      }
      case "adjust": {
        const raw = field(form, "points");
        const points = /^[+-]?\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!Number.isInteger(points) || points === 0) return data({ error: "Points must be a whole number other than 0 (negative to remove points)." }, { status: 400 });
        const reason = field(form, "reason");
        if (!reason) return data({ error: "Give a reason for the adjustment: the customer sees it in their history." }, { status: 400 });
        if (reason.length > 200) return data({ error: "The reason is too long (at most 200 characters)." }, { status: 400 });
        await loyalty.adjustPoints(store.storeId, customerId, points, reason);
        return { ok: `Adjustment of ${points > 0 ? "+" : ""}${points} points recorded.` };
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

const STATUS_LABEL = { pending: "Signed in, not a member", enrolled: "Member", blocked: "Blocked" } as const;
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "–");

export default function LoyaltyCustomers() {
  const { storeId, query, next, customers, detail } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const base = `/admin/stores/${storeId}/loyalty/customers`;
  const keep = (extra: Record<string, string>) => `${base}?${new URLSearchParams({ ...query, ...extra })}`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Loyalty customers</h1>
      <p>
        <Link to={`/admin/stores/${storeId}/loyalty`}>Back to loyalty settings</Link>
      </p>
      <Flash result={result} />

      {detail ? (
        <section className="panel" aria-labelledby="customer-title">
          <h2 id="customer-title">{detail.customer.email ?? detail.customer.platformCustomerId}</h2>
          <p className="meta">
            <span className={`badge badge-${detail.customer.status}`}>{STATUS_LABEL[detail.customer.status]}</span> · platform ID <code>{detail.customer.platformCustomerId}</code>
            {detail.customer.vipTierName ? ` · ${detail.customer.vipTierName} tier` : ""} · {detail.customer.lifetimePoints} lifetime points
          </p>
          <p>
            Balance: <strong data-testid="balance">{detail.customer.balance}</strong> points.{" "}
            {detail.ledger.ok ? (
              <span className="muted">Matches the sum of the transactions ({detail.ledger.sum}).</span>
            ) : (
              <strong role="alert">The balance does not match the transactions ({detail.ledger.sum})!</strong>
            )}
          </p>
          <Form method="post" className="inline-form">
            <CsrfField />
            <input type="hidden" name="customer" value={detail.customer.loyaltyCustomerId} />
            {detail.customer.status === "blocked" ? (
              <button type="submit" name="intent" value="unblock" disabled={busy}>
                Unblock
              </button>
            ) : (
              <button type="submit" name="intent" value="block" className="danger" disabled={busy}>
                Block
              </button>
            )}
          </Form>
          <Form method="post" className="inline-form" aria-label="Adjust points">
            <CsrfField />
            <input type="hidden" name="intent" value="adjust" />
            <input type="hidden" name="customer" value={detail.customer.loyaltyCustomerId} />
            <label htmlFor="a-points">Points (+ to add, − to remove)</label>
            <input id="a-points" name="points" type="number" step={1} required />
            <label htmlFor="a-reason">Reason</label>
            <input id="a-reason" name="reason" required maxLength={200} />
            <button type="submit" disabled={busy}>
              Adjust points
            </button>
          </Form>
          <div className="table-wrap">
            <table>
              <caption>Transactions, newest first (latest 100)</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                  <th scope="col">Points</th>
                  <th scope="col">Balance after</th>
                </tr>
              </thead>
              <tbody>
                {detail.transactions.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="muted">
                      No transactions yet.
                    </td>
                  </tr>
                ) : (
                  detail.transactions.map((t) => (
                    <tr key={t.transactionId}>
                      <td>
                        <time dateTime={t.dateCreated}>{t.dateCreated.slice(0, 16).replace("T", " ")}</time>
                      </td>
                      <td>{t.type}</td>
                      <td>{t.description}</td>
                      <td>{t.points > 0 ? `+${t.points}` : t.points}</td>
                      <td>{t.balanceAfter}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <Form method="get" className="filters" aria-label="Filter customers">
        <div>
          <label htmlFor="f-status">Status</label>
          <select id="f-status" name="status" defaultValue={query.status}>
            <option value="">Any</option>
            <option value="enrolled">Member</option>
            <option value="pending">Signed in, not a member</option>
            <option value="blocked">Blocked</option>
          </select>
        </div>
        <div>
          <label htmlFor="f-q">E-mail or platform ID contains</label>
          <input id="f-q" name="q" defaultValue={query.q} />
        </div>
        <button type="submit" className="secondary">
          Apply filters
        </button>
      </Form>

      {customers.length === 0 ? (
        <p className="empty" role="status">
          No loyalty customers match these filters. Customers appear here after they sign in to the loyalty widget.
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Loyalty customers, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Status</th>
                <th scope="col">Balance</th>
                <th scope="col">VIP tier</th>
                <th scope="col">Joined</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((c) => (
                <tr key={c.loyaltyCustomerId}>
                  <th scope="row">
                    <Link to={keep({ customer: c.loyaltyCustomerId })}>{c.email ?? c.platformCustomerId}</Link>
                  </th>
                  <td>
                    <span className={`badge badge-${c.status}`}>{STATUS_LABEL[c.status]}</span>
                  </td>
                  <td>{c.balance}</td>
                  <td>{c.vipTierName ?? "–"}</td>
                  <td>{day(c.dateEnrolled)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages">
        <Link to={keep({})}>First page</Link>
        {next ? (
          <Link to={keep({ after: next })} rel="next">
            Next page
          </Link>
        ) : (
          <span className="muted">No more customers</span>
        )}
      </nav>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

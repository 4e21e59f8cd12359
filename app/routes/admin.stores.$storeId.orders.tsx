import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { adminHeaders, httpError, requireStore } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Orders · Chorus admin" }];
export const headers = adminHeaders;

const PAGE = 50;
const querySchema = z.object({ after: z.string().max(1000).optional() });

/** The store's orders (issue #22 item 6), newest first, keyset-paged (`?after=`). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, "Bad page link");
  try {
    const page = await context.services.orders.adminOrders(store.storeId, { after: parsed.data.after, limit: PAGE });
    return { storeId: store.storeId, first: !parsed.data.after, ...page };
  } catch (error) {
    if (isApiError(error)) throw httpError(400, "This page link is not valid. Start again from the first page.");
    throw error;
  }
}

const STATUS_LABEL = { ordered: "Ordered", fulfilled: "Fulfilled", cancelled: "Cancelled" } as const;
const STATUS_BADGE = { ordered: "badge-pending", fulfilled: "badge-published", cancelled: "badge-rejected" } as const;
const SOURCE_LABEL: Record<string, string> = {
  "shopify-webhook": "Shopify",
  "woocommerce-webhook": "WooCommerce",
  "signed-webhook": "Signed webhook",
  "orders-csv": "CSV import",
  "enterprise-api": "Enterprise API",
  "demo-generated": "Demo (generated)",
};
const day = (iso: string | null) => (iso ? <time dateTime={iso}>{iso.slice(0, 16).replace("T", " ")}</time> : "–");

export default function Orders() {
  const { storeId, orders, next, first } = useLoaderData<typeof loader>();
  const base = `/admin/stores/${storeId}/orders`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Orders</h1>
      <p>
        Orders from your shop platform's webhooks (<Link to={`/admin/stores/${storeId}/platform`}>connect your shop</Link>), the orders CSV import and the enterprise API. A signed-in shopper whose
        order contains a product is a verified buyer of it; an e-mail address alone never is.
      </p>
      {orders.length === 0 ? (
        <p className="empty">{first ? "No orders yet. Connect your shop platform to receive them as they are placed." : "No more orders."}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Buyer</th>
                <th scope="col">Items</th>
                <th scope="col">Status</th>
                <th scope="col">Ordered (UTC)</th>
                <th scope="col">Fulfilled / cancelled (UTC)</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.orderId}>
                  <th scope="row">
                    {o.orderName ?? o.orderId}
                    {o.orderName ? (
                      <div className="muted">
                        <code>{o.orderId}</code>
                      </div>
                    ) : null}
                  </th>
                  <td>
                    {o.customerName ? <div>{o.customerName}</div> : null}
                    {o.email || <span className="muted">no e-mail</span>}
                  </td>
                  <td>
                    <ul className="plain">
                      {o.items.map((i) => (
                        <li key={i.productId}>
                          {i.title}
                          {i.quantity && i.quantity > 1 ? ` × ${i.quantity}` : ""}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[o.status]}`}>{STATUS_LABEL[o.status]}</span>
                  </td>
                  <td>{day(o.dateOrdered)}</td>
                  <td>{o.status === "cancelled" ? day(o.dateCancelled) : day(o.dateFulfilled)}</td>
                  <td>{o.source ? (SOURCE_LABEL[o.source] ?? o.source) : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Pages" className="pager">
        {!first ? <Link to={base}>First page</Link> : null}
        {next ? (
          <Link to={`${base}?${new URLSearchParams({ after: next })}`} rel="next">
            Older orders
          </Link>
        ) : null}
      </nav>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { adminHeaders, requireStore } from "~/lib/admin.server";

import webhookStyles from "~/styles/admin-webhooks.css?url";

export const meta: MetaFunction = () => [{ title: "Exports · Chorus admin" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: webhookStyles }];
export const headers = adminHeaders;

/** The Exports page: one download form per export, its filters sent to `exports/<name>.csv` (a streamed file). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  return { storeId: store.storeId, platform: store.platform };
}

type Filter = { name: string; label: string; options?: readonly string[]; type?: "date" | "text" | "number"; hint?: string };

const DATES: Filter[] = [
  { name: "from", label: "From (inclusive)", type: "date" },
  { name: "to", label: "To (exclusive)", type: "date" },
];

const EXPORTS: { name: string; title: string; description: string; filters: Filter[] }[] = [
  {
    name: "reviews",
    title: "Reviews",
    description: "Every review in any status, with the reviewer's e-mail and your reply.",
    filters: [
      { name: "status", label: "Status", options: ["pending", "published", "rejected"] },
      { name: "rating", label: "Rating", options: ["1", "2", "3", "4", "5"] },
      { name: "productId", label: "Product", type: "text", hint: "Product ID, e.g. shopify-1078" },
      ...DATES,
    ],
  },
  {
    name: "questions",
    title: "Questions",
    description: "Every question with its answer counts and your latest published answer.",
    filters: [
      { name: "status", label: "Status", options: ["pending", "published", "rejected"] },
      { name: "productId", label: "Product", type: "text", hint: "Product ID, e.g. shopify-1078" },
      ...DATES,
    ],
  },
  {
    name: "loyalty_customers",
    title: "Loyalty customers",
    description: "Members and pending customers with balance, lifetime points and VIP tier.",
    filters: [{ name: "status", label: "Status", options: ["pending", "enrolled", "blocked"] }, ...DATES],
  },
  {
    name: "loyalty_transactions",
    title: "Loyalty transactions",
    description: "The points ledger: earnings, redemptions and adjustments.",
    filters: [{ name: "type", label: "Type", options: ["earning", "redemption", "adjustment"] }, { name: "loyaltyCustomerId", label: "Loyalty customer ID", type: "text" }, ...DATES],
  },
  {
    name: "orders",
    title: "Orders",
    description: "Orders with one row per order line.",
    filters: [{ name: "status", label: "Status", options: ["ordered", "fulfilled", "cancelled"] }, ...DATES],
  },
];

export default function Exports() {
  const { storeId } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Exports</h1>
      <p className="muted">
        Download your data as CSV (UTF-8, opens in spreadsheet programs). Leave a filter empty to include everything. Text that starts like a formula (<code>=</code>, <code>+</code>, <code>-</code>,{" "}
        <code>@</code>) is written with a leading <code>'</code> so it is never run.
      </p>
      {EXPORTS.map((e) => (
        <form key={e.name} method="get" action={`/admin/stores/${storeId}/exports/${e.name}.csv`} className="stack panel" aria-labelledby={`${e.name}-title`}>
          <h2 id={`${e.name}-title`}>{e.title}</h2>
          <p className="muted">{e.description}</p>
          <div className="filters">
            {e.filters.map((f) => {
              const id = `${e.name}-${f.name}`;
              return (
                <div key={f.name}>
                  <label htmlFor={id}>{f.label}</label>
                  {f.options ? (
                    <select id={id} name={f.name} defaultValue="">
                      <option value="">Any</option>
                      {f.options.map((o) => (
                        <option key={o} value={o}>
                          {o}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input id={id} name={f.name} type={f.type ?? "text"} maxLength={200} placeholder={f.hint} />
                  )}
                </div>
              );
            })}
          </div>
          <button type="submit">Download {e.title.toLowerCase()} CSV</button>
        </form>
      ))}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

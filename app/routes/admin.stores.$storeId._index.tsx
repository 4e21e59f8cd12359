import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { requireStore } from "~/lib/admin.server";

/** Store overview: review counts by status and where to go. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  return { store: { storeId: store.storeId, name: store.name, moderation: store.moderation }, counts: await context.services.reviews.statusCounts(store.storeId) };
}

export default function Overview() {
  const { store, counts } = useLoaderData<typeof loader>();
  const base = `/admin/stores/${store.storeId}`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{store.name}</h1>
      <p className="muted">Store ID <code>{store.storeId}</code></p>
      <h2>Reviews</h2>
      <ul className="cards">
        <li><Link to={`${base}/reviews?status=pending`}><strong>{counts.pending.toLocaleString("en")}</strong> waiting for moderation</Link></li>
        <li><Link to={`${base}/reviews?status=published`}><strong>{counts.published.toLocaleString("en")}</strong> published</Link></li>
        <li><Link to={`${base}/reviews?status=rejected`}><strong>{counts.rejected.toLocaleString("en")}</strong> rejected</Link></li>
      </ul>
      <p>Moderation: <strong>{store.moderation}</strong> (<Link to={`${base}/settings`}>change</Link>).</p>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

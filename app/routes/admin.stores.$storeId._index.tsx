import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { requireStore } from "~/lib/admin.server";

/** Store overview: review counts by status, a notice when AI summaries wait for approval (docs/ai.md), and where to go. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  return {
    store: { storeId: store.storeId, name: store.name, moderation: store.moderation },
    counts: await context.services.reviews.statusCounts(store.storeId),
    aiWaiting: await context.services.ai.awaitingApproval(store.storeId),
  };
}

export default function Overview() {
  const { store, counts, aiWaiting } = useLoaderData<typeof loader>();
  const base = `/admin/stores/${store.storeId}`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{store.name}</h1>
      <p className="muted">Store ID <code>{store.storeId}</code></p>
      {aiWaiting > 0 ? (
        <p className="notice notice-warning" role="status">
          {aiWaiting === 1 ? "1 AI summary waits" : `${aiWaiting.toLocaleString("en")} AI summaries wait`} for your approval: your store does not show it until you approve. <Link to={`${base}/ai`}>Review AI content</Link>
        </p>
      ) : null}
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

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useParams } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NotAvailable } from "~/components/NotAvailable";
import { requireStore } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "AI content · Chorus admin" }];

/** AI summaries and keywords (issue 7 §4): not available until the AI service lands. Membership is still checked. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireStore(request, context, params.storeId);
  return null;
}

export default function AiContent() {
  const { storeId } = useParams();
  return (
    <>
      <NotAvailable
        title="AI content"
        summary="Review summaries and keywords generated from your published reviews."
        features={[
          "Per product or review group: the latest generated summary and keywords beside the published ones.",
          "Approve or discard a generated summary; regenerate it.",
        ]}
      />
      <p>The AI auto-publish switch and the group-level content switches are already in <Link to={`/admin/stores/${storeId}/settings`}>Settings</Link>.</p>
    </>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NotAvailable } from "~/components/NotAvailable";
import { requireStore } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Questions · Chorus admin" }];

/** Q&A moderation (issue 7 §3): not available until question submission lands. Membership is still checked. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireStore(request, context, params.storeId);
  return null;
}

export default function Questions() {
  return (
    <NotAvailable
      title="Questions"
      summary="Questions shoppers ask about your products, and your answers."
      features={[
        "A queue of new questions with publish and reject, one by one or in bulk.",
        "Answer a question publicly as the store.",
        "Filter by product and status.",
      ]}
    />
  );
}

export { AdminErrorBoundary as ErrorBoundary };

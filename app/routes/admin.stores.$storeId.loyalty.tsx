import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NotAvailable } from "~/components/NotAvailable";
import { requireStore } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty · Chorus admin" }];

/** Loyalty settings (issue 7 §5): not available until the loyalty service lands. Membership is still checked. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireStore(request, context, params.storeId);
  return null;
}

export default function Loyalty() {
  return (
    <NotAvailable
      title="Loyalty"
      summary="Your loyalty program: how customers earn and spend points."
      features={[
        "Earning rules, redemption rules and VIP tiers.",
        "Legal policies (each edit publishes a new version shoppers accept).",
        "Customers with their status and points; block or unblock; adjust points with a reason.",
      ]}
    />
  );
}

export { AdminErrorBoundary as ErrorBoundary };

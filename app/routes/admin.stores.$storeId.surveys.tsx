import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NotAvailable } from "~/components/NotAvailable";
import { requireStore } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Surveys · Chorus admin" }];

/** Survey responses (issue 7 §2): not available until the surveys service lands. Membership is still checked. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireStore(request, context, params.storeId);
  return null;
}

export default function Surveys() {
  return (
    <NotAvailable
      title="Surveys"
      summary="Survey responses from your customers, with your Net Promoter Score."
      features={[
        "Choose a survey and page through its responses: date, channel, customer e-mail, NPS score or first answer, reward.",
        "Filter by channel, date range, NPS category and archived state; search the text answers.",
        "Open a response to read every answer; archive or unarchive it.",
        "Export the filtered responses as CSV.",
        "See the NPS score, promoter/passive/detractor counts and a weekly chart.",
      ]}
    />
  );
}

export { AdminErrorBoundary as ErrorBoundary };

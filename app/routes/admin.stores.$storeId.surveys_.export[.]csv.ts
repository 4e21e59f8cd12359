import type { LoaderFunctionArgs } from "@remix-run/node";
import { isApiError } from "../../server/contract/errors.ts";
import { csvExportStream, filterOf, responsesQuerySchema } from "../../server/admin/survey-responses.ts";
import { requireStore } from "~/lib/admin.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });

/**
 * `GET /admin/stores/{id}/surveys/export.csv?survey=…&<the page's filters>`: the filtered survey
 * responses as a CSV attachment, streamed in keyset batches (issue 7 item 2). Same query schema as the
 * responses page, so the file holds exactly the rows the page counts (all pages, not just one).
 * 404 for another store or survey; 400 (plain text) for a bad filter.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const parsed = responsesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return text(400, parsed.error.issues[0]?.message ?? "Bad filter");
  if (!parsed.data.survey) return text(400, "survey is required: the survey ID to export");
  let survey;
  try {
    survey = await context.services.surveys.getSurvey(store.storeId, parsed.data.survey);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return text(404, "Survey not found.");
    throw error;
  }
  const day = new Date().toISOString().slice(0, 10);
  const slug =
    survey.surveyName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "survey";
  return new Response(csvExportStream(context.services.surveys, store.storeId, survey, filterOf(survey.surveyId, parsed.data)), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${slug}-responses-${day}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

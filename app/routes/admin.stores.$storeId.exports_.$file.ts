import type { LoaderFunctionArgs } from "@remix-run/node";
import { EXPORT_NAMES, EXPORT_QUERIES, type ExportName } from "../../server/contract/exports.ts";
import { zodIssue } from "../../server/shared/zod-issue.ts";
import { requireStore } from "~/lib/admin.server";

const text = (status: number, message: string) =>
  new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" } });

/**
 * `GET /admin/stores/{id}/exports/<name>.csv?<filters>`: the store's reviews, questions, loyalty customers,
 * loyalty transactions or orders as a streamed CSV attachment (server/exports), with the filters of the
 * Exports page (empty fields ignored). 404 for another store or an unknown file; 400 (plain text) for a bad filter.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const name = (params.file ?? "").replace(/\.csv$/, "") as ExportName;
  if (!params.file?.endsWith(".csv") || !EXPORT_NAMES.includes(name)) return text(404, "No such export.");
  const given = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v.trim() !== ""));
  const parsed = EXPORT_QUERIES[name].safeParse(given);
  if (!parsed.success) return text(400, zodIssue(parsed.error, "filter"));
  const file = await context.services.exports.csv(store.storeId, name, parsed.data as never);
  return new Response(file.stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * Enterprise API operations of the CSV exports (docs/exports.md): `GET /enterprise/exports/<name>.csv`
 * with the filters of server/contract/exports.ts, answered as streamed `text/csv` (never buffered, never
 * cached). Declared once here; the route modules `enterprise.exports.*[.]csv.ts` export them.
 */
import { z } from "zod";
import { defineOperation, reply, type Operation } from "../../server/api/operation.ts";
import { errorResponses } from "../../server/api/responses.ts";
import { EXPORT_QUERIES, type ExportName } from "../../server/contract/exports.ts";
import type { ExportQueries } from "../../server/exports/exports.service.ts";

const SUMMARIES: Record<ExportName, { id: string; summary: string; description: string }> = {
  reviews: { id: "exportReviews", summary: "Export reviews as CSV", description: "Every review of the store in any status (with the reviewer's e-mail and the store's reply), oldest first." },
  questions: {
    id: "exportQuestions",
    summary: "Export questions as CSV",
    description: "Every question of the store in any status with its answer counts and the latest published store answer, oldest first.",
  },
  loyalty_customers: { id: "exportLoyaltyCustomers", summary: "Export loyalty customers as CSV", description: "Every loyalty customer with balance, lifetime points and VIP tier, oldest first." },
  loyalty_transactions: { id: "exportLoyaltyTransactions", summary: "Export loyalty transactions as CSV", description: "The points ledger in the order it was written." },
  orders: { id: "exportOrders", summary: "Export orders as CSV", description: "Orders with one row per order line, oldest first." },
};

/** The operation `GET /enterprise/exports/<name>.csv`. */
function exportOperation<N extends ExportName>(name: N): Operation {
  const { id, summary, description } = SUMMARIES[name];
  return defineOperation({
    id,
    method: "GET",
    api: "enterprise",
    auth: "basic",
    tags: ["Exports"],
    summary,
    description: `${description} Streamed as \`text/csv\` (UTF-8 with a byte order mark, CRLF line ends); text cells starting with \`=\`, \`+\`, \`-\` or \`@\` are prefixed with \`'\` so spreadsheets never run them as formulas.`,
    query: EXPORT_QUERIES[name] as unknown as z.ZodObject,
    responses: {
      200: { description: "The CSV file", schema: z.string(), contentType: "text/csv" },
      ...errorResponses(400, 401),
    },
    handler: async ({ storeId, query, context }) => {
      const file = await context.services.exports.csv(storeId, name, query as unknown as ExportQueries[N]);
      return reply(null, {
        raw: { body: file.stream, contentType: "text/csv; charset=utf-8" },
        headers: { "content-disposition": `attachment; filename="${file.filename}"`, "x-content-type-options": "nosniff" },
      });
    },
  });
}

export const exportReviews = exportOperation("reviews");
export const exportQuestions = exportOperation("questions");
export const exportLoyaltyCustomers = exportOperation("loyalty_customers");
export const exportLoyaltyTransactions = exportOperation("loyalty_transactions");
export const exportOrders = exportOperation("orders");

/**
 * CSV exports (docs/exports.md): the exported listings and the filters of each, as query parameters of
 * `GET /enterprise/exports/<name>.csv` and of the admin's export links. Unknown parameters are refused (400).
 */
import { z } from "zod";

export const EXPORT_NAMES = ["reviews", "questions", "loyalty_customers", "loyalty_transactions", "orders"] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

const instant = (name: string, description: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: `${name} must be a date (2026-05-01) or an ISO 8601 date-time (2026-05-01T12:00:00Z)` })
    .transform((v) => Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v))
    .optional()
    .meta({ description });
const from = instant("from", "Only rows created at or after this date (UTC midnight for a date) or date-time.");
const to = instant("to", "Only rows created before this date (UTC midnight for a date) or date-time.");
const status = <T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z
    .enum(values, { error: `status must be one of ${values.join(", ")}` })
    .optional()
    .meta({ description: `Only ${what} in this status.` });
const productId = z.string().trim().min(1).max(200).optional().meta({ description: "Only rows of this product: its key (`shopify-123`, as in the storefront paths) or the platform's product ID." });

const checkRange = <T extends { from?: number; to?: number }>(schema: z.ZodType<T>) =>
  schema.refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, { message: "from must be before to", path: ["from"] });

export const reviewsExportQuery = checkRange(
  z.strictObject({
    status: status(["pending", "published", "rejected"], "reviews"),
    from,
    to,
    productId,
    rating: z.coerce.number().int().min(1).max(5, "rating must be 1 to 5").optional().meta({ description: "Only reviews with this star rating (1 to 5)." }),
  }),
);
export const questionsExportQuery = checkRange(z.strictObject({ status: status(["pending", "published", "rejected"], "questions"), from, to, productId }));
export const loyaltyCustomersExportQuery = checkRange(z.strictObject({ status: status(["pending", "enrolled", "blocked"], "loyalty customers"), from, to }));
export const loyaltyTransactionsExportQuery = checkRange(
  z.strictObject({
    type: z.enum(["earning", "redemption", "adjustment"], { error: "type must be one of earning, redemption, adjustment" }).optional().meta({ description: "Only transactions of this type." }),
    from,
    to,
    loyaltyCustomerId: z.string().trim().min(1).max(200).optional().meta({ description: "Only this loyalty customer's transactions." }),
  }),
);
export const ordersExportQuery = checkRange(z.strictObject({ status: status(["ordered", "fulfilled", "cancelled"], "orders"), from, to }));

export type ReviewsExportQuery = z.output<typeof reviewsExportQuery>;
export type QuestionsExportQuery = z.output<typeof questionsExportQuery>;
export type LoyaltyCustomersExportQuery = z.output<typeof loyaltyCustomersExportQuery>;
export type LoyaltyTransactionsExportQuery = z.output<typeof loyaltyTransactionsExportQuery>;
export type OrdersExportQuery = z.output<typeof ordersExportQuery>;

/** The query schema of each export. */
export const EXPORT_QUERIES = {
  reviews: reviewsExportQuery,
  questions: questionsExportQuery,
  loyalty_customers: loyaltyCustomersExportQuery,
  loyalty_transactions: loyaltyTransactionsExportQuery,
  orders: ordersExportQuery,
} as const satisfies Record<ExportName, z.ZodType>;

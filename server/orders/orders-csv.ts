/**
 * Orders CSV import (order lines a review-request link or the merchant can name; issue 3 item 1, issue 19). Columns, by header name (case-insensitive):
 * `order_id` (or `orderId`, `order`), `product_id` (or `productId`, `product`: the platform's ID without
 * prefix), `email`, optional `date` (or `ordered_at`: ISO 8601 or anything Date.parse reads; default now).
 * Rows missing a column or with a malformed e-mail are reported with their line numbers and skipped.
 */
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { OrderLine, OrdersRepo } from "./orders.repo.ts";

export type OrdersImportReport = { rows: number; inserted: number; badRows: { line: number; reason: string }[] };

const pick = (r: Record<string, string>, names: string[]) => {
  for (const [k, v] of Object.entries(r)) if (names.includes(k.trim().toLowerCase())) return v?.trim() ?? "";
  return "";
};

/** Import `file` into the store's orders. @throws when the file cannot be read or parsed as CSV. */
export async function importOrdersCsv(orders: Pick<OrdersRepo, "importOrders">, options: { storeId: string; file: string; source?: string }): Promise<OrdersImportReport> {
  const records = parse(readFileSync(options.file), { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }) as Record<string, string>[];
  const lines: OrderLine[] = [];
  const report: OrdersImportReport = { rows: records.length, inserted: 0, badRows: [] };
  records.forEach((r, i) => {
    const line = i + 2;
    const orderId = pick(r, ["order_id", "orderid", "order"]);
    const productId = pick(r, ["product_id", "productid", "product"]);
    const email = pick(r, ["email", "e-mail"]);
    const date = pick(r, ["date", "ordered_at"]);
    if (!orderId || !productId || !email) return report.badRows.push({ line, reason: "order_id, product_id and email are required" });
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return report.badRows.push({ line, reason: `malformed e-mail: ${email}` });
    const orderedMs = date ? Date.parse(date) : Date.now();
    if (Number.isNaN(orderedMs)) return report.badRows.push({ line, reason: `unreadable date: ${date}` });
    lines.push({ orderId, productId, email, orderedMs, source: options.source ?? "orders-csv" });
  });
  report.inserted = await orders.importOrders(options.storeId, lines);
  return report;
}

/**
 * Tests only: a few real rows as the demo writes them (a store, two products in a group, published and pending
 * reviews with their trigger-kept aggregates), and a dump of every table, to check that an upgrade keeps them.
 */
import { all, run, sql, type Db } from "../query.ts";

export async function insertDemoRows(db: Db): Promise<void> {
  await run(db, sql`INSERT INTO stores (store_id, name, platform, created_ms) VALUES ('store-1', 'Chorus Outdoor', 'shopify', 1700000000000)`);
  await run(db, sql`INSERT INTO review_groups (store_id, group_id, name) VALUES ('store-1', 'jackets', 'Jackets')`);
  await run(
    db,
    sql`INSERT INTO products (store_id, product_id, name, url, group_id, handle) VALUES
    ('store-1', '1078', 'Trail Jacket', 'https://shop.example/products/trail-jacket', 'jackets', 'trail-jacket'),
    ('store-1', '862', 'Rain Shell', 'https://shop.example/products/rain-shell', 'jackets', 'rain-shell')`,
  );
  const reviews: [string, string, number, string, string, string][] = [
    ["r-1", "1078", 5, "Warm and light", "Wore it on a winter hike, stayed dry.", "published"],
    ["r-2", "1078", 4, "Good fit", "Sleeves a little long; café-au-lait colour as pictured.", "published"],
    ["r-3", "862", 2, "Leaks at the seams", "Fine in drizzle, not in a downpour.", "published"],
    ["r-4", "862", 3, "Okay", "Does the job.", "pending"],
  ];
  for (const [id, product, rating, title, body, status] of reviews) {
    await run(
      db,
      sql`INSERT INTO reviews (review_id, store_id, product_id, group_id, rating, title, body, created_ms, status, reviewer_name, reviewer_email)
      VALUES (${id}, 'store-1', ${product}, 'jackets', ${rating}, ${title}, ${body}, ${1700000000000 + rating}, ${status}, 'Ada', 'ada@example.com')`,
    );
  }
}

/** Every row of every table named, ordered by all columns (a table the schema lacks is an error). */
export async function dumpRows(db: Db, tables: readonly string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) out[table] = await all(db, sql`SELECT * FROM ${sql.table(table)} ORDER BY 1, 2, 3`);
  return out;
}

export const DEMO_TABLES = ["stores", "review_groups", "products", "reviews", "review_aggregates"] as const;

/**
 * The columns migrations after the baseline add to the demo tables, with the value an upgraded row gets (their
 * default): migration 112 `stores.default_language`.
 */
const LATER_COLUMNS: Record<string, Record<string, unknown>> = { stores: { default_language: "en" } };

/** A dump of a legacy database as it reads after the upgrade: every row kept, plus the later migrations' new columns. */
export function upgradedRows(before: Record<string, unknown[]>): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.map((row) => ({ ...(row as object), ...LATER_COLUMNS[table] }))]));
}

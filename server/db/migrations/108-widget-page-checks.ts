/**
 * Migration 108: `widget_page_checks`, the latest "check my page" of each store (docs/admin.md "Getting
 * started"): the shop page's address, when it was checked, whether the Chorus script was on it and which
 * `chorus-*` elements with the store's ID were found. One row per store, replaced by each check; the
 * getting-started checklist reads it to tick "Put the widgets on your shop".
 */
import { sql } from "kysely";
import { executor, type Db } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";

/** Appended to MIGRATIONS (server/db/migrate.ts), which checks its shape. */
export const widgetPageChecks = {
  version: 108,
  name: "108-widget-page-checks",
  async up(db: Db) {
    const { integer, text } = columnTypes(db);
    await executor(db)
      .schema.createTable("widget_page_checks")
      .addColumn("store_id", text, (c) => c.primaryKey().references("stores.store_id").onDelete("cascade"))
      .addColumn("page_url", text, (c) => c.notNull())
      .addColumn("checked_ms", integer, (c) => c.notNull())
      .addColumn("script_found", integer, (c) => c.notNull().check(sql`script_found IN (0, 1)`))
      // The tags found with this store's ID, comma-separated in page order without repeats ("" when none).
      .addColumn("elements", text, (c) => c.notNull())
      .execute();
  },
};

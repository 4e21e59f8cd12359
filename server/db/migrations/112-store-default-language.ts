/**
 * Migration 112 (issue #36, docs/surveys.md "Languages of the hosted pages"): the store's default language for
 * shopper-facing pages, `stores.default_language`, one of the 16 widget languages (server/contract/widget-locales.ts
 * `UI_LOCALES`, checked by the settings schema), English for every existing store. The hosted pages (`/s/{id}`,
 * `/r/{token}`) fall back to it when the shopper's `Accept-Language` names none of them.
 */
import { sql } from "kysely";
import type { Migration } from "./migration.ts";
import { executor } from "../query.ts";
import { columnTypes } from "../schema/column-types.ts";

export const storeDefaultLanguage: Migration = {
  version: 112,
  name: "112-store-default-language",
  async up(db) {
    const { text } = columnTypes(db);
    await executor(db)
      .schema.alterTable("stores")
      .addColumn("default_language", text, (c) => c.notNull().defaultTo(sql`'en'`))
      .execute();
  },
};

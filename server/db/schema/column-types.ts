/**
 * The column types of the schema, one per engine (docs/ARCHITECTURE.md "Data"; ADR 0017): INTEGER is bigint on
 * PostgreSQL (booleans stay 0/1 integers), TEXT text, REAL double precision. The baseline and every later migration
 * (server/db/migrate.ts) declare their columns with these, so both engines get the same schema.
 */
import { sql, type CreateTableBuilder } from "kysely";
import { dialect, type Db } from "../query.ts";

/** A column type as Kysely's `addColumn` takes it (its `DataTypeExpression`, not exported by the package). */
type DataTypeExpression = Parameters<CreateTableBuilder<string>["addColumn"]>[1];

/** `{ integer, text, real }` for `db`'s engine, for Kysely's `addColumn(name, type)`. */
export function columnTypes(db: Db): { integer: DataTypeExpression; text: DataTypeExpression; real: DataTypeExpression } {
  return dialect(db) === "postgres" ? { integer: "bigint", text: "text", real: "double precision" } : { integer: sql`INTEGER`, text: sql`TEXT`, real: sql`REAL` };
}

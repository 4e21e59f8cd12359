/**
 * The one keyset pager of every paged list (storefront, enterprise, admin): decode the signed cursor
 * of the previous page (cursor.ts), fetch one row more than the page, and sign the cursor of the next
 * page from the last row shown. Repos fetch; this decides what a page is.
 */
import { decodeCursor, encodeCursor, type CursorKey } from "./cursor.ts";

export type KeysetPageRequest<Row, Key extends CursorKey> = {
  /** The installation secret that signs cursors. */
  secret: string;
  /** What the cursor is valid for: store, scope, order (cursor.ts). A cursor of another context answers 400. */
  context: string;
  /** The raw cursor (`lastEvaluated`, or an admin `after`), or undefined for the first page. */
  cursor: string | undefined;
  /** The type of each element of the sort key, in order. */
  shape: readonly ("string" | "number")[];
  /** Rows per page (≥ 1). */
  limit: number;
  /** Fetch up to `limit + 1` rows after `after` (undefined: from the start), in the listing's order (a repo read: a promise). */
  fetch: (after: Key | undefined, limitPlusOne: number) => Row[] | Promise<Row[]>;
  /** The sort key of a row, as the next page's `after`. */
  keyOf: (row: Row) => Key;
};

export type KeysetPage<Row> = {
  /** At most `limit` rows. */
  rows: Row[];
  /** The signed cursor of the next page (JSON text, not yet URL-encoded), absent on the last page. */
  next?: string;
};

/**
 * One page of a keyset listing. @returns a promise of the page.
 * @throws ApiError 400 `invalid_cursor` (the promise rejects) when the cursor is not JSON, not of `shape`, or not signed for `context`.
 */
export async function keysetPage<Row, Key extends CursorKey>(request: KeysetPageRequest<Row, Key>): Promise<KeysetPage<Row>> {
  const { secret, context, cursor, shape, limit } = request;
  const after = cursor ? (decodeCursor(secret, context, cursor, shape) as Key) : undefined;
  const fetched = await request.fetch(after, limit + 1);
  if (fetched.length <= limit) return { rows: fetched };
  const rows = fetched.slice(0, limit);
  return { rows, next: encodeCursor(secret, context, request.keyOf(rows[rows.length - 1])) };
}

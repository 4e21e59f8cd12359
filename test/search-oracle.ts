/**
 * The search tests' oracle: SQL over alias `r` (a row of `reviews`) that keeps the reviews the search index matches
 * for an FTS5 query (`reviewSearchMatch`, server/reviews/reviews.repo.ts), written against the index itself: SQLite's
 * FTS5 table (migration 084) or PostgreSQL's documents (`to_tsquery`, server/db/text-search.ts `tsqueryOf`).
 */
import { dialect, type Db } from "../server/db/database.ts";
import { tsqueryOf } from "../server/db/text-search.ts";

/** SQL text (to be inlined with `sql.raw`) over alias r: the review matches FTS5 query `match` in `db`'s search index. */
export function searchMatchSql(db: Db, match: string): string {
  return dialect(db) === "postgres"
    ? `r.review_id IN (SELECT review_id FROM review_search WHERE document @@ to_tsquery('chorus_english', '${tsqueryOf(match).replace(/'/g, "''")}'))`
    : `r.rowid IN (SELECT rowid FROM review_search WHERE review_search MATCH '${match.replace(/'/g, "''")}')`;
}

/**
 * What a write makes stale, as the response cache sees it (server/db/content-scopes.ts `contentScopeWatcher`):
 * shared by the content-scope trigger tests on SQLite and on PostgreSQL.
 */
import type { ContentScopeWatcher } from "../server/db/content-scopes.ts";

/** Run `write`, then say which of `scopes` (a name → its content scopes, null for "any") changed since just before it. */
export function staleAfter(watcher: ContentScopeWatcher, write: () => void, scopes: Record<string, string[] | null>): Record<string, boolean> {
  const before = watcher.current();
  write();
  const now = watcher.current();
  return Object.fromEntries(Object.entries(scopes).map(([name, list]) => [name, !watcher.isFresh(before, list, now)]));
}

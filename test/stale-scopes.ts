/**
 * What a write makes stale, as the response cache sees it (server/db/content-scopes.ts `contentScopeWatcher`):
 * shared by the content-scope trigger tests on SQLite and on PostgreSQL.
 */
import type { ContentScopeWatcher } from "../server/db/content-scopes.ts";

/**
 * Run `write` (awaited), then say which of `scopes` (a name → its content scopes, null for "any") changed since just
 * before it. @returns a promise of name → stale.
 */
export async function staleAfter(watcher: ContentScopeWatcher, write: () => unknown, scopes: Record<string, string[] | null>): Promise<Record<string, boolean>> {
  const before = await watcher.current();
  await write();
  const now = await watcher.current();
  return Object.fromEntries(Object.entries(scopes).map(([name, list]) => [name, !watcher.isFresh(before, list, now)]));
}

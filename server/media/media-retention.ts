/**
 * Retention of review media files (issue 19, finding 4; docs/writes.md "Media visibility"). One sweep:
 * 1. items rejected (with their review, or on their own) more than REJECTED_MEDIA_GRACE_MS ago: the rows
 *    are deleted (one transaction per batch), then their folders. The grace period lets a merchant undo
 *    a rejection by mistake (publishing the review again shows its media again) for a week;
 * 2. orphan folders `mediaPath/<store>/<media UUID>/` with no row (a submission whose transaction failed
 *    after its files were written and whose clean-up did not run, a crash, a review deleted by cascade),
 *    older than ORPHAN_GRACE_MS so that a submission writing its files right now is never touched;
 * 3. upload temp files in `mediaPath/.uploads/` older than ORPHAN_GRACE_MS (a request times out after 30 s,
 *    so only a crash leaves one behind).
 * `startMediaSweeper` runs a sweep at start (on the next turn of the event loop) and every SWEEP_INTERVAL_MS,
 * and stops by itself once the database is closed. The clock is injectable (`now`, epoch ms) for tests.
 * MEDIA_PATH belongs to one database: a second database's files in the same folder would look orphaned.
 * The nodes of one database (PostgreSQL) may share it (a shared mount): each node sweeps, a rejected item's
 * files are deleted only by the node whose transaction deleted its row, and deleting an orphan twice is harmless.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { transaction, type Db } from "../db/database.ts";
import type { MediaRepo } from "./media.repo.ts";

const HOUR_MS = 3_600_000;
/** How long files of rejected media stay on disk after the rejection (ms): 7 days. */
export const REJECTED_MEDIA_GRACE_MS = 7 * 24 * HOUR_MS;
/** Age (ms, by modification time) after which a folder without a row, or an upload temp file, is deleted: 1 hour. */
export const ORPHAN_GRACE_MS = HOUR_MS;
/** Time between two sweeps (ms): 1 hour. */
export const SWEEP_INTERVAL_MS = HOUR_MS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BATCH = 500;

export type MediaSweepReport = { rejectedDeleted: number; orphansDeleted: number; tempFilesDeleted: number };
export type MediaSweepDeps = { db: Db; mediaRows: MediaRepo; mediaPath: string; now?: () => number };

const entries = (dir: string) => {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // no such folder yet
  }
};
const olderThan = (path: string, cutoffMs: number) => {
  try {
    return statSync(path).mtimeMs < cutoffMs;
  } catch {
    return false;
  }
};

/** Whether `db` is still open (its SQLite connection, or its PostgreSQL pool not ending). */
const isOpen = (db: Db) => (db.sqlite ? db.sqlite.open : !(db.pool?.ending ?? true));

/** Run one sweep (see the module comment). @returns a promise of how many items, orphan folders and temp files were deleted. */
export async function sweepMedia(deps: MediaSweepDeps): Promise<MediaSweepReport> {
  const now = (deps.now ?? Date.now)();
  const report: MediaSweepReport = { rejectedDeleted: 0, orphansDeleted: 0, tempFilesDeleted: 0 };

  for (;;) {
    const due = await deps.mediaRows.rejectedBefore(now - REJECTED_MEDIA_GRACE_MS, BATCH);
    if (due.length === 0) break;
    // exactly-once: the conditional DELETE (still rejected) deletes a row once; only the node whose transaction
    // deleted it deletes its files.
    const deleted = await transaction(deps.db, async () => {
      const gone: typeof due = [];
      for (const m of due) if (await deps.mediaRows.deleteRejected(m.store_id, m.media_id)) gone.push(m);
      return gone;
    });
    for (const m of deleted) rmSync(join(deps.mediaPath, m.store_id, m.media_id), { recursive: true, force: true });
    report.rejectedDeleted += deleted.length;
    if (due.length < BATCH) break;
  }

  const orphanCutoff = now - ORPHAN_GRACE_MS;
  for (const store of entries(deps.mediaPath)) {
    if (!store.isDirectory() || store.name.startsWith(".")) continue;
    for (const item of entries(join(deps.mediaPath, store.name))) {
      if (!item.isDirectory() || !UUID.test(item.name)) continue;
      const dir = join(deps.mediaPath, store.name, item.name);
      if (!olderThan(dir, orphanCutoff) || (await deps.mediaRows.exists(store.name, item.name))) continue;
      rmSync(dir, { recursive: true, force: true });
      report.orphansDeleted++;
    }
  }

  const uploads = join(deps.mediaPath, ".uploads");
  for (const f of entries(uploads)) {
    const path = join(uploads, f.name);
    if (!f.isFile() || !olderThan(path, orphanCutoff)) continue;
    rmSync(path, { force: true });
    report.tempFilesDeleted++;
  }
  return report;
}

/**
 * Sweep now (asynchronously, on the next turn) and every `intervalMs` (default SWEEP_INTERVAL_MS) until
 * `stop()` or until the database is closed. The timer does not keep the process alive. A failing sweep
 * is logged (`log`, default console.error) and retried at the next interval.
 */
export function startMediaSweeper(deps: MediaSweepDeps & { intervalMs?: number; log?: (line: string) => void }): { stop(): void } {
  const log = deps.log ?? ((line: string) => console.error(line));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const run = async () => {
    if (!isOpen(deps.db)) return stop();
    if (running) return; // a slow sweep is not run twice at once
    running = true;
    try {
      const r = await sweepMedia(deps);
      if (r.rejectedDeleted + r.orphansDeleted + r.tempFilesDeleted > 0) {
        log(`Media sweep: deleted ${r.rejectedDeleted} rejected item(s), ${r.orphansDeleted} orphan folder(s), ${r.tempFilesDeleted} upload temp file(s).`);
      }
    } catch (error) {
      if (isOpen(deps.db)) log(`Media sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running = false;
    }
  };
  const first = setImmediate(() => void run());
  timer = setInterval(() => void run(), deps.intervalMs ?? SWEEP_INTERVAL_MS);
  timer.unref();
  function stop(): void {
    clearImmediate(first);
    if (timer) clearInterval(timer);
    timer = undefined;
  }
  return { stop };
}

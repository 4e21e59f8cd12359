/**
 * What this process knows of the demo import (README "Quick start"): kept in memory, so `/healthz` and the demo
 * pages read it without a query. The node that imports sets it as it goes; another node sets it from the
 * progress the importing node writes to the database (server/demo/demo.ts `startDemoImport`).
 */

/**
 * `importing`: the demo data is still being imported (by this node or another); `done` of `total` review rows of
 * the reviews file are imported (both absent when not known, e.g. a database seeded by an older version).
 */
export type DemoImportProgress = { importing: boolean; done?: number; total?: number };

/** The holder: `current()` is null while no demo import was started in this process (CHORUS_DEMO=0). */
export type DemoImportStatus = { current(): DemoImportProgress | null; set(progress: DemoImportProgress): void };

/** A new holder, empty until the demo import starts. */
export function demoImportStatus(): DemoImportStatus {
  let progress: DemoImportProgress | null = null;
  return {
    current: () => progress,
    set(next) {
      progress = { ...next };
    },
  };
}

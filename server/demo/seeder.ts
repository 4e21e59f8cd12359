/**
 * The shape of a demo seeder: one idempotent step of building the demo store (server/demo/demo.ts runs
 * them in order, once each). Its own module so that areas' seeders (`*.demo.ts`) import the type
 * without importing the file that composes them.
 */
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";

/**
 * What a seeder runs with: the services, the configuration (DEMO_DATA_DIR), a log line writer and
 * `notice`, for what the person starting Chorus must not miss (credentials shown once): `npm start`
 * prints notices after the URLs, as the last lines of its start-up output; without `notice` they go to `log`.
 */
export type DemoContext = {
  services: Services;
  config: Config;
  log: (line: string) => void;
  notice?: (line: string) => void;
  /** The background import's progress (server/demo/demo.ts `startDemoImport`): `done` of `total` review rows of the reviews file. */
  progress?: (p: { done: number; total: number }) => void;
  /** Whether the import was asked to stop (the server stops): no further seeder starts. */
  stopped?: () => boolean;
};
/**
 * One seeder: `name` keys its "done" flag in app_settings (`demo_seeded:<name>`); `run` may be async.
 * `run` returns false when it could not do its work yet (its data file is missing): it is not marked done,
 * and runs again on the next start, when the file may be there.
 */
export type DemoSeeder = { name: string; run: (ctx: DemoContext) => Promise<boolean | void> | boolean | void };

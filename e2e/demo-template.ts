/**
 * The seeded demo store of one e2e run, built once and copied per server (playwright.config.ts `webServer`, one
 * server per worker): `node e2e/demo-template.ts <templateDir> <serverDir>`. The first call builds `<templateDir>`
 * (the SQLite file `chorus.sqlite` and the media folder `media/`: migrations, then every demo seeder, as
 * DEMO_IMPORT=before-listen does at a server's start, README "Quick start"; then the AI queue until it is idle) from the environment the servers get
 * (DEMO_* credentials, DEMO_DATA_DIR); every call then copies it into `<serverDir>`, which it empties first.
 * The server started on the copy finds each seeder done and listens at once.
 *
 * Callers serialise calls with `flock` on one lock file (the servers start at once); the template is built
 * under `<templateDir>.building` and renamed, so a half-built one is never copied. @throws (exit 1) when seeding fails.
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../server/config.ts";
import { DEMO_STORE_ID, ensureDemoStore } from "../server/demo/demo.ts";
import { createServices } from "../server/services.ts";

const [templateDir, serverDir] = process.argv.slice(2).map((p) => resolve(p));
if (!templateDir || !serverDir) {
  console.error("usage: node e2e/demo-template.ts <templateDir> <serverDir>");
  process.exit(2);
}

if (!existsSync(join(templateDir, "chorus.sqlite"))) {
  const started = performance.now();
  const building = `${templateDir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const config = loadConfig({ ...process.env, DATABASE_PATH: join(building, "chorus.sqlite"), MEDIA_PATH: join(building, "media"), DATABASE_URL: undefined });
  const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, rewards: { demoStoreId: DEMO_STORE_ID } });
  await ensureDemoStore({ services, config, log: () => undefined, notice: () => undefined });
  // The AI content each server would otherwise generate after its start (its AI queue, minutes of CPU per server):
  // done once here, so the servers start with an idle queue, as one server had once its queue ran dry.
  const scopes = await services.aiWorker.runUntilIdle();
  // Closing the only connection checkpoints the WAL: the file alone is the whole database.
  await services.close();
  renameSync(building, templateDir);
  console.log(`e2e: demo template seeded (AI content for ${scopes} scopes) in ${Math.round((performance.now() - started) / 1000)} s (${templateDir})`);
}
rmSync(serverDir, { recursive: true, force: true });
cpSync(templateDir, serverDir, { recursive: true });

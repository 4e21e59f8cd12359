/**
 * `npm run build`: the widgets (widgets/vite.config.ts → public/widgets/, and their custom-elements manifest) and the Remix app (`remix vite:build` →
 * build/), quietly: Vite's log level is "warn" and the known harmless Rollup warnings are dropped (`quietWarnings`
 * in widgets/vite.config.ts), so the output is errors and warnings that need a look, then one summary line:
 * `Built widgets (N files) and app in X s`. Exit code 1 when either build fails.
 *
 * Skipped when nothing changed (server/cli/build-inputs.ts): the inputs' SHA-256 equals the one stored beside the
 * last build's output and the outputs are there; the one line is then `Build is up to date (inputs <hash>), skipped`.
 * `--force` builds anyway.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildInputsHash, buildIsCurrent, recordBuildHash } from "./build-inputs.ts";

const root = resolve(import.meta.dirname, "../..");
const started = performance.now();
// Hashed before building: an edit made while the build runs makes the next build run again.
const inputsHash = buildInputsHash(root);
if (!process.argv.includes("--force") && buildIsCurrent(root, inputsHash)) {
  console.log(`Build is up to date (inputs ${inputsHash.slice(0, 12)}), skipped in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
const { build } = await import("vite");
try {
  await build({ root, configFile: join(root, "widgets/vite.config.ts"), logLevel: "warn" });
} catch (error) {
  // Vite logs only "Build failed"; the error itself (file, line, message) is the caller's to print.
  console.error(error instanceof Error ? `error during build:\n${error.stack ?? error.message}` : error);
  process.exit(1);
}
// The custom-elements manifest (public/widgets/custom-elements.json) from the elements' JSDoc.
const manifest = spawnSync(join(root, "node_modules/.bin/cem"), ["analyze", "--config", "custom-elements-manifest.config.mjs", "--quiet"], { cwd: root, stdio: "inherit" });
if (manifest.status !== 0) process.exit(manifest.status ?? 1);
const app = spawnSync(join(root, "node_modules/.bin/remix"), ["vite:build", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
if (app.status !== 0) process.exit(app.status ?? 1);
recordBuildHash(root, inputsHash);
const widgetFiles = readdirSync(join(root, "public/widgets"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
console.log(`Built widgets (${widgetFiles} files) and app in ${((performance.now() - started) / 1000).toFixed(1)} s`);

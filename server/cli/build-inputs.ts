/**
 * Whether `npm run build` may skip (README "Quick start"): a SHA-256 over the build's inputs, stored beside the
 * build output in `build/.inputs-sha256` after a successful build. A later build whose inputs hash the same, with
 * its outputs still there, has nothing to do.
 *
 * The inputs: every file under `app/`, `widgets/` and `server/` (the Remix build bundles server code, the widget
 * build the elements) except tests, and the top-level files that shape either build (package.json, the lock file,
 * the Vite, TypeScript and custom-elements manifest configurations).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Folders whose files are build inputs (relative to the project root). */
export const BUILD_INPUT_DIRS = ["app", "widgets", "server"] as const;
/** Single files that are build inputs. */
export const BUILD_INPUT_FILES = ["package.json", "package-lock.json", "vite.config.ts", "tsconfig.json", "custom-elements-manifest.config.mjs"] as const;
/** Where the hash of the last successful build's inputs is kept (relative to the root). */
export const BUILD_HASH_FILE = "build/.inputs-sha256";
/** Outputs that must exist for a build to count as current (relative to the root). */
export const BUILD_OUTPUTS = ["build/server/index.js", "public/widgets/chorus.js", "public/widgets/custom-elements.json"] as const;

/** Tests and test data do not change what is built. */
const notAnInput = (path: string) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(path) || path.split(sep).includes("node_modules");

/** The input files under `root`, as sorted paths relative to it (with `/` separators). */
export function buildInputFiles(root: string): string[] {
  const files: string[] = [];
  for (const dir of BUILD_INPUT_DIRS) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = relative(root, join(entry.parentPath, entry.name));
      if (!notAnInput(path)) files.push(path.split(sep).join("/"));
    }
  }
  for (const file of BUILD_INPUT_FILES) if (existsSync(join(root, file))) files.push(file);
  return files.sort();
}

/** SHA-256 (hex) over each input's path and content, in path order: a rename, an edit, a new or removed file change it. */
export function buildInputsHash(root: string): string {
  const hash = createHash("sha256");
  for (const file of buildInputFiles(root)) {
    const content = readFileSync(join(root, file));
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex");
}

/** Whether the build under `root` is current: its outputs exist and its stored hash equals `hash` (the inputs' now). */
export function buildIsCurrent(root: string, hash: string): boolean {
  const stored = join(root, BUILD_HASH_FILE);
  if (!existsSync(stored) || BUILD_OUTPUTS.some((output) => !existsSync(join(root, output)))) return false;
  return readFileSync(stored, "utf8").trim() === hash;
}

/** Record `hash` as the inputs of the build just made under `root`. */
export function recordBuildHash(root: string, hash: string): void {
  const stored = join(root, BUILD_HASH_FILE);
  mkdirSync(dirname(stored), { recursive: true });
  writeFileSync(stored, `${hash}\n`);
}

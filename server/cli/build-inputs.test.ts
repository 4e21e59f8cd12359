/**
 * The build skips when nothing changed (issue #39 item 1): the inputs' hash, stored beside the output, against
 * real files in a scratch folder (an edit, a new file, a removed output each make the build due again; a test file
 * does not), and `npm run build`'s script itself, called twice on this tree: the second call skips at once.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config.ts";
import { BUILD_OUTPUTS, buildInputFiles, buildInputsHash, buildIsCurrent, recordBuildHash } from "./build-inputs.ts";

const root = mkdtempSync(join(tmpdir(), "chorus-build-inputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const write = (path: string, content: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
};

describe("build inputs hash", () => {
  it("is current after a recorded build; an input edit, a new input or a missing output makes it due; tests and docs do not", () => {
    write("app/root.tsx", "export default 1;\n");
    write("server/http/main.ts", "main();\n");
    write("widgets/chorus.ts", "define();\n");
    write("package-lock.json", "{}\n");
    for (const output of BUILD_OUTPUTS) write(output, "built\n");
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(false); // never built
    recordBuildHash(root, buildInputsHash(root));
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(true);

    write("server/http/main.test.ts", "test();\n");
    write("docs/api.md", "# API\n");
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(true);
    expect(buildInputFiles(root)).toEqual(["app/root.tsx", "package-lock.json", "server/http/main.ts", "widgets/chorus.ts"]);

    write("server/http/main.ts", "main(2);\n");
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(false);
    recordBuildHash(root, buildInputsHash(root));
    write("widgets/stars/stars.ts", "stars();\n");
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(false);
    recordBuildHash(root, buildInputsHash(root));
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(true);
    rmSync(join(root, "build/server/index.js"));
    expect(buildIsCurrent(root, buildInputsHash(root))).toBe(false);
  });

  it("npm run build's script, called a second time with no change, skips (no build, within seconds)", () => {
    const { VITEST: _v, VITEST_MODE: _m, VITEST_POOL_ID: _p, VITEST_WORKER_ID: _w, NODE_ENV: _n, ...env } = process.env; // as npm runs it, not as a test
    const build = () => spawnSync(process.execPath, ["server/cli/build.ts"], { cwd: PROJECT_ROOT, encoding: "utf8", env: env as NodeJS.ProcessEnv });
    const first = build(); // builds when this tree changed since its last build, else skips already
    expect(first.status, first.stderr).toBe(0);
    const started = performance.now();
    const second = build();
    const ms = performance.now() - started;
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^Build is up to date \(inputs [0-9a-f]{12}\), skipped in \d+\.\d s\n$/);
    expect(second.stderr).toBe("");
    expect(ms).toBeLessThan(10_000);
  }, 600_000);
});

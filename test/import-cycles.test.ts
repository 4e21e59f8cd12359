/**
 * No import cycles in server/, app/ and widgets/ (CONTRIBUTING.md, Layout): a type lives with the module that
 * owns it, and a module that needs a type of a module above it means the type is in the wrong file. Every
 * import, export-from and dynamic import() with a relative or `~/` specifier counts, `import type` too (the
 * TypeScript compiler's own `preProcessFile` reads them); imports of packages do not.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/config.ts";

/** The TypeScript files under `dirs` (absolute paths), without node_modules, build output or declaration files. */
function sourceFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !file.split("/").includes("node_modules"))
      .map((file) => join(dir, file)),
  );
}

/** The file a specifier names from `from`, or null for a package (or a file outside the sources). */
function resolveSpecifier(specifier: string, from: string, root: string): string | null {
  const base = specifier.startsWith("~/") ? join(root, "app", specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(from), specifier) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * The import cycles among `files` (paths relative to `root`): each strongly connected component of the import
 * graph with more than one file, or a file that imports itself (Tarjan's algorithm), its files sorted.
 */
function importCycles(files: string[], root: string): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    edges.set(file, [...new Set(importedFiles.map((ref) => resolveSpecifier(ref.fileName, file, root)).filter((to): to is string => to !== null && known.has(to)))]);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.map((f) => relative(root, f)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe("import cycles", () => {
  it("server/, app/ and widgets/ have none", () => {
    const files = sourceFiles(["server", "app", "widgets"].map((dir) => join(PROJECT_ROOT, dir)));
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(files, PROJECT_ROOT)).toEqual([]);
  });

  it("finds a cycle made by a type-only import, and by an export-from", () => {
    const dir = mkdtempSync(join(tmpdir(), "chorus-cycles-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b.ts";\nexport type A = { b: typeof b };\n');
      writeFileSync(join(dir, "b.ts"), 'import type { A } from "./a.ts";\nexport const b: A | null = null;\n');
      writeFileSync(join(dir, "c.ts"), 'export { d } from "./d";\nexport const c = 1;\n');
      writeFileSync(join(dir, "d.ts"), 'import { c } from "./c.ts";\nexport const d = c;\n');
      writeFileSync(join(dir, "e.ts"), 'import { z } from "zod";\nimport { c } from "./c.ts";\nexport const e = [z, c];\n');
      expect(importCycles(sourceFiles([dir]), dir)).toEqual(
        expect.arrayContaining([
          ["a.ts", "b.ts"],
          ["c.ts", "d.ts"],
        ]),
      );
      expect(importCycles(sourceFiles([dir]), dir)).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

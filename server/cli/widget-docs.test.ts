/**
 * docs/widgets.md's reference tables cannot drift from the elements' JSDoc (server/cli/widget-docs.ts): the manifest
 * is generated afresh (`cem analyze`, custom-elements-manifest.config.mjs) into a temporary folder, and the file must
 * equal what `npm run docs:widgets` writes from it; every registered tag has its tables; every `part` in an
 * element's templates is one of its documented `@csspart`s and every documented part is one.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config.ts";
import { WIDGET_TAGS } from "../../widgets/internal/registry.ts";
import { documentedTags, elementOf, withTables, type Manifest } from "./widget-docs.ts";
import { elementSource, partNames } from "../../test/widget-sources.ts";

let dir: string;
let manifest: Manifest;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chorus-cem-"));
  execFileSync(join(PROJECT_ROOT, "node_modules/.bin/cem"), ["analyze", "--config", "custom-elements-manifest.config.mjs", "--quiet", "--outdir", relative(PROJECT_ROOT, dir)], {
    cwd: PROJECT_ROOT,
    stdio: "pipe",
  });
  manifest = JSON.parse(readFileSync(join(dir, "custom-elements.json"), "utf8")) as Manifest;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/widgets.md from the custom-elements manifest", () => {
  it("equals what npm run docs:widgets writes", () => {
    const docs = readFileSync(join(PROJECT_ROOT, "docs/widgets.md"), "utf8");
    expect(withTables(docs, manifest), "docs/widgets.md differs from the elements' JSDoc: run npm run docs:widgets").toBe(docs);
  });

  it("has the tables of every registered element and the common ones", () => {
    const docs = readFileSync(join(PROJECT_ROOT, "docs/widgets.md"), "utf8");
    expect(documentedTags(docs).sort()).toEqual(["common", ...WIDGET_TAGS].sort());
  });

  it("changes a table when the manifest changes (a part added to the JSDoc shows up)", () => {
    const docs = readFileSync(join(PROJECT_ROOT, "docs/widgets.md"), "utf8");
    const changed = structuredClone(manifest);
    elementOf(changed, "chorus-star-rating")!.cssParts!.push({ name: "sparkle", description: "a new part" });
    expect(withTables(docs, changed)).toContain("| `sparkle` | a new part |");
    expect(() => withTables("<!-- custom-elements:start chorus-gone -->\n<!-- custom-elements:end chorus-gone -->", manifest)).toThrow(/chorus-gone/);
  });

  it.each(WIDGET_TAGS)("%s documents exactly the parts its templates have", (tag) => {
    const documented = (elementOf(manifest, tag)?.cssParts ?? []).map((p) => p.name);
    const inSource = partNames(elementSource(tag));
    for (const part of inSource) expect(documented, `part "${part}" of ${tag} has no @csspart`).toContain(part);
    // `stars` comes from the shared star icons (widgets/internal/stars.ts), `chip` from a computed part list.
    const shared = new Set(["stars", "chip"]);
    for (const part of documented) if (!shared.has(part)) expect(inSource, `@csspart ${part} of ${tag} is in no template`).toContain(part);
  });
});

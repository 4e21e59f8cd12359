/**
 * The project cites only itself. The public OpenAPI documents, and every tracked text file (docs, README,
 * code comments, SQL, tests), name no file outside the repository: no contract notes, no section signs
 * pointing at them. Every `docs/….md` citation and every relative Markdown link names a file that exists, and
 * a cited section ("docs/api.md, Errors" or docs/api.md "Errors") is a heading of that file.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server.ts";

const ROOT = resolve(import.meta.dirname, "..");
const SELF = "test/citations.test.ts";
const SECTION_SIGN = "\u00a7";
/** What points outside the repository: the contract notes, a section sign, the shared spec folder. */
const OUTSIDE_IN_FILES = new RegExp(["decisions\\.md", "interface\\.md", SECTION_SIGN, "shared/spec"].join("|"));
const OUTSIDE_IN_OPENAPI = new RegExp(["decisions\\.md", "interface\\.md", SECTION_SIGN, "shared/"].join("|"));

/** Tracked text files (a NUL byte marks a binary file), with their text. */
function trackedTextFiles(): { path: string; text: string }[] {
  const paths = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
    .filter(Boolean);
  const files: { path: string; text: string }[] = [];
  for (const path of paths) {
    const full = join(ROOT, path);
    if (!existsSync(full) || !statSync(full).isFile()) continue;
    const bytes = readFileSync(full);
    if (bytes.includes(0)) continue;
    files.push({ path, text: bytes.toString("utf8") });
  }
  return files;
}

const files = trackedTextFiles();
const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/** Every string of a JSON value, keys included, with its JSON path. */
function* strings(value: unknown, path = "$"): Generator<[string, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, `${path}[${i}]`);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      yield [`${path} (key)`, k];
      yield* strings(v, `${path}.${k}`);
    }
  }
}

/**
 * The headings of a Markdown file, as written (backticks removed) and up to " (" or ":" (short names), and the
 * bold labels that open a paragraph or list item (`- **Review form attributes.** …`).
 */
const headingCache = new Map<string, Set<string>>();
function headings(path: string): Set<string> {
  let names = headingCache.get(path);
  if (!names) {
    names = new Set();
    let fenced = false;
    for (const line of readFileSync(join(ROOT, path), "utf8").split("\n")) {
      if (line.startsWith("```")) fenced = !fenced;
      const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
      const label = !fenced && /^\s*(?:[-*]\s+)?\*\*([^*\n]+?)\.?\*\*/.exec(line);
      if (label) names.add(label[1].replaceAll("`", ""));
      if (!m) continue;
      const full = m[1].replaceAll("`", "");
      names.add(full);
      names.add(full.split(" (")[0].trim());
      names.add(full.split(":")[0].trim());
    }
    headingCache.set(path, names);
  }
  return names;
}

/**
 * Does `rest` (the text right after a citation's ", ") start with a heading of `doc`, whole words? With
 * `quoted` (the whole quoted name), the name may also be the first words of a heading ("Retention" for
 * "Retention and erasure").
 */
function startsWithHeading(doc: string, rest: string, quoted = false): boolean {
  const wordAt = (text: string, i: number) => /^[\p{L}\p{N}]/u.test(text.slice(i));
  for (const h of headings(doc)) {
    if (h && rest.startsWith(h) && !wordAt(rest, h.length)) return true;
    if (quoted && rest && h.startsWith(rest) && !wordAt(h, rest.length)) return true;
  }
  return false;
}

describe("no file outside the repository is cited", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(["/v1/openapi.json", "/enterprise/openapi.json", "/platforms/openapi.json"])("%s names nothing outside the repository", async (url) => {
    const res = await fetch(t.url(url));
    expect(res.status).toBe(200);
    const found = [...strings(await res.json())].filter(([, s]) => OUTSIDE_IN_OPENAPI.test(s)).map(([p, s]) => `${p}: ${s}`);
    expect(found).toEqual([]);
  });

  it("no tracked file mentions the contract notes, a section sign or the shared spec folder", () => {
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const { path, text } of files) {
      if (path === SELF) continue;
      text.split("\n").forEach((line, i) => {
        if (OUTSIDE_IN_FILES.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});

describe("citations of the project's docs resolve", () => {
  it("every docs/….md citation names a file that exists, and a cited section is one of its headings", () => {
    const missing: string[] = [];
    let checkedSections = 0;
    for (const { path, text } of files) {
      if (path === SELF) continue; // its comments name example citations
      for (const m of text.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md\b/g)) {
        const doc = m[0];
        const where = `${path}:${lineOf(text, m.index)}`;
        if (!existsSync(join(ROOT, doc))) {
          missing.push(`${where}: ${doc} does not exist`);
          continue;
        }
        const after = text.slice(m.index + doc.length, m.index + doc.length + 200);
        // docs/x.md "Section" or docs/x.md, "Section": the quoted text is a heading.
        const quoted = /^,?\s"([^"\n]+)"/.exec(after);
        if (quoted) {
          checkedSections++;
          if (!startsWithHeading(doc, quoted[1].replaceAll("`", ""), true)) missing.push(`${where}: ${doc} has no heading "${quoted[1]}"`);
          continue;
        }
        // docs/x.md, Section: a capitalised word after the comma starts a heading.
        const plain = /^,(?:[ \t]+|[ \t]*\n[ \t]*(?:\*|\/\/|--)?[ \t]*)([A-Z][^\n]*)/.exec(after);
        if (plain) {
          checkedSections++;
          if (!startsWithHeading(doc, plain[1])) missing.push(`${where}: ${doc} has no heading starting "${plain[1].slice(0, 40)}"`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checkedSections).toBeGreaterThan(100);
  });

  it("every relative Markdown link to a .md file in a tracked Markdown file resolves", () => {
    const missing: string[] = [];
    for (const { path, text } of files) {
      if (!path.endsWith(".md")) continue;
      for (const m of text.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)]*)?\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue;
        const full = normalize(join(ROOT, dirname(path), target));
        if (!existsSync(full)) missing.push(`${path}:${lineOf(text, m.index)}: ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

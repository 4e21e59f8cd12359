/**
 * What an element's own source says about its contract, read from the files (tests of the custom-elements manifest,
 * docs/widgets.md "Common attributes and shared tokens"): the `part` names in its templates, the events it emits and
 * the page's `--chorus-*` custom properties its styles read. Sources: `widgets/<name>/chorus-<name>*.ts`, tests left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../server/config.ts";

/** The source text of element `tag` (its module and style modules). */
export function elementSource(tag: string): string {
  const dir = join(PROJECT_ROOT, "widgets", tag.slice("chorus-".length));
  return readdirSync(dir)
    .filter((f) => f.startsWith(tag) && f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
}

/** Every static name in a `part="..."` / `part=name` attribute of `source` (interpolations left out). */
export function partNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\bpart=(?:"([^"]*)"|'([^']*)'|([\w-]+))/g)) {
    for (const token of (m[1] ?? m[2] ?? m[3] ?? "").replace(/\$\{[^}]*\}/g, " ").split(/\s+/)) if (/^[a-z][\w-]*$/.test(token)) names.add(token);
  }
  return [...names].sort();
}

/** The event names `source` emits (`this.emit("chorus-…", detail)`). */
export const emittedEvents = (source: string): string[] => [...new Set([...source.matchAll(/\.emit\("([\w-]+)"/g)].map((m) => m[1]!))].sort();

/** The page's custom properties of element `tag` that `source` reads (`var(--chorus-<name>…`): the element's own, not the shared tokens. */
export const ownCustomProperties = (tag: string, source: string): string[] => [...new Set([...source.matchAll(new RegExp(`var\\((--${tag}-[\\w-]+)`, "g"))].map((m) => m[1]!))].sort();

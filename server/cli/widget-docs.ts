/**
 * `npm run docs:widgets`: writes docs/widgets.md's reference tables of every element (attributes and their
 * properties, events, CSS parts, CSS custom properties) from the custom-elements manifest
 * (public/widgets/custom-elements.json, written by `cem analyze` from each element class's JSDoc:
 * custom-elements-manifest.config.mjs). The tables of element `chorus-x` go between
 * `<!-- custom-elements:start chorus-x -->` and `<!-- custom-elements:end chorus-x -->`; the common attributes and
 * the shared tokens (widgets/internal/chorus-element.ts, inherited by every element) between the markers named
 * `common`. Anything outside the markers is left as written. `--check` writes nothing and exits 1 when the file
 * differs from what it would write (docs/widgets.md, the tables between its custom-elements markers).
 *
 * Usage: `node server/cli/widget-docs.ts [--check] [manifest.json]`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/** The parts of a custom-elements manifest (schema 1.0.0) the tables read. */
export type Manifest = { modules: { path: string; declarations?: Declaration[] }[] };
type Inherited = { inheritedFrom?: { name: string } };
type Described = { name: string; description?: string; default?: string; type?: { text: string } } & Inherited;
export type Declaration = {
  kind: string;
  name: string;
  tagName?: string;
  summary?: string;
  attributes?: (Described & { fieldName?: string })[];
  members?: (Described & { kind: string; attribute?: string; privacy?: string; static?: boolean })[];
  events?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
  slots?: Described[];
};

/** The base class every element extends: its attributes and custom properties are the common ones. */
const BASE = "ChorusElement";
/** The marker name of the common attributes and shared tokens. */
const COMMON = "common";

const classes = (manifest: Manifest): Declaration[] => manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.kind === "class");

/** The declaration of element `tag`, or undefined. */
export function elementOf(manifest: Manifest, tag: string): Declaration | undefined {
  return classes(manifest).find((d) => d.tagName === tag);
}

/** A table cell: one line, `|` escaped. */
const cell = (text: string | undefined): string =>
  (text ?? "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
const code = (text: string | undefined): string => (text ? `\`${cell(text)}\`` : "");

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

/** Whether `item` is the base class's own entry, unchanged (the element neither re-declared nor re-described it). */
function isCommon(item: Described, base: Described[] | undefined): boolean {
  const own = base?.find((b) => b.name === item.name);
  return Boolean(item.inheritedFrom && own && own.description === item.description);
}

/** The Markdown tables of one declaration (`common`: all its entries; an element: its own, the common ones in one row). */
export function tablesOf(element: Declaration, base: Declaration | undefined, common = false): string {
  const out: string[] = [];
  const attributes = element.attributes ?? [];
  const ownAttributes = common ? attributes : attributes.filter((a) => !isCommon(a, base?.attributes));
  const members = new Map((element.members ?? []).map((m) => [m.name, m]));
  if (attributes.length) {
    const rows = ownAttributes.map((a) => {
      const member = a.fieldName ? members.get(a.fieldName) : undefined;
      return [code(a.name), code(a.fieldName), code(a.type?.text ?? member?.type?.text), code(a.default ?? member?.default), cell(a.description)];
    });
    const inherited = attributes.length - ownAttributes.length;
    if (inherited)
      rows.push([
        "common",
        "",
        "",
        "",
        attributes
          .filter((a) => !ownAttributes.includes(a))
          .map((a) => code(a.name))
          .join(", "),
      ]);
    out.push(`Attributes, with the property each one sets:\n\n${table(["Attribute", "Property", "Type", "Default", "Meaning"], rows)}`);
  }
  const attributeFields = new Set(attributes.map((a) => a.fieldName));
  const properties = (element.members ?? []).filter((m) => m.kind === "field" && !m.static && m.privacy !== "private" && !attributeFields.has(m.name));
  if (properties.length) {
    out.push(
      `Properties:\n\n${table(
        ["Property", "Type", "Default", "Meaning"],
        properties.map((p) => [code(p.name), code(p.type?.text), code(p.default), cell(p.description)]),
      )}`,
    );
  }
  if (element.events?.length) {
    out.push(
      `Events (bubbling, composed \`CustomEvent\`s):\n\n${table(
        ["Event", "Detail and when"],
        element.events.map((e) => [code(e.name), cell(e.description)]),
      )}`,
    );
  }
  if (element.slots?.length) {
    out.push(
      `Slots:\n\n${table(
        ["Slot", "Content"],
        element.slots.map((s) => [s.name ? code(s.name) : "(default)", cell(s.description)]),
      )}`,
    );
  }
  if (element.cssParts?.length) {
    out.push(
      `CSS parts (\`${element.tagName ?? "chorus-…"}::part(name)\`):\n\n${table(
        ["Part", "What it is"],
        element.cssParts.map((p) => [code(p.name), cell(p.description)]),
      )}`,
    );
  }
  const props = element.cssProperties ?? [];
  const ownProps = common ? props : props.filter((p) => !isCommon(p, base?.cssProperties));
  if (props.length) {
    const rows = ownProps.map((p) => [code(p.name), cell(p.default), cell(p.description)]);
    if (!common && ownProps.length < props.length) rows.push(["the shared tokens", "", "see “Common attributes and shared tokens”"]);
    out.push(`CSS custom properties:\n\n${table(["Custom property", "Default", "Used for"], rows)}`);
  }
  return out.join("\n\n");
}

/**
 * `markdown` with the tables between each pair of markers rewritten from `manifest`. Throws when a marker names an
 * element the manifest does not have (a renamed tag) or a start marker has no end.
 */
export function withTables(markdown: string, manifest: Manifest): string {
  const base = classes(manifest).find((d) => d.name === BASE);
  return markdown.replace(/<!-- custom-elements:start ([\w-]+) -->\n([\s\S]*?)<!-- custom-elements:end ([\w-]+) -->/g, (_all, name: string, _old, end: string) => {
    if (end !== name) throw new Error(`docs: the tables of ${name} end with the marker of ${end}`);
    const element = name === COMMON ? base : elementOf(manifest, name);
    if (!element) throw new Error(`docs: the manifest has no element ${name}`);
    return `<!-- custom-elements:start ${name} -->\n${tablesOf(element, base, name === COMMON)}\n<!-- custom-elements:end ${name} -->`;
  });
}

/** The element names that have markers in `markdown`. */
export const documentedTags = (markdown: string): string[] => [...markdown.matchAll(/<!-- custom-elements:start ([\w-]+) -->/g)].map((m) => m[1]!);

if (import.meta.main) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const manifestPath = resolve(args.find((a) => !a.startsWith("--")) ?? "public/widgets/custom-elements.json");
  const docsPath = resolve(import.meta.dirname, "../../docs/widgets.md");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  const before = readFileSync(docsPath, "utf8");
  const after = withTables(before, manifest);
  if (check) {
    if (after !== before) {
      console.error("docs/widgets.md differs from the manifest's tables: run npm run docs:widgets");
      process.exit(1);
    }
  } else if (after !== before) writeFileSync(docsPath, after);
}

/**
 * Widget build: `widgets/index.ts` → public/widgets/chorus.js, a tiny classic-script loader, plus one
 * ES module per element (`chorus-reviews.js`, ...) that the loader imports only when that element is
 * on the page. Shared code (Lit) lands in hashed chunks. Entries stay minified (generateBundle hook, terser);
 * the HTML/CSS inside Lit templates is minified first (@literals/rollup-plugin-html-css-minifier).
 */
import { defineConfig, type Plugin, type Rollup } from "vite";
import { init as lexerReady, parse as lexModule } from "es-module-lexer";
import { parse as parseJs } from "acorn";
import { createHash } from "node:crypto";
import { comboSource, type ComboManifest, type ComboModule } from "../server/widgets/combo.ts";
import { minify } from "terser";
import { readFileSync } from "node:fs";
import { posix, resolve } from "node:path";
import ts from "typescript";
import { literalsHtmlCssMinifier } from "@literals/rollup-plugin-html-css-minifier";
import { reservationCss, WIDGET_TAGS, widgetModulePath } from "./internal/registry.ts";
import { WIDGET_RESERVATIONS } from "../server/contract/widget-reservations.ts";
import { SHARED_GROUP, TRANSLATIONS, textGroups, WITHOUT_SHARED } from "../server/contract/widget-translations.ts";
import * as STRINGS from "../server/contract/widget-strings.ts";
import { englishTextTable, TEXT_GROUPS } from "../server/contract/widget-strings.ts";
import { REVIEW_TEXT_LOCALES } from "../server/contract/review-locales.ts";
import { LANG_TAG, partOf, textGroupOf, type UiLocale } from "../server/contract/widget-locales.ts";

const root = resolve(import.meta.dirname);

/**
 * Terser on Rollup's output (esbuild's minification before it made no difference after gzip): three passes, functions
 * that use no `this` as arrows, no comments (Lit's license notices go to THIRD-PARTY-LICENSES.txt instead, see
 * `licenses`). Not `pure_getters`: chorus-element.ts reads `styleSheet` for its side effect.
 */
export const TERSER = { module: true, ecma: 2020, compress: { passes: 3, unsafe_arrows: true }, format: { comments: false } } as const;

/**
 * Lit's messages for misuse the widgets never make (a `css` value that is not a css result, a CSSResult built by
 * hand, template strings that are not a template literal's) as short ones, and without the version lists it
 * appends to (`litHtmlVersions`, ...; only Lit's development build reads them): ~0.2 KB less in the shared chunk.
 */
const LIT_MESSAGES: [RegExp, string][] = [
  [/"CSSResult is not constructable\. Use `unsafeCSS` or `css` instead\."/, '"CSSResult"'],
  [/"Value passed to 'css' function must be a 'css' function result: "\+(\w+)\+"\. Use 'unsafeCSS' to pass non-literal values, but take care to ensure page security\."/, '"css: "+$1'],
  [/"invalid template strings array"/, '"strings"'],
  [/,?\(\w+\.(litHtml|reactiveElement|litElement)Versions\?\?=\[\]\)\.push\("[\d.]+"\);?/, ";"],
];
/**
 * Lit's code paths the widgets never take, left out at build time (#23 weight, ADR 0014), each by file; the build
 * fails when one is not found (a Lit upgrade must be looked at again):
 * - the hooks for Lit's polyfill-support modules and for hydration by `@lit-labs/ssr-client` (the widgets load
 *   neither; a server-rendered snippet's shadow root is replaced by the first client render, chorus-element.ts);
 * - standard-decorator metadata (`Symbol.metadata`, `litPropertyMetadata`) and `addInitializer`: the widgets
 *   declare properties in `static properties` tables and through Lit's legacy decorators (widgets/internal/lit-decorators.ts);
 * - reactive controllers (`addController` and the `host*` callbacks): no widget adds one.
 */
const LIT_UNUSED: Record<string, [RegExp, string][]> = {
  "reactive-element": [
    [/,(\w+)=\w+\.reactiveElementPolyfillSupport(,[^;]*;[\s\S]*?),\1\?\.\(\{ReactiveElement:\w+\}\)/, "$2"],
    [/Symbol\.metadata\?\?=Symbol\("metadata"\),\w+\.litPropertyMetadata\?\?=new WeakMap;/, ""],
    [/const (\w+)=this\[Symbol\.metadata\];if\(null!==\1\)\{const (\w+)=litPropertyMetadata\.get\(\1\);if\(void 0!==\2\)for\(const\[\w+,\w+\]of \2\)this\.elementProperties\.set\(\w+,\w+\)\}/, ""],
    [/static addInitializer\(\w+\)\{this\._\$Ei\(\),\(this\.l\?\?=\[\]\)\.push\(\w+\)\}/, ""],
    [/void 0!==(\w+)\.l&&\(this\.l=\[\.\.\.\1\.l\]\),/, ""],
    [/,this\.constructor\.l\?\.forEach\(\w+=>\w+\(this\)\)/, ""],
    [/addController\(\w+\)\{[^}]*\}removeController\(\w+\)\{this\._\$EO\?\.delete\(\w+\)\}/, ""],
    [/,this\._\$EO\?\.forEach\(\w+=>\w+\.hostConnected\?\.\(\)\)/, ""],
    [/this\._\$EO\?\.forEach\(\w+=>\w+\.hostDisconnected\?\.\(\)\)/, ""],
    [/this\._\$EO\?\.forEach\(\w+=>\w+\.hostUpdate\?\.\(\)\),/, ""],
    [/this\._\$EO\?\.forEach\(\w+=>\w+\.hostUpdated\?\.\(\)\),/, ""],
  ],
  "lit-html": [[/,(\w+)=\w+\.litHtmlPolyfillSupport;\1\?\.\(\w+,\w+\)/, ""]],
  "lit-element": [[/,\w+\.litElementHydrateSupport\?\.\(\{LitElement:\w+\}\);const (\w+)=\w+\.litElementPolyfillSupport;\1\?\.\(\{LitElement:\w+\}\);/, ";"]],
};
export const litMessages: Plugin = {
  name: "chorus-lit-messages",
  transform(code, id) {
    const file = /\/node_modules\/(?:@lit\/reactive-element\/(css-tag|reactive-element)|lit-html\/(lit-html)|lit-element\/(lit-element))\.js$/.exec(id);
    if (!file) return null;
    let out = code;
    for (const [from, to] of LIT_MESSAGES) out = out.replace(from, to);
    for (const [from, to] of LIT_UNUSED[file[1] ?? file[2] ?? file[3]!] ?? []) {
      if (!from.test(out)) throw new Error(`chorus-lit-messages: ${from} not found in ${id}`);
      out = out.replace(from, to);
    }
    return { code: out, map: null };
  },
};

/**
 * A literal text ID of the element's own group in an element module (`this.t("reviews.retry")`, also in a
 * conditional or a table of IDs) as its index in the element's English table (`static defaults`), which
 * `ChorusElement.t` reads back (#23 weight, ADR 0014: about 0.25 KB gzip over all widgets); a plural phrase's ID
 * (`plural("reviews.shown", n)`) as the index of its `.one` text, which `ChorusElement.plural` reads back. The table
 * keeps its IDs (a merchant's texts arrive by ID); IDs of other groups stay strings. The sources, tests and the
 * server renderer keep the IDs.
 */
export const textIndexes: Plugin = {
  name: "chorus-text-indexes",
  enforce: "pre",
  transform(code, id) {
    const name = /\/widgets\/[\w-]+\/chorus-[\w-]+\.ts$/.test(id) ? /static defaults = (\w+);/.exec(code)?.[1] : undefined;
    if (!name) return null;
    const table = (STRINGS as Record<string, unknown>)[name];
    if (!table || typeof table !== "object") throw new Error(`chorus-text-indexes: no table ${name} for ${id}`);
    const ids = Object.keys(table);
    const both = ids.find((textId) => ids.includes(`${textId}.one`));
    if (both) throw new Error(`chorus-text-indexes: ${both} is both a text and a plural phrase in ${name}`);
    const index = (textId: string) => (ids.includes(textId) ? ids.indexOf(textId) : ids.indexOf(`${textId}.one`));
    return { code: code.replace(/"([a-zA-Z]+\.[\w.]+)"/g, (literal, textId: string) => (index(textId) >= 0 ? String(index(textId)) : literal)), map: null };
  },
};

/**
 * The review-translation codes (server/contract/review-locales.ts, read by `<chorus-reviews>`) as one string of the
 * distinct codes, split at run time, instead of the two providers' lists and their union (#23 weight, ADR 0014).
 */
export const reviewLocales: Plugin = {
  name: "chorus-review-locales",
  enforce: "pre",
  transform(code, id) {
    if (!id.endsWith("/server/contract/review-locales.ts")) return null;
    const lists = /export const REVIEW_TEXT_LOCALES_A = [\s\S]*?\nexport const REVIEW_TEXT_LOCALES: readonly string\[\] = [^\n]*\n/;
    if (!lists.test(code)) throw new Error(`chorus-review-locales: the lists were not found in ${id}`);
    return { code: code.replace(lists, `export const REVIEW_TEXT_LOCALES: readonly string[] = ${JSON.stringify([...REVIEW_TEXT_LOCALES].sort().join(" "))}.split(" ");\n`), map: null };
  },
};

/**
 * The private custom properties of the widgets' styles (`--_text`, `--_radius`, ...: widgets/internal/tokens.ts
 * and the elements' own, never set by a page) renamed to `--_0`, `--_1`, ... the same in every file (#23 weight,
 * ADR 0014): about 0.2 KB gzip over all widgets. The page's `--chorus-*` properties keep their names.
 */
function shortCustomProperties(codes: string[]): (code: string) => string {
  const names = [...new Set(codes.flatMap((code) => code.match(/--_[\w-]+/g) ?? []))].sort();
  const short = new Map(names.map((name, i) => [name, `--_${i.toString(36)}`]));
  return (code) => code.replace(/--_[\w-]+/g, (name) => short.get(name)!);
}

/** What terser's AST gives here (terser has no types for it): a symbol's definition, its scope chain, a mapping. */
type TerserDef = { name: string; mangled_name?: string; references: { scope?: TerserScope }[]; orig: { scope?: TerserScope }[] };
type TerserScope = { variables: Map<string, TerserDef>; parent_scope?: TerserScope };
type TerserMapping = { name: { thedef?: TerserDef }; foreign_name: { name: string } };

/**
 * Terser, then each imported or exported binding named like its import or export where no other name in reach is
 * (`import{C}from"./x.js"` instead of `import{C as t}from"./x.js"`, `export{C}` instead of `export{Lt as C}`): the
 * chunks' export names are already single letters, so each `X as Y` only repeats a random pair, once per element
 * file (#23 weight, ADR 0014: −87 B gzip over all widgets; most exports keep terser's names, as the single letters are
 * taken in the chunk's top-level scope). A binding keeps terser's name when the new one is in use in a scope it is
 * referenced from, is a global, or is already taken. (Reserving the imported names in terser's mangler, so that all
 * of them are free, made the files 21 bytes larger: the locals' names repeat less.)
 */
export async function minifyModule(source: string): Promise<string> {
  // `format.ast` (terser keeps its AST in the answer) is not in terser's types.
  const out = await minify(source, { ...TERSER, format: { ...TERSER.format, ast: true, code: true } as typeof TERSER.format });
  const ast = (out as { ast?: unknown }).ast as { body: { TYPE: string; module_name?: unknown; imported_names?: TerserMapping[]; exported_names?: TerserMapping[] }[]; globals?: Map<string, unknown>; print_to_string(options: object): string };
  const taken = new Set<string>();
  const free = (def: TerserDef, name: string) =>
    !taken.has(name) && !ast.globals?.has(name) &&
    [...def.references, ...def.orig].every((symbol) => {
      for (let scope = symbol.scope; scope; scope = scope.parent_scope) {
        for (const other of scope.variables.values()) if (other !== def && (other.mangled_name ?? other.name) === name) return false;
      }
      return true;
    });
  // Twice: a name freed by the first pass (a binding renamed away from it) can be taken in the second.
  for (let pass = 0; pass < 2; pass++) {
    for (const statement of ast.body) {
      const mappings = statement.TYPE === "Import" ? statement.imported_names : statement.TYPE === "Export" && !statement.module_name ? statement.exported_names : undefined;
      for (const { name, foreign_name } of mappings ?? []) {
        const def = name.thedef;
        if (!def || (def.mangled_name ?? def.name) === foreign_name.name || !free(def, foreign_name.name)) continue;
        taken.add(foreign_name.name);
        def.mangled_name = foreign_name.name;
      }
    }
  }
  return ast.print_to_string({ ...TERSER.format, ecma: TERSER.ecma });
}

/** Minify every output file with terser (a little smaller than esbuild's output, after gzip). */
const minifyEs: Plugin = {
  name: "chorus-minify-es",
  async generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
    const rename = shortCustomProperties(chunks.map((file) => file.code));
    for (const file of chunks) {
      // Vite wraps import() in its preload helper even with modulePreload off: a plain import() (nothing to preload).
      const source = file.code.replace(/__vitePreload\(\(\) => (import\("[^"]+"\)), [^)]*\)/g, "$1");
      const code = rename(await minifyModule(source));
      // The loader runs as a classic script: keep its (mangled) top-level names out of the page's global scope.
      file.code = file.isEntry && file.name === "chorus" ? `(()=>{${code}})();` : code;
    }
  },
};

/** The widgets' text tables by their IDs in order (`<group>` of their first ID; `common` for the shared texts): how a built module's tables are found. */
const TABLES = new Map(TEXT_GROUPS.map((g) => [Object.keys(g.texts).join("\n"), textGroupOf(Object.keys(g.texts)[0]!)]));

/**
 * What the combo manifest needs from acorn's tree of a built module: its top-level `let`/`var` bindings that are
 * assigned to somewhere (`x=`, `x+=`, `x++`; by name, so an inner variable of the same name counts too), and where
 * its text tables are (object literals whose keys are exactly a table's IDs in order) as `[start, end, group]`.
 */
export function analyse(code: string): { reassigned: Set<string>; tables: [number, number, string][] } {
  const assigned = new Set<string>();
  const tables: [number, number, string][] = [];
  type Node = { type?: string; start: number; end: number; left?: Node; argument?: Node; name?: string; properties?: { type: string; key?: { type: string; value?: unknown; name?: string } }[] };
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as Node;
    const target = n.type === "AssignmentExpression" ? n.left : n.type === "UpdateExpression" ? n.argument : undefined;
    if (target?.type === "Identifier") assigned.add(target.name!);
    if (n.type === "ObjectExpression" && n.properties?.length) {
      const keys = n.properties.map((p) => (p.type === "Property" ? (p.key?.type === "Literal" ? String(p.key.value) : p.key?.name) : "\0"));
      const group = TABLES.get(keys.join("\n"));
      if (group) return void tables.push([n.start, n.end, group]);
    }
    for (const value of Object.values(node)) if (value && typeof value === "object") visit(value);
  };
  const program = parseJs(code, { ecmaVersion: "latest", sourceType: "module" }) as unknown as { body: { type: string; kind?: string; declarations?: { id: { type: string; name?: string } }[] }[] };
  visit(program);
  const variables = program.body.flatMap((s) => (s.type === "VariableDeclaration" && s.kind !== "const" ? (s.declarations ?? []).map((d) => d.id.name ?? "") : []));
  return { reassigned: new Set(variables.filter((name) => assigned.has(name))), tables };
}

/**
 * `combo.json` for the server's combined modules (server/widgets/combo.ts, ADR 0016): every built module but the
 * loader as a body without its import and export statements, its static imports' names and its exports (an element
 * module's exports are left out: nothing imports them), and each element module's `import()` of another element
 * module as `__chorusLoad("<tag>")`, which the loader provides (so an element opened later is requested through the
 * loader, never loaded twice), and each text table as `\u0000<group>\u0000`, which the server fills in the page's
 * language (server/widgets/combo.ts `textsTable`). The version (a hash over the modules) is written into the loader. The build fails on
 * a form the server cannot combine (a default or namespace import, `import.meta` outside chunks/, another
 * `import()`, an exported top-level `let`/`var` that is assigned to), and when the combo of all elements is not
 * valid JavaScript.
 */
const comboManifest: Plugin = {
  name: "chorus-combo-manifest",
  async generateBundle(_options, bundle) {
    await lexerReady;
    const loader = bundle["chorus.js"];
    if (loader?.type !== "chunk") throw new Error("chorus-combo-manifest: no loader");
    const files = (Object.values(bundle).filter((file) => file.type === "chunk" && file !== loader) as Rollup.OutputChunk[]).sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
    const entries = new Map(files.filter((f) => f.isEntry).map((f) => [f.fileName, f.name]));
    const version = createHash("sha256").update(files.map((f) => `${f.fileName}\0${f.code}`).join("\0")).digest("base64url").slice(0, 8);
    const modules: Record<string, ComboModule> = {};
    files.forEach((f, index) => {
      const fail = (why: string) => { throw new Error(`chorus-combo-manifest: ${f.fileName}: ${why}`); };
      const [imports, exports] = lexModule(f.code);
      const resolveFile = (specifier: string) => posix.normalize(posix.join(posix.dirname(f.fileName), specifier));
      const cuts: [number, number, string][] = [];
      const statics: ComboModule["imports"] = [];
      for (const i of imports) {
        if (i.d === -2) {
          if (!f.fileName.startsWith("chunks/")) fail("import.meta outside chunks/ (a combo is served from chunks/)");
        } else if (i.d === -1) {
          const text = f.code.slice(i.ss, i.se);
          const m = /^import\s*(?:\{([^}]*)\}\s*from\s*)?["']([^"']+)["']$/.exec(text);
          if (!m) fail(`an import the combo cannot take: ${text}`);
          const file = resolveFile(m![2]!);
          if (entries.has(file)) fail(`a static import of element module ${file}`);
          const names = (m![1] ?? "").split(",").filter(Boolean).map((n) => n.trim().split(/\s+as\s+/)).map(([a, b]) => [a!, b ?? a!] as [string, string]);
          statics.push({ file, names });
          cuts.push([i.ss, f.code[i.se] === ";" ? i.se + 1 : i.se, ""]);
        } else {
          const tag = entries.get(resolveFile(i.n ?? ""));
          if (!tag) fail(`an import() the combo cannot take: ${f.code.slice(i.ss, i.se)}`);
          cuts.push([i.ss, i.se, `__chorusLoad(${JSON.stringify(tag)})`]);
        }
      }
      const { reassigned, tables } = analyse(f.code);
      if (f.isEntry && tables.length !== 1) fail(`${tables.length} text tables (an element module has its own, once)`);
      for (const [start, end, group] of tables) cuts.push([start, end, `\u0000${group}\u0000`]);
      const tail = /export\s*\{([^}]*)\};?\s*$/.exec(f.code);
      if (exports.length && (!tail || tail[1]!.split(",").length !== exports.length)) fail("exports outside one export list at the end");
      if (tail) cuts.push([tail.index, f.code.length, ""]);
      let body = f.code;
      for (const [start, end, text] of cuts.sort((a, b) => b[0] - a[0])) body = body.slice(0, start) + text + body.slice(end);
      modules[f.fileName] = {
        id: `_${index.toString(36)}`,
        imports: statics,
        body: body.trim(),
        exports: f.isEntry ? [] : exports.map((e) => {
          // An importing module gets its imports as values when it runs (server/widgets/combo.ts): an exported
          // binding that may change later would not change for it.
          if (reassigned.has(e.ln!)) fail(`export ${e.n} is a top-level let/var assigned to (importers in a combo would keep its first value)`);
          return [e.n, e.ln!, false] as [string, string, boolean];
        }),
      };
    });
    const manifest: ComboManifest = { version, tags: Object.fromEntries([...entries].map(([file, tag]) => [tag, file])), modules };
    // The combo of every element, and each element after all the others: valid modules, or the build fails.
    const tags = Object.keys(manifest.tags);
    const short = (tag: string) => tag.slice("chorus-".length);
    for (const [name, lang] of [[tags.map(short).sort().join("+"), ""], [tags.map(short).sort().join("+"), "pl"], ...tags.map((t) => [`${short(t)}~${tags.filter((o) => o !== t).map(short).sort().join("+")}`, "ja"])]) {
      const code = comboSource(manifest, `${version}.${name}.js`, lang);
      if (code === null) throw new Error(`chorus-combo-manifest: no combo ${name}`);
      parseJs(code, { ecmaVersion: "latest", sourceType: "module" });
    }
    loader.code = loader.code.replace("__CHORUS_VERSION__", version);
    this.emitFile({ type: "asset", fileName: "combo.json", source: JSON.stringify(manifest) });
  },
};

/**
 * Lower the decorators with TypeScript: Lit's legacy (`experimentalDecorators`) form, with class fields
 * assigned in the constructor (`useDefineForClassFields: false`, as Lit requires for it). Per reactive
 * property that is one `__decorate([...], proto, "name")` call, where standard decorators on `accessor`
 * fields emitted a descriptor object, a getter/setter pair and two initializer arrays: about 5.3 KB gzip
 * over all widgets (docs/widgets.md, Sizes). `importHelpers` imports `__decorate` from tslib, so it lands
 * once in the shared chunk (in this build tslib and `lit/decorators.js` resolve to widgets/internal/lit-decorators.ts).
 */
export const decorators: Plugin = {
  name: "chorus-ts-decorators",
  enforce: "pre",
  transform(code, id) {
    if (!/\/widgets\/.*\.ts$/.test(id) || !code.includes("@")) return null;
    const out = ts.transpileModule(code, {
      fileName: id,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, importHelpers: true, sourceMap: false,
        experimentalDecorators: true, useDefineForClassFields: false,
      },
    });
    return { code: out.outputText, map: null };
  },
};

/** The license of the code the widgets bundle (Lit: lit, lit-html, lit-element, @lit/reactive-element; BSD-3-Clause), beside the scripts. */
const licenses: Plugin = {
  name: "chorus-licenses",
  generateBundle() {
    const lit = readFileSync(resolve(root, "../node_modules/lit/LICENSE"), "utf8");
    this.emitFile({ type: "asset", fileName: "THIRD-PARTY-LICENSES.txt", source: `The widgets bundle Lit (lit, lit-html, lit-element, @lit/reactive-element), https://lit.dev:\n\n${lit}\n` });
  },
};

/**
 * One text group's translation as the browser gets it, without its text IDs (#23 weight: about 28% less gzip per
 * language): the texts in the order of the group's English table (server/contract/widget-strings.ts `TEXT_GROUPS`,
 * the element's `static defaults`; `COMMON_TEXTS` for the shared group), the English text where untranslated (an
 * element reading a part is on a page whose combined module holds the texts of another language: ADR 0016), and
 * last an object of any other texts of the group by ID (plural forms English lacks: `.few`, `.many`, ...). English
 * has parts too (the tables' own texts), for English elements on a page in another language.
 */
export function compactGroup(locale: UiLocale, group: string): unknown[] {
  const rest: Record<string, string> = locale === "en" ? {} : Object.fromEntries(Object.entries(TRANSLATIONS[locale]).filter(([id]) => textGroupOf(id) === group));
  const table = englishTextTable(group);
  if (!table) throw new Error(`no English table for text group ${group}`);
  const values = Object.keys(table).map((id) => {
    const text = rest[id];
    delete rest[id];
    return text ?? table[id]!;
  });
  return Object.keys(rest).length ? [...values, rest] : values;
}

/**
 * A translation part as the build writes it (`i18n/<locale>/<part>.json`, server/contract/widget-locales.ts
 * `partOf`): the one group of a part without shared texts as its `compactGroup` array (the star badge's), else an
 * object of `compactGroup` arrays by group, with the shared texts (`common`) once when any of its groups shows
 * them (server/contract/widget-translations.ts `WITHOUT_SHARED`). widgets/internal/chorus-element.ts `partTexts`
 * reads it back with the same tables.
 */
export function compactPart(locale: UiLocale, part: string): unknown {
  const groups = textGroups().filter((g) => g !== SHARED_GROUP && partOf(g) === part);
  const shared = groups.some((g) => !WITHOUT_SHARED.includes(g));
  if (groups.length === 1 && !shared) return compactGroup(locale, groups[0]!);
  return Object.fromEntries([...groups, ...(shared ? [SHARED_GROUP] : [])].map((g) => [g, compactGroup(locale, g)]));
}

/**
 * The widgets' translations (server/contract/widget-translations.ts) as one JSON file per language and part,
 * `i18n/<locale>/<part>.json` (`compactPart`), English included: an element whose language is not its page's (its
 * own `lang`) loads only its own part in its own language (widgets/internal/chorus-element.ts); elements in the
 * page's language have their texts in the combined module (ADR 0016).
 */
const translations: Plugin = {
  name: "chorus-translations",
  generateBundle() {
    const parts = [...new Set(textGroups().filter((g) => g !== SHARED_GROUP).map(partOf))];
    for (const locale of ["en", ...Object.keys(TRANSLATIONS)] as UiLocale[]) {
      for (const part of parts) {
        this.emitFile({ type: "asset", fileName: `i18n/${locale}/${part}.json`, source: JSON.stringify(compactPart(locale, part)) });
      }
    }
  },
};

export default defineConfig({
  publicDir: false,
  esbuild: { target: "es2022" },
  // The loader's reservation style sheet, computed here rather than in every page (widgets/index.ts).
  define: { __CHORUS_RESERVATIONS__: JSON.stringify(reservationCss(WIDGET_RESERVATIONS)), __CHORUS_LANG_TAG__: JSON.stringify(LANG_TAG.source) },
  // Lit's legacy decorator path and a small __decorate only (widgets/internal/lit-decorators.ts).
  resolve: { alias: { "lit/decorators.js": resolve(root, "internal/lit-decorators.ts"), tslib: resolve(root, "internal/lit-decorators.ts") } },
  // Minify the HTML and CSS inside Lit's html`` / css`` templates before esbuild strips the types; attribute values
  // without quotes where HTML allows it (`part=card`; Lit reads bindings in unquoted values, `style=width:${w}%`, alike)
  // and boolean attributes without a value (`multiple`): −105 B gzip over all widgets (ADR 0014).
  plugins: [litMessages, reviewLocales, textIndexes, decorators, { ...literalsHtmlCssMinifier({ include: ["**/widgets/**/*.ts"], failOnError: true, options: { minifyOptions: { removeAttributeQuotes: true, collapseBooleanAttributes: true } } }), enforce: "pre" }, minifyEs, comboManifest, translations, licenses],
  build: {
    outDir: resolve(root, "../public/widgets"),
    emptyOutDir: true,
    target: "es2022",
    minify: false,
    modulePreload: false,
    rollupOptions: {
      input: {
        chorus: resolve(root, "index.ts"),
        ...Object.fromEntries(WIDGET_TAGS.map((tag) => [tag, resolve(root, widgetModulePath(tag))])),
      },
      preserveEntrySignatures: "strict",
      output: {
        format: "es",
        entryFileNames: "[name].js",
        // Content-hashed names without the chunk's name: each element module names the chunks it imports (-64 B gzip over all widgets).
        chunkFileNames: "chunks/[hash].js",
        // Each file is gzipped on its own, so fewer, larger shared files compress better than several small ones.
        // "shared": Lit and the internals every element uses, the star badge too (its page loads only the loader,
        // this and its own module: #23, ≤ 12 KB). "ui": the internals only the larger elements use (control styles,
        // stepwise rendering, form fields, the customer token, HTML-safe text), loaded with the first of them.
        manualChunks: (id) =>
          /node_modules|\/widgets\/internal\/(api|api-error|chorus-element|lit-decorators|tasks|tokens|format|format-lang|stars|events|strings)\.ts$/.test(id) ? "shared"
          : /\/widgets\/internal\/(ui|form|html-text|customer-token|dates|post|fill-parts)\.ts$/.test(id) ? "ui"
          : undefined,
      },
    },
  },
});

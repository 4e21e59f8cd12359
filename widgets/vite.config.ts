/**
 * Widget build (ADR 0018): `widgets/index.ts` → public/widgets/chorus.js, a small classic-script loader, plus one
 * ES module per element (`chunks/chorus-reviews-<hash>.js`, ...) that the loader imports only when that element is
 * on the page, and the shared code (Lit and the common internals) in hashed chunks (`chunks/<hash>.js`); the loader
 * has every file's name written in (`loaderTable`). Every file is minified with terser before its name is hashed
 * (`minifyEs`), the HTML/CSS inside Lit templates first (@literals/rollup-plugin-html-css-minifier), and written
 * beside it as brotli and gzip (`precompress`). The translation parts are `i18n/<hash>/<locale>/<part>.json`.
 */
import { defineConfig, type Plugin, type Rollup } from "vite";
import { createHash } from "node:crypto";
import { minify } from "terser";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants, gzip } from "node:zlib";
import ts from "typescript";
import { literalsHtmlCssMinifier } from "@literals/rollup-plugin-html-css-minifier";
import { reservationCss, WIDGET_TAGS, widgetModulePath } from "./internal/registry.ts";
import { WIDGET_RESERVATIONS } from "../server/contract/widget-reservations.ts";
import { SHARED_GROUP, TRANSLATIONS, textGroups, WITHOUT_SHARED } from "../server/contract/widget-translations.ts";
import * as STRINGS from "../server/contract/widget-strings.ts";
import { englishTextTable } from "../server/contract/widget-strings.ts";
import { REVIEW_TEXT_LOCALES } from "../server/contract/review-locales.ts";
import { partOf, textGroupOf, type UiLocale } from "../server/contract/widget-locales.ts";

const root = resolve(import.meta.dirname);
/**
 * The entries that run as classic scripts under fixed names (cached 5 minutes): the loader `chorus.js`, and
 * `okendo-reviews.js`, Okendo's loader stand-in (served at /reviews-widget-plus/js/okendo-reviews.js, docs/okendo.md).
 */
const CLASSIC_SCRIPTS = new Set(["chorus", "okendo-reviews"]);

/**
 * Terser on Rollup's output (esbuild's minification before it made no difference after gzip): three passes, functions
 * that use no `this` as arrows, no comments (Lit's license notices go to THIRD-PARTY-LICENSES.txt instead, see
 * `licenses`). Not `pure_getters`: chorus-element.ts reads `styleSheet` for its side effect.
 */
export const TERSER = { module: true, ecma: 2020, compress: { passes: 3, unsafe_arrows: true }, format: { comments: false } } as const;

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
  return (code) => code.replace(/--_[\w-]+/g, (name) => short.get(name) ?? name);
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
  const ast = (out as { ast?: unknown }).ast as {
    body: { TYPE: string; module_name?: unknown; imported_names?: TerserMapping[]; exported_names?: TerserMapping[] }[];
    globals?: Map<string, unknown>;
    print_to_string(options: object): string;
  };
  const taken = new Set<string>();
  const free = (def: TerserDef, name: string) =>
    !taken.has(name) &&
    !ast.globals?.has(name) &&
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

/** The private custom properties (`--_*`) of every widget module, collected as the modules are transformed (`minifyEs`). */
const customProperties = new Set<string>();

/**
 * Minify every output file with terser (a little smaller than esbuild's output, after gzip), in `renderChunk`: before
 * Rollup hashes the file names, so each hashed name stands for its final bytes (a file of one name never changes
 * between builds, and is cached a year). The private custom properties are renamed from the names of all widget
 * sources (collected in `transform`), so a file's renaming depends only on the sources.
 */
export const minifyEs: Plugin = {
  name: "chorus-minify-es",
  transform(code, id) {
    if (/\/widgets\/.*\.ts$/.test(id)) for (const name of code.match(/--_[\w-]+/g) ?? []) customProperties.add(name);
    return null;
  },
  async renderChunk(code, chunk) {
    // Vite wraps import() in its preload helper even with modulePreload off: a plain import() (nothing to preload).
    // (Its helper, unused then, is left out by terser.) The build fails when the wrapper is not found as written here.
    const source = code.replace(/__vitePreload\(\(\) => (import\((["'])[^"']+\2\)),[^)]*\)/g, "$1");
    if (source.includes("__vitePreload(")) throw new Error(`chorus-minify-es: an import() in ${chunk.fileName} not unwrapped`);
    const minified = shortCustomProperties([...customProperties])(await minifyModule(source));
    // The loader runs as a classic script: keep its (mangled) top-level names out of the page's global scope.
    // So does Okendo's loader stand-in (widgets/okendo/okendo-reviews.ts).
    return { code: chunk.isEntry && CLASSIC_SCRIPTS.has(chunk.name) ? `(()=>{${minified}})();` : minified, map: null };
  },
};

/**
 * The loader's table of files (widgets/index.ts `MODULES`, `CHUNKS`), written into it once the hashed names are
 * known: each element tag with its module's file and the indexes of the shared chunks it imports (directly or
 * through another chunk: the loader hints them with `<link rel="modulepreload">`), and the shared chunks' files,
 * the one every element imports first. Files are relative to the loader's folder.
 */
const loaderTable: Plugin = {
  name: "chorus-loader-table",
  generateBundle(_options, bundle) {
    const loader = bundle["chorus.js"];
    if (loader?.type !== "chunk") throw new Error("chorus-loader-table: no loader");
    const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === "chunk");
    const byName = new Map(chunks.map((c) => [c.fileName, c]));
    const imported = (file: string, seen = new Set<string>()): Set<string> => {
      for (const dep of byName.get(file)?.imports ?? []) if (!seen.has(dep)) imported(dep, seen.add(dep));
      return seen;
    };
    const shared = chunks.filter((c) => !c.isEntry).sort((a, b) => Number(b.name === "shared") - Number(a.name === "shared") || (a.fileName < b.fileName ? -1 : 1));
    if (shared[0]?.name !== "shared") throw new Error("chorus-loader-table: no shared chunk");
    const files = shared.map((c) => c.fileName);
    const modules: Record<string, (string | number)[]> = {};
    for (const tag of WIDGET_TAGS) {
      const entry = chunks.find((c) => c.isEntry && c.name === tag);
      if (!entry) throw new Error(`chorus-loader-table: no module for ${tag}`);
      modules[tag] = [entry.fileName, ...[...imported(entry.fileName)].map((f) => files.indexOf(f)).sort()];
    }
    for (const name of ["__CHORUS_MODULES__", "__CHORUS_CHUNKS__"]) if (loader.code.split(name).length !== 2) throw new Error(`chorus-loader-table: ${name} not once in the loader`);
    loader.code = loader.code.replace("__CHORUS_MODULES__", JSON.stringify(modules)).replace("__CHORUS_CHUNKS__", JSON.stringify(files));
  },
};

/**
 * Every built file of `dir` also as `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside it, made
 * once here (server/widgets/static.ts serves them by the request's Accept-Encoding), where a compressed form is smaller.
 */
const precompress: Plugin = {
  name: "chorus-precompress",
  async writeBundle(options) {
    const dir = options.dir!;
    const list = (sub: string): string[] => readdirSync(join(dir, sub)).flatMap((name) => (statSync(join(dir, sub, name)).isDirectory() ? list(join(sub, name)) : [join(sub, name)]));
    await Promise.all(
      list("")
        .filter((file) => /\.(js|json|txt)$/.test(file))
        .map(async (file) => {
          const body = readFileSync(join(dir, file));
          const forms: [string, Buffer][] = [
            [
              "br",
              await promisify(brotliCompress)(body, {
                params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
              }),
            ],
            ["gz", await promisify(gzip)(body, { level: 9 })],
          ];
          for (const [ext, form] of forms) if (form.length < body.length) writeFileSync(join(dir, `${file}.${ext}`), form);
        }),
    );
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
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        importHelpers: true,
        sourceMap: false,
        experimentalDecorators: true,
        useDefineForClassFields: false,
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
 * the element's `static defaults`; `COMMON_TEXTS` for the shared group), `null` where untranslated (trailing ones
 * left out), and last an object of any other texts of the group by ID (plural forms English lacks: `.few`, `.many`, ...).
 */
export function compactGroup(locale: Exclude<UiLocale, "en">, group: string): unknown[] {
  const rest: Record<string, string> = Object.fromEntries(Object.entries(TRANSLATIONS[locale]).filter(([id]) => textGroupOf(id) === group));
  const table = englishTextTable(group);
  if (!table) throw new Error(`no English table for text group ${group}`);
  const values = Object.keys(table).map((id) => {
    const text = rest[id];
    delete rest[id];
    return text ?? null;
  });
  while (values.length && values.at(-1) === null) values.pop();
  return Object.keys(rest).length ? [...values, rest] : values;
}

/**
 * A translation part as the build writes it (`i18n/<hash>/<locale>/<part>.json`, server/contract/widget-locales.ts
 * `partOf`): the one group of a part without shared texts as its `compactGroup` array (the star badge's), else an
 * object of `compactGroup` arrays by group, with the shared texts (`common`) once when any of its groups shows
 * them (server/contract/widget-translations.ts `WITHOUT_SHARED`). widgets/internal/chorus-element.ts `partTexts`
 * reads it back with the same tables.
 */
export function compactPart(locale: Exclude<UiLocale, "en">, part: string): unknown {
  const groups = textGroups().filter((g) => g !== SHARED_GROUP && partOf(g) === part);
  const shared = groups.some((g) => !WITHOUT_SHARED.includes(g));
  if (groups.length === 1 && !shared) return compactGroup(locale, groups[0]!);
  return Object.fromEntries([...groups, ...(shared ? [SHARED_GROUP] : [])].map((g) => [g, compactGroup(locale, g)]));
}

/**
 * The widgets' translations (server/contract/widget-translations.ts) as one JSON file per language and part (`compactPart`),
 * by path below `i18n/<hash>/`: `<locale>/<part>.json`. An element whose language is not English (its own `lang`,
 * else the page's) loads only its own part in its language (widgets/internal/chorus-element.ts); English is in the
 * elements' own tables.
 */
export function translationParts(): Map<string, string> {
  const parts = [
    ...new Set(
      textGroups()
        .filter((g) => g !== SHARED_GROUP)
        .map(partOf),
    ),
  ];
  const files = new Map<string, string>();
  for (const locale of Object.keys(TRANSLATIONS) as Exclude<UiLocale, "en">[]) {
    for (const part of parts) files.set(`${locale}/${part}.json`, JSON.stringify(compactPart(locale, part)));
  }
  return files;
}

const PARTS = translationParts();
/**
 * The folder of this build's translation parts below the widgets' folder, `i18n/<hash of every part>`: a part's URL
 * stands for its bytes (cached a year), and an element module reads parts of its own build only (a part is read by
 * position in the English tables of the build that wrote it). The shared chunk has the folder's name written in
 * (`__CHORUS_I18N__`), so a change of any part is a new shared chunk too.
 */
const I18N_DIR = `i18n/${createHash("sha256")
  .update([...PARTS].flat().join("\0"))
  .digest("base64url")
  .slice(0, 8)}`;

const translations: Plugin = {
  name: "chorus-translations",
  generateBundle() {
    for (const [file, source] of PARTS) this.emitFile({ type: "asset", fileName: `${I18N_DIR}/${file}`, source });
  },
};

/**
 * Rollup's warnings known to be harmless, dropped so a build prints only what needs a look (CONTRIBUTING.md):
 * `EMPTY_BUNDLE` (a Remix resource route has no browser code, so its client chunk is empty) and `INVALID_ANNOTATION`
 * (a `@__PURE__` comment in a dependency, zod, that Rollup removes). Every other warning goes to `warn`.
 */
export function quietWarnings(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void): void {
  if (warning.code === "EMPTY_BUNDLE" || warning.code === "INVALID_ANNOTATION") return;
  warn(warning);
}

export default defineConfig({
  publicDir: false,
  esbuild: { target: "es2022" },
  // The loader's reservation style sheet, computed here rather than in every page (widgets/index.ts).
  define: { __CHORUS_RESERVATIONS__: JSON.stringify(reservationCss(WIDGET_RESERVATIONS)), __CHORUS_I18N__: JSON.stringify(I18N_DIR) },
  // Lit's legacy decorator path and a small __decorate only (widgets/internal/lit-decorators.ts).
  resolve: { alias: { "lit/decorators.js": resolve(root, "internal/lit-decorators.ts"), tslib: resolve(root, "internal/lit-decorators.ts") } },
  // Minify the HTML and CSS inside Lit's html`` / css`` templates before esbuild strips the types; attribute values
  // without quotes where HTML allows it (`part=card`; Lit reads bindings in unquoted values, `style=width:${w}%`, alike)
  // and boolean attributes without a value (`multiple`): −105 B gzip over all widgets (ADR 0014).
  plugins: [
    reviewLocales,
    textIndexes,
    decorators,
    {
      ...literalsHtmlCssMinifier({ include: ["**/widgets/**/*.ts"], failOnError: true, options: { minifyOptions: { removeAttributeQuotes: true, collapseBooleanAttributes: true } } }),
      enforce: "pre",
    },
    minifyEs,
    loaderTable,
    translations,
    licenses,
    precompress,
  ],
  build: {
    outDir: resolve(root, "../public/widgets"),
    emptyOutDir: true,
    // No esbuild pass over the rendered chunks (the sources are compiled for es2022 above): `minifyEs` is the last
    // to write a chunk before Rollup hashes its name.
    target: "esnext",
    minify: false,
    modulePreload: false,
    rollupOptions: {
      input: {
        chorus: resolve(root, "index.ts"),
        "okendo-reviews": resolve(root, "okendo/okendo-reviews.ts"),
        ...Object.fromEntries(WIDGET_TAGS.map((tag) => [tag, resolve(root, widgetModulePath(tag))])),
      },
      preserveEntrySignatures: "strict",
      onwarn: quietWarnings,
      output: {
        format: "es",
        // The loader keeps its name (merchants' pages name it; cached 5 minutes); every other file is named by its
        // content's hash, so it is cached a year and a page keeps importing its own build's files across a deploy.
        entryFileNames: (chunk) => (CLASSIC_SCRIPTS.has(chunk.name) ? `${chunk.name}.js` : "chunks/[name]-[hash].js"),
        // Content-hashed names without the chunk's name: each element module names the chunks it imports (-64 B gzip over all widgets).
        chunkFileNames: "chunks/[hash].js",
        // Each file is gzipped on its own, so fewer, larger shared files compress better than several small ones.
        // "shared": Lit and the internals every element uses, the star badge too (and the rating rule, which the badge and
        // the reviews header share) (its page loads only the loader,
        // this and its own module: #23, ≤ 12 KB). "ui": the internals only the larger elements use (control styles,
        // stepwise rendering, form fields, the customer token, HTML-safe text), loaded with the first of them.
        manualChunks: (id) =>
          /node_modules|\/widgets\/internal\/(api|api-error|chorus-element|lit-decorators|tasks|tokens|format|format-lang|stars|events|strings|rating)\.ts$|\/server\/contract\/rating\.ts$/.test(id)
            ? "shared"
            : /\/widgets\/internal\/(ui|form|html-text|customer-token|dates|post|fill-parts)\.ts$/.test(id)
              ? "ui"
              : undefined,
      },
    },
  },
});

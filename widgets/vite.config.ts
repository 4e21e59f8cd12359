/**
 * Widget build: `widgets/index.ts` → public/widgets/chorus.js, a tiny classic-script loader, plus one
 * ES module per element (`chorus-reviews.js`, ...) that the loader imports only when that element is
 * on the page. Shared code (Lit) lands in hashed chunks. Entries stay minified (generateBundle hook, terser);
 * the HTML/CSS inside Lit templates is minified first (@literals/rollup-plugin-html-css-minifier).
 */
import { defineConfig, type Plugin } from "vite";
import { minify } from "terser";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";
import { literalsHtmlCssMinifier } from "@literals/rollup-plugin-html-css-minifier";
import { reservationCss, WIDGET_TAGS, widgetModulePath } from "./internal/registry.ts";
import { WIDGET_RESERVATIONS } from "../server/contract/widget-reservations.ts";
import { SHARED_GROUP, TRANSLATIONS, textGroups, WITHOUT_SHARED } from "../server/contract/widget-translations.ts";
import { COMMON_TEXTS, TEXT_GROUPS } from "../server/contract/widget-strings.ts";
import { partOf, textGroupOf, type UiLocale } from "../server/contract/widget-locales.ts";

const root = resolve(import.meta.dirname);

/**
 * Terser on Rollup's output (esbuild's minification before it made no difference after gzip): three passes, functions
 * that use no `this` as arrows, no comments (Lit's license notices go to THIRD-PARTY-LICENSES.txt instead, see
 * `licenses`). Not `pure_getters`: chorus-element.ts reads `styleSheet` for its side effect.
 */
const TERSER = { module: true, ecma: 2020, compress: { passes: 3, unsafe_arrows: true }, format: { comments: false } } as const;

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
export const litMessages: Plugin = {
  name: "chorus-lit-messages",
  transform(code, id) {
    if (!/\/node_modules\/(@lit\/reactive-element\/(css-tag|reactive-element)|lit-html\/lit-html|lit-element\/lit-element)\.js$/.test(id)) return null;
    let out = code;
    for (const [from, to] of LIT_MESSAGES) out = out.replace(from, to);
    return { code: out, map: null };
  },
};

/** Minify every output file with terser (a little smaller than esbuild's output, after gzip). */
const minifyEs: Plugin = {
  name: "chorus-minify-es",
  async generateBundle(_options, bundle) {
    // The loader requests the shared chunk by its (hashed) file name: see SHARED in widgets/index.ts.
    const shared = Object.values(bundle).find((file) => file.type === "chunk" && file.name === "shared");
    const loader = bundle["chorus.js"];
    if (shared && loader?.type === "chunk") loader.code = loader.code.replace("__CHORUS_SHARED__", shared.fileName);
    for (const file of Object.values(bundle)) {
      if (file.type !== "chunk") continue;
      // Vite wraps import() in its preload helper even with modulePreload off: a plain import() (nothing to preload).
      const source = file.code.replace(/__vitePreload\(\(\) => (import\("[^"]+"\)), [^)]*\)/g, "$1");
      const code = (await minify(source, TERSER)).code!;
      // The loader runs as a classic script: keep its (mangled) top-level names out of the page's global scope.
      file.code = file.isEntry && file.name === "chorus" ? `(()=>{${code}})();` : code;
    }
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
 * the element's `static defaults`; `COMMON_TEXTS` for the shared group), `null` where untranslated, and last an
 * object of any other texts of the group by ID (plural forms English lacks: `.few`, `.many`, ...).
 */
export function compactGroup(locale: UiLocale, group: string): unknown[] {
  const rest: Record<string, string> = Object.fromEntries(Object.entries(TRANSLATIONS[locale as Exclude<UiLocale, "en">]).filter(([id]) => textGroupOf(id) === group));
  const table = group === SHARED_GROUP ? COMMON_TEXTS : TEXT_GROUPS.find((g) => g.texts !== COMMON_TEXTS && textGroupOf(Object.keys(g.texts)[0]!) === group)?.texts;
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
 * `i18n/<locale>/<part>.json` (`compactPart`): an element loads only its own part in its own language
 * (widgets/internal/chorus-element.ts), so only the language shown costs bytes.
 */
const translations: Plugin = {
  name: "chorus-translations",
  generateBundle() {
    const parts = [...new Set(textGroups().filter((g) => g !== SHARED_GROUP).map(partOf))];
    for (const locale of Object.keys(TRANSLATIONS) as UiLocale[]) {
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
  define: { __CHORUS_RESERVATIONS__: JSON.stringify(reservationCss(WIDGET_RESERVATIONS)) },
  // Lit's legacy decorator path and a small __decorate only (widgets/internal/lit-decorators.ts).
  resolve: { alias: { "lit/decorators.js": resolve(root, "internal/lit-decorators.ts"), tslib: resolve(root, "internal/lit-decorators.ts") } },
  // Minify the HTML and CSS inside Lit's html`` / css`` templates before esbuild strips the types.
  plugins: [litMessages, decorators, { ...literalsHtmlCssMinifier({ include: ["**/widgets/**/*.ts"], failOnError: true }), enforce: "pre" }, minifyEs, translations, licenses],
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

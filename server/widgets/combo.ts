/**
 * Combined widget modules (ADR 0016, issues #23 and 8): the loader (widgets/index.ts) requests the code of every
 * element present on the page as one module, `/widgets/chunks/<version>.<levels>.js`, instead of one file per element
 * and per shared chunk. Each file is gzipped on its own, so one response for the page's elements compresses the
 * words they share once (about 7 KB less over all widgets than separate files); only elements on the page are loaded
 * (issue 8's rule), and nothing is evaluated twice.
 *
 * A name's levels, newest first, separated by `~`, each the short names (tag without `chorus-`) of the elements
 * one request added, sorted and joined by `+`: `reviews+reviews-summary` for a product page, then
 * `review-form~reviews+reviews-summary` when the shopper opens the review form. A level holds the code of its
 * elements and of every shared module the older levels do not hold; it imports those from the older levels' own
 * combos (the same URLs, so the browser's module map already has them) and exports the shared modules it holds.
 *
 * A combo speaks the page's language: the loader adds `?lang=<the page's <html lang>>`, and every text table in it
 * (an element's `static defaults`, the shared texts) holds that language's texts where Chorus ships them, English
 * elsewhere (`textsTable`); the shared module learns the language from `__chorusTextsLocale`, so elements in that
 * language request no translation part (one request and one round trip less, and the English words not sent).
 * Elements in another language (their own `lang`) still load their part (widgets/internal/chorus-element.ts).
 *
 * The build (widgets/vite.config.ts `comboManifest`) writes `combo.json`: the built modules as bodies without their
 * import and export statements, with their imported and exported names. A module body runs in its own function
 * scope, its imports as the function's destructured parameters (values taken when it runs: the build refuses an
 * exported binding that changes later); its exports are returned as an object.
 */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip as gzipCallback } from "node:zlib";
import { join } from "node:path";
import { LRUCache } from "lru-cache";
import { englishTextTable } from "../contract/widget-strings.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";
import { LANG_TAG, textGroupOf, uiLocaleFor, type UiLocale } from "../contract/widget-locales.ts";

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/** One built ES module as the build describes it for combining. */
export type ComboModule = {
  /** Its name when a combo exports it (short, unique in the build). */
  id: string;
  /** Its static imports, in order: file (relative to public/widgets) and `[imported, local]` names. */
  imports: { file: string; names: [string, string][] }[];
  /**
   * Its code without import and export statements; `import()` of an element module is `__chorusLoad("<tag>")`,
   * and each text table is `\u0000<group>\u0000` (`textsTable` fills it in).
   */
  body: string;
  /**
   * Its exports: `[exported, local, live]`. Live: read through a getter of the module's export object (the build
   * writes false: it refuses an exported binding that is assigned later, as importers receive values).
   */
  exports: [string, string, boolean][];
};

/** What `combo.json` holds: the build's version (a hash over every module), each tag's entry file, the modules by file. */
export type ComboManifest = { version: string; tags: Record<string, string>; modules: Record<string, ComboModule> };

/**
 * Text group `group`'s table in `locale` as a combo carries it: the English table's IDs in its order (the built
 * elements read texts by position, widgets/vite.config.ts `textIndexes`), each with the shipped translation or,
 * where there is none, the English text; then the language's further texts of the group (plural forms English
 * lacks: `.few`, `.many`). Null for an unknown group.
 */
export function textsTable(group: string, locale: UiLocale): Record<string, string> | null {
  const english = englishTextTable(group);
  if (!english) return null;
  if (locale === "en") return english;
  const translated = Object.entries(TRANSLATIONS[locale]).filter(([id]) => textGroupOf(id) === group);
  return { ...english, ...Object.fromEntries(translated) };
}

/** The path of a combo below /widgets/ for `levels` (newest first, each a list of tags) in build `version`. */
export function comboPath(version: string, levels: string[][]): string {
  return `chunks/${version}.${levels.map((tags) => [...tags].sort().map((t) => t.slice("chorus-".length)).join("+")).join("~")}.js`;
}

/** Names the server answers: `chunks/<version>.<levels>.js` (the file part without `chunks/`). */
export const COMBO_FILE = /^([A-Za-z0-9_-]{8})\.([a-z]+(?:-[a-z]+)*(?:[+~][a-z]+(?:-[a-z]+)*)*)\.js$/;

/** The files module `entry` needs, itself last, each after the modules it imports (depth first, as ES modules evaluate). */
function closure(manifest: ComboManifest, entry: string, order: string[] = [], seen = new Set<string>()): string[] {
  if (seen.has(entry)) return order;
  seen.add(entry);
  for (const { file } of manifest.modules[entry]!.imports) closure(manifest, file, order, seen);
  order.push(entry);
  return order;
}

/**
 * The source of combo `file` (`<version>.<levels>.js`, see the module comment) for a page in language `lang` (its
 * `<html lang>`, "" for none), or null when the name is not one this build serves: an unknown tag, a level not
 * sorted or empty, a tag in two levels, a language tag of another shape. A name of another build's version gets
 * this build's code (a page whose loader, kept 5 minutes, is from before an upgrade; each level's imports keep the
 * name's version, so the page's levels stay one chain): `isCurrent` tells the two apart.
 */
export function comboSource(manifest: ComboManifest, file: string, lang = ""): string | null {
  const match = COMBO_FILE.exec(file);
  if (!match || (lang !== "" && !LANG_TAG.test(lang))) return null;
  const locale = uiLocaleFor(lang);
  const query = lang ? `?lang=${lang}` : "";
  const levels = match[2]!.split("~").map((level) => level.split("+"));
  const all = levels.flat();
  if (new Set(all).size !== all.length) return null;
  for (const level of levels) {
    if (level.some((name, i) => i > 0 && level[i - 1]! >= name)) return null;
    if (level.some((name) => !manifest.tags[`chorus-${name}`])) return null;
  }
  // Which level holds each module: the oldest level whose elements need it.
  const owner = new Map<string, number>();
  for (let i = levels.length - 1; i >= 0; i--) {
    for (const name of levels[i]!) {
      for (const f of closure(manifest, manifest.tags[`chorus-${name}`]!)) if (!owner.has(f)) owner.set(f, i);
    }
  }
  const mine = [...owner].filter(([, level]) => level === 0).map(([f]) => f);
  const variable = (f: string) => `$${manifest.modules[f]!.id}`;
  const levelFile = (level: number) => `./${match[1]}.${match[2]!.split("~").slice(level).join("~")}.js${query}`;
  let unknownTable = false;
  const texts = (body: string) =>
    body.replace(/\u0000(\w+)\u0000/g, (_, group: string) => {
      const table = textsTable(group, locale);
      if (!table) unknownTable = true;
      return JSON.stringify(table);
    });

  const fromOlder = new Map<number, Set<string>>();
  for (const f of mine) {
    for (const { file: dep } of manifest.modules[f]!.imports) {
      const level = owner.get(dep)!;
      if (level > 0) fromOlder.set(level, (fromOlder.get(level) ?? new Set()).add(dep));
    }
  }
  const out: string[] = [`const __chorusTextsLocale=${JSON.stringify(locale)};`];
  for (const [level, deps] of [...fromOlder].sort(([a], [b]) => a - b)) {
    out.push(`import{${[...deps].map((d) => `${manifest.modules[d]!.id} as ${variable(d)}`).join(",")}}from${JSON.stringify(levelFile(level))};`);
  }
  const exported: string[] = [];
  for (const f of mine) {
    const mod = manifest.modules[f]!;
    const bound = mod.imports.filter((i) => i.names.length);
    const params = bound.map((i) => `{${i.names.map(([imported, local]) => (imported === local ? local : `${imported}:${local}`)).join(",")}}`).join(",");
    const args = bound.map((i) => variable(i.file)).join(",");
    if (mod.exports.length) {
      const members = mod.exports.map(([name, local, live]) => (live ? `get ${name}(){return ${local}}` : name === local ? name : `${name}:${local}`)).join(",");
      out.push(`const ${variable(f)}=((${params})=>{${texts(mod.body)}\nreturn{${members}}})(${args});`);
      exported.push(`${variable(f)} as ${mod.id}`);
    } else {
      out.push(`((${params})=>{${texts(mod.body)}\n})(${args});`);
    }
  }
  if (exported.length) out.push(`export{${exported.join(",")}};`);
  return unknownTable ? null : out.join("");
}

/** A combo as the server sends it: its source, a strong ETag, and its compressed forms (made once, off the event loop). */
export type ComboResponse = {
  body: Buffer; etag: string; encoded(coding: "br" | "gzip"): Promise<Buffer>;
  /** Whether the name carries this build's version (kept a year), else another's (not kept). */
  current: boolean;
};

/** Whether combo `file` names this build's version (else `comboSource` gives this build's code under another's name). */
const isCurrent = (manifest: ComboManifest, file: string): boolean => COMBO_FILE.exec(file)?.[1] === manifest.version;

/**
 * The combos of the build under `widgetsDir` (public/widgets), made on first request and kept: at most
 * `maxEntries` by name and language tag (a source is about 10–110 KB, with its gzip and brotli forms), least
 * recently used dropped. Compressed once at the highest levels (gzip 9: what the size budget counts; brotli 11,
 * about 100 ms for the largest on libuv's thread pool), since every shopper's browser then keeps the file a year.
 * `source(file, lang)` is null for a name the build does not serve and when the build has no `combo.json`.
 */
export function comboSources(widgetsDir: string, maxEntries = 128): { source(file: string, lang?: string): ComboResponse | null; version(): string | null } {
  let manifest: ComboManifest | null | undefined;
  const load = () => {
    if (manifest === undefined) {
      try {
        manifest = JSON.parse(readFileSync(join(widgetsDir, "combo.json"), "utf8")) as ComboManifest;
      } catch {
        manifest = null;
      }
    }
    return manifest;
  };
  const cache = new LRUCache<string, ComboResponse>({ max: maxEntries });
  return {
    version: () => load()?.version ?? null,
    source(file, lang = "") {
      const m = load();
      if (!m) return null;
      const key = `${file}?${lang}`;
      let entry = cache.get(key);
      if (entry === undefined) {
        const made = comboSource(m, file, lang);
        if (made === null) return null;
        const body = Buffer.from(made);
        const forms = new Map<string, Promise<Buffer>>();
        entry = {
          body,
          current: isCurrent(m, file),
          etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
          encoded(coding) {
            let form = forms.get(coding);
            if (!form) {
              form = coding === "br"
                ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
                : gzip(body, { level: 9 });
              forms.set(coding, form);
            }
            return form;
          },
        };
        cache.set(key, entry);
      }
      return entry;
    },
  };
}

/**
 * Widget weight (issue 8): gzip and brotli sizes of each built file under public/widgets, and of what a
 * page loads for a given set of elements (the loader, each element's entry and every chunk they import
 * statically, followed transitively), plus the translation parts a page in another language than English loads
 * (`i18n/<locale>/<part>.json`: the star badge's, the loyalty widget's, and one for every review and question
 * element, server/contract/widget-locales.ts `partOf`). Used by the size-budget test and by `npm run bench:widgets`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { PROJECT_ROOT } from "../server/config.ts";

export const WIDGETS_DIR = join(PROJECT_ROOT, "public/widgets");
export type FileSize = { file: string; bytes: number; gzip: number; brotli: number };

/** Every .js file below public/widgets, relative paths with "/" separators. */
export function widgetFiles(dir = WIDGETS_DIR, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return widgetFiles(full, `${prefix}${name}/`);
    return name.endsWith(".js") ? [`${prefix}${name}`] : [];
  });
}

/** Sizes of one built file. */
export function sizeOf(file: string): FileSize {
  const buf = readFileSync(join(WIDGETS_DIR, file));
  return { file, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length, brotli: brotliCompressSync(buf).length };
}

/** Static imports of a built ES module (`import ... from "./x.js"` / `import "./x.js"`), resolved relative to it. */
function staticImports(file: string): string[] {
  const code = readFileSync(join(WIDGETS_DIR, file), "utf8");
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+)["']/g)) {
    out.push(posix.normalize(posix.join(posix.dirname(file), m[1])));
  }
  return out;
}

/** The files a page loads for these element tags: chorus.js + each tag's entry + transitive static imports. */
export function filesForTags(tags: string[]): string[] {
  const seen = new Set<string>(["chorus.js"]);
  const queue = tags.map((t) => `${t}.js`);
  while (queue.length) {
    const f = queue.shift()!;
    if (seen.has(f)) continue;
    seen.add(f);
    queue.push(...staticImports(f));
  }
  return [...seen];
}

/** Total gzip/brotli of a set of files (each compressed separately, as served). */
export function total(files: string[]): { gzip: number; brotli: number; bytes: number } {
  return files.map(sizeOf).reduce((a, s) => ({ gzip: a.gzip + s.gzip, brotli: a.brotli + s.brotli, bytes: a.bytes + s.bytes }), { gzip: 0, brotli: 0, bytes: 0 });
}

/** The languages with translation parts in the build (`public/widgets/i18n/<locale>/`). */
export function translatedLocales(): string[] {
  return readdirSync(join(WIDGETS_DIR, "i18n")).sort();
}

/**
 * The translation parts a page in `locale` loads: every part (all widgets), or those named in `groups`
 * (`starRating` for the star badge), relative paths like the scripts'.
 */
export function translationFiles(locale: string, groups?: string[]): string[] {
  return readdirSync(join(WIDGETS_DIR, "i18n", locale))
    .filter((name) => name.endsWith(".json") && (!groups || groups.includes(name.slice(0, -5))))
    .map((name) => `i18n/${locale}/${name}`);
}

/** Issue #23's weight targets in bytes of gzip: all widgets in one language, and a page with only the star badge. */
export const TARGET = { allWidgets: 35 * 1024, starBadgePage: 12 * 1024 } as const;

/**
 * What "one language" costs (issue #23, ADR 0013): per UI language, all widget files plus that language's
 * translation parts (none for English, whose texts are in the code), and the star badge page (loader, its module,
 * the shared chunk) plus its part. Gzip bytes, English first.
 */
export function languageTotals(): { locale: string; allWidgets: number; starBadgePage: number }[] {
  const code = widgetFiles();
  const badge = filesForTags(["chorus-star-rating"]);
  return ["en", ...translatedLocales()].map((locale) => ({
    locale,
    allWidgets: total(locale === "en" ? code : [...code, ...translationFiles(locale)]).gzip,
    starBadgePage: total(locale === "en" ? badge : [...badge, ...translationFiles(locale, ["starRating"])]).gzip,
  }));
}

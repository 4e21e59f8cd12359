/**
 * Widget weight (issue 8, #23): gzip and brotli sizes of each built file under public/widgets, and of what a page
 * loads for a given set of elements: the loader and the combined modules it requests (server/widgets/combo.ts,
 * ADR 0016), one per request, in the page's language (a page in a shipped language requests no translation part:
 * its texts are in the combined modules). Used by the size-budget test and by `npm run bench:widgets`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { PROJECT_ROOT } from "../server/config.ts";
import { comboPath, comboSource, type ComboManifest } from "../server/widgets/combo.ts";

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

/** Total gzip/brotli of a set of files (each compressed separately, as served). */
export function total(files: string[]): { gzip: number; brotli: number; bytes: number } {
  return files.map(sizeOf).reduce((a, s) => ({ gzip: a.gzip + s.gzip, brotli: a.brotli + s.brotli, bytes: a.bytes + s.bytes }), { gzip: 0, brotli: 0, bytes: 0 });
}

/** The languages other than English with translation parts in the build (`public/widgets/i18n/<locale>/`; English has parts too). */
export function translatedLocales(): string[] {
  return readdirSync(join(WIDGETS_DIR, "i18n")).filter((locale) => locale !== "en").sort();
}

/**
 * The translation parts of `locale` in the build: every part, or those named in `groups` (`starRating` for the
 * star badge), relative paths like the scripts'. A page loads a part only for an element whose own language is
 * not the page's (ADR 0016).
 */
export function translationFiles(locale: string, groups?: string[]): string[] {
  return readdirSync(join(WIDGETS_DIR, "i18n", locale))
    .filter((name) => name.endsWith(".json") && (!groups || groups.includes(name.slice(0, -5))))
    .map((name) => `i18n/${locale}/${name}`);
}

/** Issue #23's weight targets in bytes of gzip: all widgets in one language, and a page with only the star badge. */
export const TARGET = { allWidgets: 35 * 1024, starBadgePage: 12 * 1024 } as const;

/** The build's combined-module manifest (public/widgets/combo.json). */
export function comboManifest(): ComboManifest {
  return JSON.parse(readFileSync(join(WIDGETS_DIR, "combo.json"), "utf8")) as ComboManifest;
}

/**
 * What a page in language `lang` (its `<html lang>`; "" for none) loads when the loader requests the elements of
 * `requests` one request after another (each a list of tags: the elements found together, then any added or opened
 * later): the loader and one combined module per request. Each file's sizes, and their sum (each compressed on
 * its own, as served).
 */
export function pageLoad(requests: string[][], lang = ""): { files: FileSize[]; gzip: number; brotli: number; bytes: number } {
  const manifest = comboManifest();
  const files: FileSize[] = [sizeOf("chorus.js")];
  const levels: string[][] = [];
  for (const tags of requests) {
    levels.unshift(tags);
    const file = comboPath(manifest.version, levels);
    const code = comboSource(manifest, file.slice("chunks/".length), lang);
    if (code === null) throw new Error(`no combined module ${file} for lang ${lang}`);
    const buf = Buffer.from(code);
    files.push({ file: `${file}${lang ? `?lang=${lang}` : ""}`, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length, brotli: brotliCompressSync(buf).length });
  }
  return { files, ...files.reduce((a, f) => ({ gzip: a.gzip + f.gzip, brotli: a.brotli + f.brotli, bytes: a.bytes + f.bytes }), { gzip: 0, brotli: 0, bytes: 0 }) };
}

/** Every element tag of the build, the review form last. */
export function allTags(): string[] {
  return Object.keys(comboManifest().tags).sort((a, b) => Number(a === "chorus-review-form") - Number(b === "chorus-review-form") || (a < b ? -1 : 1));
}

/**
 * The loads "all widgets" counts: every element on the page but the review form, which the shopper then opens
 * from `<chorus-reviews>` (its code in a second request: the larger of the two ways a page can hold every widget;
 * the form as an element of its own on the page loads with the rest, about 1.2 KB less).
 */
export const allWidgetsRequests = (): string[][] => [allTags().filter((t) => t !== "chorus-review-form"), ["chorus-review-form"]];

/**
 * What "one language" costs (issue #23, ADR 0016), per UI language (its code as the page's `<html lang>`): all
 * widgets (`allWidgetsRequests`) and the star badge page (the loader and one combined module). Gzip bytes,
 * English first.
 */
export function languageTotals(): { locale: string; allWidgets: number; starBadgePage: number }[] {
  return ["en", ...translatedLocales()].map((locale) => ({
    locale,
    allWidgets: pageLoad(allWidgetsRequests(), locale).gzip,
    starBadgePage: pageLoad([["chorus-star-rating"]], locale).gzip,
  }));
}

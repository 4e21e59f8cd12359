/**
 * Widget weight (issue 8, #23, #37): gzip and brotli sizes of each built file under public/widgets, and of what a page
 * loads for a given set of elements (ADR 0018): the loader, each element's module and the shared chunks it imports
 * (each file once), and on a page in another language than English the translation part of each element's texts.
 * Sizes are those of the files the build compressed (`<file>.br`, `<file>.gz`), as the server sends them.
 * Used by the size-budget test and by `npm run bench:widgets`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { PROJECT_ROOT } from "../server/config.ts";
import { partOf, textGroupOf } from "../server/contract/widget-locales.ts";
import * as STRINGS from "../server/contract/widget-strings.ts";
import { widgetModulePath } from "../widgets/internal/registry.ts";

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

/** Sizes of one built file: its bytes, and its precompressed forms' (computed at the same levels where the build wrote none). */
export function sizeOf(file: string): FileSize {
  const path = join(WIDGETS_DIR, file);
  const buf = readFileSync(path);
  const form = (ext: string, make: () => Buffer) => Math.min(buf.length, existsSync(`${path}.${ext}`) ? statSync(`${path}.${ext}`).size : make().length);
  return { file, bytes: buf.length, gzip: form("gz", () => gzipSync(buf, { level: 9 })), brotli: form("br", () => brotliCompressSync(buf)) };
}

/** The loader's table as the build wrote it (widgets/index.ts `MODULES`, `CHUNKS`): each tag's module file and shared chunk indexes, the chunks' files. */
export function loaderTable(): { modules: Record<string, [string, ...number[]]>; chunks: string[] } {
  const loader = readFileSync(join(WIDGETS_DIR, "chorus.js"), "utf8");
  const modules = /(\{"chorus-[^}]*\})/.exec(loader)?.[1];
  const chunks = /(\["chunks\/[\w-]+\.js"(?:,"chunks\/[\w-]+\.js")*\])/.exec(loader)?.[1];
  if (!modules || !chunks) throw new Error("no file table in public/widgets/chorus.js");
  return { modules: JSON.parse(modules), chunks: JSON.parse(chunks) };
}

/** The build's translation parts folder, `i18n/<hash>` (widgets/vite.config.ts `translationParts`). */
export function i18nDir(): string {
  const [hash, ...more] = readdirSync(join(WIDGETS_DIR, "i18n"));
  if (!hash || more.length) throw new Error("public/widgets/i18n/ must hold one build's parts");
  return `i18n/${hash}`;
}

/** The languages with translation parts in the build (English has none: it is in the elements' own tables). */
export function translatedLocales(): string[] {
  return readdirSync(join(WIDGETS_DIR, i18nDir())).sort();
}

/** The translation parts of `locale` in the build: every part, or those named in `parts`, relative paths like the scripts'. */
export function translationFiles(locale: string, parts?: string[]): string[] {
  return readdirSync(join(WIDGETS_DIR, i18nDir(), locale))
    .filter((name) => name.endsWith(".json") && (!parts || parts.includes(name.slice(0, -5))))
    .map((name) => `${i18nDir()}/${locale}/${name}`);
}

/** The translation part element `tag` reads in another language (`partOf` its text group, from its `static defaults`), null without texts. */
export function partOfTag(tag: string): string | null {
  const source = readFileSync(join(PROJECT_ROOT, "widgets", widgetModulePath(tag)), "utf8");
  const name = /static defaults = (\w+);/.exec(source)?.[1];
  const first = name ? Object.keys((STRINGS as unknown as Record<string, Record<string, string>>)[name] ?? {})[0] : undefined;
  return first ? partOf(textGroupOf(first)) : null;
}

/** Issue #37's weight budgets in bytes of brotli, in every language: a product page, all widgets, a page with only the star badge. */
export const TARGET = { productPage: 30 * 1024, allWidgets: 44 * 1024, starBadgePage: 12 * 1024, surveyPage: 18 * 1024 } as const;

/**
 * Elements weighed on a page of their own rather than in "all widgets": the survey (docs/surveys.md) runs on a
 * thank-you page, a hosted link or as a one-off dialog, never beside the shop's review and loyalty widgets.
 */
export const OWN_PAGE_TAGS = ["chorus-survey"];

/** The elements of a product page (docs/widgets.md): badge, summary, keywords, media, reviews, questions. */
export const PRODUCT_PAGE_TAGS = ["chorus-star-rating", "chorus-reviews-summary", "chorus-reviews-keywords", "chorus-review-media", "chorus-reviews", "chorus-questions"];

/** Every element tag of the build but those weighed on a page of their own (OWN_PAGE_TAGS): the "all widgets" page. */
export function allTags(): string[] {
  return Object.keys(loaderTable().modules)
    .filter((tag) => !OWN_PAGE_TAGS.includes(tag))
    .sort();
}

/**
 * What a page in language `lang` (its `<html lang>`; "" or "en" for English) loads for the elements `tags`, however
 * many requests that takes (an element added or opened later loads only files not loaded yet): the loader, each
 * element's module and the shared chunks it imports, each once, and in another language each element's translation
 * part (one per part). Each file's sizes, and their sum.
 */
export function pageLoad(tags: string[], lang = ""): { files: FileSize[]; gzip: number; brotli: number; bytes: number } {
  const { modules, chunks } = loaderTable();
  const names = new Set(["chorus.js"]);
  for (const tag of tags) {
    const [file, ...shared] = modules[tag] ?? [];
    if (!file) throw new Error(`no module for ${tag}`);
    for (const i of shared) names.add(chunks[i]!);
    names.add(file);
  }
  if (lang && lang !== "en") {
    const parts = [...new Set(tags.map(partOfTag).filter((p): p is string => p !== null))];
    for (const file of translationFiles(lang, parts)) names.add(file);
  }
  const files = [...names].map(sizeOf);
  return { files, ...files.reduce((a, f) => ({ gzip: a.gzip + f.gzip, brotli: a.brotli + f.brotli, bytes: a.bytes + f.bytes }), { gzip: 0, brotli: 0, bytes: 0 }) };
}

/** What each language costs (issue #37): the product page, all widgets and the star badge page, in brotli and gzip bytes, English first. */
export function languageTotals(): {
  locale: string;
  productPage: number;
  allWidgets: number;
  starBadgePage: number;
  surveyPage: number;
  productPageGzip: number;
  allWidgetsGzip: number;
  starBadgePageGzip: number;
  surveyPageGzip: number;
}[] {
  return ["en", ...translatedLocales()].map((locale) => {
    const [product, all, badge, survey] = [pageLoad(PRODUCT_PAGE_TAGS, locale), pageLoad(allTags(), locale), pageLoad(["chorus-star-rating"], locale), pageLoad(["chorus-survey"], locale)];
    return {
      locale,
      productPage: product.brotli,
      allWidgets: all.brotli,
      starBadgePage: badge.brotli,
      surveyPage: survey.brotli,
      productPageGzip: product.gzip,
      allWidgetsGzip: all.gzip,
      starBadgePageGzip: badge.gzip,
      surveyPageGzip: survey.gzip,
    };
  });
}

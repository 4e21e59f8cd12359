/**
 * Combined widget modules (server/widgets/combo.ts, ADR 0016, issue #23 weight): the pure `comboSource` over a small
 * hand-written manifest (evaluated as real ES modules in a child Node process: dependency order, each module once
 * across levels, live exports read through getters, `__chorusLoad` kept, text tables filled in the page's language)
 * and over the real build's `public/widgets/combo.json` (name grammar, language tags, a level's modules in
 * dependency order, a newer level importing exactly what the older level's own file exports, the texts of the
 * page's language), and `textsTable` (English order, translation else English, extra plural forms appended).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { parse } from "acorn";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../config.ts";
import { COMMON_TEXTS, TEXT_GROUPS } from "../contract/widget-strings.ts";
import { TRANSLATIONS } from "../contract/widget-translations.ts";
import { textGroupOf } from "../contract/widget-locales.ts";
import { LANG_TAG } from "../contract/widget-locales.ts";
import { COMBO_FILE, comboPath, comboSource, comboSources, textsTable, type ComboManifest } from "./combo.ts";

/** The English table of a text group, straight from widget-strings.ts. */
const english = (group: string): Record<string, string> =>
  group === "common" ? COMMON_TEXTS : TEXT_GROUPS.find((g) => g.texts !== COMMON_TEXTS && textGroupOf(Object.keys(g.texts)[0]!) === group)!.texts;

type Program = ReturnType<typeof parse> & { body: any[] };
/** Parse as an ES module (throws on a syntax error). */
const parseModule = (code: string) => parse(code, { ecmaVersion: "latest", sourceType: "module" }) as Program;
/** A module's exported names. */
const exportNames = (code: string) =>
  parseModule(code).body.filter((n) => n.type === "ExportNamedDeclaration").flatMap((n) => n.specifiers.map((s: any) => s.exported.name as string));
/** A module's static imports: source and imported names. */
const importsOf = (code: string) =>
  parseModule(code).body.filter((n) => n.type === "ImportDeclaration").map((n) => ({ source: n.source.value as string, names: n.specifiers.map((s: any) => s.imported.name as string) }));

// ---------------------------------------------------------------------------------------------------------------
// A small hand-written build: two shared chunks (mid imports base), three elements.
// ---------------------------------------------------------------------------------------------------------------
const V = "testV3r_";
const small: ComboManifest = {
  version: V,
  tags: { "chorus-star-rating": "chorus-star-rating.js", "chorus-reviews": "chorus-reviews.js", "chorus-review-form": "chorus-review-form.js" },
  modules: {
    "chunks/base.js": {
      id: "_a",
      imports: [],
      body: `globalThis.__log.push("base:"+__chorusTextsLocale);let count=0;function bump(){count++}const label="base"`,
      exports: [["b", "bump", false], ["n", "count", true], ["l", "label", false]],
    },
    "chunks/mid.js": {
      id: "_b",
      imports: [{ file: "chunks/base.js", names: [["l", "base"]] }],
      body: `globalThis.__log.push("mid:"+base);const mid=()=>base+"+mid";const common=\u0000common\u0000`,
      exports: [["m", "mid", false], ["c", "common", false]],
    },
    "chorus-star-rating.js": {
      id: "_s",
      imports: [{ file: "chunks/base.js", names: [["l", "label"]] }],
      body: `globalThis.__log.push("star:"+label);globalThis.__texts.starRating=\u0000starRating\u0000`,
      exports: [],
    },
    "chorus-reviews.js": {
      id: "_r",
      imports: [{ file: "chunks/base.js", names: [["b", "bump"]] }, { file: "chunks/mid.js", names: [["m", "mid"]] }],
      body: `globalThis.__log.push("reviews:"+mid());bump();globalThis.__texts.reviews=\u0000reviews\u0000;globalThis.__openForm=()=>__chorusLoad("chorus-review-form")`,
      exports: [],
    },
    "chorus-review-form.js": {
      id: "_f",
      imports: [{ file: "chunks/mid.js", names: [["c", "common"]] }],
      body: `globalThis.__log.push("form:"+common["common.networkError"])`,
      exports: [],
    },
  },
};

describe("comboSource over a hand-written manifest", () => {
  it("a single level holds its elements' modules in dependency order, text tables filled, chunk namespaces exported", () => {
    const code = comboSource(small, `${V}.reviews+star-rating.js`, "de")!;
    expect(code).not.toBeNull();
    parseModule(code);
    expect(code.startsWith(`const __chorusTextsLocale="de";`)).toBe(true);
    const at = (s: string) => code.indexOf(s);
    // base before mid (mid imports base), both before the elements that import them.
    expect(at(`"base:"`)).toBeGreaterThanOrEqual(0);
    expect(at(`"base:"`)).toBeLessThan(at(`"mid:"`));
    expect(at(`"mid:"`)).toBeLessThan(at(`"reviews:"`));
    expect(at(`"base:"`)).toBeLessThan(at(`"star:"`));
    // Each module once; the form (not named) is not in it; no imports (nothing older).
    for (const s of [`"base:"`, `"mid:"`, `"reviews:"`, `"star:"`]) expect(code.indexOf(s)).toBe(code.lastIndexOf(s));
    expect(code).not.toContain(`"form:"`);
    expect(importsOf(code)).toEqual([]);
    // Only the shared chunks are exported (nothing imports an element module), under their ids.
    expect(exportNames(code).sort()).toEqual(["_a", "_b"]);
    // The live export is a getter, the others plain (renamed where the local differs); renamed imports destructured.
    expect(code).toContain("get n(){return count}");
    expect(code).toContain("b:bump");
    expect(code).toContain("{l:base}");
    // __chorusLoad kept as is; every placeholder filled with the German table.
    expect(code).toContain(`__chorusLoad("chorus-review-form")`);
    expect(code).not.toContain("\u0000");
    expect(code).toContain(JSON.stringify(textsTable("reviews", "de")));
    expect(code).toContain(JSON.stringify(textsTable("starRating", "de")));
    expect(code).toContain(JSON.stringify(textsTable("common", "de")));
  });

  it("a newer level imports what it needs from the older levels' exact files (same ?lang) and holds none of their modules", () => {
    const l1 = comboSource(small, `${V}.star-rating.js`, "pt-BR")!;
    const l2 = comboSource(small, `${V}.reviews~star-rating.js`, "pt-BR")!;
    const l3 = comboSource(small, `${V}.review-form~reviews~star-rating.js`, "pt-BR")!;
    expect(exportNames(l1)).toEqual(["_a"]);
    expect(importsOf(l1)).toEqual([]);
    expect(importsOf(l2)).toEqual([{ source: `./${V}.star-rating.js?lang=pt-BR`, names: ["_a"] }]);
    expect(l2).not.toContain(`"base:"`);
    expect(l2).toContain(`"mid:"`);
    expect(exportNames(l2)).toEqual(["_b"]);
    // The form needs only mid (level 1's); base is not imported since the form does not import it itself.
    expect(importsOf(l3)).toEqual([{ source: `./${V}.reviews~star-rating.js?lang=pt-BR`, names: ["_b"] }]);
    for (const s of [`"base:"`, `"mid:"`, `"reviews:"`, `"star:"`]) expect(l3).not.toContain(s);
    expect(exportNames(l3)).toEqual([]);
    // Without a language: no query on the imports.
    expect(importsOf(comboSource(small, `${V}.reviews~star-rating.js`)!)[0]!.source).toBe(`./${V}.star-rating.js`);
  });

  it("a level importing from two older levels imports from each its own file, oldest last", () => {
    const code = comboSource(small, `${V}.reviews~review-form~star-rating.js`, "de")!;
    // review-form (level 1) holds mid; star-rating (level 2) holds base; reviews imports both.
    expect(importsOf(code)).toEqual([
      { source: `./${V}.review-form~star-rating.js?lang=de`, names: ["_b"] },
      { source: `./${V}.star-rating.js?lang=de`, names: ["_a"] },
    ]);
  });

  describe("evaluated as ES modules (child Node process)", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "chorus-combo-"));
      writeFileSync(join(dir, "package.json"), `{"type":"module"}`);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** Write the combos named `names` for `lang` into dir, import them in order as the loader would, return what ran. */
    const run = (names: string[], lang: string, after = "") => {
      for (const name of names) writeFileSync(join(dir, `${V}.${name}.js`), comboSource(small, `${V}.${name}.js`, lang)!);
      const query = lang ? `?lang=${lang}` : "";
      const script = `globalThis.__log=[];globalThis.__texts={};globalThis.__loads=[];globalThis.__chorusLoad=(t)=>{__loads.push(t)};
const ns={};
for (const name of ${JSON.stringify(names)}) ns[name]=await import(${JSON.stringify(pathToFileURL(dir).href)}+"/${V}."+name+".js${query}");
${after}
console.log(JSON.stringify({log:__log,texts:__texts,loads:__loads,out:globalThis.__out??null}));`;
      writeFileSync(join(dir, "run.mjs"), script);
      return JSON.parse(execFileSync(process.execPath, [join(dir, "run.mjs")], { encoding: "utf8" })) as {
        log: string[]; texts: Record<string, Record<string, string>>; loads: string[]; out: unknown;
      };
    };

    it("a chain of three levels runs every module exactly once, each after what it imports, in the page's language", () => {
      const { log, texts, loads } = run(["star-rating", "reviews~star-rating", "review-form~reviews~star-rating"], "de", `__openForm();`);
      expect(log).toEqual(["base:de", "star:base", "mid:base", "reviews:base+mid", `form:${TRANSLATIONS.de["common.networkError"]}`]);
      expect(texts.reviews).toEqual(textsTable("reviews", "de"));
      expect(texts.starRating).toEqual(textsTable("starRating", "de"));
      expect(loads).toEqual(["chorus-review-form"]);
    });

    it("a live export is read through a getter: the combo's namespace shows the exporter's current value", () => {
      const { out } = run(["star-rating", "reviews~star-rating"], "", `const a=ns["star-rating"]._a;const before=a.n;a.b();globalThis.__out=[before,a.n];`);
      // reviews called bump() once while evaluating, the script once more.
      expect(out).toEqual([1, 2]);
    });

    it("a page without a language (or one Chorus does not ship) gets English texts and locale en", () => {
      for (const lang of ["", "xx"]) {
        const { log, texts } = run(["reviews+star-rating"], lang);
        expect(log[0]).toBe("base:en");
        expect(texts.reviews).toEqual(english("reviews"));
      }
    });
  });

  it("an unknown text table makes the combo unservable (null), not a broken module", () => {
    const broken: ComboManifest = { ...small, modules: { ...small.modules, "chorus-star-rating.js": { ...small.modules["chorus-star-rating.js"]!, body: `x=\u0000nope\u0000` } } };
    expect(comboSource(broken, `${V}.star-rating.js`)).toBeNull();
    expect(comboSource(broken, `${V}.reviews.js`)).not.toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Name grammar and language tags (on the hand-written manifest and the real one alike).
// ---------------------------------------------------------------------------------------------------------------
describe("combo names and language tags", () => {
  const refused = (m: ComboManifest) => {
    const v = m.version;
    return [
      [`${v}.nope.js`, "", "unknown tag"],
      [`${v}.reviews+nope.js`, "", "unknown tag in a level"],
      [`${v}.star-rating+reviews.js`, "", "unsorted level"],
      [`${v}.reviews+reviews.js`, "", "a tag twice in one level"],
      [`${v}.reviews~reviews.js`, "", "a tag in two levels"],
      [`${v}.star-rating~reviews+star-rating.js`, "", "a tag in two levels"],
      [`${v}.reviews~~star-rating.js`, "", "empty level"],
      [`${v}.reviews~.js`, "", "empty last level"],
      [`${v}..js`, "", "no level"],
      [`${v}.reviews++star-rating.js`, "", "empty tag"],
      [`${v}.chorus-reviews.js`, "", "long tag name"],
      [`${v}.Reviews.js`, "", "upper case"],
      [`${v}.reviews.mjs`, "", "other extension"],
      [`${v}.reviews`, "", "no extension"],
      [`../${v}.reviews.js`, "", "a path"],
      [`${v}.reviews.js`, "../", "lang ../"],
      [`${v}.reviews.js`, "de/../fr", "lang with a path"],
      [`${v}.reviews.js`, "de_DE", "lang with underscore"],
      [`${v}.reviews.js`, "d", "lang too short"],
      [`${v}.reviews.js`, "deut", "lang too long"],
      [`${v}.reviews.js`, "de-", "lang with empty subtag"],
      [`${v}.reviews.js`, "de-abcdefghi", "subtag of 9"],
      [`${v}.reviews.js`, "12", "digits"],
      [`${v}.reviews.js`, "de-a-b-c-d-e-f-g", "eight subtags"],
      [`${v}.reviews.js`, `de-${"x".repeat(1000)}`, "very long"],
      [`${v}.reviews.js`, "de\"", "a quote"],
      [`${v}.reviews.js`, "de&x=1", "an ampersand"],
      [`${v}.reviews.js`, "de DE", "a space"],
      [`${v}.reviews.js`, "de\n", "a newline"],
    ] as const;
  };

  it("the hand-written manifest: every malformed name or language → null", () => {
    for (const [file, lang, why] of refused(small)) expect(comboSource(small, file, lang), `${why}: ${file} ${JSON.stringify(lang)}`).toBeNull();
  });

  it("accepted language tags pick the UI language (de-DE → de, pt-BR, zh-Hant-TW → zh-Hant) and keep the tag in the imports", () => {
    expect(comboSource(small, `${V}.star-rating.js`, "de-DE")).toBe(comboSource(small, `${V}.star-rating.js`, "de"));
    for (const [lang, locale] of [["de-DE", "de"], ["pt-BR", "pt-BR"], ["zh-Hant-TW", "zh-Hant"], ["de-AT-formal", "de-formal"], ["PT-br", "pt-BR"]] as const) {
      const code = comboSource(small, `${V}.reviews~star-rating.js`, lang);
      expect(code, lang).not.toBeNull();
      expect(code!.startsWith(`const __chorusTextsLocale="${locale}";`), lang).toBe(true);
      expect(code, lang).toContain(JSON.stringify(textsTable("reviews", locale)));
      expect(importsOf(code!)[0]!.source).toBe(`./${V}.star-rating.js?lang=${lang}`);
    }
    expect(LANG_TAG.test("zh-Hant-TW")).toBe(true);
    expect(LANG_TAG.test("de_DE")).toBe(false);
  });

  it("comboPath builds the names comboSource answers (short names, each level sorted, newest first)", () => {
    const path = comboPath(V, [["chorus-reviews"], ["chorus-star-rating", "chorus-review-form"]]);
    expect(path).toBe(`chunks/${V}.reviews~review-form+star-rating.js`);
    expect(COMBO_FILE.test(path.slice("chunks/".length))).toBe(true);
    expect(comboSource(small, path.slice("chunks/".length))).not.toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// textsTable
// ---------------------------------------------------------------------------------------------------------------
describe("textsTable", () => {
  it("German reviews: every English ID in English order, each German", () => {
    const table = textsTable("reviews", "de")!;
    const ids = Object.keys(english("reviews"));
    expect(Object.keys(table).slice(0, ids.length)).toEqual(ids);
    for (const id of ids) expect(table[id], id).toBe(TRANSLATIONS.de[id]);
    expect(table["reviews.order.dateDesc"]).not.toBe(english("reviews")["reviews.order.dateDesc"]);
  });

  it("English where a language has no text (Japanese has no `.one` forms)", () => {
    const table = textsTable("reviews", "ja")!;
    const en = english("reviews");
    const ids = Object.keys(en);
    expect(Object.keys(table)).toEqual(ids);
    const missing = ids.filter((id) => !(id in TRANSLATIONS.ja));
    expect(missing).toContain("reviews.helpfulCount.one");
    for (const id of missing) expect(table[id], id).toBe(en[id]);
    for (const id of ids.filter((id) => id in TRANSLATIONS.ja)) expect(table[id], id).toBe(TRANSLATIONS.ja[id]);
  });

  it("plural forms English lacks are appended after the English IDs (Polish `.few`, `.many`)", () => {
    for (const group of ["reviews", "starRating", "loyalty"]) {
      const table = textsTable(group, "pl")!;
      const ids = Object.keys(english(group));
      const extra = Object.keys(TRANSLATIONS.pl).filter((id) => textGroupOf(id) === group && !ids.includes(id));
      expect(extra.some((id) => id.endsWith(".few")), group).toBe(true);
      expect(Object.keys(table), group).toEqual([...ids, ...extra]);
      for (const id of extra) expect(table[id]).toBe(TRANSLATIONS.pl[id]);
    }
    expect(textsTable("reviews", "pl")!["reviews.helpfulCount.few"]).toBe(TRANSLATIONS.pl["reviews.helpfulCount.few"]);
  });

  it("English is the English table; common is the shared texts; an unknown group is null", () => {
    expect(textsTable("reviews", "en")).toEqual(english("reviews"));
    expect(Object.keys(textsTable("reviews", "en")!)).toEqual(Object.keys(english("reviews")));
    expect(Object.keys(textsTable("common", "fr")!)).toEqual(Object.keys(COMMON_TEXTS));
    expect(textsTable("common", "fr")!["common.networkError"]).toBe(TRANSLATIONS.fr["common.networkError"]);
    expect(textsTable("nope", "de")).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real build (public/widgets/combo.json).
// ---------------------------------------------------------------------------------------------------------------
describe("the built combo.json", () => {
  const widgetsDir = join(PROJECT_ROOT, "public/widgets");
  let m: ComboManifest;
  beforeAll(() => {
    const file = join(widgetsDir, "combo.json");
    if (!existsSync(file)) throw new Error("public/widgets/combo.json is missing: run `npm run build:widgets`");
    m = JSON.parse(readFileSync(file, "utf8")) as ComboManifest;
  });
  const name = (levels: string[][]) => comboPath(m.version, levels).slice("chunks/".length);
  /** 200 characters of a module's own code (its longest stretch between text tables), found in no other module. */
  const mark = (file: string) => m.modules[file]!.body.split("\u0000").sort((a, b) => b.length - a.length)[0]!.slice(0, 200);
  /** Every file a tag's entry needs. */
  const needs = (file: string, out = new Set<string>()): Set<string> => {
    if (out.has(file)) return out;
    out.add(file);
    for (const i of m.modules[file]!.imports) needs(i.file, out);
    return out;
  };

  it("each module's mark is its own (the checks below find modules by it)", () => {
    for (const f of Object.keys(m.modules)) expect(Object.keys(m.modules).filter((o) => m.modules[o]!.body.includes(mark(f))), f).toEqual([f]);
  });

  it("the loader carries the build's version", () => {
    expect(m.version).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(readFileSync(join(widgetsDir, "chorus.js"), "utf8")).toContain(`chunks/${m.version}.`);
  });

  it("malformed names and languages → null; the real tags and accepted tags → a module", () => {
    for (const [file, lang, why] of [
      [`${m.version}.nope.js`, "", "unknown tag"],
      [`${m.version}.star-rating+reviews.js`, "", "unsorted"],
      [`${m.version}.reviews~reviews+star-rating.js`, "", "a tag in two levels"],
      [`${m.version}.reviews~~star-rating.js`, "", "empty level"],
      [`${m.version}.reviews.js`, "../", "lang ../"],
      [`${m.version}.reviews.js`, "de_DE", "lang de_DE"],
      [`${m.version}.reviews.js`, `de-${"a".repeat(300)}`, "very long lang"],
    ]) {
      expect(comboSource(m, file, lang), why).toBeNull();
    }
    for (const tag of Object.keys(m.tags)) {
      for (const lang of ["", "de-DE", "pt-BR", "zh-Hant-TW"]) expect(comboSource(m, name([[tag]]), lang), `${tag} ${lang}`).not.toBeNull();
    }
  });

  it("a product page's level holds its elements and their shared modules, each once, each after what it imports; it exports the shared chunks", () => {
    const tags = ["chorus-reviews", "chorus-reviews-summary", "chorus-star-rating"];
    const code = comboSource(m, name([tags]), "de")!;
    parseModule(code);
    expect(importsOf(code)).toEqual([]);
    const held = new Set(tags.flatMap((t) => [...needs(m.tags[t]!)]));
    for (const f of held) {
      const at = code.indexOf(mark(f));
      expect(at, f).toBeGreaterThan(0);
      expect(code.lastIndexOf(mark(f)), `${f} once`).toBe(at);
      for (const dep of m.modules[f]!.imports) expect(code.indexOf(mark(dep.file)), `${dep.file} before ${f}`).toBeLessThan(at);
    }
    // Elements not named are not in it.
    for (const [tag, file] of Object.entries(m.tags)) if (!tags.includes(tag)) expect(code, tag).not.toContain(mark(file));
    const chunks = [...held].filter((f) => m.modules[f]!.exports.length);
    expect(chunks.length).toBeGreaterThan(0);
    expect(exportNames(code).sort()).toEqual(chunks.map((f) => m.modules[f]!.id).sort());
  });

  it("a chain (star-rating, then reviews~star-rating) parses, and the newer level imports only names the older level's own file exports", () => {
    const older = name([["chorus-star-rating"]]);
    const newer = name([["chorus-reviews"], ["chorus-star-rating"]]);
    const lang = "de";
    const a = comboSource(m, older, lang)!;
    const b = comboSource(m, newer, lang)!;
    // Written under their names and read back: both parse as modules.
    const dir = mkdtempSync(join(tmpdir(), "chorus-combo-real-"));
    try {
      writeFileSync(join(dir, older), a);
      writeFileSync(join(dir, newer), b);
      parseModule(readFileSync(join(dir, older), "utf8"));
      parseModule(readFileSync(join(dir, newer), "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const imports = importsOf(b);
    expect(imports.length).toBe(1);
    expect(imports[0]!.source).toBe(`./${older}?lang=${lang}`);
    const exported = exportNames(a);
    expect(imports[0]!.names.length).toBeGreaterThan(0);
    for (const n of imports[0]!.names) expect(exported).toContain(n);
    // Nothing the older level holds is repeated; what reviews needs beyond it is in the newer one.
    const olderHeld = needs(m.tags["chorus-star-rating"]!);
    for (const f of olderHeld) expect(b, f).not.toContain(mark(f));
    for (const f of needs(m.tags["chorus-reviews"]!)) if (!olderHeld.has(f)) expect(b, f).toContain(mark(f));
  });

  it("every element after all the others: imports resolve to the older level's exports", () => {
    const all = Object.keys(m.tags);
    for (const tag of all) {
      const rest = all.filter((t) => t !== tag);
      const older = comboSource(m, name([rest]), "ja")!;
      const newer = comboSource(m, name([[tag], rest]), "ja")!;
      parseModule(newer);
      const exported = exportNames(older);
      for (const i of importsOf(newer)) {
        expect(i.source).toBe(`./${name([rest])}?lang=ja`);
        for (const n of i.names) expect(exported, `${tag} imports ${n}`).toContain(n);
      }
    }
  });

  it("texts speak the page's language: de → German and locale de; xx or none → English and en", () => {
    const file = name([["chorus-reviews", "chorus-star-rating"]]);
    const id = "reviews.order.dateDesc";
    const german = JSON.stringify(TRANSLATIONS.de[id]);
    const en = JSON.stringify(english("reviews")[id]);
    const de = comboSource(m, file, "de")!;
    expect(de).toContain(german);
    expect(de).toContain(`const __chorusTextsLocale="de"`);
    expect(de).toContain(JSON.stringify(textsTable("reviews", "de")));
    expect(de).not.toContain("\u0000");
    for (const lang of ["xx", ""]) {
      const code = comboSource(m, file, lang)!;
      expect(code, lang).toContain(en);
      expect(code, lang).not.toContain(german);
      expect(code, lang).toContain(`const __chorusTextsLocale="en"`);
      expect(code, lang).toContain(JSON.stringify(english("reviews")));
    }
  });

  it("comboSources: the same source as comboSource, a strong ETag by content, gzip and brotli forms of it; null for names it does not serve", async () => {
    const sources = comboSources(widgetsDir, 2);
    expect(sources.version()).toBe(m.version);
    const file = name([["chorus-star-rating"]]);
    const de = sources.source(file, "de")!;
    expect(de.body.toString("utf8")).toBe(comboSource(m, file, "de"));
    expect(de.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(sources.source(file, "de")).toBe(de);
    const fr = sources.source(file, "fr")!;
    expect(fr.etag).not.toBe(de.etag);
    expect(gunzipSync(await de.encoded("gzip")).toString("utf8")).toBe(comboSource(m, file, "de"));
    expect(brotliDecompressSync(await de.encoded("br")).toString("utf8")).toBe(comboSource(m, file, "de"));
    expect(sources.source(file, "de_DE")).toBeNull();
    expect(sources.source(`${file}x`)).toBeNull();
    // Another build's name: this build's code, its imports under that name's version, not kept a year.
    const other = `${m.version.slice(0, 7)}${m.version[7] === "A" ? "B" : "A"}`;
    expect(de.current).toBe(true);
    const old = sources.source(`${other}.reviews~star-rating.js`, "de")!;
    expect(old.current).toBe(false);
    expect(old.body.toString("utf8")).toBe(comboSource(m, `${m.version}.reviews~star-rating.js`, "de")!.replace(`./${m.version}.star-rating.js`, `./${other}.star-rating.js`));
    // Past the LRU's size, an entry dropped is made again, the same.
    for (const lang of ["es", "it", "nl"]) sources.source(file, lang);
    const again = sources.source(file, "de")!;
    expect(again).not.toBe(de);
    expect(again.body.equals(de.body)).toBe(true);
    expect(again.etag).toBe(de.etag);
    const none = comboSources(join(tmpdir(), "no-such-widgets-dir"));
    expect(none.version()).toBeNull();
    expect(none.source(file)).toBeNull();
  });
});

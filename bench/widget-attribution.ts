/**
 * Where the widget bytes are (issue #23 weight, ADR 0014): builds the widgets with the project's Vite config into a
 * temporary folder (public/widgets is left alone), maps each minified output file back to its source modules through
 * terser's source map over Vite's, and prints per file its gzip size and per module the minified bytes it owns and
 * the gzip bytes the file loses without them (`node bench/widget-attribution.ts`; no lock needed).
 */
import { build, type Plugin } from "vite";
import { minify } from "terser";
import { SourceMapConsumer, type RawSourceMap } from "source-map-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import config, { TERSER } from "../widgets/vite.config.ts";

type Captured = { fileName: string; code: string; map: RawSourceMap };
const captured: Captured[] = [];

/** Minifies each chunk as the build does (before its own minifier runs), keeping terser's source map. */
const capture: Plugin = {
  name: "chorus-attribution",
  async generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (file.type !== "chunk") continue;
      const source = file.code.replace(/__vitePreload\(\(\) => (import\("[^"]+"\)), [^)]*\)/g, "$1");
      const out = await minify(source, { ...TERSER, sourceMap: { content: file.map ? JSON.stringify(file.map) : undefined, asObject: true } });
      captured.push({ fileName: file.fileName, code: out.code!, map: out.map as unknown as RawSourceMap });
    }
  },
};

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;
const short = (source: string | null) =>
  (source ?? "(unmapped)")
    .replace(/^.*node_modules\//, "")
    .replace(/^.*\/widgets\//, "widgets/")
    .replace(/^.*\/server\//, "server/");

const outDir = mkdtempSync(join(tmpdir(), "chorus-widget-attribution-"));
try {
  const plugins = [...(config.plugins ?? [])];
  void plugins.splice(
    plugins.findIndex((p) => p && "name" in p && p.name === "chorus-minify-es"),
    0,
    capture,
  );
  await build({ ...config, plugins, configFile: false, logLevel: "warn", root: join(import.meta.dirname, "../widgets"), build: { ...config.build, outDir, sourcemap: true } });
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

for (const { fileName, code, map } of captured) {
  // The owner (source module) of each character of the minified file: the mapping segment it falls in.
  const lines = code.split("\n");
  const owner: string[][] = lines.map((line) => new Array<string>(line.length).fill("(unmapped)"));
  const segments: { generatedLine: number; generatedColumn: number; source: string | null }[] = [];
  new SourceMapConsumer(map).eachMapping((m) => segments.push(m));
  segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
  segments.forEach((m, i) => {
    const next = segments[i + 1];
    const end = next && next.generatedLine === m.generatedLine ? next.generatedColumn : lines[m.generatedLine - 1]!.length;
    for (let c = m.generatedColumn; c < end; c++) owner[m.generatedLine - 1]![c] = short(m.source);
  });
  const flat = owner.flatMap((line, i) => (i < owner.length - 1 ? [...line, "(unmapped)"] : line));
  const whole = gzip(code);
  const modules = [...new Set(flat)].map((module) => ({
    module,
    bytes: flat.filter((o) => o === module).length,
    gzipWithout:
      whole -
      gzip(
        code
          .split("")
          .filter((_, i) => flat[i] !== module)
          .join(""),
      ),
  }));
  console.log(`\n${fileName}: ${code.length} bytes, ${whole} gzip`);
  for (const m of modules.sort((a, b) => b.gzipWithout - a.gzipWithout)) console.log(`  ${String(m.bytes).padStart(6)} ${String(m.gzipWithout).padStart(6)}  ${m.module}`);
}

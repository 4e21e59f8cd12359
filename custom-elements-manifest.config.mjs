/**
 * The widgets' custom-elements manifest (docs/widgets.md, the tables between its custom-elements markers): `npm run build:widgets` runs
 * `cem analyze` with this file and writes `public/widgets/custom-elements.json`, served at
 * `/widgets/custom-elements.json`. The source is each element class's JSDoc (`@summary`, `@tag`, `@attr`, `@event`,
 * `@csspart`, `@cssproperty`, `@slot`) and its `static properties` table; the base class (the common attributes,
 * widgets/internal/chorus-element.ts) is analysed too, so every element inherits them. `npm run docs:widgets`
 * writes docs/widgets.md's tables from the manifest.
 */

/**
 * Lit's internal reactive state (`{ state: true }` in a `static properties` table) is neither an attribute nor a
 * public property: left out of the manifest, as are the base class's `emit` helper's event (its name is a
 * parameter) and the fields the elements keep for their own rendering.
 */
const internalState = () => ({
  name: "chorus-internal-state",
  analyzePhase({ ts, node, moduleDoc }) {
    if (node.kind !== ts.SyntaxKind.ClassDeclaration || !node.name) return;
    const doc = moduleDoc.declarations?.find((d) => d.name === node.name.getText());
    if (!doc) return;
    const table = node.members.find((m) => m.name?.getText() === "properties" && m.initializer && ts.isObjectLiteralExpression(m.initializer));
    const internal = new Set();
    for (const entry of table?.initializer.properties ?? []) {
      if (!ts.isPropertyAssignment(entry) || !ts.isObjectLiteralExpression(entry.initializer)) continue;
      const isState = entry.initializer.properties.some((p) => p.name?.getText() === "state" && p.initializer?.kind === ts.SyntaxKind.TrueKeyword);
      if (isState) internal.add(entry.name.getText());
    }
    const reactive = new Set(table?.initializer.properties.map((p) => p.name?.getText()) ?? []);
    const attributeFields = new Set((doc.attributes ?? []).map((a) => a.fieldName).filter(Boolean));
    doc.attributes = (doc.attributes ?? []).filter((a) => !internal.has(a.fieldName));
    // Public API: the reactive properties that are not internal state (the fields behind the attributes).
    doc.members = (doc.members ?? []).filter((m) => m.kind === "field" && !m.static && !internal.has(m.name) && (reactive.has(m.name) || attributeFields.has(m.name)));
    if (doc.name === "ChorusElement") delete doc.events;
  },
});

export default {
  globs: ["widgets/*/chorus-*.ts", "widgets/internal/chorus-element.ts"],
  exclude: ["widgets/**/*.test.ts", "widgets/**/*.styles.ts"],
  outdir: "public/widgets",
  litelement: true,
  packagejson: false,
  plugins: [internalState()],
};

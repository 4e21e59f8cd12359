/**
 * The custom-elements manifest over real HTTP (`/widgets/custom-elements.json`, written by `npm run build:widgets`
 * from the elements' JSDoc: docs/widgets.md, "Common attributes and shared tokens"): JSON, kept 5 minutes (not
 * `immutable`: its name does not change with its content), any origin; it lists every registered tag
 * (widgets/internal/registry.ts) with the common and its own attributes, the events its source emits, the parts
 * its templates have and its own custom properties.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { WIDGET_TAGS } from "../../widgets/internal/registry.ts";
import { elementSource, emittedEvents, ownCustomProperties, partNames } from "../../test/widget-sources.ts";
import { elementOf, type Declaration, type Manifest } from "../cli/widget-docs.ts";
import { LOADER_MAX_AGE_S } from "./static.ts";

let t: TestServer;
let res: Response;
let manifest: Manifest;

beforeAll(async () => {
  t = await startTestServer();
  res = await fetch(t.url("/widgets/custom-elements.json"));
  manifest = (await res.json()) as Manifest;
}, 60_000);
afterAll(() => t?.close());

const names = (items: { name: string }[] | undefined): string[] => (items ?? []).map((i) => i.name);

describe("GET /widgets/custom-elements.json", () => {
  it("is JSON kept 5 minutes, not immutable, for any origin", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("cache-control")).toBe(`public, max-age=${LOADER_MAX_AGE_S}`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each(WIDGET_TAGS)("lists %s with its attributes, events, parts and custom properties", (tag) => {
    const element = elementOf(manifest, tag) as Declaration;
    expect(element, `${tag} is not in the manifest`).toBeDefined();
    expect(element.summary?.length).toBeGreaterThan(10);
    const attributes = names(element.attributes);
    for (const common of ["store-id", "api-base"]) expect(attributes).toContain(common);
    // Every attribute the element declares in its `static properties` table (not internal state).
    const source = elementSource(tag);
    const table = /static properties = \{([\s\S]*?)\n {2}\};/.exec(source)?.[1] ?? "";
    for (const [, attribute] of table.matchAll(/attribute: "([\w-]+)"/g)) expect(attributes).toContain(attribute);
    for (const [, field] of table.matchAll(/^\s+(\w+): \{(?![^}]*state: true)[^}]*\}/gm)) {
      expect(names(element.members), `property ${field} of ${tag}`).toContain(field);
    }
    expect(attributes).not.toContain("texts");
    expect(names(element.events).sort()).toEqual(emittedEvents(source));
    for (const event of element.events ?? []) expect(event.description, `${tag} ${event.name}: its detail`).toMatch(/\{/);
    const parts = names(element.cssParts);
    for (const part of partNames(source)) expect(parts).toContain(part);
    const properties = names(element.cssProperties);
    for (const property of ownCustomProperties(tag, source)) expect(properties).toContain(property);
    expect(properties).toContain("--chorus-accent");
  });
});

/**
 * The accessibility assertion every spec uses (e2e/axe.ts): it finds what it must, on a page of one frame (scanned in
 * the page) and on a page with a frame (scanned frame by frame), in the page and inside an element's shadow root, and
 * `include` limits it to the part under test.
 */
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe.ts";

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>axe check</title></head><body><main><h1>axe check</h1>${body}</main></body></html>`;
const SHADOW = `<div id="host"></div><script>document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<button></button>';</script>`;

test("a clean page passes; an image without text, an unnamed button in a shadow root and one in a frame fail, each by name", async ({ page: p }) => {
  await p.route("**/e2e/axe/*", (route) => {
    const name = new URL(route.request().url()).pathname.split("/").pop();
    const bodies: Record<string, string> = {
      clean: `<p>Nothing wrong here.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot">`,
      image: `<p id="fine">Fine.</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
      shadow: SHADOW,
      framed: `<iframe title="A form" src="/e2e/axe/inner"></iframe>`,
    };
    const html = name === "inner" ? `<!doctype html><html lang="en"><head><title>inner</title></head><body><button></button></body></html>` : page(bodies[name!]!);
    return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
  });

  await p.goto("/e2e/axe/clean");
  await expectNoAxeViolations(p);

  await p.goto("/e2e/axe/image");
  await expect(expectNoAxeViolations(p)).rejects.toThrow(/image-alt/);
  // Limited to a part without the image: passes.
  await expectNoAxeViolations(p, "#fine");

  await p.goto("/e2e/axe/shadow");
  await expect(expectNoAxeViolations(p)).rejects.toThrow(/button-name[\s\S]*#host/);

  await p.goto("/e2e/axe/framed");
  await expect(p.frameLocator("iframe").locator("button")).toHaveCount(1);
  await expect(expectNoAxeViolations(p)).rejects.toThrow(/button-name[\s\S]*iframe/);
});

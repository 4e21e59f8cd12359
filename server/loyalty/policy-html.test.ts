import { describe, expect, it } from "vitest";
import { safeHref } from "../contract/safe-href.ts";
import { sanitizePolicyHtml } from "./policy-html.ts";

/** The hrefs of the links `sanitizePolicyHtml` keeps (null: the link was kept without its href). */
const keptHrefs = (html: string) => [...sanitizePolicyHtml(html).matchAll(/<a([^>]*)>/g)].map((m) => /href="([^"]*)"/.exec(m[1])?.[1] ?? null);

describe("sanitizePolicyHtml (docs/loyalty.md, Legal policies: merchant HTML sanitised before it is stored)", () => {
  it("keeps text, inline markup and http(s)/relative links, adding rel=noopener noreferrer", () => {
    expect(sanitizePolicyHtml('By joining you accept the <a href="https://shop.example/terms">Terms</a> and <strong>our</strong> <a href="/privacy">Privacy Policy</a>.')).toBe(
      'By joining you accept the <a href="https://shop.example/terms" rel="noopener noreferrer">Terms</a> and <strong>our</strong> <a href="/privacy" rel="noopener noreferrer">Privacy Policy</a>.',
    );
  });

  it.each([
    ['<img src=x onerror="alert(1)">', /<img|onerror/],
    ["<script>alert(1)</script>", /script|alert/],
    ['<a href="javascript:alert(1)">x</a>', /javascript/],
    ['<a href="//evil.example/x">x</a>', /evil/],
    ['<span onclick="alert(1)" style="color:red">x</span>', /onclick|style/],
    ['<svg onload="alert(1)"></svg><iframe src="https://evil.example"></iframe>', /svg|iframe|onload/],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', /data:|script/],
  ])("removes %s", (dirty, forbidden) => {
    expect(sanitizePolicyHtml(dirty)).not.toMatch(forbidden);
  });

  it.each([["/\\evil.example"], ["\\\\evil.example"], ["\\/evil.example"], ["/&#9;/evil.example"], ["/&#10;/evil.example"], ["/&#92;evil.example"], [" //evil.example"]])(
    "drops the href %j, which looks site-relative but a browser resolves off-site (issue #19 finding 10), and keeps the text",
    (href) => {
      expect(sanitizePolicyHtml(`<a href="${href}">Terms</a>`)).toBe('<a rel="noopener noreferrer">Terms</a>');
    },
  );

  it("keeps exactly the hrefs the widget's rule (contract/safe-href.ts) keeps: one rule on both sides", () => {
    // Written as HTML; the sanitiser and the browser both see the decoded attribute value.
    const hrefs = [
      "/privacy",
      "/pages/terms?x=1#top",
      "terms",
      "../terms",
      "#terms",
      "?policy=terms",
      "/%5Cevil",
      "https://shop.example/terms",
      "mailto:privacy@shop.example",
      "/\\evil.example",
      "//evil.example",
      "/terms&#1;",
      "/te&#11;rms",
      "/a&#12;b",
      "java&#9;script:alert(1)",
      "tel:123",
    ];
    const decoded = (href: string) => href.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    const html = hrefs.map((h) => `<a href="${h}">x</a>`).join(" ");
    expect(keptHrefs(html).map((h) => h !== null)).toEqual(hrefs.map((h) => safeHref(decoded(h), "https://shop.example/products/kettle") !== null));
    expect(keptHrefs('<a href="/privacy">x</a> <a href="terms">y</a>')).toEqual(["/privacy", "terms"]);
  });

  it("is idempotent: sanitising stored HTML again gives the same text (an unchanged policy keeps its version)", () => {
    const once = sanitizePolicyHtml('Join: <a href="/terms" target="_blank" class="x">terms</a>, <a target="_self" href="https://shop.example/p">privacy</a> <a href="/\\evil.example">bad</a>.');
    expect(sanitizePolicyHtml(once)).toBe(once);
  });
});

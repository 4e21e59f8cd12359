// @vitest-environment happy-dom
/**
 * Merchant links in the loyalty legal sentence (issue #19 finding 10): a link that is written as
 * relative must resolve on the page's own origin, parsed as the browser parses it (WHATWG URL).
 */
import { describe, expect, it } from "vitest";
import { safeHref, safeHtmlFragment } from "./safe-html.ts";

const BASE = "https://shop.example/products/kettle";

describe("safeHref", () => {
  it.each([
    ["/\\evil.example"],
    ["//evil.example"],
    ["\\\\evil.example"],
    ["\\/evil.example"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["/\r\n\\evil.example"],
    [" //evil.example "],
    ["javascript:alert(1)"],
    ["JaVaScRiPt:alert(1)"],
    ["java\tscript:alert(1)"],
    ["java\nscript:alert(1)"],
    ["\u0001javascript:alert(1)"],
    ["data:text/html,<script>alert(1)</script>"],
    ["vbscript:msgbox(1)"],
    [""],
  ])("drops %j", (href) => {
    expect(safeHref(href, BASE)).toBeNull();
  });

  it.each([
    ["/terms", "https://shop.example/terms"],
    ["/%5Cevil", "https://shop.example/%5Cevil"],
    ["/pages/privacy?x=1#top", "https://shop.example/pages/privacy?x=1#top"],
    ["../terms", "https://shop.example/terms"],
    ["./terms", "https://shop.example/products/terms"],
    ["terms", "https://shop.example/products/terms"],
    ["?policy=terms", "https://shop.example/products/kettle?policy=terms"],
    ["#terms", "https://shop.example/products/kettle#terms"],
    ["https://policies.example/terms", "https://policies.example/terms"],
    ["http://policies.example/", "http://policies.example/"],
    ["mailto:privacy@shop.example", "mailto:privacy@shop.example"],
  ])("keeps %j as %j", (href, resolved) => {
    expect(safeHref(href, BASE)).toBe(resolved);
  });
});

describe("safeHtmlFragment", () => {
  const hrefs = (html: string) => [...safeHtmlFragment(html).querySelectorAll("a")].map((a) => a.getAttribute("href"));

  it("drops hrefs that look site-relative but resolve off-site, keeps the link text", () => {
    const fragment = safeHtmlFragment(`<a href="/\\evil.example">terms</a> <a href="//evil.example">privacy</a> <a href="/&#9;/evil.example">x</a>`);
    expect([...fragment.querySelectorAll("a")].map((a) => a.hasAttribute("href"))).toEqual([false, false, false]);
    expect(fragment.textContent).toBe("terms privacy x");
  });

  it("keeps a same-site path and an https link (resolved against the page)", () => {
    const origin = new URL(document.baseURI).origin;
    expect(hrefs(`<a href="/terms">t</a><a href="https://policies.example/p">p</a><a href="javascript:alert(1)">j</a>`)).toEqual([`${origin}/terms`, "https://policies.example/p", null]);
  });
});

import { describe, expect, it } from "vitest";
import { sanitizePolicyHtml } from "./policy-html.ts";

describe("sanitizePolicyHtml (decisions.md §4: merchant HTML sanitised before it is stored)", () => {
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
});

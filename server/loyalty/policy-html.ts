/**
 * Sanitising of the merchant's policy sentence HTML (docs/loyalty.md, Legal policies: sanitised on the server before it
 * is stored; the widget rebuilds it again from an allowlist before rendering). sanitize-html keeps only
 * inline text markup and links; every script, event handler attribute, style, iframe, image and form is
 * removed. Links get `rel="noopener noreferrer"`. An href is kept only when the one link rule
 * (contract/safe-href.ts, the rule the widget applies) keeps it: http(s), mailto, or a relative reference
 * that stays on the page's origin (`/\evil.example` and the like are dropped, issue #19 finding 10).
 */
import sanitizeHtml from "sanitize-html";
import { safeHref } from "../contract/safe-href.ts";

/** The page is unknown here; whether a relative href leaves its origin does not depend on which page. */
const ANY_PAGE = "https://site.invalid/page";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["a", "strong", "b", "em", "i", "u", "span", "br", "small"],
  allowedAttributes: { a: ["href", "target", "rel", "title"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Text inside removed script/style elements is dropped, not kept as text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "template"],
  transformTags: {
    // Attributes keep their order, so sanitising stored HTML again gives the same text (an unchanged
    // policy must not become a new version).
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      const kept = href === undefined || safeHref(href, ANY_PAGE) !== null ? attribs : rest;
      return {
        tagName,
        attribs: { ...kept, rel: "noopener noreferrer", ...(attribs.target && attribs.target !== "_blank" ? { target: "_blank" } : {}) },
      };
    },
  },
};

/** @returns `html` with everything but inline text markup and safe links removed. */
export function sanitizePolicyHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/**
 * Sanitising of the merchant's policy sentence HTML (decisions.md §4: sanitised on the server before it
 * is stored; the widget rebuilds it again from an allowlist before rendering). sanitize-html keeps only
 * inline text markup and links with http(s), mailto or same-site relative URLs; every script, event
 * handler attribute, style, iframe, image and form is removed. Links get `rel="noopener noreferrer"`.
 */
import sanitizeHtml from "sanitize-html";

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
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: "noopener noreferrer", ...(attribs.target && attribs.target !== "_blank" ? { target: "_blank" } : {}) },
    }),
  },
};

/** @returns `html` with everything but inline text markup and safe links removed. */
export function sanitizePolicyHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

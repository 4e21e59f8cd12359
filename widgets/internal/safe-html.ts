/**
 * Rebuild merchant HTML from an allowlist, for the loyalty legal sentence (docs/loyalty.md, Legal policies: sanitised
 * on the server with sanitize-html, and again here before rendering).
 *
 * The text is parsed into an inert document (DOMParser: no script runs, no resource loads) and a new
 * fragment is built from it: only allowed tags are recreated, only allowed attributes copied, and
 * `href` only with a safe scheme. Nothing of the parsed tree is inserted as is, so there is nothing to
 * forget to strip. (Replaces DOMPurify here: 8 KB gzip did not fit the widget weight budget.)
 */
import { safeHref } from "../../server/contract/safe-href.ts";

/** The href rule, defined once in the server contract (pure and dependency-free) and shared from here. */
export { safeHref };

const TAGS = new Set(["a", "strong", "b", "em", "i", "u", "span", "br", "small"]);

function copy(from: Node, to: Node, doc: Document): void {
  for (const child of from.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) {
      to.appendChild(doc.createTextNode(child.textContent ?? ""));
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      const tag = el.localName;
      if (!TAGS.has(tag)) {
        // Drop the element; keep the text of harmless containers, nothing of script-like ones.
        if (!["script", "style", "template", "iframe", "object", "embed", "svg", "math", "noscript"].includes(tag)) copy(el, to, doc);
        continue;
      }
      const clean = doc.createElement(tag);
      if (tag === "a") {
        const href = safeHref(el.getAttribute("href") ?? "", doc.baseURI);
        if (href !== null) clean.setAttribute("href", href);
        const title = el.getAttribute("title");
        if (title) clean.setAttribute("title", title);
        if (el.getAttribute("target") === "_blank") {
          clean.setAttribute("target", "_blank");
          clean.setAttribute("rel", "noopener noreferrer");
        }
      }
      copy(el, clean, doc);
      to.appendChild(clean);
    }
  }
}

/** @returns a fragment holding only allowed markup and text of `dirty`, owned by `document`. */
export function safeHtmlFragment(dirty: string): DocumentFragment {
  const parsed = new DOMParser().parseFromString(`<body>${dirty}`, "text/html");
  const fragment = document.createDocumentFragment();
  copy(parsed.body, fragment, document);
  return fragment;
}

/**
 * The one rule for a merchant link's href (issue #19 finding 10). Pure and dependency-free (WHATWG
 * `URL` only), so the server's policy sanitiser (server/loyalty/policy-html.ts) and the widgets
 * (widgets/internal/safe-html.ts: the legal sentence and the stored policy URLs of `<chorus-loyalty>`)
 * apply the same rule.
 */

const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);
/** A scheme written out at the start ("https:", "mailto:"); anything else is a relative reference. */
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * The href to keep for a merchant link, or null to drop it. The value is parsed as the browser will
 * (WHATWG URL against `base`: `\` read as `/`, tabs and newlines dropped): an absolute link must be
 * http(s) or mailto; a relative one (no scheme written out) must stay on `base`'s origin, so
 * `/\evil.example`, `//evil.example`, `\\evil.example` and `/\t/evil.example` are dropped. Control
 * characters are refused outright. Where the page is unknown (the server), any base of one's own
 * origin does: whether a relative reference leaves the page's origin does not depend on the page.
 * @param base an absolute URL: the page the link will be on.
 * @returns the resolved absolute URL, so what was checked is what the browser follows.
 */
export function safeHref(raw: string, base: string): string | null {
  const href = raw.trim();
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (href === "" || /[\u0000-\u001f\u007f]/.test(href)) return null;
  let url: URL;
  let origin: string;
  try {
    url = new URL(href, base);
    origin = new URL(base).origin;
  } catch {
    return null;
  }
  if (!SAFE_SCHEMES.has(url.protocol)) return null;
  if (!HAS_SCHEME.test(href) && url.origin !== origin) return null;
  return url.href;
}

/**
 * The loader behind /widgets/chorus.js, loaded by merchants with
 * `<script async src="https://<chorus-host>/widgets/chorus.js"></script>`.
 *
 * A classic script (no static imports), the one widget file without a hash in its name (cached 5 minutes): it finds
 * `chorus-*` elements already on the page and any added later (MutationObserver), and loads the module of each element
 * present, only those, from the script's own folder: `chunks/<tag>-<hash>.js`, static files named by their content
 * (cached a year, ADR 0018). The build writes the files' names into this script, so a page keeps importing the files of
 * the build its loader came from. The shared chunks an element module imports are hinted with
 * `<link rel="modulepreload">` as its module is requested (fetched in parallel, not one after the other). It also
 * records that folder's origin as the default API base, and starts each store's widget settings request (texts,
 * colours, which widgets show) while the code loads.
 */

// A module for TypeScript (its `declare global`); the build's output has no import or export.
export {};

/** The reservation rules as one style sheet: `reservationCss(WIDGET_RESERVATIONS)` (widgets/internal/registry.ts), inlined by the build. */
declare const __CHORUS_RESERVATIONS__: string;
/**
 * Each element tag (widgets/internal/registry.ts `WIDGET_TAGS`) with its module's file and the indexes in `CHUNKS` of
 * the shared chunks it imports; written by the build (widgets/vite.config.ts `loaderTable`).
 */
declare const __CHORUS_MODULES__: Record<string, [string, ...number[]]>;
/** The shared chunks' files, the one every element imports first (Lit and the common internals); written by the build. */
declare const __CHORUS_CHUNKS__: string[];

declare global {
  interface Window {
    __chorusBase?: string;
    /** Widget settings requests started here, by URL (widgets/internal/settings.ts reads them). */
    __chorusSettings?: Record<string, Promise<Response>>;
    /** Load an element's module by tag, for elements added where the loader's observer cannot see them (a shadow root). */
    __chorusLoad?: (tag: string) => void;
  }
}

const MODULES = __CHORUS_MODULES__;
const CHUNKS = __CHORUS_CHUNKS__;
const TAGS = Object.keys(MODULES);

const script = document.currentScript as HTMLScriptElement | null;
const scriptUrl = new URL(script?.src ?? "/widgets/chorus.js", location.href);
const base = new URL(".", scriptUrl).href;
window.__chorusBase ??= scriptUrl.origin;

/**
 * Reserve each widget's loading-state box the moment the loader runs (issue #23 item 5), for pages that carry
 * only the script tag and the elements: the integration snippet's rules (server/contract/widget-reservations.ts),
 * skipping server-rendered elements, which already have their size. A page with the snippet's `<style>` has
 * them from its first paint; without it the page shifts once, when this runs, instead of once per widget.
 */
const reservations = document.createElement("style");
reservations.textContent = __CHORUS_RESERVATIONS__;
document.head.prepend(reservations);

/** Element tags whose module was requested (removed again when it failed to load, so it may be tried again). */
const requested = new Set<string>();
/** Shared chunks hinted or requested, by index in `CHUNKS`. */
const hinted = new Set<number>();

/**
 * Request element `tag`'s module, once: first a `<link rel="modulepreload">` for each shared chunk it imports not
 * hinted yet (fetched at once, in parallel with the module, not after it), and the first shared chunk also in a module
 * script of its own (so its evaluation is a task of its own rather than part of the first element module's: issue 8,
 * no long task); then the element's module. Each file is fetched once (the browser's module map holds it by URL;
 * chorus-reviews imports the review form's module by the same URL).
 */
function load(tag: string): void {
  if (!TAGS.includes(tag) || requested.has(tag) || customElements.get(tag)) return;
  requested.add(tag);
  const [file, ...chunks] = MODULES[tag]!;
  for (const chunk of chunks) {
    if (hinted.has(chunk)) continue;
    hinted.add(chunk);
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = base + CHUNKS[chunk];
    document.head.append(link);
    if (!chunk) moduleScript(CHUNKS[0]!, () => hinted.delete(0));
  }
  moduleScript(file, () => requested.delete(tag));
}

/**
 * Add a module <script> for `file` (relative to the loader's folder) rather than import(): Vite wraps import()
 * in its preload helper, which a classic script cannot import.
 */
function moduleScript(file: string, onError: () => void): void {
  const script = document.createElement("script");
  script.type = "module";
  script.src = base + file;
  script.onerror = () => {
    onError();
    script.remove();
    console.error(`[chorus] could not load ${script.src}`);
  };
  document.head.append(script);
}

window.__chorusLoad = load;

const settings: Record<string, Promise<Response>> = (window.__chorusSettings ??= {});

/**
 * Start the widget settings request of `el`'s store (once per URL), so it runs while the element's code
 * loads; widgets/internal/settings.ts takes the answer (same URL rule: `settingsUrl`).
 */
function prefetchSettings(el: Element): void {
  const storeId = el.getAttribute("store-id");
  if (!storeId) return;
  const lang = el.closest("[lang]")?.getAttribute("lang") ?? "";
  const base = (el.getAttribute("api-base") || window.__chorusBase!).replace(/\/$/, "");
  const url = `${base}/v1/stores/${encodeURIComponent(storeId)}/widget_settings${/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/.test(lang) && lang.length <= 35 ? `?locale=${encodeURIComponent(lang)}` : ""}`;
  if (url in settings) return;
  const request = (settings[url] = fetch(url, { headers: { accept: "application/json" } }));
  request.catch(() => {}); // a failure means the defaults; the element reports nothing
}

/** Load the module of every tag present under `root`, one per task (issue 8: starting each fetch takes time too), then start their settings requests. */
function scan(root: ParentNode): void {
  const tags = TAGS.filter((tag) => root.querySelector(tag));
  for (const tag of tags) setTimeout(() => load(tag));
  if (tags.length) setTimeout(() => root.querySelectorAll(TAGS.join()).forEach(prefetchSettings));
}

function start(): void {
  scan(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const el = node as Element;
        if (TAGS.includes(el.localName)) {
          load(el.localName);
          prefetchSettings(el);
        }
        scan(el);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}

/**
 * Start once the page's HTML is parsed, checked from short tasks of our own: a DOMContentLoaded listener
 * would run inside the page's parsing task, which is often long by itself (issue 8: no long task of ours).
 */
function whenParsed(): void {
  if (document.readyState === "loading") setTimeout(whenParsed, 20);
  else start();
}
whenParsed();

/**
 * The loader behind /widgets/chorus.js, loaded by merchants with
 * `<script async src="https://<chorus-host>/widgets/chorus.js"></script>`.
 *
 * A classic script (no static imports): it finds `chorus-*` elements already on the page and any
 * added later (MutationObserver), and loads each element's module (a `<script type="module">`) from the script's own folder
 * only when that element is present. It also records that folder's origin as the default API base, and
 * starts each store's widget settings request (texts, colours, which widgets show) while the code loads.
 */
import { WIDGET_TAGS } from "./internal/registry.ts";

/** The reservation rules as one style sheet: `reservationCss(WIDGET_RESERVATIONS)` (widgets/internal/registry.ts), inlined by the build. */
declare const __CHORUS_RESERVATIONS__: string;

declare global {
  interface Window {
    __chorusBase?: string;
    /** Widget settings requests started here, by URL (widgets/internal/settings.ts reads them). */
    __chorusSettings?: Record<string, Promise<Response>>;
  }
}

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

const requested = new Set<string>();
/**
 * The shared chunk (Lit and the common internals; the build writes its file name here). It is requested in
 * a module script of its own before the first element module, so its evaluation is a task of its own
 * rather than part of the first element module's (issue 8: no long task).
 */
const SHARED = "__CHORUS_SHARED__";
let sharedRequested = false;

function loadShared(): void {
  if (sharedRequested || SHARED.startsWith("__")) return;
  sharedRequested = true;
  moduleScript(SHARED, () => {});
}

function load(tag: string): void {
  if (requested.has(tag) || customElements.get(tag) || !WIDGET_TAGS.includes(tag)) return;
  loadShared();
  requested.add(tag);
  moduleScript(`${tag}.js`, () => requested.delete(tag));
}

/**
 * Add a module <script> for `file` (relative to the loader's folder) rather than import(): Vite wraps import()
 * in its preload helper, which lands in a shared chunk as soon as an element module also uses import(),
 * and a classic script cannot import it.
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

/** Load the shared chunk, then the module of every tag present under `root`, one per task (issue 8: starting each fetch takes time too). */
function scan(root: ParentNode): void {
  const tags = WIDGET_TAGS.filter((tag) => root.querySelector(tag));
  if (tags.length) setTimeout(loadShared);
  for (const tag of tags) setTimeout(() => load(tag));
  if (tags.length) setTimeout(() => root.querySelectorAll(WIDGET_TAGS.join()).forEach(prefetchSettings));
}

function start(): void {
  scan(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const el = node as Element;
        if (WIDGET_TAGS.includes(el.localName)) {
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

/**
 * The loader behind /widgets/chorus.js, loaded by merchants with
 * `<script async src="https://<chorus-host>/widgets/chorus.js"></script>`.
 *
 * A classic script (no static imports): it finds `chorus-*` elements already on the page and any
 * added later (MutationObserver), and loads the code of the elements present, only those, as one combined module
 * (a `<script type="module">` of `chunks/<version>.<levels>.js` from the script's own folder, server/widgets/combo.ts,
 * ADR 0016): one request for the elements found together, one more for each element added or opened later. It also records that folder's origin as the default API base, and
 * starts each store's widget settings request (texts, colours, which widgets show) while the code loads.
 */
import { WIDGET_TAGS } from "./internal/registry.ts";

/** The source of server/contract/widget-locales.ts `LANG_TAG`, inlined by the build (an import would make this classic script a module). */
declare const __CHORUS_LANG_TAG__: string;
/** The reservation rules as one style sheet: `reservationCss(WIDGET_RESERVATIONS)` (widgets/internal/registry.ts), inlined by the build. */
declare const __CHORUS_RESERVATIONS__: string;

declare global {
  interface Window {
    __chorusBase?: string;
    /** Load element `tag`'s code: an element module's `import()` of another's, as a combined module has it (ADR 0016). */
    __chorusLoad?: (tag: string) => Promise<unknown>;
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

/** The build's version (written by the build: widgets/vite.config.ts `comboManifest`). */
const VERSION = "__CHORUS_VERSION__";
/**
 * The page's language (`<html lang>`, when it has the shape of a language tag), read at the first load: every
 * combined module of the page is made for it (its texts in that language: server/widgets/combo.ts).
 */
let lang: string | undefined;
/** The name of the newest combined module requested (its levels, server/widgets/combo.ts), "" before the first. */
let chain = "";
/** Each element tag requested, with the load of the module holding its code. */
const loads = new Map<string, Promise<void>>();

/**
 * Load the code of the elements `tags` not loaded yet as one module (ADR 0016): `chunks/<version>.<levels>.js`,
 * whose newest level names them and whose older levels are every module requested before, so it holds only code
 * not loaded yet and imports the rest from those modules. Resolves once the code has run (rejects if it failed: the
 * tags may be requested again).
 */
function load(tags: string[]): Promise<unknown> {
  const fresh = tags.filter((tag) => !loads.has(tag) && !customElements.get(tag) && WIDGET_TAGS.includes(tag)).sort();
  if (fresh.length) {
    lang ??= new RegExp(__CHORUS_LANG_TAG__).test(document.documentElement.lang) ? `?lang=${document.documentElement.lang}` : "";
    const base = chain;
    const name = (chain = fresh.map((tag) => tag.slice(7)).join("+") + (base ? "~" + base : ""));
    const loaded = new Promise<void>((resolve, reject) =>
      moduleScript(`chunks/${VERSION}.${name}.js${lang}`, resolve, () => {
        for (const tag of fresh) loads.delete(tag);
        if (chain === name) chain = base;
        reject(Error(name));
      }),
    );
    for (const tag of fresh) loads.set(tag, loaded);
  }
  return Promise.all(tags.map((tag) => loads.get(tag)));
}
/** An element module's `import()` of another element's module, in a combined module (the build rewrites it to this). */
window.__chorusLoad = (tag) => load([tag]);

/**
 * Add a module <script> for `file` (relative to the loader's folder) rather than import(): Vite wraps import()
 * in its preload helper, which a classic script cannot import. `onLoad` runs once the module has run.
 */
function moduleScript(file: string, onLoad: () => void, onError: () => void): void {
  const script = document.createElement("script");
  script.type = "module";
  script.src = base + file;
  script.onload = onLoad;
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

/** Tags of elements added to the page and not loaded yet, loaded together at the end of the task. */
const added = new Set<string>();

/** Load the code of every element present under `root` (one module), then start their settings requests. */
function scan(root: ParentNode): void {
  const tags = WIDGET_TAGS.filter((tag) => root.querySelector(tag));
  if (!tags.length) return;
  for (const tag of tags) added.add(tag);
  setTimeout(loadAdded);
  setTimeout(() => root.querySelectorAll(WIDGET_TAGS.join()).forEach(prefetchSettings));
}

function loadAdded(): void {
  if (!added.size) return;
  load([...added]).catch(() => {});
  added.clear();
}

function start(): void {
  scan(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const el = node as Element;
        if (WIDGET_TAGS.includes(el.localName)) {
          added.add(el.localName);
          setTimeout(loadAdded);
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

/**
 * The loader behind /widgets/chorus.js, loaded by merchants with
 * `<script async src="https://<chorus-host>/widgets/chorus.js"></script>`.
 *
 * A classic script (no static imports): it finds `chorus-*` elements already on the page and any
 * added later (MutationObserver), and loads each element's module (a `<script type="module">`) from the script's own folder
 * only when that element is present. It also records that folder's origin as the default API base.
 */
import { WIDGET_MODULES } from "./internal/registry.ts";

declare global {
  interface Window {
    __chorusBase?: string;
  }
}

const script = document.currentScript as HTMLScriptElement | null;
const scriptUrl = new URL(script?.src ?? "/widgets/chorus.js", location.href);
const base = new URL(".", scriptUrl).href;
window.__chorusBase ??= scriptUrl.origin;

const requested = new Set<string>();

function load(tag: string): void {
  if (requested.has(tag) || customElements.get(tag) || !WIDGET_MODULES[tag]) return;
  requested.add(tag);
  // A module <script> rather than import(): Vite wraps import() in its preload helper, which lands in a
  // shared chunk as soon as an element module also uses import(), and a classic script cannot import it.
  const script = document.createElement("script");
  script.type = "module";
  script.src = `${base}${tag}.js`;
  script.onerror = () => {
    requested.delete(tag);
    script.remove();
    console.error(`[chorus] could not load ${tag} from ${script.src}`);
  };
  document.head.append(script);
}

/** Load the module of every tag present under `root`, one per task (issue 8: starting each fetch takes time too). */
function scan(root: ParentNode): void {
  for (const tag of Object.keys(WIDGET_MODULES)) if (root.querySelector(tag)) setTimeout(() => load(tag));
}

function start(): void {
  scan(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const el = node as Element;
        if (WIDGET_MODULES[el.localName]) load(el.localName);
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

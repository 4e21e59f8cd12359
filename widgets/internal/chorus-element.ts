/**
 * Base class of every `chorus-*` element: the common configuration attributes and the URL of the
 * element's API scope (interface.md §4.2: product, store or group).
 *
 * @attr store-id - the store's subscriber ID (required)
 * @attr product-id - platform-prefixed product ID, e.g. `shopify-1078`
 * @attr group-id - review group (collection) ID; omit product-id and group-id for the whole store
 * @attr api-base - origin of the Chorus server; defaults to the origin chorus.js came from
 */
import { LitElement } from "lit";
import { property } from "lit/decorators.js";
import { defaultApiBase } from "./api.ts";
import { nextTask } from "./tasks.ts";

/**
 * Class decorator (instead of Lit's `@customElement`): defines the element `tag` in a task of its own
 * after its module has been evaluated (issue 8: no long task). Evaluating a module, then upgrading the
 * elements on the page (which creates their shadow roots and constructs their style sheets) would
 * otherwise run as one task. Wait with `customElements.whenDefined(tag)` after a dynamic import.
 */
export function chorusElement(tag: string) {
  return (cls: CustomElementConstructor, _context: ClassDecoratorContext): void => {
    void nextTask().then(() => customElements.get(tag) || customElements.define(tag, cls));
  };
}

export class ChorusElement extends LitElement {
  @property({ attribute: "store-id", reflect: true }) accessor storeId = "";
  @property({ attribute: "product-id", reflect: true }) accessor productId = "";
  @property({ attribute: "group-id", reflect: true }) accessor groupId = "";
  @property({ attribute: "api-base" }) accessor apiBase = "";

  /**
   * The first render waits for a task of its own (issue 8: no long task): evaluating an element's module,
   * upgrading the element and rendering it would otherwise run as one task. Later updates are unchanged.
   */
  protected override async scheduleUpdate(): Promise<unknown> {
    if (!this.hasUpdated) await nextTask();
    return super.scheduleUpdate();
  }

  /** Absolute URL of the store prefix: `{api-base}/v1/stores/{store-id}`. */
  get storeUrl(): string {
    const base = (this.apiBase || defaultApiBase()).replace(/\/$/, "");
    return `${base}/v1/stores/${encodeURIComponent(this.storeId)}`;
  }

  /** Absolute URL of the scope prefix (product, group or store). */
  get scopeUrl(): string {
    if (this.productId) return `${this.storeUrl}/products/${encodeURIComponent(this.productId)}`;
    if (this.groupId) return `${this.storeUrl}/collections/${encodeURIComponent(this.groupId)}`;
    return this.storeUrl;
  }

  /** Resolve a `nextUrl` (relative to the store prefix, decisions.md §1) to an absolute URL. */
  resolveNextUrl(nextUrl: string): string {
    return `${this.storeUrl}${nextUrl}`;
  }

  /** Dispatch a composed, bubbling CustomEvent (names are declared in ./events.ts). */
  emit<K extends keyof import("./events.ts").ChorusEventMap>(name: K, detail: import("./events.ts").ChorusEventMap[K]): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: false }));
  }
}

/**
 * Base class of every `chorus-*` element (`ChorusElement`): the common configuration attributes and the URL of the
 * element's API scope (docs/api.md, Endpoints and scopes: product, store or group).
 */
import { CSSResult, html, isServer, LitElement, render, type PropertyDeclarations, type PropertyValues } from "lit";
import type { WidgetKey } from "../../server/contract/widget-settings.ts";
import { ApiRequestError, defaultApiBase } from "./api.ts";
import { merchantTextsApply, partOf, textGroupOf, uiLocaleFor, type UiLocale } from "../../server/contract/widget-locales.ts";
import { formatCount, setFormatLang } from "./format.ts";
import { loadSettings, type StorefrontWidgetSettings } from "./settings.ts";
import { fill } from "./strings.ts";
import { nextTask } from "./tasks.ts";

/**
 * Class decorator (instead of Lit's `@customElement`): defines the element `tag` in a task of its own
 * after its module has been evaluated (issue 8: no long task), and constructs its style sheets in the task
 * before. Evaluating a module, then upgrading the elements on the page (which creates their shadow roots
 * and, for the first element of a class, finalizes the class and constructs its style sheets: 10–20 ms at
 * 4x CPU) would otherwise run as one task. Wait with `customElements.whenDefined(tag)` after a dynamic import.
 */
export function chorusElement(tag: string) {
  return (cls: CustomElementConstructor): void => {
    void nextTask()
      .then(() => prepareStyles(cls as unknown as typeof LitElement))
      .then(nextTask)
      .then(() => customElements.get(tag) || customElements.define(tag, cls));
  };
}

/** Finalize a Lit element class and construct its style sheets now (Lit does both at the class's first upgrade; each is done once). */
function prepareStyles(cls: typeof LitElement): void {
  (cls as unknown as { finalize(): void }).finalize();
  for (const style of cls.elementStyles) if (style instanceof CSSResult) void style.styleSheet;
}

/**
 * What a server-rendered element (issue #25 snippets: app/lib/snippets.server.ts) starts from: the API answers
 * it would request first, by path from `/v1` on (origin left out), and the texts it was rendered with. On the
 * page it is the JSON of the element's light-DOM `<script type="application/json" data-chorus-snapshot>`.
 */
export type Snapshot = {
  responses: Record<string, unknown>;
  texts?: Record<string, string>;
  /** The shipped translation it was rendered with (its language's part of server/contract/widget-translations.ts). */
  translation?: Record<string, string>;
};

declare const __CHORUS_I18N__: string | undefined;
/**
 * The translation parts the build writes (`/widgets/i18n/<hash>/<locale>/<part>.json`, widgets/vite.config.ts
 * `translationParts`: the folder's name is written in here by the build, `__CHORUS_I18N__`), beside the chunks'
 * folder: this module is in the shared chunk, `/widgets/chunks/`. Read from a variable so that Vite leaves the URL alone.
 */
const moduleUrl = import.meta.url;
const i18nDir = typeof __CHORUS_I18N__ === "string" ? __CHORUS_I18N__ : "i18n";
const parts = new Map<string, Promise<unknown>>();

/**
 * The translation part holding text group `group` in `locale` (`partOf`; only that language's bytes; read with
 * `partTexts`): one request per part and page, shared by the elements whose groups it holds. Never rejects ({} on
 * failure: English).
 */
function loadTranslation(locale: UiLocale, group: string): Promise<unknown> {
  // Only the built widgets have the parts beside them (not the sources a test imports).
  if (!/^https?:/.test(moduleUrl)) return Promise.resolve({});
  const url = new URL(`../${i18nDir}/${locale}/${partOf(group)}.json`, moduleUrl).href;
  let part = parts.get(url);
  if (!part) {
    part = fetch(url)
      .then(
        (res) => (res.ok ? (res.json() as Promise<unknown>) : {}),
        () => ({}),
      )
      .catch(() => ({}));
    parts.set(url, part);
  }
  return part;
}

/**
 * The texts by ID of text group `group` in a translation part as the build writes it (widgets/vite.config.ts
 * `compactPart`): the group's values in the order of `ids` (the element's English table), null where
 * untranslated, and an object of further texts by ID last; in a part of several groups (an object of such arrays
 * by group), also the shared texts (`common`) in the order of `commonIds`. Anything else reads as none.
 */
export function partTexts(part: unknown, group: string, ids: string[], commonIds: string[]): Record<string, string> {
  const texts: Record<string, string> = {};
  const read = (values: unknown, keys: string[]) =>
    Array.isArray(values) && values.forEach((value: string | Record<string, string> | null, i) => value && Object.assign(texts, typeof value === "string" ? { [keys[i]!]: value } : value));
  if (Array.isArray(part)) read(part, ids);
  else if (part) {
    read((part as Record<string, unknown>)[group], ids);
    read((part as Record<string, unknown>).common, commonIds);
  }
  return texts;
}

/** The longest the first render waits for its translation (a slow network shows English first, then the translation). */
const TRANSLATION_WAIT_MS = 3000;

const pluralRules = new Map<string, Intl.PluralRules>();
/** The plural category (`one`, `few`, `other`, ...) of `n` in `locale` (English without Intl: issue 8, no first-Intl cost). */
function pluralCategory(locale: UiLocale, n: number): string {
  if (locale === "en") return n === 1 ? "one" : "other";
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules.select(n);
}

/** Whether this page has rendered a Lit template yet (see scheduleUpdate). */
let litReady = false;
/** The templates (by their strings) seen in a render on this page. */
const seen = new WeakSet<TemplateStringsArray>();

/** Whether `value` (a render's result: templates nested through their values and arrays) has a template not seen before; marks all seen. */
function isNew(value: unknown): boolean {
  if (Array.isArray(value)) return value.map(isNew).includes(true);
  const result = value as { strings?: TemplateStringsArray; values?: unknown[] } | null;
  if (!result?.strings || !result.values) return false;
  const fresh = !seen.has(result.strings);
  seen.add(result.strings);
  return isNew(result.values) || fresh;
}

/**
 * What the larger elements add to every element once their shared module is loaded (widgets/internal/ui.ts, in
 * their chunk: not on the star badge's page, which shows neither): the shared texts (`common.*`: errors, e-mail
 * checks) and the text colour on a merchant's accent (`--chorus-accent-contrast`, for filled buttons).
 */
export const extras: { texts: Record<string, string>; textOn?: (hex: string) => string } = { texts: {} };

/**
 * The common attributes of every element (each element's entry in public/widgets/custom-elements.json inherits them).
 *
 * @attr store-id - the store's subscriber ID (required)
 * @attr product-id - platform-prefixed product ID, e.g. `shopify-1078` (product scope)
 * @attr group-id - review group (collection) ID (group scope); omit product-id and group-id for the whole store
 * @attr api-base - origin of the Chorus server, e.g. `https://reviews.example.com`; default: the origin of `chorus.js`
 *
 * @cssproperty [--chorus-font=inherit] - font family
 * @cssproperty [--chorus-text=the page's text colour (currentColor)] - text
 * @cssproperty [--chorus-background=the paper of the text colour: white under dark text, black under light text; transparent for the star badge] - the element's own background, so its text contrasts on any page
 * @cssproperty [--chorus-muted=the text colour at 80%] - secondary text, borders of controls
 * @cssproperty [--chorus-accent=none: the text colour, buttons outlined] - filled buttons, links, focus ring, active chips
 * @cssproperty [--chorus-accent-contrast=#fff (with an accent)] - text on the accent
 * @cssproperty [--chorus-star=#b45309] - filled stars
 * @cssproperty [--chorus-star-empty=the text colour at 25%] - empty stars
 * @cssproperty [--chorus-border=the text colour at 22%] - card borders, hairlines
 * @cssproperty [--chorus-surface=transparent] - card and sort menu background (over the element's background)
 * @cssproperty [--chorus-radius=8px] - corner radius
 * @cssproperty [--chorus-danger=red (35%) mixed into the text colour] - error text
 */
export class ChorusElement extends LitElement {
  /** The reactive properties: the attributes above, and `texts` and `translation` (internal). One table, as in the elements (smaller than a decorator each). */
  static override properties: PropertyDeclarations = {
    storeId: { attribute: "store-id", reflect: true },
    productId: { attribute: "product-id", reflect: true },
    groupId: { attribute: "group-id", reflect: true },
    apiBase: { attribute: "api-base" },
    texts: { state: true },
    translation: { state: true },
  };
  storeId = "";
  productId = "";
  groupId = "";
  apiBase = "";

  /** The widget switch of the store's settings that shows or hides this element ("" = none). */
  static widget: WidgetKey | "" = "";
  /** The English default of each text this element shows (its group of server/contract/widget-strings.ts). */
  static defaults: Record<string, string> = {};
  /** The merchant's texts for the element's language (from the store's widget settings), by text ID. */
  protected texts: Record<string, string> = {};
  /** The shipped translation of this element's texts in its language, by text ID ({} in English: the defaults). */
  protected translation: Record<string, string> = {};
  /** The translation part requested last (`<locale>/<group>`), and its load before the first render. */
  #translationFor = "";
  #translationReady: Promise<unknown> | null = null;
  /** The settings URL requested last (a new store or API base requests again). */
  #settingsFor = "";
  /** Whether the store's settings hid this element (so showing it again leaves a merchant's own `hidden` alone). */
  #hiddenBySettings = false;
  /** Server-rendered data (set by the server renderer; on the page read from the snapshot script): see takeSnapshot. */
  snapshot: Snapshot | null = null;
  /** The server-rendered shadow DOM, replaced by the first client render in the same task (no flash, no shift). */
  #serverNodes: ChildNode[] | null = null;

  override connectedCallback(): void {
    if (!this.hasUpdated && !this.snapshot) this.#readSnapshot();
    super.connectedCallback();
    this.#requestTranslation();
    this.#requestSettings();
  }

  /** Read the snapshot a server-rendered element carries, and start from its texts. */
  #readSnapshot(): void {
    const script = this.querySelector(':scope > script[type="application/json"][data-chorus-snapshot]');
    if (!script) return;
    try {
      this.snapshot = JSON.parse(script.textContent ?? "") as Snapshot;
    } catch {
      return;
    }
    if (this.snapshot?.texts) this.texts = this.snapshot.texts;
    if (this.snapshot?.translation) {
      this.translation = this.snapshot.translation;
      this.#translationFor = this.#translationKey();
    }
  }

  /**
   * The element's language tag: its own `lang`, else the closest ancestor's (`<html lang>`), "" when none;
   * on the server the snippet's language.
   */
  get langTag(): string {
    // A server render (app/lib/snippets.server.ts) sets the language; its DOM shim has no `closest`.
    const server = (globalThis as { __chorusLang?: string }).__chorusLang;
    if (server !== undefined || typeof this.closest !== "function") return server ?? "";
    return this.closest("[lang]")?.getAttribute("lang") ?? "";
  }

  /** The language the element speaks: one of server/contract/widget-locales.ts `UI_LOCALES` for `langTag` (region fallback, else English). */
  get uiLocale(): UiLocale {
    return uiLocaleFor(this.langTag);
  }

  /** The language of its dates and counts: its tag (`de-AT`) when the element speaks that language, else the UI language. */
  get #formatLang(): string {
    const tag = this.langTag;
    try {
      const locale = uiLocaleFor(tag);
      return tag && Intl.getCanonicalLocales(tag).length && (locale !== "en" || /^en\b/i.test(tag)) ? tag : locale;
    } catch {
      return this.uiLocale;
    }
  }

  /** `<locale>/<group>` of the translation part this element needs now ("" when English or without texts). */
  #translationKey(): string {
    const locale = this.uiLocale;
    const first = Object.keys((this.constructor as typeof ChorusElement).defaults)[0];
    return locale === "en" || !first ? "" : `${locale}/${textGroupOf(first)}`;
  }

  /** Load the shipped translation of the element's texts in its language (none for English); the first render waits for it. */
  #requestTranslation(): void {
    const key = this.#translationKey();
    if (key === this.#translationFor) return;
    this.#translationFor = key;
    if (!key) {
      this.#translationReady = null;
      if (Object.keys(this.translation).length) this.translation = {};
      return;
    }
    const [locale, group] = key.split("/") as [UiLocale, string];
    this.#translationReady = loadTranslation(locale, group).then((part) => {
      if (this.#translationFor === key) this.translation = partTexts(part, group, Object.keys((this.constructor as typeof ChorusElement).defaults), Object.keys(extras.texts));
    });
  }

  /**
   * The server-rendered answer of `url` (absolute or from `/v1`), once: the element shows it without a request.
   * Later loads of the same URL (retry, a re-sort back) request it.
   */
  protected takeSnapshot<T>(url: string): T | undefined {
    const responses = this.snapshot?.responses;
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, "");
    if (!responses || !(path in responses)) return undefined;
    const value = responses[path] as T;
    delete responses[path];
    return value;
  }

  /**
   * Keep a declarative shadow root (a server-rendered snippet) on the page until the first client render: Lit
   * reuses `this.shadowRoot`; it renders after the server's nodes, which `update` then removes.
   */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const serverRendered = !isServer && this.shadowRoot && this.shadowRoot.childNodes.length > 0;
    if (serverRendered) this.#serverNodes = [...this.shadowRoot!.childNodes];
    const root = super.createRenderRoot();
    if (serverRendered) this.renderOptions.renderBefore = null;
    return root;
  }

  protected override update(changed: PropertyValues): void {
    const before = setFormatLang(this.#formatLang);
    try {
      super.update(changed);
    } finally {
      setFormatLang(before);
    }
    if (this.#serverNodes) {
      for (const node of this.#serverNodes) node.remove();
      this.#serverNodes = null;
    }
  }

  /**
   * Ask for the store's widget settings (shared by every element of the store on the page) and apply them
   * when they come: texts, colours, hidden. The element renders with the defaults meanwhile.
   */
  #requestSettings(): void {
    const tag = this.langTag;
    if (!this.storeId || this.#settingsFor === `${this.storeUrl} ${tag}`) return;
    const key = (this.#settingsFor = `${this.storeUrl} ${tag}`);
    void loadSettings(this.storeUrl, tag).then((settings) => {
      if (this.#settingsFor === key) this.applySettings(settings);
    });
  }

  /** Apply the store's widget settings (null: the defaults): the merchant's texts, colours as custom properties, hidden widgets. */
  protected applySettings(settings: StorefrontWidgetSettings | null): void {
    // The merchant's texts in the element's language only: English ones never mix into a shipped translation.
    const texts = settings && merchantTextsApply(settings.locale, this.langTag, this.uiLocale) ? settings.texts : {};
    // No merchant texts (the usual case) renders nothing new: no update at all.
    if (Object.keys(texts).length || Object.keys(this.texts).length) this.texts = texts;
    // A colour set in the admin wins over the page's `--chorus-accent` / `--chorus-star` (set on the element itself);
    // text on the accent is then black or white, whichever contrasts more with it (`extras.textOn`).
    const accent = settings?.colors.accent;
    for (const [property, value] of [
      ["--chorus-accent", accent],
      ["--chorus-accent-contrast", accent && extras.textOn?.(accent)],
      ["--chorus-star", settings?.colors.star],
    ] as const) {
      if (value) this.style.setProperty(property, value);
      else this.style.removeProperty(property);
    }
    const key = (this.constructor as typeof ChorusElement).widget;
    const hide = Boolean(key && settings && settings.widgets[key] === false);
    if (hide !== this.#hiddenBySettings) {
      this.#hiddenBySettings = hide;
      this.hidden = hide;
    }
  }

  /**
   * The text `id` with its `{placeholders}` filled from `vars`: the merchant's text for the element's language,
   * else the shipped translation, else the English default. In the built widgets a literal ID of the element's
   * own group is its index in `defaults` (widgets/vite.config.ts `textIndexes`).
   */
  t(id: string | number, vars?: Record<string, string | number>): string {
    const defaults = (this.constructor as typeof ChorusElement).defaults;
    if (typeof id === "number") id = Object.keys(defaults)[id]!;
    return fill(this.texts[id] ?? this.translation[id] ?? defaults[id] ?? extras.texts[id] ?? id, vars);
  }

  /**
   * The text of plural phrase `id` for `n` in the element's language (`Intl.PluralRules`: `id.one`, `id.few`,
   * `id.other`, ...), `{count}` filled with `n` formatted; more `vars` may be given. A merchant's phrase (the
   * admin has `.one` and `.other`) replaces the whole phrase: its `.other` stands for every other category.
   */
  plural(id: string | number, n: number, vars?: Record<string, string | number>): string {
    // The built widgets give a literal phrase ID of the element's group as the index of its `.one` text in `defaults`.
    if (typeof id === "number") id = Object.keys((this.constructor as typeof ChorusElement).defaults)[id]!.slice(0, -4);
    const category = pluralCategory(this.uiLocale, n);
    const basic = category === "one" ? "one" : "other";
    const merchant = `${id}.one` in this.texts || `${id}.other` in this.texts ? this.texts[`${id}.${basic}`] : undefined;
    const text = merchant ?? this.translation[`${id}.${category}`];
    const count = formatCount(n, this.#formatLang);
    return text === undefined ? this.t(`${id}.${basic}`, { count, ...vars }) : fill(text, { count, ...vars });
  }

  /** A short sentence for any failure: the server's description, else the request-cancelled or cannot-reach text. */
  describe(error: unknown): string {
    if (error instanceof ApiRequestError) return error.description;
    if (error instanceof DOMException && error.name === "AbortError") return this.t("common.cancelled");
    return this.t("common.networkError");
  }

  /**
   * Issue 8 (no long task, also at 4x CPU): an update that would use a template for the first time on
   * this page first renders it off the page in a task of its own (Lit parses each template once per page,
   * often the larger half of such a render), then renders on the page in the next task, cloning the
   * prepared templates. The first render also waits for a task of its own (after the element's upgrade),
   * and the page's very first Lit render warms Lit itself in one more (see `litReady`).
   */
  protected override async scheduleUpdate(): Promise<unknown> {
    if (this.isConnected) {
      this.#requestTranslation();
      this.#requestSettings();
    }
    if (!this.hasUpdated) {
      // The first render speaks the element's language: wait for its translation (one small request, started on connect).
      if (this.#translationReady) await Promise.race([this.#translationReady, new Promise((ok) => setTimeout(ok, TRANSLATION_WAIT_MS))]);
      await nextTask();
      if (!litReady) {
        // The page's first Lit render runs Lit's code cold (compiling its functions and regular expressions).
        litReady = true;
        this.warmUp(html`<p class=${0}>${0}</p>`);
        await nextTask();
      }
    }
    for (const template of this.hasUpdated ? [this.render()] : this.warmUps()) {
      if (!isNew(template)) continue;
      this.warmUp(template);
      await nextTask();
    }
    return super.scheduleUpdate();
  }

  /** What the first render prepares, one task each: its template; an element with a large one lists some parts first. */
  protected warmUps(): unknown[] {
    return [this.render()];
  }

  /** Render `template` into a detached fragment, so a later render of it on the page only clones it; never throws. */
  protected warmUp(template: unknown): void {
    try {
      render(template, document.createDocumentFragment());
    } catch {
      /* only a preparation */
    }
  }

  /** Absolute URL of the API root: `{api-base}/v1`. */
  get apiRoot(): string {
    return `${(this.apiBase || defaultApiBase()).replace(/\/$/, "")}/v1`;
  }

  /** Absolute URL of the store prefix: `{api-base}/v1/stores/{store-id}`. */
  get storeUrl(): string {
    return `${this.apiRoot}/stores/${encodeURIComponent(this.storeId)}`;
  }

  /** Absolute URL of the scope prefix (product, group or store). */
  get scopeUrl(): string {
    if (this.productId) return `${this.storeUrl}/products/${encodeURIComponent(this.productId)}`;
    if (this.groupId) return `${this.storeUrl}/collections/${encodeURIComponent(this.groupId)}`;
    return this.storeUrl;
  }

  /** Resolve a `nextUrl` (relative to the API root `/v1`, docs/api.md, Paging) to an absolute URL. */
  resolveNextUrl(nextUrl: string): string {
    return this.apiRoot + nextUrl;
  }

  /** Dispatch a composed, bubbling CustomEvent (names are declared in ./events.ts). */
  emit<K extends keyof import("./events.ts").ChorusEventMap>(name: K, detail: import("./events.ts").ChorusEventMap[K]): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
}

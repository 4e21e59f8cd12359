/**
 * The store's widget settings (`GET /v1/stores/{storeId}/widget_settings?locale=`, issue #21 item 4):
 * the merchant's texts for the element's language, the accent and star colours, which widgets show.
 * Requested once per page and store: every `chorus-*` element of that store shares the one answer. The
 * loader (widgets/index.ts) starts the request as soon as it sees an element, before the element's module
 * has loaded, so it runs in parallel with loading the widget code and with the element's data request;
 * elements render with the shipped texts meanwhile and never wait for it. Any failure → null (defaults).
 */
import type { StorefrontWidgetSettings } from "../../server/contract/widget-settings.ts";
import { getJson } from "./api.ts";

export type { StorefrontWidgetSettings };

declare global {
  interface Window {
    /** Settings requests the loader started, by URL (widgets/index.ts `settingsUrl`). */
    __chorusSettings?: Record<string, Promise<Response>>;
  }
}

const answers = new Map<string, Promise<StorefrontWidgetSettings | null>>();

/** `tag` when it is a well-formed language tag, else "" (the server's default, English). */
export function localeParam(tag: string): string {
  return /^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/.test(tag) && tag.length <= 35 ? tag : "";
}

/** URL of the settings of the store at `storeUrl` (`{api-base}/v1/stores/{id}`) for the language `tag` (an element's `langTag`). Same rule as the loader's. */
export function settingsUrl(storeUrl: string, tag: string): string {
  const locale = localeParam(tag);
  return `${storeUrl}/widget_settings${locale ? `?locale=${encodeURIComponent(locale)}` : ""}`;
}

/** The settings of the store at `storeUrl` for the language `tag`: one request per page and language (the loader's, when it started one), shared. Never rejects. */
export function loadSettings(storeUrl: string, tag: string): Promise<StorefrontWidgetSettings | null> {
  const url = settingsUrl(storeUrl, tag);
  let answer = answers.get(url);
  if (!answer) {
    const started = window.__chorusSettings?.[url];
    answer = (
      started ? started.then((res) => (res.ok ? (res.json() as Promise<{ widgetSettings: StorefrontWidgetSettings }>) : null)) : getJson<{ widgetSettings: StorefrontWidgetSettings }>(url)
    ).then(
      (body) => body?.widgetSettings ?? null,
      () => null,
    );
    answers.set(url, answer);
  }
  return answer;
}

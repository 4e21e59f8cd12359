// Client entry of the Hydrogen test page (e2e/okendo-hydrogen.spec.ts): reads Okendo's settings in the browser with
// the package's own `getOkendoProviderData` (where a Hydrogen app hands over its loader's data) and hydrates the
// server-rendered page with the same props, so the components' effects run: the provider injects the loader from
// `cdnDomain`, the widgets call `window.okeWidgetApi.initWidget` on `oke-script-loaded`.
/* global window, document */
import { createElement as h } from "react";
import { hydrateRoot } from "react-dom/client";
import { App, providerData } from "./hydrogen-app.mjs";

const { subscriberId, apiDomain, ...props } = window.__hydrogenTest;
providerData(subscriberId, apiDomain).then((okendoProviderData) => {
  window.__hydrogenProviderData = okendoProviderData;
  hydrateRoot(document.getElementById("root"), h(App, { ...props, okendoProviderData }));
});

// Test entry (e2e/okendo-compat.spec.ts): Okendo's published Vue client, unchanged, mounted with its star
// badge, reviews widget (filters on) and questions widget for one product. Bundled by the spec with esbuild;
// the client stays a devDependency and is never vendored.
/* global window */
import Vue from "vue";
import Flickity from "flickity";
import { configureOkendo, OkendoQuestionsWidget, OkendoReviewsWidget, OkendoStarRating } from "@okendo/okendo-widgets-vue";

window.Flickity = Flickity; // the client's media gallery uses a global Flickity
const { subscriberId, productId } = window.__okendoTest;
configureOkendo({ subscriberId, widgetSettings: { enableFilters: true } });
new Vue({
  render: (h) =>
    h("main", [
      h("section", { attrs: { id: "badge" } }, [h(OkendoStarRating, { props: { productId } })]),
      h("section", { attrs: { id: "reviews" } }, [h(OkendoReviewsWidget, { props: { productId } })]),
      h("section", { attrs: { id: "questions" } }, [h(OkendoQuestionsWidget, { props: { productId } })]),
    ]),
}).$mount("#app");

/**
 * The custom elements the loader (widgets/index.ts) knows. Element `chorus-<name>` is defined by
 * `widgets/<name>/chorus-<name>.ts` (`widgetModulePath`), built to `chunks/<tag>-<hash>.js`; the build writes
 * each tag's file into the loader, which imports it from the script's own folder when an element of that tag
 * appears (widgets/vite.config.ts `loaderTable`). Add a tag here for every new element.
 */
export const WIDGET_TAGS: readonly string[] = [
  "chorus-reviews",
  "chorus-star-rating",
  "chorus-reviews-summary",
  "chorus-reviews-keywords",
  "chorus-loyalty",
  "chorus-review-form",
  "chorus-review-media",
  "chorus-questions",
  "chorus-reviews-carousel",
  "chorus-survey",
];

/** The source of element `tag`, relative to widgets/: `<name>/chorus-<name>.ts`. */
export const widgetModulePath = (tag: string): string => `${tag.slice("chorus-".length)}/${tag}.ts`;

/** The loader's reservation rules (server/contract/widget-reservations.ts) as one style sheet, without server-rendered elements. The widget build inlines the result (widgets/vite.config.ts `define`). */
export const reservationCss = (rules: Record<string, string>): string =>
  Object.values(rules)
    .join("")
    .replace(/:not\(:defined\)/g, "$&:not([server-rendered])");

/**
 * Design tokens shared by every element: `--chorus-*` custom properties with defaults that inherit
 * the merchant's font and colours. A merchant themes every widget at once by setting these on any
 * ancestor (e.g. `:root { --chorus-accent: #0a7; }`).
 *
 * @cssproperty --chorus-font - font family (default: inherit)
 * @cssproperty --chorus-text - text colour (default: currentColor)
 * @cssproperty --chorus-muted - secondary text colour
 * @cssproperty --chorus-accent - buttons, links, focus ring
 * @cssproperty --chorus-accent-contrast - text on accent
 * @cssproperty --chorus-star - filled star colour
 * @cssproperty --chorus-star-empty - empty star colour
 * @cssproperty --chorus-border - hairlines
 * @cssproperty --chorus-surface - card background
 * @cssproperty --chorus-radius - corner radius
 * @cssproperty --chorus-danger - error text
 */
import { css } from "lit";

export const tokens = css`
  :host {
    --_font: var(--chorus-font, inherit);
    --_text: var(--chorus-text, currentColor);
    --_muted: var(--chorus-muted, #5b5f66);
    --_accent: var(--chorus-accent, #3b3fb6);
    --_accent-contrast: var(--chorus-accent-contrast, #fff);
    --_star: var(--chorus-star, #b45309);
    --_star-empty: var(--chorus-star-empty, #c9ccd1);
    --_border: var(--chorus-border, #d9dbe0);
    --_surface: var(--chorus-surface, transparent);
    --_radius: var(--chorus-radius, 8px);
    --_danger: var(--chorus-danger, #b3261e);
    font-family: var(--_font);
    color: var(--_text);
  }
  :host([hidden]) {
    display: none !important;
  }
  button {
    font: inherit;
  }
  :focus-visible {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .visually-hidden {
    position: absolute !important;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;

/**
 * The `<chorus-reviews-keywords>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const keywordsStyles = css`
  :host {
    display: block;
    margin: 0 0 1rem;
    min-height: var(--chorus-reviews-keywords-min-height, 11rem);
    contain: layout;
  }
  .skeleton {
    display: block;
    width: 60%;
    height: 2rem;
    margin: 0 0 0.75rem;
  }
  /* No topics (none yet, or they could not be loaded): nothing at all, no reserved space. */
  :host([state="empty"]) {
    display: none !important;
  }
  .head {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    margin: 0 0 0.5rem;
    min-height: 2rem;
  }
  h2 {
    font-size: 1rem;
    margin: 0;
  }
  .toggle {
    border: 0;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
    padding: 0 0.25rem;
  }
  .clip {
    max-height: var(--chorus-reviews-keywords-min-height, 11rem);
    overflow-y: clip;
  }
  .clip .over {
    visibility: hidden;
  }
  .topic + .topic {
    margin-top: 0.75rem;
  }
  h3 {
    font-size: 0.85rem;
    font-weight: 600;
    margin: 0 0 0.35rem;
    color: var(--_muted);
  }
  ul {
    list-style: none;
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
    margin: 0;
    padding: 0;
  }
  button {
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_text);
    border-radius: 999px;
    padding: 0.25rem 0.7rem;
    cursor: pointer;
    min-height: 2rem;
  }
  button[aria-pressed="true"] {
    background: var(--_fill);
    color: var(--_on-fill, currentColor);
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
    font-weight: 600;
  }
  .count {
    opacity: 0.85;
    margin-left: 0.1rem;
    font-variant-numeric: tabular-nums;
  }
`;

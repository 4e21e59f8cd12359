/**
 * The `<chorus-reviews-summary>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const summaryStyles = css`
  :host {
    display: flex;
    flex-direction: column;
    min-height: var(--chorus-reviews-summary-min-height, 14rem);
    margin: 0 0 1rem;
    contain: layout;
  }
  .card {
    flex: 1;
    position: relative;
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 1rem 1.25rem;
  }
  .skeleton {
    border-color: transparent;
  }
  /* No summary (none yet, or it could not be loaded): nothing at all, no reserved space. */
  :host([state="empty"]) {
    display: none !important;
  }
  .label {
    display: inline-block;
    font-size: 0.75rem;
    font-weight: 600;
    letter-spacing: 0.02em;
    color: var(--_accent);
    border: 1px solid currentColor;
    border-radius: 999px;
    padding: 0.1rem 0.5rem;
    margin: 0 0 0.5rem;
  }
  h2 {
    font-size: 1rem;
    margin: 0 0 0.5rem;
  }
  p {
    margin: 0;
    line-height: 1.5;
  }
  .shut {
    max-height: var(--chorus-reviews-summary-min-height, 14rem);
  }
  .shut [part="body"] {
    flex: 0 1 auto;
    min-height: 0;
    overflow-y: clip;
  }
  .cut [part="body"] {
    mask-image: linear-gradient(#000 60%, transparent);
  }
  .label,
  h2,
  .meta {
    flex: none;
  }
  .label {
    align-self: flex-start;
  }
  .more {
    position: absolute;
    top: 0.75rem;
    right: 1rem;
    border: 0;
    background: none;
    color: var(--_accent);
    text-decoration: underline;
    cursor: pointer;
    padding: 0.25rem;
  }
  .meta {
    color: var(--_muted);
    font-size: 0.85rem;
    margin-top: 0.5rem;
  }
`;

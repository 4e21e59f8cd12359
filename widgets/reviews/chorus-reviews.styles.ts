/**
 * The `<chorus-reviews>` element's own styles (beside the shared tokens and control styles): colours come from
 * the tokens (widgets/internal/tokens.ts), which derive from the page unless the merchant sets them.
 */
import { css } from "lit";

export const reviewsStyles = css`
  :host {
    display: block;
    line-height: 1.5;
    min-height: var(--chorus-reviews-min-height, 28rem);
  }
  /* A fixed least height (one row of controls), so the loading state is 28rem + 3.75rem whatever the font: the snippet reserves that. */
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1.5rem;
    align-items: center;
    justify-content: space-between;
    margin-bottom: 1rem;
    min-height: 2.75rem;
  }
  .sort {
    display: inline-flex;
    gap: 0.5rem;
    align-items: center;
  }
  /* The sort menu inherits the page's colours (transparent unless --chorus-surface is set): readable on a dark page too. */
  select {
    font: inherit;
    border-radius: var(--_radius);
    padding: 0.4rem 0.6rem;
    border: 1px solid var(--_muted);
    background: var(--_surface);
    color: inherit;
  }
  /* No reviews: one line inviting the first review; no reservation, no sort. */
  :host([state="empty"]) {
    min-height: 0;
  }
  .invite {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 1rem;
    margin: 0 0 1rem;
  }
  .invite p {
    margin: 0;
  }
  /* The first page's box: the size of the loading state (the snippet reserves it) until it opens. */
  .box.shut {
    position: relative;
    display: flex;
    flex-direction: column;
    height: var(--chorus-reviews-min-height, 28rem);
    overflow: hidden;
  }
  .box.shut .results {
    flex: 1 1 0;
    min-height: 0;
    overflow: hidden;
  }
  .reveal {
    position: absolute;
    inset: auto 0 0 0;
    display: flex;
    justify-content: center;
    padding: 3rem 0 0.5rem;
    background: linear-gradient(transparent, var(--_background) 55%);
  }
  .results {
    min-height: 4rem;
  }
  .results[aria-busy="true"] {
    min-height: var(--chorus-reviews-min-height, 28rem);
  }
  .results[aria-busy="true"] ol {
    opacity: 0.6;
  }
  /* Block flow, not grid: appending cards lays out only the new ones (the list grows a few cards per task). */
  ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  ol > li + li {
    margin-top: 1rem;
  }
  article {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 1rem 1.25rem;
  }
  article:focus {
    outline: 3px solid var(--_accent);
    outline-offset: 2px;
  }
  .head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  h3 {
    font-size: 1.05em;
    margin: 0;
  }
  .meta {
    margin: 0.25rem 0 0;
    color: var(--_muted);
    font-size: 0.9em;
    display: flex;
    flex-wrap: wrap;
    gap: 0 0.5rem;
  }
  .badge {
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0 0.5rem;
    font-size: 0.85em;
  }
  .incentive {
    color: var(--_muted);
    font-size: 0.85em;
    font-style: italic;
    margin: 0.25rem 0;
  }
  .body {
    white-space: pre-line;
    margin: 0.6rem 0;
    overflow-wrap: anywhere;
  }
  .recommends {
    margin: 0.25rem 0;
    font-size: 0.9em;
  }
  .media {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0.5rem 0;
    padding: 0;
    list-style: none;
  }
  .media img {
    display: block;
    width: 72px;
    height: 72px;
    object-fit: cover;
    border-radius: calc(var(--_radius) / 2);
  }
  .reply {
    border-left: 3px solid var(--_border);
    margin: 0.75rem 0 0;
    padding: 0.25rem 0 0.25rem 0.75rem;
  }
  .reply p {
    margin: 0.25rem 0;
    white-space: pre-line;
  }
  .reply .label {
    font-weight: 600;
    font-size: 0.9em;
  }
  .helpful {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem 1rem;
    align-items: center;
    margin-top: 0.5rem;
    font-size: 0.9em;
    color: var(--_muted);
  }
  /* Light vote buttons: text in the secondary colour, a hairline only on hover and focus. */
  .vote {
    font: inherit;
    color: inherit;
    background: none;
    border: 1px solid transparent;
    border-radius: 999px;
    padding: 0.1rem 0.6rem;
    cursor: pointer;
  }
  .vote:hover {
    border-color: var(--_border);
    color: var(--_text);
  }
  .vote[aria-disabled="true"] {
    cursor: default;
  }
  .more {
    display: flex;
    justify-content: center;
    margin-top: 1.25rem;
  }
  .skeleton {
    height: 8.5rem;
  }
  .form-region:empty {
    display: none;
  }
  .form-region {
    margin-bottom: 1rem;
  }
  .form-region:focus {
    outline: none;
  }
  /* Breakdown and filters: fixed-size rows (the counts may arrive after a server-rendered first page: no shift). */
  /* Header: the score (fixed height, empty until the aggregate arrives) beside the breakdown; stacked when narrow. */
  .header {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 2rem;
    align-items: center;
    margin: 0 0 0.75rem;
  }
  .score {
    display: grid;
    justify-items: start;
    align-content: center;
    gap: 0.25rem;
    flex: 0 0 10rem;
    min-height: 6.5rem;
  }
  .average {
    font-size: 2.75rem;
    font-weight: 700;
    line-height: 1;
  }
  .total {
    color: var(--_muted);
    font-size: 0.95em;
  }
  .breakdown {
    display: grid;
    flex: 1 1 18rem;
    max-width: 32rem;
  }
  .breakdown button,
  .chip {
    font: inherit;
    color: inherit;
    background: none;
    border: 1px solid transparent;
    border-radius: 1rem;
    padding: 0.2rem 0.75rem;
    cursor: pointer;
  }
  .breakdown button {
    display: grid;
    grid-template-columns: 2.5em 1fr 4em;
    gap: 0.75rem;
    align-items: center;
    text-align: start;
  }
  .breakdown button:not([disabled]):hover {
    border-color: var(--_border);
  }
  .bar {
    height: 0.5rem;
    min-width: 4rem;
    border-radius: 1rem;
    background: var(--_tint);
    overflow: hidden;
    align-self: center;
  }
  .bar span {
    display: block;
    height: 100%;
    background: var(--_star);
  }
  .count {
    color: var(--_muted);
    text-align: end;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
    margin: 0 0 1rem;
  }
  .chip {
    border-color: var(--_border);
  }
  button[aria-pressed="true"] {
    border-color: var(--_accent);
    background: var(--_tint);
    font-weight: 600;
  }
  input {
    border-radius: var(--_radius);
    padding: 0.3rem 0.6rem;
    border: 1px solid var(--_muted);
    background: var(--_surface);
    color: inherit;
  }
  input::-webkit-search-cancel-button {
    display: none;
  }
  mark {
    background: none;
    color: inherit;
    font-weight: 700;
    text-decoration: underline 2px var(--_star);
  }
`;

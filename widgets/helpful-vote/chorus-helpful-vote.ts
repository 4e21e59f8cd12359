/**
 * @summary "Was this review helpful?" Yes/No buttons for one review (`POST /reviews/{id}/votes`,
 * decisions.md §3). One vote per visitor: the element sends a visitor ID kept in localStorage
 * (so it works on a merchant's origin without third-party cookies); the server also counts once
 * under concurrent requests. A request in flight disables the buttons (a double click sends one).
 *
 * @attr store-id - the store's subscriber ID
 * @attr review-id - the review
 * @attr helpful-count - initial helpful count
 * @attr unhelpful-count - initial unhelpful count
 * @attr api-base - origin of the Chorus server
 * @event chorus-vote - `{ reviewId, vote, helpfulCount, unhelpfulCount }` after the server counted the vote
 * @csspart button - each vote button
 */
import { css, html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { VoteResponse } from "../../server/contract/writes.ts";
import { describeError, postJson } from "../internal/api.ts";
import { ChorusElement } from "../internal/chorus-element.ts";
import { tokens } from "../internal/tokens.ts";

const STORAGE_KEY = "chorus-visitor-id";

/** The visitor ID of this browser (created once; null when storage is unavailable → the server's cookie is used). */
function visitorId(): string | null {
  try {
    let id = localStorage.getItem(STORAGE_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(STORAGE_KEY, id);
    }
    return id;
  } catch {
    return null;
  }
}

@customElement("chorus-helpful-vote")
export class ChorusHelpfulVote extends ChorusElement {
  static styles = [
    tokens,
    css`
      :host { display: inline-flex; align-items: center; gap: 8px; flex-wrap: wrap; font-size: 0.9em; }
      button { font: inherit; cursor: pointer; border: 1px solid var(--_border); background: #fff; color: #1a1a1a; border-radius: 999px; padding: 2px 10px; }
      button[aria-pressed="true"] { border-color: var(--_accent); background: var(--_accent); color: var(--_accent-contrast); }
      .error { color: var(--_danger); }
    `,
  ];

  @property({ attribute: "review-id" }) accessor reviewId = "";
  @property({ attribute: "helpful-count", type: Number }) accessor helpfulCount = 0;
  @property({ attribute: "unhelpful-count", type: Number }) accessor unhelpfulCount = 0;
  @state() accessor voted: "helpful" | "unhelpful" | null = null;
  @state() accessor busy = false;
  @state() accessor error = "";

  private async vote(vote: "helpful" | "unhelpful"): Promise<void> {
    if (this.busy || this.voted === vote) return;
    this.busy = true;
    this.error = "";
    try {
      const id = visitorId();
      const counts = await postJson<VoteResponse>(`${this.storeUrl}/reviews/${encodeURIComponent(this.reviewId)}/votes`, { vote, ...(id ? { visitorId: id } : {}) });
      this.helpfulCount = counts.helpfulCount;
      this.unhelpfulCount = counts.unhelpfulCount;
      this.voted = vote;
      this.emit("chorus-vote", { reviewId: this.reviewId, vote, ...counts });
    } catch (error) {
      this.error = describeError(error);
    } finally {
      this.busy = false;
    }
  }

  render() {
    return html`<span id="q">Was this review helpful?</span>
      <button part="button" aria-pressed=${this.voted === "helpful" ? "true" : "false"} aria-disabled=${this.busy ? "true" : "false"} @click=${() => this.vote("helpful")}>
        Yes <span class="visually-hidden">, helpful,</span> (<span class="count">${this.helpfulCount}</span>)
      </button>
      <button part="button" aria-pressed=${this.voted === "unhelpful" ? "true" : "false"} aria-disabled=${this.busy ? "true" : "false"} @click=${() => this.vote("unhelpful")}>
        No <span class="visually-hidden">, not helpful,</span> (<span class="count">${this.unhelpfulCount}</span>)
      </button>
      ${this.error ? html`<span class="error" role="alert">${this.error}</span>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "chorus-helpful-vote": ChorusHelpfulVote;
  }
}

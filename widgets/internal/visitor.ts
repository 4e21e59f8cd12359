/**
 * The visitor ID sent with helpful votes (docs/writes.md, Helpful votes): the signed value the votes
 * endpoint answers as `visitorId`, kept in localStorage under `chorus-visitor-id`. Needed because a
 * cross-origin fetch from a merchant's page does not carry the server's visitor cookie. The server
 * believes only values it signed (issue #19 finding 5), so the widget never makes one up.
 * @returns the stored ID, or null before the first vote or when storage is unavailable (the server then
 * starts a new visitor and answers its ID)
 */
export function visitorId(): string | null {
  try {
    return localStorage.getItem("chorus-visitor-id");
  } catch {
    return null;
  }
}

/** Keep the signed visitor ID a vote answered (ignored when absent or when storage is unavailable). */
export function rememberVisitorId(id: unknown): void {
  if (typeof id !== "string" || id === "") return;
  try {
    if (localStorage.getItem("chorus-visitor-id") !== id) localStorage.setItem("chorus-visitor-id", id);
  } catch {
    /* storage blocked: the next vote starts a new visitor, which the server's per-address limits bound */
  }
}

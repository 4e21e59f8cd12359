/**
 * The visitor ID sent with helpful votes (decisions.md §3, docs/writes.md): one random UUID per browser,
 * kept in localStorage under `chorus-visitor-id`. Needed because a cross-origin fetch from a merchant's
 * page does not carry the server's visitor cookie.
 * @returns the ID, or null when storage is unavailable (the server then falls back to its cookie)
 */
export function visitorId(): string | null {
  try {
    let id = localStorage.getItem("chorus-visitor-id");
    if (!id) localStorage.setItem("chorus-visitor-id", (id = crypto.randomUUID()));
    return id;
  } catch {
    return null;
  }
}

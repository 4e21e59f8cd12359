/** The result of a form action: a success note (status) or an error (alert). Renders nothing without one. */
export function Flash({ result }: { result?: { ok?: string; error?: string } | null }) {
  if (!result) return null;
  if (result.error) return <p className="flash flash-error" role="alert">{result.error}</p>;
  if (result.ok) return <p className="flash flash-ok" role="status">{result.ok}</p>;
  return null;
}

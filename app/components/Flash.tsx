/** The result of a form action: a success note (status) or an error (alert). Renders nothing without one. */
export function Flash({ result }: { result?: { ok?: string; error?: string } | null }) {
  if (!result) return null;
  if (result.error)
    return (
      <p className="flash flash-error" role="alert">
        {result.error}
      </p>
    );
  if (result.ok)
    return (
      <p className="flash flash-ok" role="status">
        {result.ok}
      </p>
    );
  return null;
}

/**
 * Like Flash, for pages whose forms stay on the page (an "Add" form that resets after a success): the status
 * region is always in the page, empty until a success note, so screen readers announce the note when it
 * arrives (a live region inserted with its text is often not read). Errors are alerts, as in Flash.
 */
export function LiveFlash({ result }: { result?: { ok?: string; error?: string } | null }) {
  return (
    <>
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      <div role="status" className="live-flash">
        {result?.ok && !result.error ? <p className="flash flash-ok">{result.ok}</p> : null}
      </div>
    </>
  );
}

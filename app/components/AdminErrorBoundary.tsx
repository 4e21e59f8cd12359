import { isRouteErrorResponse, useRouteError } from "@remix-run/react";

/**
 * The friendly error page of every admin route: a heading, what happened in plain words, and a way
 * back. Never shows a stack or internal details.
 */
export function AdminErrorBoundary() {
  const error = useRouteError();
  let title = "Something went wrong";
  let message = "Chorus could not show this page. Try again in a moment; if it keeps happening, check the server log.";
  if (isRouteErrorResponse(error)) {
    const detail = typeof error.data === "object" && error.data && "message" in error.data ? String((error.data as { message: unknown }).message) : "";
    if (error.status === 404) title = "Not found";
    else if (error.status === 403) title = "Not allowed";
    else if (error.status === 400) title = "That did not work";
    else if (error.status === 429) title = "Too many attempts";
    else if (error.status === 413) title = "Too much to send";
    else if (error.status === 415) title = "That did not work";
    if (detail) message = detail;
    else if (error.status === 404) message = "This page does not exist, or you do not have access to it.";
  }
  return (
    <section className="error-page" aria-labelledby="error-title">
      <h1 id="error-title">{title}</h1>
      <p role="alert">{message}</p>
      <p>
        {/* A document request: /admin.data (a client navigation) is outside the cookie path /admin. */}
        <a href="/admin">Back to the admin home</a>
      </p>
    </section>
  );
}

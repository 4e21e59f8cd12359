import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteError } from "@remix-run/react";
import type { LinksFunction } from "@remix-run/node";
import styles from "./styles/app.css?url";
import { useNonce } from "./lib/nonce";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * The HTML shell of every Remix page (admin and home). API routes are resource routes and skip it. `<html lang>` is
 * English unless a page's loader answers its own `htmlLang` (the hosted survey page speaks the shopper's language).
 */
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const lang =
    useMatches()
      .map((m) => (m.data as { htmlLang?: unknown } | undefined)?.htmlLang)
      .filter((l): l is string => typeof l === "string")
      .pop() ?? "en";
  return (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * The last-resort error page of every page outside the admin (which has its own): a heading and a plain
 * sentence, the status when there is one, never a stack or an error's internal message.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? "Page not found" : status < 500 ? "That did not work" : "Something went wrong";
  const message =
    status === 404 ? "There is no page at this address." : status < 500 ? "The request could not be handled. Go back and try again." : "Chorus could not show this page. Try again in a moment.";
  return (
    <main id="main" aria-labelledby="error-title">
      <h1 id="error-title">{title}</h1>
      <p role="alert">{message}</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </main>
  );
}

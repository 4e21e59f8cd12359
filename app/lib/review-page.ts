/**
 * What the hosted review-request pages share (`/r/{token}` and its "rate the shop" step `/r/{token}/shop`,
 * docs/review-requests.md): their stylesheet and their headers. The link carries a token, so the pages are never
 * cached or indexed and their URL is never sent to another site as a referrer.
 */
import type { HeadersFunction, LinksFunction } from "@remix-run/node";
import styles from "~/styles/review-page.css?url";

/** Headers of every answer of the review pages. */
export const REVIEW_PAGE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };

/** The review pages' stylesheet and an empty icon (no request for /favicon.ico). */
export const reviewPageLinks: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," },
];

/** REVIEW_PAGE_HEADERS, plus the action's `Connection: close` when it left a body unread (a refused upload). */
export const reviewPageHeaders: HeadersFunction = ({ actionHeaders }) => {
  const out = new Headers(REVIEW_PAGE_HEADERS);
  const connection = actionHeaders.get("Connection");
  if (connection) out.set("Connection", connection);
  return out;
};

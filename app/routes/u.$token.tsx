/**
 * Unsubscribe from a store's review requests (`/u/{token}`, docs/review-requests.md "Unsubscribe").
 * `GET` shows a confirm page (opening a link must not unsubscribe: mail scanners follow links);
 * `POST` unsubscribes: the page's button, and the RFC 8058 one-click POST mail clients send
 * (`List-Unsubscribe=One-Click`). No sign-in and no CSRF token: the token in the URL is the proof,
 * and unsubscribing is all it can do. Idempotent.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { readBodyBytes } from "../../server/shared/body.ts";
import styles from "~/styles/review-page.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," },
];
export const meta: MetaFunction = () => [{ title: "Unsubscribe from review requests" }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
const HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };
export const headers = () => HEADERS;

export async function loader({ params, context }: LoaderFunctionArgs) {
  const info = await context.services.reviewRequests.unsubscribeInfo(params.token ?? "");
  return data({ info }, { status: info.state === "ok" ? 200 : 404, headers: HEADERS });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  // The body (`List-Unsubscribe=One-Click`, or the page's empty form) carries nothing we need: read (at most
  // 1 KB, bounded) and dropped. A larger body is refused by the reader and does not stop the unsubscribe.
  await readBodyBytes(request, 1024).catch(() => {});
  const info = await context.services.reviewRequests.unsubscribe(params.token ?? "");
  return data({ done: info }, { status: info.state === "ok" ? 200 : 404, headers: HEADERS });
}

export default function Unsubscribe() {
  const { info } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result?.done ?? info;
  if (state.state !== "ok") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">This link does not work</h1>
        <p className="alert" role="alert">
          We could not find this unsubscribe link. Check that the whole address from the e-mail was opened.
        </p>
      </main>
    );
  }
  if (result || state.already) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{state.storeName}</p>
        <h1 id="title">You are unsubscribed</h1>
        <p role="status">
          {state.maskedEmail} gets no more review requests from {state.storeName}, and no reminder.
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{state.storeName}</p>
      <h1 id="title">Unsubscribe from review requests?</h1>
      <p>
        {state.maskedEmail} will get no more e-mails from {state.storeName} asking for reviews, and no reminder.
      </p>
      <form method="post">
        <button type="submit">Unsubscribe</button>
      </form>
    </main>
  );
}

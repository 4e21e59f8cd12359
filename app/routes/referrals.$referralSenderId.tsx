/**
 * The hosted page of a referral link (`/referrals/{referralSenderId}`, docs/loyalty.md "Referrals"): the store's
 * name and the friend's offer, and a plain form (works without JavaScript) where the friend gives an e-mail address
 * and gets the friend discount, created on the shop platform before the code is shown. Problems (not an address,
 * the sender's own address, already referred, ordered before, the platform not answering: "try again") are shown
 * in place, with the address kept; nothing is stored when the platform fails.
 */
import { data, type ActionFunctionArgs, type HeadersFunction, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { referralSenderBody } from "../../server/contract/referrals.ts";
import { readFormBody } from "../../server/shared/body.ts";
import styles from "~/styles/review-page.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," },
];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.page ? `${d.page.offer} your first order · ${d.page.storeName}` : "Referral" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

const HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };
/** Every answer: never cached or indexed, the link never sent on as a referrer; the action's `Retry-After` (a platform failure) and `Connection: close` (a body left unread). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const out = new Headers(HEADERS);
  for (const name of ["Retry-After", "Connection"]) {
    const v = actionHeaders.get(name);
    if (v) out.set(name, v);
  }
  return out;
};

export async function loader({ params, context }: LoaderFunctionArgs) {
  const page = await context.services.referrals.friendPage(params.referralSenderId ?? "");
  return data({ page }, { status: page ? 200 : 404, headers: HEADERS });
}

type Result = { error: string | null; email: string; claimed: { code: string; offer: string; discountUrl?: string } | null };

export async function action({ params, request, context }: ActionFunctionArgs) {
  const { referrals } = context.services;
  let form: FormData;
  try {
    form = await readFormBody(request);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data<Result>({ error: error.message, email: "", claimed: null }, { status: error.status, headers: { ...HEADERS, Connection: "close" } });
  }
  const email = String(form.get("email") ?? "").trim();
  const parsed = referralSenderBody.safeParse({ email });
  if (!parsed.success || !parsed.data.email)
    return data<Result>({ error: "Please enter your e-mail address (for example name@example.com).", email, claimed: null }, { status: 400, headers: HEADERS });
  try {
    const claimed = await referrals.claimFriend(params.referralSenderId ?? "", parsed.data.email);
    return data<Result>({ error: null, email, claimed: { code: claimed.code, offer: claimed.offer, ...(claimed.discountUrl ? { discountUrl: claimed.discountUrl } : {}) } }, { headers: HEADERS });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const retry = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    return data<Result>({ error: error.message, email, claimed: null }, { status: error.status, headers: retry ? { ...HEADERS, "Retry-After": String(retry) } : HEADERS });
  }
}

export default function ReferralFriendPage() {
  const { page } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!page) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">This referral link is not available</h1>
        <p className="alert" role="alert">
          We could not find this link, or the shop has ended its referral program. Check that the whole address was opened.
        </p>
      </main>
    );
  }
  if (result?.claimed) {
    const c = result.claimed;
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{page.storeName}</p>
        <h1 id="title">Your discount is ready</h1>
        <div className="notice reward" role="status">
          <p>
            Use this code at checkout for {c.offer} your first order{page.minimumOrder ? ` of ${page.minimumOrder} or more` : ""}:
          </p>
          <p>
            <strong className="code">{c.code}</strong>
          </p>
          <p>We have also sent it to your e-mail address.</p>
        </div>
        {c.discountUrl ? (
          <p>
            <a href={c.discountUrl}>Shop at {page.storeName} with your discount</a>
          </p>
        ) : null}
      </main>
    );
  }
  const error = result?.error ?? null;
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{page.storeName}</p>
      <h1 id="title">A friend sent you {page.offer} your first order</h1>
      <p>Enter your e-mail address to get your code{page.minimumOrder ? ` (for orders of ${page.minimumOrder} or more)` : ""}.</p>
      {error ? (
        <p className="alert" role="alert" id="email-error">
          {error}
        </p>
      ) : null}
      <form method="post" noValidate>
        <label htmlFor="email">E-mail address</label>
        <input
          id="email"
          type="email"
          name="email"
          autoComplete="email"
          required
          maxLength={320}
          defaultValue={result?.email ?? ""}
          {...(error ? { "aria-invalid": true as const, "aria-describedby": "email-error" } : {})}
        />
        <button type="submit">Get my discount</button>
      </form>
    </main>
  );
}

/**
 * The "rate the shop" step of a review-request link (`/r/{token}/shop`, docs/review-requests.md "Rate the shop"):
 * when the store asks for shop ratings, the shopper rates the shop itself (a verified store review for Google seller
 * ratings), once per review request. Works without JavaScript: a plain form post, then redirect-after-POST to
 * `?done=published|pending`. States: open (the form), thank you, already rated, expired, not valid (also when the
 * store does not ask for shop ratings). The thank-you page of `/r/{token}` shows the same form (RateShopForm).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useParams } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { readFormBody } from "../../server/shared/body.ts";
import { RateShopForm, shopFieldOf } from "~/components/RateShopForm";
import { REVIEW_PAGE_HEADERS as HEADERS, reviewPageHeaders, reviewPageLinks } from "~/lib/review-page";

export const links = reviewPageLinks;
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d && "storeName" in d.link ? `Rate ${d.link.storeName}` : "Rate the shop" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

/** Never cached or indexed; the token never sent to another site (app/lib/review-page.ts). */
export const headers = reviewPageHeaders;

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const done = new URL(request.url).searchParams.get("done");
  const link = await context.services.reviewRequests.shopRatingLink(params.token ?? "");
  const status = link.state === "invalid" || link.state === "off" ? 404 : link.state === "expired" ? 410 : 200;
  return data({ link, done: link.state === "rated" && (done === "published" || done === "pending") ? done : null }, { status, headers: HEADERS });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  try {
    const form = await readFormBody(request);
    const fields = Object.fromEntries([...form].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    try {
      const result = await context.services.reviewRequests.rateShop(token, { fields, clientIp: context.clientIp });
      return redirect(`/r/${encodeURIComponent(token)}/shop?done=${result.review.status === "published" ? "published" : "pending"}`, { headers: HEADERS });
    } catch (error) {
      if (!isApiError(error)) throw error;
      return data(
        { error: { field: error.status === 400 ? shopFieldOf(error.message) : ("form" as const), message: error.message, code: error.code }, values: fields },
        { status: error.status, headers: HEADERS },
      );
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data(
      { error: { field: "form" as const, message: error.message, code: error.code }, values: {} as Record<string, string> },
      { status: error.status, headers: { ...HEADERS, Connection: "close" } },
    );
  }
}

export default function RateShopPage() {
  const { link, done } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const token = useParams().token ?? "";
  if (link.state === "invalid" || link.state === "off") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">This link does not work</h1>
        <p className="alert" role="alert">
          We could not find this link. Check that the whole address from the e-mail was opened.
        </p>
      </main>
    );
  }
  if (link.state === "expired") {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{link.storeName}</p>
        <h1 id="title">This link has expired</h1>
        <p className="alert" role="alert">
          Review links work for 60 days, and not for cancelled orders.
        </p>
      </main>
    );
  }
  if (link.state === "rated" || (link.state === "open" && result?.error.code === "already_rated")) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{link.storeName}</p>
        <h1 id="title">{done ? "Thank you for rating the shop!" : "You already rated this shop"}</h1>
        <p className="notice" role="status">
          {done === "published"
            ? `Your review of ${link.storeName} is published.`
            : done === "pending"
              ? `Your review of ${link.storeName} was received. It is published once the shop has checked it.`
              : `This order already rated ${link.storeName}. Each order rates the shop once. Thank you!`}
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="hosted">
      <p className="store">{link.storeName}</p>
      <RateShopForm token={token} storeName={link.storeName} customerName={link.customerName} heading="h1" error={result?.error} values={result?.values} />
    </main>
  );
}

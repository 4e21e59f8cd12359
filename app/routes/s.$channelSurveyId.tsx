/**
 * The hosted survey page of a shareable link (`/s/{channelSurveyId}`, docs/surveys.md, Shareable link): every
 * question of the channel survey on one page as a plain form (works without JavaScript: a form post, problems shown
 * at their question, redirect after POST to the thank-you state with the reward code), progressively enhanced with
 * `<chorus-survey>`, which replaces the form (one question per step) once the widget script runs. The form sits in
 * the element's light DOM, so it shows exactly while the element is not defined.
 * The link may carry `customerId`, `email` and `orderId` (e-mail tools fill them in): they go with the response.
 * Every word is in the shopper's language (`?locale=`, else `Accept-Language`, else the store's default language; one of the 16 widget
 * languages: server/surveys/hosted-texts.ts), `<html lang>` included; the location question names countries with
 * `Intl.DisplayNames` in that language and, once a country with regions was posted, offers its ISO 3166-2 regions.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import type { UiLocale } from "../../server/contract/widget-locales.ts";
import { hostedPageLanguage, hostedText } from "../../server/surveys/hosted-texts.ts";
import { readFormBody } from "../../server/shared/body.ts";
import { HostedSurveyForm, HostedSurveyThanks, wordsIn, type Problems } from "~/components/HostedSurveyForm";
import { submitHostedSurvey, surveyThanks } from "~/lib/hosted-survey.server";
import { useNonce } from "~/lib/nonce";
import styles from "~/styles/review-page.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "data:," },
];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.hosted ? `${d.hosted.survey.surveyName} · ${d.hosted.storeName}` : hostedText(d?.ui ?? "en", "survey.notFoundTitle") },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

const HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Robots-Tag": "noindex" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who and which order the link is for (`?customerId=&email=&orderId=`), kept when valid, dropped otherwise. */
function linkContext(params: URLSearchParams | FormData) {
  const get = (name: string) => String(params.get(name) ?? "").trim();
  const customerId = UUID.test(get("customerId")) ? get("customerId") : "";
  const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(get("email")) && get("email").length <= 320 ? get("email") : "";
  const orderId = /^\d{1,20}$/.test(get("orderId")) ? get("orderId") : "";
  return { customerId, email, orderId };
}

/**
 * The page's language (server/surveys/hosted-texts.ts; `fallback` the store's default language): `ui` for its words,
 * `htmlLang` for `<html lang>` (app/root.tsx).
 */
function languageOf(request: Request, fallback: UiLocale = "en") {
  const { ui, lang } = hostedPageLanguage(new URL(request.url).searchParams.get("locale"), request.headers.get("accept-language"), fallback);
  return { ui, htmlLang: lang };
}
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const hosted = await context.services.surveys.openHostedSurvey(params.channelSurveyId ?? "");
  const language = languageOf(request, hosted?.defaultLanguage);
  if (!hosted) return data({ hosted: null, done: null, reward: null, rewardPending: false, link: linkContext(url.searchParams), ...language }, { status: 404, headers: HEADERS });
  const done = url.searchParams.get("done");
  const { reward, rewardPending } = done ? await surveyThanks(context.services, hosted.storeId, done) : { reward: null, rewardPending: false };
  return data({ hosted, done: done ? true : null, reward, rewardPending, link: linkContext(url.searchParams), ...language }, { headers: HEADERS });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const { services } = context;
  const id = params.channelSurveyId ?? "";
  const hosted = await services.surveys.openHostedSurvey(id);
  const language = languageOf(request, hosted?.defaultLanguage);
  if (!hosted) {
    await request.body?.cancel().catch(() => {});
    return data(
      { form: hostedText(language.ui, "survey.notFoundTitle"), problems: {} as Problems, values: {} as Record<string, string[]> },
      { status: 404, headers: { ...HEADERS, Connection: "close" } },
    );
  }
  let form: FormData;
  try {
    form = await readFormBody(request);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return data({ form: error.message, problems: {} as Problems, values: {} as Record<string, string[]> }, { status: error.status, headers: { ...HEADERS, Connection: "close" } });
  }
  const link = linkContext(form);
  const result = await submitHostedSurvey(services, context.clientIp, hosted, form, link);
  if ("refused" in result) return data(result.refused, { status: result.status, headers: HEADERS });
  const locale = new URL(request.url).searchParams.get("locale");
  const thanks = `/s/${encodeURIComponent(id)}?done=${encodeURIComponent(result.ok)}${locale ? `&locale=${encodeURIComponent(locale)}` : ""}`;
  return redirect(thanks, { headers: HEADERS });
}

export default function HostedSurveyPage() {
  const { hosted, done, reward, rewardPending, link, ui, htmlLang } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const nonce = useNonce();
  const t = wordsIn(ui as UiLocale);
  if (!hosted) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">{t("survey.notFoundTitle")}</h1>
        <p className="alert" role="alert">
          {t("survey.notFound")}
        </p>
      </main>
    );
  }
  const { survey, storeName } = hosted;
  if (done) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{storeName}</p>
        <HostedSurveyThanks ui={ui as UiLocale} storeName={storeName} reward={reward} rewardPending={rewardPending} />
      </main>
    );
  }
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{storeName}</p>
      <h1 id="title">{survey.surveyName}</h1>
      {survey.description ? <p>{survey.description}</p> : null}
      {survey.rewardDescription ? <p className="notice">{t("survey.rewardFor", { reward: survey.rewardDescription })}</p> : null}
      <HostedSurveyForm
        survey={survey}
        storeId={hosted.storeId}
        ui={ui as UiLocale}
        lang={htmlLang}
        result={result}
        hidden={{ customerId: link.customerId, email: link.email, orderId: link.orderId }}
        element={link}
      />
      <script async src="/widgets/chorus.js" nonce={nonce} />
    </main>
  );
}

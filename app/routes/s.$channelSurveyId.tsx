/**
 * The hosted survey page of a shareable link (`/s/{channelSurveyId}`, docs/surveys.md, Shareable link): every
 * question of the channel survey on one page as a plain form (works without JavaScript: a form post, problems shown
 * at their question, redirect after POST to the thank-you state with the reward code), progressively enhanced with
 * `<chorus-survey>`, which replaces the form (one question per step) once the widget script runs. The form sits in
 * the element's light DOM, so it shows exactly while the element is not defined.
 * The link may carry `customerId`, `email` and `orderId` (e-mail tools fill them in): they go with the response.
 * Every word is in the shopper's language (`?locale=`, else `Accept-Language`, else English; one of the 16 widget
 * languages: server/surveys/hosted-texts.ts), `<html lang>` included; the location question names countries with
 * `Intl.DisplayNames` in that language and, once a country with regions was posted, offers its ISO 3166-2 regions.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { answersFromForm, questionOfError, surveyField, type SurveyProblem } from "../../server/contract/survey-form.ts";
import { COUNTRY_CODES } from "../../server/contract/countries.ts";
import type { SurveyQuestion } from "../../server/contract/surveys.ts";
import type { TextId } from "../../server/contract/widget-strings.ts";
import type { UiLocale } from "../../server/contract/widget-locales.ts";
import { hostedPageLanguage, hostedText, PROBLEM_TEXT_IDS } from "../../server/surveys/hosted-texts.ts";
import { regionsOf } from "../../server/surveys/regions.ts";
import { readFormBody } from "../../server/shared/body.ts";
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

/** The page's language (server/surveys/hosted-texts.ts): `ui` for its words, `htmlLang` for `<html lang>` (app/root.tsx). */
function languageOf(request: Request) {
  const { ui, lang } = hostedPageLanguage(new URL(request.url).searchParams.get("locale"), request.headers.get("accept-language"));
  return { ui, htmlLang: lang };
}
export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const language = languageOf(request);
  const hosted = await context.services.surveys.openHostedSurvey(params.channelSurveyId ?? "");
  if (!hosted) return data({ hosted: null, done: null, reward: null, rewardPending: false, link: linkContext(url.searchParams), ...language }, { status: 404, headers: HEADERS });
  const done = url.searchParams.get("done");
  const reward = done ? ((await context.services.surveys.rewardOfResponse(hosted.storeId, done)) ?? null) : null;
  const rewardPending = done && !reward ? await context.services.surveys.rewardPending(hosted.storeId, done) : false;
  return data({ hosted, done: done ? true : null, reward, rewardPending, link: linkContext(url.searchParams), ...language }, { headers: HEADERS });
}

/** A question's problem: one the shopper can fix (shown in the page's language), or the server's own sentence. */
type Problems = Record<string, { problem: SurveyProblem } | { text: string }>;

export async function action({ params, request, context }: ActionFunctionArgs) {
  const { services } = context;
  const id = params.channelSurveyId ?? "";
  const language = languageOf(request);
  const hosted = await services.surveys.openHostedSurvey(id);
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
  const values: Record<string, string[]> = {};
  for (const [name, value] of form) if (typeof value === "string") (values[name] ??= []).push(value);
  const { answers, problems } = answersFromForm(hosted.survey.questions, form);
  const shown: Problems = Object.fromEntries(Object.entries(problems).map(([q, p]) => [q, { problem: p }]));
  if (!answers.length && !Object.keys(shown).length) shown[hosted.survey.questions[0]!.id] = { problem: "required" };
  if (Object.keys(shown).length) return data({ form: null, problems: shown, values }, { status: 400, headers: HEADERS });
  const link = linkContext(form);
  const customer = link.customerId || link.email ? { ...(link.customerId ? { customerId: link.customerId } : {}), ...(link.email ? { email: link.email } : {}) } : undefined;
  const body = { answeredQuestions: answers, ...(customer ? { customer } : {}), ...(link.orderId ? { order: { remoteOrderId: link.orderId } } : {}) };
  try {
    const result = await services.surveyLimiter.run(
      context.clientIp,
      () => services.surveys.submitResponse(hosted.storeId, id, body),
      (r) => !r.replayed,
    );
    const locale = new URL(request.url).searchParams.get("locale");
    const thanks = `/s/${encodeURIComponent(id)}?done=${encodeURIComponent(result.body.surveyResponse.surveyResponseId)}${locale ? `&locale=${encodeURIComponent(locale)}` : ""}`;
    return redirect(thanks, { headers: HEADERS });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const question = questionOfError(error.message);
    return data(
      { form: question ? null : error.message, problems: (question ? { [question]: { text: error.message.replace(/^.*?\): /, "") } } : {}) as Problems, values },
      { status: error.status, headers: HEADERS },
    );
  }
}

/** The page's words in language `ui` (the survey element's texts, server/surveys/hosted-texts.ts). */
type T = (id: TextId, vars?: Record<string, string | number>) => string;

/** Countries named and sorted in the page's language (`Intl.DisplayNames`, `Intl.Collator`), and the month names. */
function namesIn(lang: string) {
  const regionNames = new Intl.DisplayNames([lang, "en"], { type: "region" });
  const countries = COUNTRY_CODES.map((code) => ({ code, name: regionNames.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, lang));
  const months = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2000, i, 1)).toLocaleString(lang, { month: "long", timeZone: "UTC" }));
  return { countries, months };
}

/** One question as plain form controls, with its problem (if any) shown in place. */
function Question({ q, n, values, problem, t, names }: { q: SurveyQuestion; n: number; values: Record<string, string[]>; problem?: string; t: T; names: ReturnType<typeof namesIn> }) {
  const name = (part?: Parameters<typeof surveyField>[1]) => surveyField(q.id, part);
  const v = (part?: Parameters<typeof surveyField>[1]) => values[name(part)]?.[0] ?? "";
  const has = (value: string) => (values[name()] ?? []).includes(value);
  const errorId = `e-${q.id}`;
  const described = problem ? { "aria-describedby": errorId } : {};
  const invalid = problem ? { "aria-invalid": true as const, "aria-describedby": errorId } : {};
  const title = `${n}. ${q.required ? t("survey.required", { question: q.text }) : q.text}`;
  const legend = <legend>{title}</legend>;
  const error = problem ? (
    <span id={errorId} className="field-error">
      {problem}
    </span>
  ) : null;
  const choices = (options: string[], multiple: boolean) =>
    options.map((o) => (
      <label key={o} className="choice">
        <input type={multiple ? "checkbox" : "radio"} name={name()} value={o} defaultChecked={has(o)} {...described} /> {o}
      </label>
    ));
  const custom =
    q.allowCustomAnswer && q.customAnswerOptionText ? (
      <>
        {choices([q.customAnswerOptionText], q.type === "multi-select")}
        <label htmlFor={`${q.id}-other`}>{t("survey.otherDescribe")}</label>
        <input id={`${q.id}-other`} type="text" name={name("other")} maxLength={5000} defaultValue={v("other")} />
      </>
    ) : null;
  const scale = (from: number, to: number, label: (k: number) => string) => (
    <div className="rating">
      {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((k) => (
        <label key={k} className="choice">
          <input type="radio" name={name()} value={k} defaultChecked={v() === String(k)} {...described} /> {label(k)}
        </label>
      ))}
    </div>
  );
  let body: React.ReactNode;
  switch (q.type) {
    case "text":
      return (
        <div className="question">
          <label htmlFor={`${q.id}-text`}>{title}</label>
          <textarea id={`${q.id}-text`} name={name()} rows={4} maxLength={5000} defaultValue={v()} {...invalid} />
          {error}
        </div>
      );
    case "email":
      return (
        <div className="question">
          <label htmlFor={`${q.id}-email`}>{title}</label>
          <input id={`${q.id}-email`} type="email" name={name()} autoComplete="email" defaultValue={v()} {...invalid} />
          {error}
          <label className="choice">
            <input type="checkbox" name={name("optin")} defaultChecked={v("optin") === "on"} /> {t("survey.optIn")}
          </label>
        </div>
      );
    case "nps":
      body = (
        <>
          {scale(0, 10, String)}
          <p className="hint">
            {t("survey.npsLow")} · {t("survey.npsHigh")}
          </p>
        </>
      );
      break;
    case "star":
      body = scale(1, 5, (k) => t("survey.stars", { count: k }));
      break;
    case "five-point":
      body = (
        <>
          {scale(1, 5, String)}
          <p className="hint">{t("survey.scaleEnds")}</p>
        </>
      );
      break;
    case "single-select":
    case "multi-select":
      body = (
        <>
          {choices(q.options ?? [], q.type === "multi-select")}
          {custom}
        </>
      );
      break;
    case "profile":
      if (q.profileAnswerType === "date-components") {
        body = (
          <div className="date">
            <label htmlFor={`${q.id}-day`}>{t("survey.day")}</label>
            <input id={`${q.id}-day`} type="text" inputMode="numeric" name={name("day")} size={2} maxLength={2} autoComplete="bday-day" defaultValue={v("day")} {...invalid} />
            <label htmlFor={`${q.id}-month`}>{t("survey.month")}</label>
            <select id={`${q.id}-month`} name={name("month")} autoComplete="bday-month" defaultValue={v("month")} {...invalid}>
              <option value="">{t("survey.choose")}</option>
              {names.months.map((m, i) => (
                <option key={m} value={i + 1}>
                  {m}
                </option>
              ))}
            </select>
            <label htmlFor={`${q.id}-year`}>{t("survey.year")}</label>
            <input id={`${q.id}-year`} type="text" inputMode="numeric" name={name("year")} size={4} maxLength={4} autoComplete="bday-year" defaultValue={v("year")} {...invalid} />
          </div>
        );
      } else if (q.profileAnswerType === "location") {
        // Without JavaScript the regions of a country can only be offered once it was posted (a second chance after a
        // problem); until then the region is a code typed in. With JavaScript, <chorus-survey> asks for them as it changes.
        const regions = v("country") ? regionsOf(v("country")) : [];
        body = (
          <>
            <label htmlFor={`${q.id}-country`}>{t("survey.country")}</label>
            <select id={`${q.id}-country`} name={name("country")} autoComplete="country" defaultValue={v("country")} {...invalid}>
              <option value="">{t("survey.choose")}</option>
              {names.countries.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            {regions.length ? (
              <>
                <label htmlFor={`${q.id}-zone`}>{t("survey.region")}</label>
                <select id={`${q.id}-zone`} name={name("zone")} autoComplete="address-level1" defaultValue={v("zone").toUpperCase()}>
                  <option value="">{t("survey.choose")}</option>
                  {regions.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </>
            ) : (
              <>
                <label htmlFor={`${q.id}-zone`}>{t("survey.zone")}</label>
                <input id={`${q.id}-zone`} type="text" name={name("zone")} maxLength={10} autoComplete="address-level1" defaultValue={v("zone")} />
              </>
            )}
          </>
        );
      } else {
        body = choices(q.options ?? [], q.profileAnswerType === "multi-value");
      }
      break;
  }
  return (
    <fieldset className="question" {...(problem ? { "aria-describedby": errorId } : {})}>
      {legend}
      {body}
      {error}
    </fieldset>
  );
}

export default function HostedSurveyPage() {
  const { hosted, done, reward, rewardPending, link, ui, htmlLang } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const nonce = useNonce();
  const t: T = (id, vars) => hostedText(ui as UiLocale, id, vars);
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
        <h1 id="title">{t("survey.thanks")}</h1>
        <p role="status">{t("survey.sentTo", { store: storeName })}</p>
        {reward ? (
          <div className="notice reward">
            <p>{reward.description}</p>
            <p>
              {t("survey.code", { code: "" })}
              <strong className="code">{reward.value}</strong>
            </p>
          </div>
        ) : null}
        {rewardPending ? <p className="notice reward">{t("survey.rewardByMail")}</p> : null}
      </main>
    );
  }
  const problems: Problems = result?.problems ?? {};
  const problemText = (p: Problems[string] | undefined) => (p ? ("problem" in p ? t(PROBLEM_TEXT_IDS[p.problem]) : p.text) : undefined);
  const names = namesIn(htmlLang);
  const values: Record<string, string[]> = result?.values ?? {};
  const count = Object.keys(problems).length;
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{storeName}</p>
      <h1 id="title">{survey.surveyName}</h1>
      {survey.description ? <p>{survey.description}</p> : null}
      {survey.rewardDescription ? <p className="notice">{t("survey.rewardFor", { reward: survey.rewardDescription })}</p> : null}
      <chorus-survey
        channel-survey-id={survey.channelSurveyId}
        store-id={hosted.storeId}
        customer-id={link.customerId || undefined}
        email={link.email || undefined}
        order-id={link.orderId || undefined}
      >
        {result?.form || count ? (
          <p className="alert" role="alert">
            {result?.form ?? t("survey.notSent")}
          </p>
        ) : null}
        <form method="post" noValidate>
          {survey.questions.map((q, i) => (
            <Question key={q.id} q={q} n={i + 1} values={values} problem={problemText(problems[q.id])} t={t} names={names} />
          ))}
          {link.customerId ? <input type="hidden" name="customerId" value={link.customerId} /> : null}
          {link.email ? <input type="hidden" name="email" value={link.email} /> : null}
          {link.orderId ? <input type="hidden" name="orderId" value={link.orderId} /> : null}
          <button type="submit">{t("survey.submit")}</button>
        </form>
      </chorus-survey>
      <script async src="/widgets/chorus.js" nonce={nonce} />
    </main>
  );
}

declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "chorus-survey": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        "channel-survey-id": string;
        "store-id": string;
        "customer-id"?: string;
        email?: string;
        "order-id"?: string;
      };
    }
  }
}

/**
 * The hosted survey page of a shareable link (`/s/{channelSurveyId}`, docs/surveys.md, Shareable link): every
 * question of the channel survey on one page as a plain form (works without JavaScript: a form post, problems shown
 * at their question, redirect after POST to the thank-you state with the reward code), progressively enhanced with
 * `<chorus-survey>`, which replaces the form (one question per step) once the widget script runs. The form sits in
 * the element's light DOM, so it shows exactly while the element is not defined.
 * The link may carry `customerId`, `email` and `orderId` (e-mail tools fill them in): they go with the response.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { answersFromForm, NPS_LABELS, questionOfError, surveyField, SURVEY_PROBLEM_TEXTS } from "../../server/contract/survey-form.ts";
import { COUNTRY_CODES } from "../../server/contract/countries.ts";
import type { SurveyQuestion } from "../../server/contract/surveys.ts";
import { readFormBody } from "../../server/shared/body.ts";
import { useNonce } from "~/lib/nonce";
import styles from "~/styles/review-page.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }, { rel: "icon", href: "data:," }];
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.hosted ? `${d.hosted.survey.surveyName} · ${d.hosted.storeName}` : "Survey" },
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

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const hosted = await context.services.surveys.openHostedSurvey(params.channelSurveyId ?? "");
  if (!hosted) return data({ hosted: null, done: null, reward: null, rewardPending: false, link: linkContext(url.searchParams) }, { status: 404, headers: HEADERS });
  const done = url.searchParams.get("done");
  const reward = done ? (await context.services.surveys.rewardOfResponse(hosted.storeId, done)) ?? null : null;
  const rewardPending = done && !reward ? await context.services.surveys.rewardPending(hosted.storeId, done) : false;
  return data({ hosted, done: done ? true : null, reward, rewardPending, link: linkContext(url.searchParams) }, { headers: HEADERS });
}

type Problems = Record<string, string>;

export async function action({ params, request, context }: ActionFunctionArgs) {
  const { services } = context;
  const id = params.channelSurveyId ?? "";
  const hosted = await services.surveys.openHostedSurvey(id);
  if (!hosted) {
    await request.body?.cancel().catch(() => {});
    return data({ form: "This survey is not available.", problems: {} as Problems, values: {} as Record<string, string[]> }, { status: 404, headers: { ...HEADERS, Connection: "close" } });
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
  const shown: Problems = Object.fromEntries(Object.entries(problems).map(([q, p]) => [q, SURVEY_PROBLEM_TEXTS[p]]));
  if (!answers.length && !Object.keys(shown).length) shown[hosted.survey.questions[0]!.id] = SURVEY_PROBLEM_TEXTS.required;
  if (Object.keys(shown).length) return data({ form: null, problems: shown, values }, { status: 400, headers: HEADERS });
  const link = linkContext(form);
  const customer = link.customerId || link.email ? { ...(link.customerId ? { customerId: link.customerId } : {}), ...(link.email ? { email: link.email } : {}) } : undefined;
  const body = { answeredQuestions: answers, ...(customer ? { customer } : {}), ...(link.orderId ? { order: { remoteOrderId: link.orderId } } : {}) };
  try {
    const result = await services.surveyLimiter.run(context.clientIp, () => services.surveys.submitResponse(hosted.storeId, id, body), (r) => !r.replayed);
    return redirect(`/s/${encodeURIComponent(id)}?done=${encodeURIComponent(result.body.surveyResponse.surveyResponseId)}`, { headers: HEADERS });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const question = questionOfError(error.message);
    return data(
      { form: question ? null : error.message, problems: question ? { [question]: error.message.replace(/^.*?\): /, "") } : {}, values },
      { status: error.status, headers: HEADERS },
    );
  }
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
const COUNTRIES = COUNTRY_CODES.map((code) => ({ code, name: regionNames.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, "en"));
const MONTHS = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2000, i, 1)).toLocaleString("en", { month: "long", timeZone: "UTC" }));

/** One question as plain form controls, with its problem (if any) shown in place. */
function Question({ q, n, values, problem }: { q: SurveyQuestion; n: number; values: Record<string, string[]>; problem?: string }) {
  const name = (part?: Parameters<typeof surveyField>[1]) => surveyField(q.id, part);
  const v = (part?: Parameters<typeof surveyField>[1]) => values[name(part)]?.[0] ?? "";
  const has = (value: string) => (values[name()] ?? []).includes(value);
  const errorId = `e-${q.id}`;
  const described = problem ? { "aria-describedby": errorId } : {};
  const invalid = problem ? { "aria-invalid": true as const, "aria-describedby": errorId } : {};
  const legend = <legend>{n}. {q.text}{q.required ? " (required)" : ""}</legend>;
  const error = problem ? <span id={errorId} className="field-error">{problem}</span> : null;
  const choices = (options: string[], multiple: boolean) => options.map((o) => (
    <label key={o} className="choice"><input type={multiple ? "checkbox" : "radio"} name={name()} value={o} defaultChecked={has(o)} {...described} /> {o}</label>
  ));
  const custom = q.allowCustomAnswer && q.customAnswerOptionText ? (
    <>
      {choices([q.customAnswerOptionText], q.type === "multi-select")}
      <label htmlFor={`${q.id}-other`}>{q.customAnswerOptionText}: please describe</label>
      <input id={`${q.id}-other`} type="text" name={name("other")} maxLength={5000} defaultValue={v("other")} />
    </>
  ) : null;
  const scale = (from: number, to: number, label: (k: number) => string) => (
    <div className="rating">
      {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((k) => (
        <label key={k} className="choice"><input type="radio" name={name()} value={k} defaultChecked={v() === String(k)} {...described} /> {label(k)}</label>
      ))}
    </div>
  );
  let body: React.ReactNode;
  switch (q.type) {
    case "text":
      return (
        <div className="question">
          <label htmlFor={`${q.id}-text`}>{n}. {q.text}{q.required ? " (required)" : ""}</label>
          <textarea id={`${q.id}-text`} name={name()} rows={4} maxLength={5000} defaultValue={v()} {...invalid} />
          {error}
        </div>
      );
    case "email":
      return (
        <div className="question">
          <label htmlFor={`${q.id}-email`}>{n}. {q.text}{q.required ? " (required)" : ""}</label>
          <input id={`${q.id}-email`} type="email" name={name()} autoComplete="email" defaultValue={v()} {...invalid} />
          {error}
          <label className="choice"><input type="checkbox" name={name("optin")} defaultChecked={v("optin") === "on"} /> Send me news and offers by e-mail</label>
        </div>
      );
    case "nps":
      body = <>{scale(0, 10, String)}<p className="hint">0 = {NPS_LABELS.low}, 10 = {NPS_LABELS.high}</p></>;
      break;
    case "star":
      body = scale(1, 5, (k) => `${k} ${k === 1 ? "star" : "stars"}`);
      break;
    case "five-point":
      body = <>{scale(1, 5, String)}<p className="hint">1 = lowest, 5 = highest</p></>;
      break;
    case "single-select":
    case "multi-select":
      body = <>{choices(q.options ?? [], q.type === "multi-select")}{custom}</>;
      break;
    case "profile":
      if (q.profileAnswerType === "date-components") {
        body = (
          <div className="date">
            <label htmlFor={`${q.id}-day`}>Day</label>
            <input id={`${q.id}-day`} type="text" inputMode="numeric" name={name("day")} size={2} maxLength={2} autoComplete="bday-day" defaultValue={v("day")} {...invalid} />
            <label htmlFor={`${q.id}-month`}>Month</label>
            <select id={`${q.id}-month`} name={name("month")} autoComplete="bday-month" defaultValue={v("month")} {...invalid}>
              <option value="">Choose…</option>
              {MONTHS.map((m, i) => <option key={m} value={i + 1}>{m}</option>)}
            </select>
            <label htmlFor={`${q.id}-year`}>Year</label>
            <input id={`${q.id}-year`} type="text" inputMode="numeric" name={name("year")} size={4} maxLength={4} autoComplete="bday-year" defaultValue={v("year")} {...invalid} />
          </div>
        );
      } else if (q.profileAnswerType === "location") {
        body = (
          <>
            <label htmlFor={`${q.id}-country`}>Country</label>
            <select id={`${q.id}-country`} name={name("country")} autoComplete="country" defaultValue={v("country")} {...invalid}>
              <option value="">Choose…</option>
              {COUNTRIES.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
            </select>
            <label htmlFor={`${q.id}-zone`}>State, province or region code (optional, e.g. CA)</label>
            <input id={`${q.id}-zone`} type="text" name={name("zone")} maxLength={10} autoComplete="address-level1" defaultValue={v("zone")} />
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
  const { hosted, done, reward, rewardPending, link } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const nonce = useNonce();
  if (!hosted) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <h1 id="title">This survey is not available</h1>
        <p className="alert" role="alert">We could not find this survey, or the shop has closed it. Check that the whole address was opened.</p>
      </main>
    );
  }
  const { survey, storeName } = hosted;
  if (done) {
    return (
      <main id="main" className="hosted" aria-labelledby="title">
        <p className="store">{storeName}</p>
        <h1 id="title">Thank you for your answers!</h1>
        <p role="status">Your answers were sent to {storeName}.</p>
        {reward ? (
          <div className="notice reward">
            <p>{reward.description}</p>
            <p>Your code: <strong className="code">{reward.value}</strong></p>
          </div>
        ) : null}
        {rewardPending ? <p className="notice reward">We'll e-mail your code as soon as it is ready.</p> : null}
      </main>
    );
  }
  const problems: Problems = result?.problems ?? {};
  const values: Record<string, string[]> = result?.values ?? {};
  const count = Object.keys(problems).length;
  return (
    <main id="main" className="hosted" aria-labelledby="title">
      <p className="store">{storeName}</p>
      <h1 id="title">{survey.surveyName}</h1>
      {survey.description ? <p>{survey.description}</p> : null}
      {survey.rewardDescription ? <p className="notice">For your answers: {survey.rewardDescription}</p> : null}
      <chorus-survey channel-survey-id={survey.channelSurveyId} store-id={hosted.storeId} customer-id={link.customerId || undefined} email={link.email || undefined} order-id={link.orderId || undefined}>
        {result?.form || count ? (
          <p className="alert" role="alert">{result?.form ?? (count === 1 ? "The answers were not sent: please see the question marked below." : `The answers were not sent: please see the ${count} questions marked below.`)}</p>
        ) : null}
        <form method="post" noValidate>
          {survey.questions.map((q, i) => <Question key={q.id} q={q} n={i + 1} values={values} problem={problems[q.id]} />)}
          {link.customerId ? <input type="hidden" name="customerId" value={link.customerId} /> : null}
          {link.email ? <input type="hidden" name="email" value={link.email} /> : null}
          {link.orderId ? <input type="hidden" name="orderId" value={link.orderId} /> : null}
          <button type="submit">Send answers</button>
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
      "chorus-survey": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & { "channel-survey-id": string; "store-id": string; "customer-id"?: string; email?: string; "order-id"?: string };
    }
  }
}

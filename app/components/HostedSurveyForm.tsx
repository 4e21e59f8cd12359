/**
 * The survey of a hosted page as a plain form, server-rendered (docs/surveys.md "Shareable link" and "Post-review"):
 * every question of a channel survey on one page, one form post, each problem shown at its question, and the
 * thank-you with the reward code. Used by the shareable link's page (`/s/{channelSurveyId}`) and, after a review, by
 * the hosted review page (`/r/{token}`). The form sits in the light DOM of `<chorus-survey>`, so it shows exactly while
 * the element is not defined (without JavaScript) and the element (one question per step) replaces it once it runs.
 * The form's answers are read by `app/lib/hosted-survey.server.ts`.
 */
import type React from "react";
import { surveyField, type SurveyProblem } from "../../server/contract/survey-form.ts";
import { COUNTRY_CODES } from "../../server/contract/countries.ts";
import type { Reward, StorefrontSurvey, SurveyQuestion } from "../../server/contract/surveys.ts";
import type { TextId } from "../../server/contract/widget-strings.ts";
import type { UiLocale } from "../../server/contract/widget-locales.ts";
import { hostedText, PROBLEM_TEXT_IDS } from "../../server/surveys/hosted-texts.ts";
import { regionsOf } from "../../server/surveys/regions.ts";
import { useNonce } from "~/lib/nonce";

/** A question's problem: one the shopper can fix (shown in the page's language), or the server's own sentence. */
export type Problems = Record<string, { problem: SurveyProblem } | { text: string }>;

/** What a refused form post answers: a problem of the whole form (or null), the problems per question, the values sent. */
export type SurveyFormResult = { form: string | null; problems: Problems; values: Record<string, string[]> };

/** The page's words in `ui`. */
export const wordsIn =
  (ui: UiLocale): T =>
  (id, vars) =>
    hostedText(ui, id, vars);

/** The page's words in language `ui` (the survey element's texts, server/surveys/hosted-texts.ts). */
export type T = (id: TextId, vars?: Record<string, string | number>) => string;

/** Countries named and sorted in the page's language (`Intl.DisplayNames`, `Intl.Collator`), and the month names. */
export function namesIn(lang: string) {
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

/**
 * The survey as `<chorus-survey>` around a plain form posting to `action` (the page itself when omitted): the problem
 * summary (an alert), the questions with their problems in place, the `hidden` fields, and the submit button.
 * `lang` is the page's language tag (month and country names).
 */
export function HostedSurveyForm({
  survey,
  storeId,
  ui,
  lang,
  result,
  action,
  hidden = {},
  element = {},
}: {
  survey: StorefrontSurvey;
  storeId: string;
  ui: UiLocale;
  lang: string;
  result?: Partial<SurveyFormResult> | null;
  action?: string;
  hidden?: Record<string, string>;
  /** The element's link attributes (`customer-id`, `email`, `order-id`), set only when not empty. */
  element?: { customerId?: string; email?: string; orderId?: string };
}) {
  const t = wordsIn(ui);
  const problems: Problems = result?.problems ?? {};
  const problemText = (p: Problems[string] | undefined) => (p ? ("problem" in p ? t(PROBLEM_TEXT_IDS[p.problem]) : p.text) : undefined);
  const names = namesIn(lang);
  const values: Record<string, string[]> = result?.values ?? {};
  const count = Object.keys(problems).length;
  return (
    <chorus-survey
      channel-survey-id={survey.channelSurveyId}
      store-id={storeId}
      customer-id={element.customerId || undefined}
      email={element.email || undefined}
      order-id={element.orderId || undefined}
    >
      {result?.form || count ? (
        <p className="alert" role="alert">
          {result?.form ?? t("survey.notSent")}
        </p>
      ) : null}
      <form method="post" action={action} noValidate>
        {survey.questions.map((q, i) => (
          <Question key={q.id} q={q} n={i + 1} values={values} problem={problemText(problems[q.id])} t={t} names={names} />
        ))}
        {Object.entries(hidden).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
        <button type="submit">{t("survey.submit")}</button>
      </form>
    </chorus-survey>
  );
}

/** The thank-you after a stored response: the heading (level `level`), the reward's code if created, or that it comes by e-mail. */
export function HostedSurveyThanks({ ui, storeName, reward, rewardPending, level = 1 }: { ui: UiLocale; storeName: string; reward: Reward | null; rewardPending: boolean; level?: 1 | 2 }) {
  const t = wordsIn(ui);
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <>
      <Heading id={level === 1 ? "title" : "survey-title"}>{t("survey.thanks")}</Heading>
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
    </>
  );
}

/**
 * The store's post-review survey under the thank-you of the hosted review page (`/r/{token}`, docs/surveys.md
 * "Post-review"), in the survey's language (`lang` on the section): the form posting back to the review page
 * (`?done={done}&survey`), its problems in place, then the thank-you with the reward; `<chorus-survey>` once the widget script runs.
 */
export function PostReviewSurveySection({
  survey,
  storeName,
  done,
  result,
}: {
  survey: {
    hosted: { storeId: string; survey: StorefrontSurvey };
    ui: string;
    lang: string;
    respondent: { email?: string; orderId?: string };
    thanks: { reward: Reward | null; rewardPending: boolean } | null;
  };
  storeName: string;
  done: string;
  result?: SurveyFormResult | null;
}) {
  const nonce = useNonce();
  const ui = survey.ui as UiLocale;
  const s = survey.hosted.survey;
  const t = wordsIn(ui);
  return (
    <section className="follow-up" aria-labelledby="survey-title" lang={survey.lang}>
      {survey.thanks ? (
        <HostedSurveyThanks ui={ui} storeName={storeName} reward={survey.thanks.reward} rewardPending={survey.thanks.rewardPending} level={2} />
      ) : (
        <>
          <h2 id="survey-title">{s.surveyName}</h2>
          {s.description ? <p>{s.description}</p> : null}
          {s.rewardDescription ? <p className="notice">{t("survey.rewardFor", { reward: s.rewardDescription })}</p> : null}
          <HostedSurveyForm survey={s} storeId={survey.hosted.storeId} ui={ui} lang={survey.lang} result={result} action={`?done=${done}&survey`} element={survey.respondent} />
          <script async src="/widgets/chorus.js" nonce={nonce} />
        </>
      )}
    </section>
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

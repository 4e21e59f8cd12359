import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { AnsweredQuestion, ProfileAnswer } from "../../server/contract/surveys.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";
import surveyStyles from "~/styles/admin-surveys.css?url";

export const meta: MetaFunction = () => [{ title: "Survey response · Chorus admin" }];
export const headers = adminHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: surveyStyles }];

/** The store's survey response, or the admin 404 (missing, not a UUID, or another store's). */
async function responseOr404(context: LoaderFunctionArgs["context"], storeId: string, responseId: string | undefined) {
  try {
    return await context.services.surveys.getResponse(storeId, responseId ?? "");
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw httpError(404, "Survey response not found.");
    throw error;
  }
}

/** One survey response with every answered question (issue 7 item 2). The list's filters ride along in `?` for the way back. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const response = await responseOr404(context, store.storeId, params.responseId);
  const back = new URLSearchParams(new URL(request.url).search);
  back.delete("after");
  if (back.get("survey") !== response.surveyId) back.set("survey", response.surveyId);
  const sampleData = (await context.services.surveys.sampleDataSurveyIds(store.storeId)).has(response.surveyId);
  return { storeId: store.storeId, response, back: back.toString(), sampleData };
}

/** Intents: archive / unarchive this response. Another store's response is not found (404) and unchanged. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const response = await responseOr404(context, store.storeId, params.responseId);
  const intent = field(form, "intent");
  const { surveys } = context.services;
  if (intent === "archive") {
    await surveys.archiveResponses(store.storeId, [response.surveyResponseId]);
    return { ok: "Response archived. It is hidden from the default list (filter Archived: Archived only or All)." };
  }
  if (intent === "unarchive") {
    await surveys.unarchiveResponses(store.storeId, [response.surveyResponseId]);
    return { ok: "Response unarchived." };
  }
  return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
}

const CHANNEL_LABEL: Record<string, string> = { "on-site": "On site", "post-checkout": "Post-checkout", "post-review": "Post-review", "shareable-link": "Shareable link" };
const TYPE_LABEL: Record<AnsweredQuestion["type"], string> = {
  text: "Text",
  "single-select": "Single choice",
  "multi-select": "Multiple choice",
  "five-point": "Five-point scale",
  star: "Star rating",
  nps: "NPS",
  profile: "Profile",
  email: "E-mail",
};
const PROFILE_LABEL: Record<ProfileAnswer["type"], string> = { "date-components": "date", location: "location", "multi-value": "several values", "single-value": "one value" };
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const NPS_LABEL = { promoter: "Promoter", passive: "Passive", detractor: "Detractor" } as const;

/** A chosen option, with the custom answer when it is the custom ("other") option. */
function Choice({ value, a }: { value: string; a: { customAnswer?: string; customAnswerOptionText?: string } }) {
  return a.customAnswer !== undefined && value === a.customAnswerOptionText ? (
    <>
      {value}: <q>{a.customAnswer}</q> <span className="muted">(custom answer)</span>
    </>
  ) : (
    <>{value}</>
  );
}

function ProfileValue({ answer }: { answer: ProfileAnswer }) {
  switch (answer.type) {
    case "date-components": {
      const { day, month, year } = answer.value;
      const isoDate = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      return (
        <time dateTime={isoDate}>
          {day} {MONTHS[month - 1]} {year}
        </time>
      );
    }
    case "location":
      return (
        <>
          Country: {answer.value.countryName ? `${answer.value.countryName} (${answer.value.countryCode})` : answer.value.countryCode}
          {answer.value.zoneCode ? <>, zone: {answer.value.zoneCode}</> : null}
        </>
      );
    case "multi-value":
      return (
        <ul>
          {answer.value.map((v) => (
            <li key={v}>{v}</li>
          ))}
        </ul>
      );
    case "single-value":
      return <>{answer.value}</>;
  }
}

/** Each of the eight answered-question types (docs/surveys.md, Survey response fields), readably. */
function AnswerValue({ a }: { a: AnsweredQuestion }) {
  switch (a.type) {
    case "text":
      return a.answer ? <>{a.answer}</> : <span className="muted">(left empty)</span>;
    case "single-select":
      return <Choice value={a.answer} a={a} />;
    case "multi-select":
      return (
        <ul>
          {a.answer.map((v) => (
            <li key={v}>
              <Choice value={v} a={a} />
            </li>
          ))}
        </ul>
      );
    case "five-point":
      return <>{a.answer} of 5</>;
    case "star":
      return (
        <>
          <span aria-hidden="true" className="stars">
            {"★".repeat(a.answer)}
            {"☆".repeat(5 - a.answer)}
          </span>{" "}
          {a.answer} of 5 stars
        </>
      );
    case "nps":
      return (
        <>
          {a.answer} of 10 · <span className={`badge badge-${a.answerNpsCategory}`}>{NPS_LABEL[a.answerNpsCategory]}</span>
        </>
      );
    case "email":
      return (
        <>
          <a href={`mailto:${a.answer}`}>{a.answer}</a> · marketing opt-in: {a.marketingOptIn === undefined ? "not asked" : a.marketingOptIn ? "yes" : "no"}
        </>
      );
    case "profile":
      return <ProfileValue answer={a.answer} />;
  }
}

export default function SurveyResponse() {
  const { storeId, response: r, back, sampleData } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="page-title">
      <p>
        <Link to={`/admin/stores/${storeId}/surveys?${back}`}>← Back to the responses of {r.surveyName}</Link>
      </p>
      <h1 id="page-title">Response to {r.surveyName}</h1>
      {sampleData ? (
        <p className="notice" role="note">
          <strong>Sample data.</strong> This response was generated to show every question type; no shopper gave it.
        </p>
      ) : null}
      <Flash result={result} />
      <dl className="answers" aria-label="About this response">
        <dt>Date (UTC)</dt>
        <dd>
          <time dateTime={r.dateCreated}>
            {r.dateCreated.slice(0, 10)} {r.dateCreated.slice(11, 16)}
          </time>
        </dd>
        <dt>Channel</dt>
        <dd>
          {CHANNEL_LABEL[r.channel]}
          {r.channelSurveyDescription ? ` — ${r.channelSurveyDescription}` : ""}
        </dd>
        <dt>Customer</dt>
        <dd>
          {r.customer?.email ?? null}
          {r.customer?.email && r.customer.customerId ? " · " : null}
          {r.customer?.customerId ? (
            <>
              ID <code>{r.customer.customerId}</code>
            </>
          ) : null}
          {!r.customer ? <span className="muted">(not given)</span> : null}
        </dd>
        <dt>E-mail marketing opt-in</dt>
        <dd>{r.emailMarketingOptIn === undefined ? <span className="muted">(not stated)</span> : r.emailMarketingOptIn ? "Yes" : "No"}</dd>
        <dt>Order</dt>
        <dd>{r.order ? <code>{r.order.remoteOrderId}</code> : <span className="muted">(none)</span>}</dd>
        <dt>Reward</dt>
        <dd>
          {r.reward ? (
            <>
              {r.reward.description} — coupon <code>{r.reward.value}</code>
            </>
          ) : (
            <span className="muted">(none)</span>
          )}
        </dd>
        <dt>State</dt>
        <dd>{r.isArchived ? <span className="badge badge-archived">Archived</span> : "Not archived"}</dd>
        <dt>Response ID</dt>
        <dd>
          <code>{r.surveyResponseId}</code>
        </dd>
      </dl>

      <h2>Answers</h2>
      {r.answeredQuestions.length === 0 ? (
        <p className="empty">This response has no answers.</p>
      ) : (
        <dl className="answers" aria-label="Answers">
          {r.answeredQuestions.map((a) => (
            <div key={a.id} data-answer-type={a.type === "profile" ? `profile-${a.answer.type}` : a.type}>
              <dt>
                {a.text}
                <span className="answer-type">
                  {TYPE_LABEL[a.type]}
                  {a.type === "profile" ? ` (${PROFILE_LABEL[a.answer.type]})` : ""}
                </span>
              </dt>
              <dd>
                <AnswerValue a={a} />
              </dd>
            </div>
          ))}
        </dl>
      )}

      <Form method="post" className="inline-form">
        <CsrfField />
        {r.isArchived ? (
          <button type="submit" name="intent" value="unarchive" disabled={busy}>
            Unarchive
          </button>
        ) : (
          <button type="submit" name="intent" value="archive" className="secondary" disabled={busy}>
            Archive
          </button>
        )}
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

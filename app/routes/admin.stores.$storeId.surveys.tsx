import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { SURVEY_TEMPLATES, surveyFromTemplate, type SurveyTemplate } from "../../server/surveys/survey-templates.ts";
import { FieldError, invalidProps } from "~/components/FieldError";
import { LiveFlash } from "~/components/Flash";
import { CsrfField } from "~/components/CsrfField";
import { SURVEY_CHANNELS } from "../../server/contract/surveys.constants.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { answerText, filterOf, queryParams, responsesQuerySchema } from "../../server/admin/survey-responses.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NpsPanel } from "~/components/NpsChart";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";
import surveyStyles from "~/styles/admin-surveys.css?url";

export const meta: MetaFunction = () => [{ title: "Surveys · Chorus admin" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: surveyStyles }];
export const headers = adminHeaders;

const createSurveyForm = z.object({
  name: z.string().trim().min(1, "Give the survey a name.").max(200, "At most 200 characters."),
  template: z.enum(Object.keys(SURVEY_TEMPLATES) as [SurveyTemplate, ...SurveyTemplate[]], { error: "Choose what the survey asks." }),
  channel: z.enum(SURVEY_CHANNELS, { error: "Choose where shoppers answer it." }),
});

/**
 * Create a survey from a template (intent `create-survey`: name, template, channel). Success redirects to the new
 * survey with a note; invalid fields answer 400 with an error beside each.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  if (field(form, "intent") !== "create-survey") return data({ errors: { form: "Unknown action." } as Record<string, string> }, { status: 400 });
  const parsed = createSurveyForm.safeParse({ name: field(form, "name"), template: field(form, "template"), channel: field(form, "channel") });
  if (!parsed.success) return data({ errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])) as Record<string, string> }, { status: 400 });
  const survey = await context.services.surveys.createSurvey(store.storeId, surveyFromTemplate(parsed.data.template, parsed.data.name, parsed.data.channel));
  return redirect(`/admin/stores/${store.storeId}/surveys?survey=${survey.surveyId}&created=1`);
}

const PAGE_SIZE = 25;
const CHANNEL_LABEL: Record<string, string> = { "on-site": "On site", "post-checkout": "Post-checkout", "post-review": "Post-review", "shareable-link": "Shareable link" };

/**
 * Survey responses (issue 7 item 2): the store's surveys; for the chosen one (`?survey=`) its responses
 * filtered by the GET form (channel, dates, NPS category, archived state, search), newest first, keyset
 * paged by the service's signed cursor (`after`); the match count; the NPS panel when it has an NPS question (score and
 * promoter, passive and detractor shares by week); the counts per option of its choice and valued profile questions.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { surveys } = context.services;
  const parsed = responsesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? "Bad filter");
  const q = parsed.data;
  const sample = await surveys.sampleDataSurveyIds(store.storeId);
  const list = await Promise.all(
    (await surveys.listSurveys(store.storeId, { limit: 100, orderBy: "date asc" })).surveys.map(async (s) => ({
      surveyId: s.surveyId,
      surveyName: s.surveyName,
      responses: await surveys.countResponses(store.storeId, { surveyId: s.surveyId }),
      sampleData: sample.has(s.surveyId),
    })),
  );
  const base = { storeId: store.storeId, surveys: list };
  if (!q.survey) return { ...base, chosen: null };

  let survey;
  try {
    survey = await surveys.getSurvey(store.storeId, q.survey);
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw httpError(404, "Survey not found.");
    throw error;
  }
  const filter = filterOf(survey.surveyId, q);
  let page;
  try {
    page = await surveys.searchResponses(store.storeId, filter, { limit: PAGE_SIZE, cursor: q.after });
  } catch (error) {
    if (isApiError(error) && error.status === 400) throw httpError(400, "This page link is no longer valid (the filter changed). Start again from the first page.");
    throw error;
  }
  const hasNps = survey.questions.some((x) => x.type === "nps");
  const { npsCategory: _ignored, ...npsFilter } = filter;
  return {
    ...base,
    chosen: {
      surveyId: survey.surveyId,
      surveyName: survey.surveyName,
      hasNps,
      channels: [...new Set(survey.channelSurveys.map((c) => c.channel))],
      query: { channel: q.channel ?? "", from: q.from ?? "", to: q.to ?? "", nps: q.nps ?? "", archived: q.archived, q: q.q ?? "" },
      params: queryParams(survey.surveyId, q),
      total: await surveys.countResponses(store.storeId, filter),
      next: page.nextCursor,
      responses: page.surveyResponses.map((r) => {
        const nps = r.answeredQuestions.find((a) => a.type === "nps");
        const first = nps ?? r.answeredQuestions[0];
        const email = r.customer?.email ?? r.answeredQuestions.find((a) => a.type === "email")?.answer;
        return {
          surveyResponseId: r.surveyResponseId,
          dateCreated: r.dateCreated,
          channel: r.channel,
          email: typeof email === "string" ? email : undefined,
          first: first ? answerText(first) : "",
          npsCategory: nps?.type === "nps" ? nps.answerNpsCategory : undefined,
          firstLabel: first?.text ?? "",
          reward: r.reward ? `${r.reward.description} (${r.reward.value})` : undefined,
          isArchived: r.isArchived === true,
        };
      }),
      nps: hasNps ? await surveys.npsSummary(store.storeId, npsFilter) : null,
      optionCounts: await context.services.surveyBuilder.optionCounts(store.storeId, survey.surveyId, filter),
    },
  };
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

export default function Surveys() {
  const { storeId, surveys, chosen } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const failed = useActionData<typeof action>();
  const [search] = useSearchParams();
  const errors = failed?.errors ?? {};
  const base = `/admin/stores/${storeId}/surveys`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Surveys</h1>
      <p>
        <Link to={`${base}/profiles`}>Customer profiles</Link>: what shoppers told you in profile questions, per customer.
      </p>
      <LiveFlash result={errors.form ? { error: errors.form } : search.get("created") && chosen ? { ok: `Survey "${chosen.surveyName}" created.` } : null} />
      <details className="panel" open={surveys.length === 0 || Object.keys(errors).length > 0}>
        <summary>Create a survey</summary>
        <Form method="post" className="stack" noValidate aria-label="Create a survey" key={surveys.length}>
          <CsrfField />
          <input type="hidden" name="intent" value="create-survey" />
          <label htmlFor="survey-name">Name (for you; shoppers do not see it)</label>
          <input id="survey-name" name="name" maxLength={200} required {...invalidProps("survey-name", errors.name)} />
          <FieldError id="survey-name" error={errors.name} />
          <label htmlFor="survey-template">What it asks</label>
          <select id="survey-template" name="template" {...invalidProps("survey-template", errors.template)}>
            {Object.entries(SURVEY_TEMPLATES).map(([key, t]) => (
              <option key={key} value={key}>
                {t.label}
              </option>
            ))}
          </select>
          <FieldError id="survey-template" error={errors.template} />
          <label htmlFor="survey-channel">Where shoppers answer it</label>
          <select id="survey-channel" name="channel" defaultValue="post-checkout" {...invalidProps("survey-channel", errors.channel)}>
            {SURVEY_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABEL[c] ?? c}
              </option>
            ))}
          </select>
          <FieldError id="survey-channel" error={errors.channel} />
          <button type="submit" disabled={navigation.state !== "idle"}>
            Create survey
          </button>
        </Form>
      </details>
      {surveys.length === 0 ? (
        <p className="empty">This store has no surveys yet. Create one above; its responses appear here.</p>
      ) : (
        <nav aria-label="Surveys">
          <ul className="survey-list">
            {surveys.map((s) => (
              <li key={s.surveyId}>
                <Link to={`${base}?survey=${s.surveyId}`} aria-current={chosen?.surveyId === s.surveyId ? "page" : undefined}>
                  {s.surveyName} <span className="visually-hidden">,</span>({s.responses} response{s.responses === 1 ? "" : "s"})
                  {s.sampleData ? (
                    <>
                      {" "}
                      <span className="badge badge-sample">Sample data</span>
                    </>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {!chosen ? (
        surveys.length ? (
          <p className="notice">Choose a survey to read its responses.</p>
        ) : null
      ) : (
        <>
          <h2 id="survey-title">{chosen.surveyName}</h2>
          <p>
            <Link to={`${base}/${chosen.surveyId}`}>Edit questions and channel surveys in the survey builder</Link>
          </p>
          {surveys.find((s) => s.surveyId === chosen.surveyId)?.sampleData ? (
            <p className="notice" role="note">
              <strong>Sample data.</strong> These responses were generated to show every question type; no shopper gave them.
            </p>
          ) : null}
          {chosen.nps ? <NpsPanel nps={chosen.nps} surveyName={chosen.surveyName} /> : null}
          <OptionCounts questions={chosen.optionCounts} />
          <Form method="get" className="filters" aria-label="Filter responses">
            <input type="hidden" name="survey" value={chosen.surveyId} />
            <div>
              <label htmlFor="f-q">Search text answers</label>
              <input id="f-q" name="q" type="search" defaultValue={chosen.query.q} maxLength={200} />
            </div>
            <div>
              <label htmlFor="f-channel">Channel</label>
              <select id="f-channel" name="channel" defaultValue={chosen.query.channel}>
                <option value="">Any</option>
                {SURVEY_CHANNELS.map((c) => (
                  <option key={c} value={c}>
                    {CHANNEL_LABEL[c]}
                    {chosen.channels.includes(c) ? "" : " (not used)"}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="f-from">From (UTC)</label>
              <input id="f-from" name="from" type="date" defaultValue={chosen.query.from} />
            </div>
            <div>
              <label htmlFor="f-to">To (UTC, inclusive)</label>
              <input id="f-to" name="to" type="date" defaultValue={chosen.query.to} />
            </div>
            {chosen.hasNps ? (
              <div>
                <label htmlFor="f-nps">NPS category</label>
                <select id="f-nps" name="nps" defaultValue={chosen.query.nps}>
                  <option value="">Any</option>
                  <option value="promoter">Promoters (9–10)</option>
                  <option value="passive">Passives (7–8)</option>
                  <option value="detractor">Detractors (0–6)</option>
                </select>
              </div>
            ) : null}
            <div>
              <label htmlFor="f-archived">Archived</label>
              <select id="f-archived" name="archived" defaultValue={chosen.query.archived}>
                <option value="active">Not archived</option>
                <option value="archived">Archived only</option>
                <option value="all">All</option>
              </select>
            </div>
            <button type="submit" className="secondary">
              Apply filters
            </button>
          </Form>

          <p className="export">
            <a href={`${base}/export.csv?${new URLSearchParams(chosen.params)}`} download>
              {`Export ${chosen.total === 1 ? "this response" : `these ${chosen.total} responses`} as CSV`}
            </a>
          </p>
          <h3 id="responses-title" aria-live="polite">
            {`${chosen.total} response${chosen.total === 1 ? "" : "s"} match`}
          </h3>
          {chosen.responses.length === 0 ? (
            <p className="empty" role="status">
              No responses match these filters.
            </p>
          ) : (
            <div className="table-wrap">
              <table className="responses" aria-busy={navigation.state === "loading"}>
                <caption className="visually-hidden">Responses to {chosen.surveyName}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Date (UTC)</th>
                    <th scope="col">Channel</th>
                    <th scope="col">Customer e-mail</th>
                    <th scope="col">{chosen.hasNps ? "NPS score" : "First answer"}</th>
                    <th scope="col">Reward</th>
                  </tr>
                </thead>
                <tbody>
                  {chosen.responses.map((r) => (
                    <tr key={r.surveyResponseId}>
                      <th scope="row">
                        <Link to={`${base}/responses/${r.surveyResponseId}?${new URLSearchParams(chosen.params)}`}>
                          <time dateTime={r.dateCreated}>{when(r.dateCreated)}</time>
                          <span className="visually-hidden"> — open response</span>
                        </Link>
                        {r.isArchived ? (
                          <>
                            {" "}
                            <span className="badge badge-archived">Archived</span>
                          </>
                        ) : null}
                      </th>
                      <td>{CHANNEL_LABEL[r.channel]}</td>
                      <td>
                        {r.email ?? (
                          <span className="muted">
                            —<span className="visually-hidden">none</span>
                          </span>
                        )}
                      </td>
                      <td className="first-answer">
                        {r.npsCategory ? (
                          <span className={`badge badge-${r.npsCategory}`}>{r.first}</span>
                        ) : (
                          r.first || (
                            <span className="muted">
                              —<span className="visually-hidden">no answer</span>
                            </span>
                          )
                        )}
                      </td>
                      <td>
                        {r.reward ?? (
                          <span className="muted">
                            —<span className="visually-hidden">none</span>
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav className="pager" aria-label="Pages">
            <Link to={`${base}?${new URLSearchParams(chosen.params)}`}>First page</Link>
            {chosen.next ? (
              <Link to={`${base}?${new URLSearchParams({ ...chosen.params, after: chosen.next })}`} rel="next">
                Next page
              </Link>
            ) : (
              <span className="muted">No more responses</span>
            )}
          </nav>
        </>
      )}
    </section>
  );
}

/** Reports: per choice question, how many of the matching responses chose each option (table with a bar per row). */
function OptionCounts({ questions }: { questions: { questionId: string; text: string; counts: { option: string; count: number }[] }[] }) {
  if (!questions.length) return null;
  return (
    <section className="panel" aria-labelledby="option-counts-title">
      <h2 id="option-counts-title">Answers per option</h2>
      <p className="muted">Of the responses matching the filters below; a multiple-choice answer counts once per option chosen.</p>
      {questions.map((q) => {
        const max = Math.max(1, ...q.counts.map((c) => c.count));
        return (
          <div className="table-wrap" key={q.questionId}>
            <table className="option-counts">
              <caption>{q.text}</caption>
              <thead>
                <tr>
                  <th scope="col">Option</th>
                  <th scope="col" className="count">
                    Responses
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">Bar</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.counts.map((c) => (
                  <tr key={c.option}>
                    <th scope="row">{c.option}</th>
                    <td className="count">{c.count}</td>
                    <td aria-hidden="true">
                      <svg width="160" height="12" viewBox="0 0 160 12">
                        <rect x="0" y="1" height="10" width={(160 * c.count) / max} className="option-bar-rect" />
                      </svg>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { SURVEY_CHANNELS } from "../../server/contract/surveys.constants.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { answerText, filterOf, queryParams, responsesQuerySchema } from "../../server/admin/survey-responses.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { NpsPanel } from "~/components/NpsChart";
import { httpError, requireStore } from "~/lib/admin.server";
import surveyStyles from "~/styles/admin-surveys.css?url";

export const meta: MetaFunction = () => [{ title: "Surveys · Chorus admin" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: surveyStyles }];

const PAGE_SIZE = 25;
const CHANNEL_LABEL: Record<string, string> = { "on-site": "On site", "post-checkout": "Post-checkout", "post-review": "Post-review", "shareable-link": "Shareable link" };

/**
 * Survey responses (issue 7 item 2): the store's surveys; for the chosen one (`?survey=`) its responses
 * filtered by the GET form (channel, dates, NPS category, archived state, search), newest first, keyset
 * paged by the service's signed cursor (`after`); the match count; the NPS panel when it has an NPS question.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { surveys } = context.services;
  const parsed = responsesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? "Bad filter");
  const q = parsed.data;
  const sample = await surveys.sampleDataSurveyIds(store.storeId);
  const list = await Promise.all((await surveys.listSurveys(store.storeId, { limit: 100, orderBy: "date asc" })).surveys.map(async (s) => ({
    surveyId: s.surveyId, surveyName: s.surveyName, responses: await surveys.countResponses(store.storeId, { surveyId: s.surveyId }),
    sampleData: sample.has(s.surveyId),
  })));
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
      surveyId: survey.surveyId, surveyName: survey.surveyName, hasNps,
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
          surveyResponseId: r.surveyResponseId, dateCreated: r.dateCreated, channel: r.channel, email: typeof email === "string" ? email : undefined,
          first: first ? answerText(first) : "", npsCategory: nps?.type === "nps" ? nps.answerNpsCategory : undefined,
          firstLabel: first?.text ?? "", reward: r.reward ? `${r.reward.description} (${r.reward.value})` : undefined, isArchived: r.isArchived === true,
        };
      }),
      nps: hasNps ? await surveys.npsSummary(store.storeId, npsFilter) : null,
    },
  };
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

export default function Surveys() {
  const { storeId, surveys, chosen } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const base = `/admin/stores/${storeId}/surveys`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Surveys</h1>
      {surveys.length === 0 ? (
        <p className="empty" role="status">This store has no surveys yet. Surveys created through Chorus appear here with their responses.</p>
      ) : (
        <nav aria-label="Surveys">
          <ul className="survey-list">
            {surveys.map((s) => (
              <li key={s.surveyId}>
                <Link to={`${base}?survey=${s.surveyId}`} aria-current={chosen?.surveyId === s.surveyId ? "page" : undefined}>
                  {s.surveyName} <span className="visually-hidden">,</span>({s.responses} response{s.responses === 1 ? "" : "s"})
                  {s.sampleData ? <> <span className="badge badge-sample">Sample data</span></> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {!chosen ? (
        surveys.length ? <p className="notice">Choose a survey to read its responses.</p> : null
      ) : (
        <>
          <h2 id="survey-title">{chosen.surveyName}</h2>
          {surveys.find((s) => s.surveyId === chosen.surveyId)?.sampleData ? (
            <p className="notice" role="note">
              <strong>Sample data.</strong> These responses were generated to show every question type; no shopper gave them.
            </p>
          ) : null}
          {chosen.nps ? <NpsPanel nps={chosen.nps} surveyName={chosen.surveyName} /> : null}
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
                {SURVEY_CHANNELS.map((c) => <option key={c} value={c}>{CHANNEL_LABEL[c]}{chosen.channels.includes(c) ? "" : " (not used)"}</option>)}
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
            <button type="submit" className="secondary">Apply filters</button>
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
            <p className="empty" role="status">No responses match these filters.</p>
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
                        {r.isArchived ? <> <span className="badge badge-archived">Archived</span></> : null}
                      </th>
                      <td>{CHANNEL_LABEL[r.channel]}</td>
                      <td>{r.email ?? <span className="muted">—<span className="visually-hidden">none</span></span>}</td>
                      <td className="first-answer">
                        {r.npsCategory ? <span className={`badge badge-${r.npsCategory}`}>{r.first}</span> : r.first || <span className="muted">—<span className="visually-hidden">no answer</span></span>}
                      </td>
                      <td>{r.reward ?? <span className="muted">—<span className="visually-hidden">none</span></span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav className="pager" aria-label="Pages">
            <Link to={`${base}?${new URLSearchParams(chosen.params)}`}>First page</Link>
            {chosen.next ? (
              <Link to={`${base}?${new URLSearchParams({ ...chosen.params, after: chosen.next })}`} rel="next">Next page</Link>
            ) : (
              <span className="muted">No more responses</span>
            )}
          </nav>
        </>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

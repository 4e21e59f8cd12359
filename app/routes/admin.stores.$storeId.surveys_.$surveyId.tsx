import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { PROFILE_ANSWER_TYPES, QUESTION_TYPES, SURVEY_CHANNELS, type ProfileAnswerType, type QuestionType, type SurveyChannel } from "../../server/contract/surveys.constants.ts";
import { isApiError } from "../../server/contract/errors.ts";
import { checkChannel, checkQuestion, type ChannelInput, type FieldErrors, type QuestionInput } from "../../server/surveys/survey-builder.service.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { LiveFlash } from "~/components/Flash";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";
import { useEffect } from "react";
import surveyStyles from "~/styles/admin-surveys.css?url";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.survey.surveyName ?? "Survey"} · Survey builder · Chorus admin` }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: surveyStyles }];
export const headers = adminHeaders;

const CHANNEL_LABEL: Record<SurveyChannel, string> = { "on-site": "On site", "post-checkout": "Post-checkout", "post-review": "Post-review", "shareable-link": "Shareable link" };
const TYPE_LABEL: Record<QuestionType, string> = {
  text: "Text",
  "single-select": "Single choice",
  "multi-select": "Multiple choice",
  "five-point": "Five-point scale",
  star: "Star rating",
  nps: "NPS (0–10)",
  profile: "Profile",
  email: "E-mail (with marketing opt-in)",
};
const PROFILE_LABEL: Record<ProfileAnswerType, string> = { "date-components": "Date (e.g. birthday)", location: "Country and region", "single-value": "One value", "multi-value": "Several values" };

/** The store's survey for the builder, or the admin 404. */
async function surveyOr404(context: LoaderFunctionArgs["context"], storeId: string, surveyId: string | undefined) {
  try {
    return await context.services.surveys.getSurvey(storeId, surveyId ?? "");
  } catch (error) {
    if (isApiError(error) && error.status === 404) throw httpError(404, "Survey not found.");
    throw error;
  }
}

/**
 * The survey builder (docs/surveys.md "The survey builder"): the survey's name, its questions in order (edit, move
 * up/down, delete, add), its channel surveys (channel, description, coupon reward, on/off; add) and a preview of a
 * channel survey with the real `<chorus-survey>` element, shown on request (`?preview=<channelSurveyId>`, an enabled one):
 * the element reads the public survey, which browsers may keep for a minute, so it is not shown after every edit.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const survey = await surveyOr404(context, store.storeId, params.surveyId);
  const wanted = new URL(request.url).searchParams.get("preview");
  const enabled = survey.channelSurveys.filter((c) => c.enabled !== false);
  const preview = enabled.find((c) => c.channelSurveyId === wanted);
  return {
    storeId: store.storeId,
    survey,
    previewId: preview?.channelSurveyId ?? null,
    responses: await context.services.surveys.countResponses(store.storeId, { surveyId: survey.surveyId }),
  };
}

type Failure = { form: string; errors: FieldErrors; values?: Record<string, string> };

/** The question fields of a builder form, as the service takes them. */
function questionOf(form: FormData): QuestionInput {
  return {
    text: field(form, "text"),
    type: field(form, "type") as QuestionType,
    options: field(form, "options").split(/\r?\n/),
    allowCustomAnswer: form.get("allowCustomAnswer") === "on",
    customAnswerOptionText: field(form, "customAnswerOptionText"),
    profileAnswerType: (field(form, "profileAnswerType") || undefined) as ProfileAnswerType | undefined,
    required: form.get("required") === "on",
  };
}
/** The channel survey fields of a builder form (a reward when either of its fields is filled). */
function channelOf(form: FormData): ChannelInput {
  const rewardDescription = field(form, "rewardDescription");
  const rewardCode = field(form, "rewardCode");
  return {
    channel: field(form, "channel") as SurveyChannel,
    description: field(form, "description"),
    ...(rewardDescription || rewardCode ? { reward: { type: "coupon" as const, description: rewardDescription, value: rewardCode } } : {}),
    enabled: form.get("enabled") === "on",
  };
}
/** Service field names → form field names (the reward's two parts). */
const CHANNEL_FIELD: Record<string, string> = { "reward.description": "rewardDescription", "reward.value": "rewardCode", reward: "rewardCode" };
const valuesOf = (form: FormData) => Object.fromEntries([...form.entries()].filter(([k, v]) => typeof v === "string" && k !== "csrf")) as Record<string, string>;

/**
 * Intents: `rename`, `survey-on` / `survey-off` (every channel survey), `add-question`, `save-question`,
 * `delete-question`, `move-up` / `move-down`, `add-channel`, `save-channel`. Each is one service call (one
 * transaction); a refused field answers 400 with its message beside it (`form` names which form), else a redirect
 * back with a note (`?done=`).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const survey = await surveyOr404(context, store.storeId, params.surveyId);
  const builder = context.services.surveyBuilder;
  const intent = field(form, "intent");
  const questionId = field(form, "questionId");
  const channelSurveyId = field(form, "channelSurveyId");
  const back = (done: string, hash = "") => redirect(`/admin/stores/${store.storeId}/surveys/${survey.surveyId}?done=${encodeURIComponent(done)}${hash}`);
  const fail = (f: Failure) => data(f, { status: 400 });
  const own = (id: string, list: { id: string }[]) => list.some((x) => x.id === id);
  try {
    switch (intent) {
      case "rename": {
        const name = field(form, "name");
        if (!name) return fail({ form: "name", errors: { name: "Give the survey a name." }, values: valuesOf(form) });
        if (name.length > 200) return fail({ form: "name", errors: { name: "At most 200 characters." }, values: valuesOf(form) });
        await builder.renameSurvey(store.storeId, survey.surveyId, name);
        return back("Name saved.");
      }
      case "survey-on":
      case "survey-off":
        await builder.setSurveyEnabled(store.storeId, survey.surveyId, intent === "survey-on");
        return back(intent === "survey-on" ? "Every channel survey is on." : "Every channel survey is off: shoppers see nothing and nothing is taken.");
      case "add-question":
      case "save-question": {
        const key = intent === "add-question" ? "new-question" : `q-${questionId}`;
        if (intent === "save-question" && !own(questionId, survey.questions)) throw httpError(404, "Question not found.");
        const checked = checkQuestion(questionOf(form));
        if (checked.errors) return fail({ form: key, errors: checked.errors, values: valuesOf(form) });
        if (intent === "add-question") {
          const id = await builder.addQuestion(store.storeId, survey.surveyId, checked.question);
          return back(`Question added: ${checked.question.text}`, `#q-${id}`);
        }
        await builder.updateQuestion(store.storeId, questionId, checked.question);
        return back("Question saved. Responses already stored keep the text they were answered with.", `#q-${questionId}`);
      }
      case "delete-question":
        if (!own(questionId, survey.questions)) throw httpError(404, "Question not found.");
        await builder.deleteQuestion(store.storeId, questionId);
        return back("Question deleted. Responses already stored keep their answer to it.", "#questions-title");
      case "move-up":
      case "move-down": {
        if (!own(questionId, survey.questions)) throw httpError(404, "Question not found.");
        const at = await builder.moveQuestion(store.storeId, questionId, intent === "move-up" ? "up" : "down");
        return back(`Question moved to position ${at + 1} of ${survey.questions.length}.`, `#q-${questionId}`);
      }
      case "add-channel":
      case "save-channel": {
        const key = intent === "add-channel" ? "new-channel" : `c-${channelSurveyId}`;
        if (intent === "save-channel" && !survey.channelSurveys.some((c) => c.channelSurveyId === channelSurveyId)) throw httpError(404, "Channel survey not found.");
        const checked = checkChannel(channelOf(form));
        if (checked.errors) {
          return fail({ form: key, errors: Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [CHANNEL_FIELD[k] ?? k, v])), values: valuesOf(form) });
        }
        if (intent === "add-channel") {
          const id = await builder.addChannelSurvey(store.storeId, survey.surveyId, checked.channel);
          return back("Channel survey added.", `#c-${id}`);
        }
        await builder.updateChannelSurvey(store.storeId, channelSurveyId, checked.channel);
        return back("Channel survey saved. Responses already stored keep the reward they were given.", `#c-${channelSurveyId}`);
      }
      default:
        return fail({ form: "page", errors: { form: `Unknown action ${JSON.stringify(intent)}.` } });
    }
  } catch (error) {
    // A rule the service checks on top of the form (e.g. a survey's last question): shown at the top of the page.
    if (isApiError(error) && error.status === 400) return fail({ form: "page", errors: { form: error.message } });
    if (isApiError(error) && error.status === 404) throw httpError(404, error.message);
    throw error;
  }
}

type Question = ReturnType<typeof useLoaderData<typeof loader>>["survey"]["questions"][number];
type Channel = ReturnType<typeof useLoaderData<typeof loader>>["survey"]["channelSurveys"][number];

/** The fields of one question (edit and add forms), ids prefixed with `k`. */
function QuestionFields({ k, q, failure }: { k: string; q?: Question; failure?: Failure }) {
  const e = failure?.form === k ? failure.errors : {};
  const v = failure?.form === k ? failure.values : undefined;
  const val = (name: string, fallback: string) => v?.[name] ?? fallback;
  const checked = (name: string, fallback: boolean) => (v ? v[name] === "on" : fallback);
  const id = (name: string) => `${k}-${name}`;
  return (
    <>
      <label htmlFor={id("text")}>Question</label>
      <input id={id("text")} name="text" maxLength={1000} required defaultValue={val("text", q?.text ?? "")} {...invalidProps(id("text"), e.text)} />
      <FieldError id={id("text")} error={e.text} />
      <label htmlFor={id("type")}>Type</label>
      <select id={id("type")} name="type" defaultValue={val("type", q?.type ?? "text")} {...invalidProps(id("type"), e.type)}>
        {QUESTION_TYPES.map((t) => (
          <option key={t} value={t}>
            {TYPE_LABEL[t]}
          </option>
        ))}
      </select>
      <FieldError id={id("type")} error={e.type} />
      <label htmlFor={id("profileAnswerType")}>Profile field (profile questions)</label>
      <select id={id("profileAnswerType")} name="profileAnswerType" defaultValue={val("profileAnswerType", q?.profileAnswerType ?? "")} {...invalidProps(id("profileAnswerType"), e.profileAnswerType)}>
        <option value="">—</option>
        {PROFILE_ANSWER_TYPES.map((t) => (
          <option key={t} value={t}>
            {PROFILE_LABEL[t]}
          </option>
        ))}
      </select>
      <FieldError id={id("profileAnswerType")} error={e.profileAnswerType} />
      <label htmlFor={id("options")}>Options, one per line (choice questions; one-value and several-values profile questions)</label>
      <textarea id={id("options")} name="options" rows={4} defaultValue={val("options", (q?.options ?? []).join("\n"))} {...invalidProps(id("options"), e.options)} />
      <FieldError id={id("options")} error={e.options} />
      <div className="checkbox-row">
        <input type="checkbox" id={id("allowCustomAnswer")} name="allowCustomAnswer" defaultChecked={checked("allowCustomAnswer", q?.allowCustomAnswer === true)} />
        <label htmlFor={id("allowCustomAnswer")}>Offer a custom (“other”) answer (choice questions)</label>
      </div>
      <label htmlFor={id("customAnswerOptionText")}>Custom option text</label>
      <input
        id={id("customAnswerOptionText")}
        name="customAnswerOptionText"
        maxLength={200}
        defaultValue={val("customAnswerOptionText", q?.customAnswerOptionText ?? "Other")}
        {...invalidProps(id("customAnswerOptionText"), e.customAnswerOptionText)}
      />
      <FieldError id={id("customAnswerOptionText")} error={e.customAnswerOptionText} />
      <div className="checkbox-row">
        <input type="checkbox" id={id("required")} name="required" defaultChecked={checked("required", q?.required === true)} />
        <label htmlFor={id("required")}>Required</label>
      </div>
    </>
  );
}

/** The fields of one channel survey (edit and add forms). */
function ChannelFields({ k, c, failure }: { k: string; c?: Channel; failure?: Failure }) {
  const e = failure?.form === k ? failure.errors : {};
  const v = failure?.form === k ? failure.values : undefined;
  const val = (name: string, fallback: string) => v?.[name] ?? fallback;
  const id = (name: string) => `${k}-${name}`;
  return (
    <>
      <label htmlFor={id("channel")}>Channel</label>
      <select id={id("channel")} name="channel" defaultValue={val("channel", c?.channel ?? "shareable-link")} {...invalidProps(id("channel"), e.channel)}>
        {SURVEY_CHANNELS.map((ch) => (
          <option key={ch} value={ch}>
            {CHANNEL_LABEL[ch]}
          </option>
        ))}
      </select>
      <FieldError id={id("channel")} error={e.channel} />
      <label htmlFor={id("description")}>Description (shown above the questions)</label>
      <input id={id("description")} name="description" maxLength={500} defaultValue={val("description", c?.description ?? "")} {...invalidProps(id("description"), e.description)} />
      <FieldError id={id("description")} error={e.description} />
      <label htmlFor={id("rewardDescription")}>Reward description (e.g. 10% off your next order; leave both reward fields empty for none)</label>
      <input
        id={id("rewardDescription")}
        name="rewardDescription"
        maxLength={500}
        defaultValue={val("rewardDescription", c?.reward?.description ?? "")}
        {...invalidProps(id("rewardDescription"), e.rewardDescription)}
      />
      <FieldError id={id("rewardDescription")} error={e.rewardDescription} />
      <label htmlFor={id("rewardCode")}>Reward value</label>
      {/* The reward-value rule of docs/surveys.md "Rewards" (server/surveys/survey-rewards.ts platformCouponOf). */}
      <p className="field-hint muted" id={id("rewardCode-hint")}>
        A discount (<code>10%</code>, <code>5</code> for an amount off, or <code>free shipping</code>) gives each response its own single-use code, created on your shop platform. Anything else (e.g.{" "}
        <code>THANKYOU10</code>) is a code you made in your shop yourself, given to every response as it is.
      </p>
      <input
        id={id("rewardCode")}
        name="rewardCode"
        maxLength={200}
        defaultValue={val("rewardCode", c?.reward?.value ?? "")}
        {...invalidProps(id("rewardCode"), e.rewardCode)}
        aria-describedby={[id("rewardCode-hint"), e.rewardCode ? `${id("rewardCode")}-error` : ""].filter(Boolean).join(" ")}
      />
      <FieldError id={id("rewardCode")} error={e.rewardCode} />
      <div className="checkbox-row">
        <input type="checkbox" id={id("enabled")} name="enabled" defaultChecked={v ? v.enabled === "on" : c?.enabled !== false} />
        <label htmlFor={id("enabled")}>On (shown to shoppers, takes responses)</label>
      </div>
    </>
  );
}

function channelLabel(c: Channel) {
  return `${CHANNEL_LABEL[c.channel]}${c.description ? ` — ${c.description}` : ""}`;
}

export default function SurveyBuilder() {
  const { storeId, survey, previewId, responses } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
  const busy = useNavigation().state !== "idle";
  const [search] = useSearchParams();
  // The widget loader, once per page (a <script> React renders on a client-side navigation would never run); it then
  // defines <chorus-survey> and upgrades each preview element as it appears.
  useEffect(() => {
    if (document.querySelector("script[data-chorus-loader]")) return;
    const script = document.createElement("script");
    script.src = "/widgets/chorus.js";
    script.async = true;
    script.dataset.chorusLoader = "";
    document.head.append(script);
  }, []);
  const base = `/admin/stores/${storeId}/surveys`;
  const n = survey.questions.length;
  const allOff = survey.channelSurveys.every((c) => c.enabled === false);
  const nameError = failure?.form === "name" ? failure.errors.name : undefined;
  const preview = survey.channelSurveys.find((c) => c.channelSurveyId === previewId);
  return (
    <section aria-labelledby="page-title" className="survey-builder">
      <p>
        <Link to={base}>← All surveys</Link> · <Link to={`${base}?survey=${survey.surveyId}`}>Responses and reports ({responses})</Link>
      </p>
      <h1 id="page-title">Survey builder: {survey.surveyName}</h1>
      <LiveFlash result={failure?.form === "page" ? { error: failure.errors.form } : search.get("done") ? { ok: search.get("done")! } : null} />
      {responses > 0 ? (
        <p className="notice" role="note">
          This survey has {responses} response{responses === 1 ? "" : "s"}. Editing it changes what shoppers are asked from now on; stored responses keep the questions as they were answered.
        </p>
      ) : null}

      <Form method="post" className="stack panel" aria-label="Survey name">
        <CsrfField />
        <input type="hidden" name="intent" value="rename" />
        <label htmlFor="survey-name">Name (for you; shoppers see it as the survey's title)</label>
        <input id="survey-name" name="name" maxLength={200} required defaultValue={failure?.form === "name" ? failure.values?.name : survey.surveyName} {...invalidProps("survey-name", nameError)} />
        <FieldError id="survey-name" error={nameError} />
        <button type="submit" disabled={busy}>
          Save name
        </button>
      </Form>
      <Form method="post" className="inline-form">
        <CsrfField />
        {allOff ? (
          <button type="submit" name="intent" value="survey-on" disabled={busy}>
            Turn the survey on (every channel survey)
          </button>
        ) : (
          <button type="submit" name="intent" value="survey-off" className="secondary" disabled={busy}>
            Turn the survey off (every channel survey)
          </button>
        )}
      </Form>

      <h2 id="questions-title">Questions</h2>
      <ol className="builder-questions" aria-labelledby="questions-title">
        {survey.questions.map((q, i) => (
          <li key={q.id} id={`q-${q.id}`} className="panel">
            <p className="question-head">
              <strong>{q.text}</strong>{" "}
              <span className="muted">
                {TYPE_LABEL[q.type]}
                {q.profileAnswerType ? `: ${PROFILE_LABEL[q.profileAnswerType]}` : ""}
                {q.required ? " · required" : ""}
              </span>
            </p>
            {q.options?.length ? (
              <p className="muted">
                Options: {q.options.join(", ")}
                {q.allowCustomAnswer ? `; custom: ${q.customAnswerOptionText}` : ""}
              </p>
            ) : null}
            <Form method="post" className="inline-form" aria-label={`Order of question ${i + 1}`}>
              <CsrfField />
              <input type="hidden" name="questionId" value={q.id} />
              <button type="submit" name="intent" value="move-up" className="secondary" disabled={busy || i === 0} aria-label={`Move up: question ${i + 1}, ${q.text}`}>
                Move up
              </button>
              <button type="submit" name="intent" value="move-down" className="secondary" disabled={busy || i === n - 1} aria-label={`Move down: question ${i + 1}, ${q.text}`}>
                Move down
              </button>
              <button type="submit" name="intent" value="delete-question" className="secondary danger" disabled={busy || n === 1} aria-label={`Delete: question ${i + 1}, ${q.text}`}>
                Delete
              </button>
            </Form>
            <details open={failure?.form === `q-${q.id}`}>
              <summary>Edit question {i + 1}</summary>
              <Form method="post" className="stack" noValidate aria-label={`Edit question ${i + 1}`}>
                <CsrfField />
                <input type="hidden" name="intent" value="save-question" />
                <input type="hidden" name="questionId" value={q.id} />
                <QuestionFields k={`q-${q.id}`} q={q} failure={failure} />
                <button type="submit" disabled={busy}>
                  Save question {i + 1}
                </button>
              </Form>
            </details>
          </li>
        ))}
      </ol>
      <details className="panel" open={failure?.form === "new-question"}>
        <summary>Add a question</summary>
        <Form method="post" className="stack" noValidate aria-label="Add a question" key={n}>
          <CsrfField />
          <input type="hidden" name="intent" value="add-question" />
          <QuestionFields k="new-question" failure={failure} />
          <button type="submit" disabled={busy}>
            Add question
          </button>
        </Form>
      </details>

      <h2 id="channels-title">Channel surveys</h2>
      <p className="muted">Where shoppers answer this survey; each has its own ID for the snippet or link (docs: Answering a survey: one guide per channel).</p>
      <ul className="builder-channels" aria-labelledby="channels-title">
        {survey.channelSurveys.map((c) => (
          <li key={c.channelSurveyId} id={`c-${c.channelSurveyId}`} className="panel">
            <p>
              <strong>{channelLabel(c)}</strong> {c.enabled === false ? <span className="badge badge-archived">Off</span> : <span className="badge badge-promoter">On</span>}
              {c.reward ? (
                <>
                  {" "}
                  · reward: {c.reward.description} (<code>{c.reward.value}</code>)
                </>
              ) : null}
            </p>
            <p className="muted">
              Channel survey ID <code>{c.channelSurveyId}</code>
              {c.channel === "shareable-link" || c.channel === "post-review" ? (
                <>
                  {" "}
                  · link <a href={`/s/${c.channelSurveyId}`}>/s/{c.channelSurveyId}</a>
                </>
              ) : null}
            </p>
            <details open={failure?.form === `c-${c.channelSurveyId}`}>
              <summary>Edit {channelLabel(c)}</summary>
              <Form method="post" className="stack" noValidate aria-label={`Edit channel survey ${channelLabel(c)}`}>
                <CsrfField />
                <input type="hidden" name="intent" value="save-channel" />
                <input type="hidden" name="channelSurveyId" value={c.channelSurveyId} />
                <ChannelFields k={`c-${c.channelSurveyId}`} c={c} failure={failure} />
                <button type="submit" disabled={busy}>
                  Save channel survey
                </button>
              </Form>
            </details>
          </li>
        ))}
      </ul>
      <details className="panel" open={failure?.form === "new-channel"}>
        <summary>Add a channel survey</summary>
        <Form method="post" className="stack" noValidate aria-label="Add a channel survey" key={survey.channelSurveys.length}>
          <CsrfField />
          <input type="hidden" name="intent" value="add-channel" />
          <ChannelFields k="new-channel" failure={failure} />
          <button type="submit" disabled={busy}>
            Add channel survey
          </button>
        </Form>
      </details>

      <h2 id="preview-title">Preview</h2>
      {survey.channelSurveys.some((c) => c.enabled !== false) ? (
        <>
          <Form method="get" className="inline-form" aria-label="Choose the channel survey to preview">
            <label htmlFor="preview-channel">Channel survey</label>
            <select id="preview-channel" name="preview" defaultValue={preview?.channelSurveyId}>
              {survey.channelSurveys
                .filter((c) => c.enabled !== false)
                .map((c) => (
                  <option key={c.channelSurveyId} value={c.channelSurveyId}>
                    {channelLabel(c)}
                  </option>
                ))}
            </select>
            <button type="submit" className="secondary">
              Show preview
            </button>
          </Form>
          <p className="muted">
            The live element, as shoppers see it. Shoppers' browsers (and this one) may keep a survey for up to a minute, so a change can take that long to show. A response sent from here is stored
            like any other (archive it afterwards).
          </p>
          {preview ? (
            <div className="survey-preview" data-testid="survey-preview">
              <chorus-survey key={preview.channelSurveyId} store-id={storeId} channel-survey-id={preview.channelSurveyId}></chorus-survey>
            </div>
          ) : null}
        </>
      ) : (
        <p className="empty">Turn a channel survey on to preview it: shoppers see only channel surveys that are on.</p>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

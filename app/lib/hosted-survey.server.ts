/**
 * The form post of a hosted survey (app/components/HostedSurveyForm.tsx), shared by the shareable link's page
 * (`/s/{channelSurveyId}`) and the hosted review page's post-review survey (`/r/{token}`, docs/surveys.md "Post-review"):
 * the answers read from the form with the element's rules (server/contract/survey-form.ts), the response stored through
 * the surveys service under the per-address limit of storefront submissions, and the thank-you's reward.
 */
import { isApiError } from "../../server/contract/errors.ts";
import { answersFromForm, questionOfError } from "../../server/contract/survey-form.ts";
import type { Reward, StorefrontSurvey } from "../../server/contract/surveys.ts";
import type { Services } from "../../server/services.ts";
import { readFormBody } from "../../server/shared/body.ts";
import { hostedPageLanguage } from "../../server/surveys/hosted-texts.ts";
import type { Problems, SurveyFormResult } from "~/components/HostedSurveyForm";

/** Who and which order a response is for (each optional; `orderId` is the shop's numeric order ID). */
export type SurveyRespondent = { customerId?: string; email?: string; orderId?: string };

/**
 * Store the response of a filled hosted survey form.
 * @returns `{ ok: responseId }` once stored (a replay of the same submission included), or the refusal to show in place
 *   with its HTTP status: 400 with the problems per question (nothing answered: the first question is required),
 *   or the surveys service's error (its question's problem when it names one, else a problem of the whole form; 429 over the limit).
 * @throws what is not an ApiError.
 */
export async function submitHostedSurvey(
  services: Services,
  clientIp: string,
  hosted: { storeId: string; survey: StorefrontSurvey },
  form: FormData,
  who: SurveyRespondent,
): Promise<{ ok: string } | { refused: SurveyFormResult; status: number }> {
  const values: Record<string, string[]> = {};
  for (const [name, value] of form) if (typeof value === "string") (values[name] ??= []).push(value);
  const { answers, problems } = answersFromForm(hosted.survey.questions, form);
  const shown: Problems = Object.fromEntries(Object.entries(problems).map(([q, p]) => [q, { problem: p }]));
  if (!answers.length && !Object.keys(shown).length) shown[hosted.survey.questions[0]!.id] = { problem: "required" };
  if (Object.keys(shown).length) return { refused: { form: null, problems: shown, values }, status: 400 };
  const customer = who.customerId || who.email ? { ...(who.customerId ? { customerId: who.customerId } : {}), ...(who.email ? { email: who.email } : {}) } : undefined;
  const body = { answeredQuestions: answers, ...(customer ? { customer } : {}), ...(who.orderId ? { order: { remoteOrderId: who.orderId } } : {}) };
  try {
    const result = await services.surveyLimiter.run(
      clientIp,
      () => services.surveys.submitResponse(hosted.storeId, hosted.survey.channelSurveyId, body),
      (r) => !r.replayed,
    );
    return { ok: result.body.surveyResponse.surveyResponseId };
  } catch (error) {
    if (!isApiError(error)) throw error;
    const question = questionOfError(error.message);
    return {
      refused: { form: question ? null : error.message, problems: question ? { [question]: { text: error.message.replace(/^.*?\): /, "") } } : {}, values },
      status: error.status,
    };
  }
}

/** The thank-you's reward of response `responseId` (null when none or not the store's) and whether it is still being created. */
export async function surveyThanks(services: Services, storeId: string, responseId: string): Promise<{ reward: Reward | null; rewardPending: boolean }> {
  const reward = (await services.surveys.rewardOfResponse(storeId, responseId)) ?? null;
  return { reward, rewardPending: reward ? false : await services.surveys.rewardPending(storeId, responseId) };
}

/**
 * The store's post-review survey on the hosted review page `/r/{token}` (docs/surveys.md "Post-review"), once the
 * link's review is written (`link.state` "used"): the survey, the page's language for it, and, after a stored response
 * (`?answered={surveyResponseId}`), the thank-you's reward. Undefined when the store has no enabled post-review survey.
 * The response goes with the review request's address and order (never taken from the form).
 */
export async function postReviewSurvey(services: Services, request: Request, link: { storeId: string; email: string; orderId: string }) {
  const id = await services.surveys.channelSurveyFor(link.storeId, "post-review");
  const hosted = id ? await services.surveys.openHostedSurvey(id) : undefined;
  if (!hosted) return undefined;
  const { ui, lang } = hostedPageLanguage(null, request.headers.get("accept-language"), hosted.defaultLanguage);
  const answered = new URL(request.url).searchParams.get("answered");
  const respondent: SurveyRespondent = { email: link.email, ...(/^\d{1,20}$/.test(link.orderId) ? { orderId: link.orderId } : {}) };
  return {
    hosted,
    ui,
    lang,
    respondent,
    thanks: answered ? await surveyThanks(services, hosted.storeId, answered) : null,
  };
}

/**
 * The post of the post-review survey's plain form on `/r/{token}?done=…&survey` (the review written, `link.state`
 * "used"). @returns the redirect to the thank-you (`?answered={surveyResponseId}`), or the refusal to show in place
 * (status and the form's result), or undefined when there is no post-review survey (anymore).
 */
export async function answerPostReviewSurvey(
  services: Services,
  clientIp: string,
  request: Request,
  token: string,
  link: { storeId: string; email: string; orderId: string },
): Promise<{ redirect: string } | { refused: SurveyFormResult; status: number } | undefined> {
  const survey = await postReviewSurvey(services, request, link);
  if (!survey) return undefined;
  let form: FormData;
  try {
    form = await readFormBody(request);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { refused: { form: error.message, problems: {}, values: {} }, status: error.status };
  }
  const result = await submitHostedSurvey(services, clientIp, survey.hosted, form, survey.respondent);
  if ("refused" in result) return result;
  const done = new URL(request.url).searchParams.get("done") === "published" ? "published" : "pending";
  return { redirect: `/r/${encodeURIComponent(token)}?done=${done}&answered=${encodeURIComponent(result.ok)}` };
}

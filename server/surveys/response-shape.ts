/**
 * Response shaping (pure): stored survey rows in the contract's shapes (docs/surveys.md, Survey response fields;
 * docs/surveys.md, Storefront submission), optional fields absent, never null.
 */
import type { AnsweredQuestion, ChannelSurvey, Reward, SurveyQuestion, SurveyResponse, SurveySubmissionResponse } from "../contract/surveys.ts";
import { isoFromMs as iso } from "../shared/iso-date.ts";
import type { ChannelSurveyRow, QuestionRow, ResponseRow } from "./surveys.repo.ts";

/** Shape a question row as the contract sees it. */
export function toSurveyQuestion(q: QuestionRow): SurveyQuestion {
  return {
    id: q.question_id,
    text: q.text,
    type: q.type,
    ...(q.options_json ? { options: JSON.parse(q.options_json) as string[] } : {}),
    ...(q.allow_custom_answer ? { allowCustomAnswer: true } : {}),
    ...(q.custom_answer_option_text ? { customAnswerOptionText: q.custom_answer_option_text } : {}),
    ...(q.profile_question_id ? { profileQuestionId: q.profile_question_id } : {}),
    ...(q.profile_answer_type ? { profileAnswerType: q.profile_answer_type } : {}),
    ...(q.required ? { required: true } : {}),
  };
}

/** The coupon reward of a channel survey or response row, or undefined when it has none. */
export const rewardOf = (r: { reward_type: string | null; reward_description: string | null; reward_value: string | null }): Reward | undefined =>
  r.reward_type && r.reward_description !== null && r.reward_value !== null ? { type: "coupon", description: r.reward_description, value: r.reward_value } : undefined;

/** Shape a channel survey row (its description and reward only when set). */
export function toChannelSurvey(c: ChannelSurveyRow): ChannelSurvey {
  const reward = rewardOf(c);
  return {
    channelSurveyId: c.channel_survey_id,
    channel: c.channel,
    ...(c.description !== null ? { description: c.description } : {}),
    ...(reward ? { reward } : {}),
    ...(c.enabled ? {} : { enabled: false }),
  };
}

/** Shape a stored response exactly per docs/surveys.md, Survey response fields: optional fields absent, never null. */
export function toSurveyResponse(r: ResponseRow): SurveyResponse {
  const reward = rewardOf(r);
  const customer =
    r.customer_id !== null || r.customer_email !== null
      ? { ...(r.customer_id !== null ? { customerId: r.customer_id } : {}), ...(r.customer_email !== null ? { email: r.customer_email } : {}) }
      : undefined;
  return {
    subscriberId: r.store_id,
    surveyResponseId: r.survey_response_id,
    surveyId: r.survey_id,
    surveyName: r.survey_name,
    channelSurveyId: r.channel_survey_id,
    ...(r.channel_survey_description !== null ? { channelSurveyDescription: r.channel_survey_description } : {}),
    channel: r.channel,
    answeredQuestions: JSON.parse(r.answered_questions_json) as AnsweredQuestion[],
    ...(customer ? { customer } : {}),
    dateCreated: iso(r.created_ms),
    ...(r.email_marketing_opt_in !== null ? { emailMarketingOptIn: r.email_marketing_opt_in === 1 } : {}),
    isArchived: r.is_archived === 1,
    ...(r.remote_order_id !== null ? { order: { remoteOrderId: r.remote_order_id } } : {}),
    ...(reward ? { reward } : {}),
  };
}

/** The body of a storefront submission (docs/surveys.md, Storefront submission): the response ID, its date and the reward copied onto it. */
export const submissionBody = (r: { survey_response_id: string; created_ms: number } & Parameters<typeof rewardOf>[0]): SurveySubmissionResponse => {
  const reward = rewardOf(r);
  return { surveyResponse: { surveyResponseId: r.survey_response_id, dateCreated: iso(r.created_ms), ...(reward ? { reward } : {}) } };
};

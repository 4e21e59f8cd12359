/**
 * The surveys a merchant can create from the admin (docs/admin.md "Surveys (survey responses)", "Create a
 * survey"): a template gives the questions, the merchant the name and the channel. Each becomes a
 * `SurveyDefinition` for `services.surveys.createSurvey` (IDs generated there).
 */
import type { SurveyDefinition } from "../contract/surveys.ts";
import { SURVEY_CHANNELS } from "../contract/surveys.constants.ts";

/**
 * The templates: an NPS question with its reason, one open question to start from, or "How did you hear about us?"
 * with an "Other" answer. The survey builder (docs/surveys.md "The survey builder") edits any of them afterwards.
 */
export const SURVEY_TEMPLATES = {
  nps: {
    label: "Net Promoter Score (0–10, with the reason)",
    questions: [
      { type: "nps", text: "How likely are you to recommend us to a friend or colleague?" },
      { type: "text", text: "What is the main reason for your score?" },
    ],
  },
  open: {
    label: "One open question (build the rest in the survey builder)",
    questions: [{ type: "text", text: "Is there anything you would like to tell us?" }],
  },
  attribution: {
    label: "How did you hear about us?",
    questions: [
      {
        type: "single-select",
        text: "How did you first hear about us?",
        allowCustomAnswer: true,
        customAnswerOptionText: "Other",
        options: ["Instagram", "TikTok", "Google search", "A friend or family member", "Podcast", "YouTube"],
      },
    ],
  },
} as const satisfies Record<string, { label: string; questions: SurveyDefinition["questions"] }>;
export type SurveyTemplate = keyof typeof SURVEY_TEMPLATES;

/**
 * A survey definition from a template. @param name 1–200 characters (checked by `createSurvey`'s schema).
 * @param channel one of SURVEY_CHANNELS (where the survey is answered).
 */
export function surveyFromTemplate(template: SurveyTemplate, name: string, channel: (typeof SURVEY_CHANNELS)[number]): SurveyDefinition {
  return { name, questions: SURVEY_TEMPLATES[template].questions.map((q) => ({ ...q, ...("options" in q ? { options: [...q.options] } : {}) })), channelSurveys: [{ channel }] };
}

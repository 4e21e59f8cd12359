/**
 * The admin survey builder (docs/surveys.md "The survey builder"): rename a survey; add, edit, delete and move its
 * questions; add and edit its channel surveys (channel, description, coupon reward, on/off); turn the whole survey on
 * or off; and the per-option counts of the reports. Definitions are checked by the same zod rules as
 * `createSurvey` and the API (`surveyDefinitionSchema` in server/contract/surveys.ts); each write is one transaction
 * that first locks the survey's row. Responses are never touched: each stores the question text it was answered with
 * (docs/surveys.md "Model"), so editing a live survey does not rewrite them.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { surveyDefinitionSchema, type SurveyChannel } from "../contract/surveys.ts";
import { badRequest, notFound } from "../contract/errors.ts";
import { transaction, type Db } from "../db/database.ts";
import type { ChannelSurveyRow, QuestionRow, ResponseFilter, SurveyRow, SurveysRepo } from "./surveys.repo.ts";
import type { SurveyBuilderRepo } from "./survey-builder.repo.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rules of one question of a survey definition (the API's and `createSurvey`'s). */
export const questionDefinitionSchema = surveyDefinitionSchema.shape.questions.element;
/** The rules of one channel survey of a survey definition. */
export const channelDefinitionSchema = surveyDefinitionSchema.shape.channelSurveys.element;
/** The rules of a survey's name. */
export const surveyNameSchema = surveyDefinitionSchema.shape.name;

/** A question as the builder edits it (no ID: the builder keeps or makes it). */
export type QuestionInput = Omit<z.input<typeof questionDefinitionSchema>, "id" | "profileQuestionId">;
/** A channel survey as the builder edits it. */
export type ChannelInput = Omit<z.input<typeof channelDefinitionSchema>, "channelSurveyId">;
/** Per-field messages of a refused definition, keyed by field name (`text`, `options`, `reward.value`, …). */
export type FieldErrors = Record<string, string>;

/** Which fields a question type uses: the others are dropped, so a type change never keeps stale options. */
function normaliseQuestion(q: QuestionInput): QuestionInput {
  const select = q.type === "single-select" || q.type === "multi-select";
  const profile = q.type === "profile";
  const valued = profile && (q.profileAnswerType === "single-value" || q.profileAnswerType === "multi-value");
  const options = (q.options ?? []).map((o) => o.trim()).filter(Boolean);
  return {
    text: typeof q.text === "string" ? q.text.trim() : q.text,
    type: q.type,
    ...(select || valued ? { options } : {}),
    ...(select && q.allowCustomAnswer ? { allowCustomAnswer: true, customAnswerOptionText: q.customAnswerOptionText?.trim() ?? "" } : {}),
    ...(profile ? { profileAnswerType: q.profileAnswerType } : {}),
    ...(q.required ? { required: true } : {}),
  };
}

const fieldOf = (path: PropertyKey[]) => path.map(String).join(".");
function issuesToFields(issues: z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const i of issues) out[fieldOf(i.path) || "form"] ??= i.message;
  return out;
}

/**
 * Check a question as the API would, plus what the builder needs on top (a non-empty text, options without
 * repeats, a custom option text that is not one of the options).
 * @returns the normalised question, or the message of each refused field.
 */
export function checkQuestion(input: QuestionInput): { question: QuestionInput; errors?: undefined } | { errors: FieldErrors } {
  const q = normaliseQuestion(input);
  const parsed = questionDefinitionSchema.safeParse(q);
  const errors = parsed.success ? {} : issuesToFields(parsed.error.issues);
  if (!q.text?.trim()) errors.text ??= "Write the question.";
  else if (q.text.length > 1000) errors.text ??= "At most 1,000 characters.";
  if (q.options && new Set(q.options).size !== q.options.length) errors.options ??= "Each option once.";
  if (q.options?.some((o) => o.length > 200)) errors.options ??= "At most 200 characters per option.";
  if (q.allowCustomAnswer && q.customAnswerOptionText && q.options?.includes(q.customAnswerOptionText)) errors.customAnswerOptionText ??= "The custom option must differ from the options.";
  return Object.keys(errors).length ? { errors } : { question: q };
}

/**
 * Check a channel survey as the API would: a channel of the four, a description of at most 500 characters, and a
 * coupon reward with both a description (1–500) and a code (1–200), or neither.
 * @returns the channel survey, or the message of each refused field.
 */
export function checkChannel(input: ChannelInput): { channel: ChannelInput; errors?: undefined } | { errors: FieldErrors } {
  const c: ChannelInput = { ...input, description: input.description?.trim() || undefined };
  const parsed = channelDefinitionSchema.safeParse(c);
  const errors = parsed.success ? {} : issuesToFields(parsed.error.issues);
  if (c.description && c.description.length > 500) errors.description ??= "At most 500 characters.";
  return Object.keys(errors).length ? { errors } : { channel: c };
}

/** Create the survey builder over the surveys data module and the builder's SQL. */
export function surveyBuilderService(deps: { db: Db; surveys: SurveysRepo; builder: SurveyBuilderRepo }) {
  const { db, surveys, builder } = deps;

  /** Inside a transaction: the store's survey, locked. @throws ApiError 404. */
  async function lockedSurvey(storeId: string, surveyId: string): Promise<SurveyRow> {
    const survey = UUID_RE.test(surveyId) ? await builder.lockSurvey(storeId, surveyId) : undefined;
    if (!survey) throw notFound("Survey not found", "survey_not_found");
    return survey;
  }
  /** Inside a transaction: the store's question and its survey, locked. @throws ApiError 404. */
  async function lockedQuestion(storeId: string, questionId: string): Promise<QuestionRow> {
    const found = UUID_RE.test(questionId) ? await builder.getQuestion(storeId, questionId) : undefined;
    if (!found) throw notFound("Question not found", "question_not_found");
    await lockedSurvey(storeId, found.survey_id);
    return (await builder.getQuestion(storeId, questionId))!;
  }
  function validQuestion(input: QuestionInput): QuestionInput {
    const checked = checkQuestion(input);
    if (checked.errors) {
      const [field, message] = Object.entries(checked.errors)[0];
      throw badRequest(`question: ${field}: ${message}`, "invalid_question");
    }
    return checked.question;
  }
  function validChannel(input: ChannelInput): ChannelInput {
    const checked = checkChannel(input);
    if (checked.errors) {
      const [field, message] = Object.entries(checked.errors)[0];
      throw badRequest(`channel survey: ${field}: ${message}`, "invalid_channel_survey");
    }
    return checked.channel;
  }
  const questionRow = (storeId: string, surveyId: string, questionId: string, position: number, q: QuestionInput, profileQuestionId: string | null): QuestionRow => ({
    question_id: questionId,
    survey_id: surveyId,
    store_id: storeId,
    position,
    text: q.text,
    type: q.type,
    options_json: q.options ? JSON.stringify(q.options) : null,
    allow_custom_answer: q.allowCustomAnswer ? 1 : 0,
    custom_answer_option_text: q.allowCustomAnswer ? (q.customAnswerOptionText ?? null) : null,
    profile_question_id: q.type === "profile" ? (profileQuestionId ?? randomUUID()) : null,
    profile_answer_type: q.type === "profile" ? (q.profileAnswerType ?? null) : null,
    required: q.required ? 1 : 0,
  });
  const channelRow = (storeId: string, surveyId: string, channelSurveyId: string, c: ChannelInput): ChannelSurveyRow => ({
    channel_survey_id: channelSurveyId,
    survey_id: surveyId,
    store_id: storeId,
    channel: c.channel as SurveyChannel,
    description: c.description ?? null,
    reward_type: c.reward ? "coupon" : null,
    reward_description: c.reward?.description ?? null,
    reward_value: c.reward?.value ?? null,
    enabled: c.enabled === false ? 0 : 1,
  });

  return {
    /** Rename a survey (1–200 characters). @throws ApiError 404 (not the store's), 400 (bad name). */
    async renameSurvey(storeId: string, surveyId: string, name: string): Promise<void> {
      const parsed = surveyNameSchema.safeParse(name);
      if (!parsed.success) throw badRequest(`name: ${parsed.error.issues[0].message}`, "invalid_survey");
      await transaction(db, async () => {
        await lockedSurvey(storeId, surveyId);
        await builder.renameSurvey(storeId, surveyId, parsed.data);
      });
    },

    /** Append a question to a survey. @returns its new ID. @throws ApiError 404, 400 naming the field. */
    async addQuestion(storeId: string, surveyId: string, input: QuestionInput): Promise<string> {
      const q = validQuestion(input);
      const questionId = randomUUID();
      await transaction(db, async () => {
        await lockedSurvey(storeId, surveyId);
        const position = (await surveys.questionsOf(storeId, surveyId)).reduce((m, x) => Math.max(m, x.position + 1), 0);
        await builder.insertQuestion(questionRow(storeId, surveyId, questionId, position, q, null));
      });
      return questionId;
    },

    /**
     * Edit a question in place (its ID, position and, while it stays a profile question, its profile field are kept).
     * Stored responses keep the text they were answered with. @throws ApiError 404, 400 naming the field.
     */
    async updateQuestion(storeId: string, questionId: string, input: QuestionInput): Promise<void> {
      const q = validQuestion(input);
      await transaction(db, async () => {
        const old = await lockedQuestion(storeId, questionId);
        await builder.updateQuestion(questionRow(storeId, old.survey_id, questionId, old.position, q, old.profile_question_id));
      });
    },

    /** Delete a question; the others close up. @throws ApiError 404, 400 for a survey's last question (a survey asks at least one). */
    async deleteQuestion(storeId: string, questionId: string): Promise<void> {
      await transaction(db, async () => {
        const old = await lockedQuestion(storeId, questionId);
        const rest = (await surveys.questionsOf(storeId, old.survey_id)).filter((x) => x.question_id !== questionId);
        if (!rest.length) throw badRequest("A survey asks at least one question: add another before deleting this one.", "last_question");
        await builder.deleteQuestion(storeId, questionId);
        await builder.setPositions(
          storeId,
          old.survey_id,
          rest.map((x) => x.question_id),
        );
      });
    },

    /**
     * Move a question one place up or down (a no-op at either end). Positions are renumbered 0… in the new order.
     * @returns the question's new index (0-based). @throws ApiError 404.
     */
    async moveQuestion(storeId: string, questionId: string, direction: "up" | "down"): Promise<number> {
      return transaction(db, async () => {
        const old = await lockedQuestion(storeId, questionId);
        const ids = (await surveys.questionsOf(storeId, old.survey_id)).map((x) => x.question_id);
        const from = ids.indexOf(questionId);
        const to = direction === "up" ? Math.max(0, from - 1) : Math.min(ids.length - 1, from + 1);
        if (to === from) return from;
        [ids[from], ids[to]] = [ids[to], ids[from]];
        await builder.setPositions(storeId, old.survey_id, ids);
        return to;
      });
    },

    /** Add a channel survey to a survey. @returns its new ID. @throws ApiError 404, 400 naming the field. */
    async addChannelSurvey(storeId: string, surveyId: string, input: ChannelInput): Promise<string> {
      const c = validChannel(input);
      const channelSurveyId = randomUUID();
      await transaction(db, async () => {
        await lockedSurvey(storeId, surveyId);
        await builder.insertChannelSurvey(channelRow(storeId, surveyId, channelSurveyId, c));
      });
      return channelSurveyId;
    },

    /**
     * Edit a channel survey (channel, description, reward, on/off). Responses keep the reward they were given.
     * @throws ApiError 404, 400 naming the field.
     */
    async updateChannelSurvey(storeId: string, channelSurveyId: string, input: ChannelInput): Promise<void> {
      const c = validChannel(input);
      await transaction(db, async () => {
        const old = UUID_RE.test(channelSurveyId) ? await surveys.getChannelSurvey(storeId, channelSurveyId) : undefined;
        if (!old) throw notFound("Channel survey not found", "channel_survey_not_found");
        await lockedSurvey(storeId, old.survey_id);
        await builder.updateChannelSurvey(channelRow(storeId, old.survey_id, channelSurveyId, c));
      });
    },

    /** Turn every channel survey of a survey on or off. @returns how many changed. @throws ApiError 404. */
    async setSurveyEnabled(storeId: string, surveyId: string, enabled: boolean): Promise<number> {
      return transaction(db, async () => {
        await lockedSurvey(storeId, surveyId);
        return builder.setSurveyChannelsEnabled(storeId, surveyId, enabled);
      });
    },

    /**
     * Reports: per question (select questions and single-value / multi-value profile questions) how many responses
     * matching `filter` chose each option, every option of the question listed (0 when nobody chose it) in the
     * question's order, then the custom option, then values no longer among the options (answered before an edit).
     */
    async optionCounts(storeId: string, surveyId: string, filter: ResponseFilter): Promise<{ questionId: string; text: string; counts: { option: string; count: number }[] }[]> {
      const questions = (await surveys.questionsOf(storeId, surveyId)).filter((q) => q.options_json);
      const rows = await builder.optionCounts(storeId, { ...filter, surveyId });
      return questions.map((q) => {
        const listed: string[] = [...(JSON.parse(q.options_json!) as string[]), ...(q.custom_answer_option_text ? [q.custom_answer_option_text] : [])];
        const mine = rows.filter((r) => r.question_id === q.question_id);
        const extra = mine
          .map((r) => r.option)
          .filter((o) => !listed.includes(o))
          .sort();
        return {
          questionId: q.question_id,
          text: q.text,
          counts: [...listed, ...extra].map((option) => ({ option, count: mine.find((r) => r.option === option)?.n ?? 0 })),
        };
      });
    },
  };
}
export type SurveyBuilderService = ReturnType<typeof surveyBuilderService>;

/**
 * Answer validation (docs/surveys.md, Survey response fields plus each survey's own rules): pure functions over a survey's
 * question rows, shared by the storefront submission, imports (demo seeder, benchmark) and the service.
 */
import { answeredQuestionInputSchema, answeredQuestionSchema, npsCategoryOf, type AnsweredQuestion, type AnsweredQuestionInput } from "../contract/surveys.ts";
import { badRequest } from "../contract/errors.ts";
import type { QuestionRow } from "./surveys.repo.ts";

/** "answer.value.day" from a zod issue path. */
export const pathText = (path: PropertyKey[]) => path.map(String).join(".");

/**
 * Validate answered questions against a survey's questions (docs/surveys.md, Survey response fields plus the survey's own
 * rules) and return them in the stored shape, ordered as the survey orders its questions.
 * @throws ApiError 400 naming the answer (`answeredQuestions[i]`), the question and the broken rule.
 */
export function validateAnswers(surveyId: string, questions: QuestionRow[], answers: unknown[]): AnsweredQuestion[] {
  const byId = new Map(questions.map((q) => [q.question_id, q]));
  const seen = new Set<string>();
  const out: { position: number; answer: AnsweredQuestion }[] = [];
  answers.forEach((raw, i) => {
    const rawId = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
    const known = typeof rawId === "string" ? byId.get(rawId) : undefined;
    const label = `answeredQuestions[${i}]${typeof rawId === "string" ? ` (question ${rawId}${known ? ` "${known.text}"` : ""})` : ""}`;
    const fail = (rule: string): never => {
      throw badRequest(`${label}: ${rule}`, "invalid_answer");
    };
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("must be an answered question object { id, type, answer, ... }");
    const parsed = answeredQuestionInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = pathText(issue.path);
      const leaf = where.split(".").pop()!;
      // "day must be …" at answer.value.day reads "answer.value.day must be …"; other messages get the path in front.
      fail(
        !where ? issue.message : issue.message.startsWith(`${leaf} `) ? `${where}${issue.message.slice(leaf.length)}` : issue.message.startsWith(where) ? issue.message : `${where}: ${issue.message}`,
      );
    }
    const a = parsed.data as AnsweredQuestionInput;
    const q = byId.get(a.id) ?? fail(`id is not a question of survey ${surveyId}`);
    if (seen.has(q.question_id)) fail("the question is answered twice");
    seen.add(q.question_id);
    if (a.type !== q.type) fail(`type must be "${q.type}" for this question (got "${a.type}")`);
    const options: string[] = q.options_json ? JSON.parse(q.options_json) : [];
    const customText = q.allow_custom_answer ? q.custom_answer_option_text : null;
    let stored: AnsweredQuestion;
    switch (a.type) {
      case "single-select":
      case "multi-select": {
        const chosen = a.type === "single-select" ? [a.answer] : a.answer;
        for (const c of chosen) {
          if (!options.includes(c) && c !== customText) fail(`answer "${c}" is not an option of this question (options: ${[...options, ...(customText ? [customText] : [])].join(", ")})`);
        }
        const usesCustom = customText !== null && chosen.includes(customText);
        if (usesCustom && a.customAnswer === undefined) fail(`customAnswer is required when "${customText}" is chosen`);
        if (!usesCustom && a.customAnswer !== undefined)
          fail(customText ? `customAnswer is only allowed when "${customText}" is chosen` : "customAnswer is not allowed: this question has no custom option");
        if (a.customAnswerOptionText !== undefined && a.customAnswerOptionText !== customText) fail(`customAnswerOptionText must be "${customText ?? ""}" (the question's custom option)`);
        stored = { ...a, text: q.text, ...(usesCustom ? { customAnswerOptionText: customText! } : {}) } as AnsweredQuestion;
        break;
      }
      case "nps":
        stored = { ...a, text: q.text, answerNpsCategory: npsCategoryOf(a.answer) };
        break;
      case "profile": {
        if (a.profileQuestionId !== undefined && a.profileQuestionId !== q.profile_question_id) fail(`profileQuestionId must be ${q.profile_question_id} for this question`);
        if (a.answer.type !== q.profile_answer_type) fail(`answer.type must be "${q.profile_answer_type}" for this question (got "${a.answer.type}")`);
        if (a.answer.type === "single-value" || a.answer.type === "multi-value") {
          const values = a.answer.type === "single-value" ? [a.answer.value] : a.answer.value;
          for (const v of values) if (options.length && !options.includes(v)) fail(`answer.value "${v}" is not an option of this question (options: ${options.join(", ")})`);
          if (new Set(values).size !== values.length) fail("answer.value must not repeat a value");
        }
        stored = { ...a, text: q.text, profileQuestionId: q.profile_question_id! };
        break;
      }
      default:
        stored = { ...a, text: q.text } as AnsweredQuestion;
    }
    // The stored shape is the answered-question union itself: check it (cheap) so nothing off-contract is ever stored.
    const check = answeredQuestionSchema.safeParse(stored);
    if (!check.success) fail(`${pathText(check.error.issues[0].path)}: ${check.error.issues[0].message}`);
    out.push({ position: q.position, answer: check.data as AnsweredQuestion });
  });
  // docs/surveys.md, Answer validation: a required question must be answered (a text answer must not be blank).
  for (const q of questions) {
    if (!q.required) continue;
    const given = out.find((x) => x.answer.id === q.question_id)?.answer;
    if (!given || (given.type === "text" && !given.answer?.trim())) {
      throw badRequest(`answeredQuestions (question ${q.question_id} "${q.text}"): the question is required`, "invalid_answer");
    }
  }
  return out.sort((x, y) => x.position - y.position).map((x) => x.answer);
}

/** The text a response is found by in the admin search: its text answers and custom answers, one per line. */
export const searchTextOf = (answers: AnsweredQuestion[]): string =>
  answers
    .map((a) => (a.type === "text" ? (a.answer ?? "") : a.type === "single-select" || a.type === "multi-select" ? (a.customAnswer ?? "") : ""))
    .filter(Boolean)
    .join("\n");

/**
 * A survey as a form (docs/surveys.md, Answering a survey): the field names of each question, and the one
 * conversion of a filled form into the answered questions of a storefront submission, with the problems a shopper
 * can fix before anything is sent. Pure, zod-free and shared: the hosted survey page (`/s/{channelSurveyId}`, plain
 * form posts) and `<chorus-survey>` (its own form) both use it, so both ask and check the same way; the server then
 * validates the submission with the full rules (server/surveys/answers.ts).
 *
 * Field names, for question `id`: `q.<id>` the answer (repeated for multi-select and multi-value), `q.<id>.other`
 * the text of the custom ("other") option, `q.<id>.optin` the e-mail marketing opt-in (`on`), `q.<id>.day`,
 * `.month`, `.year` a date of birth, `q.<id>.country` and `q.<id>.zone` a location.
 */
import type { SurveyQuestion } from "./surveys.ts";
import { MAX_TEXT_ANSWER } from "./surveys.constants.ts";
import { COUNTRY_CODES } from "./countries.ts";

/** What can be read from a filled form: `FormData` and `URLSearchParams` both fit. */
export type FormFields = { get(name: string): unknown; getAll(name: string): unknown[] };

/**
 * Why an answer cannot be sent: `required` (nothing chosen or written for a required question), `other` (the custom
 * option is chosen but not described), `tooLong` (over 5,000 characters), `email` (not an e-mail address), `date`
 * (no real calendar date from 1900 to 2100), `country` (no country chosen for a location), `zone` (a region code
 * over 10 characters).
 */
export type SurveyProblem = "required" | "other" | "tooLong" | "email" | "date" | "country" | "zone";

/** A form field of question `id` (`part` as listed in the module's docstring). */
export const surveyField = (id: string, part?: "other" | "optin" | "day" | "month" | "year" | "country" | "zone"): string => (part ? `q.${id}.${part}` : `q.${id}`);

/** An answered question as the submission takes it (`POST …/surveys/{channelSurveyId}/responses`). */
export type AnswerInput = { id: string; type: SurveyQuestion["type"]; answer: unknown; customAnswer?: string; marketingOptIn?: boolean };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
const texts = (vs: unknown[]): string[] => [...new Set(vs.map(text).filter(Boolean))];

/**
 * The answer to one question from `fields`, or its problem; `null` when the question is left unanswered (allowed
 * unless it is required). Scales (`five-point`, `star`: 1–5; `nps`: 0–10) take the number sent.
 */
export function answerFromForm(q: SurveyQuestion, fields: FormFields): AnswerInput | SurveyProblem | null {
  const f = (part?: Parameters<typeof surveyField>[1]) => text(fields.get(surveyField(q.id, part)));
  const custom = q.allowCustomAnswer ? q.customAnswerOptionText : undefined;
  const withCustom = (chosen: string[], answer: unknown): AnswerInput | SurveyProblem => {
    if (!custom || !chosen.includes(custom)) return { id: q.id, type: q.type, answer };
    const other = f("other");
    if (!other) return "other";
    if (other.length > MAX_TEXT_ANSWER) return "tooLong";
    return { id: q.id, type: q.type, answer, customAnswer: other };
  };
  switch (q.type) {
    case "text": {
      const v = f();
      if (!v) return null;
      return v.length > MAX_TEXT_ANSWER ? "tooLong" : { id: q.id, type: q.type, answer: v };
    }
    case "five-point":
    case "star":
    case "nps": {
      const v = f();
      const n = Number(v);
      const max = q.type === "nps" ? 10 : 5;
      return v && Number.isInteger(n) && n >= (q.type === "nps" ? 0 : 1) && n <= max ? { id: q.id, type: q.type, answer: n } : null;
    }
    case "single-select": {
      const v = f();
      return v ? withCustom([v], v) : null;
    }
    case "multi-select": {
      const vs = texts(fields.getAll(surveyField(q.id)));
      return vs.length ? withCustom(vs, vs) : null;
    }
    case "email": {
      const v = f();
      if (!v) return null;
      if (!EMAIL.test(v) || v.length > 320) return "email";
      return { id: q.id, type: q.type, answer: v, marketingOptIn: f("optin") === "on" };
    }
    case "profile":
      return profileAnswer(q, fields, f);
  }
}

function profileAnswer(q: SurveyQuestion, fields: FormFields, f: (part?: Parameters<typeof surveyField>[1]) => string): AnswerInput | SurveyProblem | null {
  const answer = (value: unknown) => ({ id: q.id, type: "profile" as const, answer: { type: q.profileAnswerType, value } });
  switch (q.profileAnswerType) {
    case "date-components": {
      const [d, m, y] = [f("day"), f("month"), f("year")];
      if (!d && !m && !y) return null;
      const [day, month, year] = [Number(d), Number(m), Number(y)];
      const real = [day, month, year].every(Number.isInteger) && year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
      return real ? answer({ day, month, year }) : "date";
    }
    case "location": {
      const [country, zone] = [f("country").toUpperCase(), f("zone").toUpperCase()];
      if (!country && !zone) return null;
      if (!COUNTRY_CODES.includes(country)) return "country";
      if (zone.length > 10) return "zone";
      return answer({ countryCode: country, ...(zone ? { zoneCode: zone } : {}) });
    }
    case "multi-value": {
      const vs = texts(fields.getAll(surveyField(q.id)));
      return vs.length ? answer(vs) : null;
    }
    default: {
      const v = f();
      return v ? answer(v) : null;
    }
  }
}

/**
 * Every answer of a filled form, in the survey's order, and the problems by question ID (a required question left
 * unanswered is `required`). Send `answers` only when `problems` is empty.
 */
export function answersFromForm(questions: readonly SurveyQuestion[], fields: FormFields): { answers: AnswerInput[]; problems: Record<string, SurveyProblem> } {
  const answers: AnswerInput[] = [];
  const problems: Record<string, SurveyProblem> = {};
  for (const q of questions) {
    const a = answerFromForm(q, fields);
    if (typeof a === "string") problems[q.id] = a;
    else if (a) answers.push(a);
    else if (q.required) problems[q.id] = "required";
  }
  return { answers, problems };
}

/** The question ID a server error description names (`answeredQuestions[1] (question <id> "…"): …`), if any. */
export const questionOfError = (description: string): string | undefined => /\(question ([0-9a-f-]{36})\b/i.exec(description)?.[1];

/** English sentences of each problem, for the hosted page (the element has them among its widget texts, translated). */
export const SURVEY_PROBLEM_TEXTS: Record<SurveyProblem, string> = {
  required: "Answer this question.",
  other: "Describe your answer in the field below.",
  tooLong: `Write at most ${MAX_TEXT_ANSWER.toLocaleString("en")} characters.`,
  email: "Enter a valid e-mail address, like name@example.com.",
  date: "Enter a real date: day, month and a year from 1900 to 2100.",
  country: "Choose a country.",
  zone: "A region code has at most 10 characters.",
};

/** The NPS scale's ends, as labels under 0 and 10 (English; the element's are translated). */
export const NPS_LABELS = { low: "Not at all likely", high: "Extremely likely" } as const;

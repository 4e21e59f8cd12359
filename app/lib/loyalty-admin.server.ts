/**
 * Admin form handling of the loyalty pages: the set-up schemas (server/loyalty/program-setup.ts) read
 * from a form, with a message per field; service errors of the form "field: message" (400) are shown
 * next to that field too.
 */
import { data } from "@remix-run/node";
import type { z } from "zod";
import { isApiError } from "../../server/contract/errors.ts";
import { fieldErrors } from "../../server/loyalty/program-setup.ts";
import { field } from "./admin.server.ts";

export {
  DEFAULT_LEGAL_POLICIES,
  EARNING_RULE_TYPES,
  REDEMPTION_RULE_TYPES,
  earningRuleEdit,
  earningRuleInput,
  fieldErrors,
  legalPoliciesForm,
  redemptionRuleInput,
  vipTierInput,
} from "../../server/loyalty/program-setup.ts";

/** What a loyalty form action answers when it fails: the form's ID, a summary, a message per field and the values sent. */
export type FormFailure = { formId: string; error: string; errors: Record<string, string>; values: Record<string, string> };

/** The named fields of a form as trimmed strings (checkboxes: "on" or ""). */
export const formValues = (form: FormData, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, field(form, n)]));

/** A 400 answer with a message per field of `formId`. */
export const invalid = (formId: string, errors: Record<string, string>, values: Record<string, string>, status = 400) =>
  data<FormFailure>({ formId, error: "Check the highlighted fields.", errors, values }, { status });

/**
 * Parse `values` with `schema`. @returns the data, or a 400 answer with a message per field.
 */
export function parseForm<S extends z.ZodType>(schema: S, formId: string, values: Record<string, string>) {
  const r = schema.safeParse(values);
  return r.success ? { ok: true as const, data: r.data as z.output<S> } : { ok: false as const, response: invalid(formId, fieldErrors(r.error), values) };
}

/**
 * A service's client error as a form answer: "field: message" (400) marks that field; any other 4xx is
 * a message for the form. @throws anything else (5xx, not an ApiError).
 */
export function serviceFailure(error: unknown, formId: string, values: Record<string, string>) {
  if (!isApiError(error) || error.status >= 500) throw error;
  const m = /^(\w+): (.+)$/.exec(error.message);
  if (error.status === 400 && m && m[1] in values) return invalid(formId, { [m[1]]: m[2] }, values);
  return data<FormFailure>({ formId, error: error.message, errors: {}, values }, { status: error.status });
}

/**
 * The admin's review-request settings form (admin.stores.$storeId.review-requests.tsx) → a settings patch
 * (server/review-requests/settings.ts), checked with the same zod schemas as the API, with one message per
 * form field (keys are the fields' IDs: delayDays, quietStart, subject-en, newLang, ...).
 */
import type { z } from "zod";
import {
  applyPatch,
  languageTag,
  reviewRequestSettingsPatchSchema,
  reviewRequestSettingsSchema,
  type ReviewRequestSettings,
  type ReviewRequestSettingsPatch,
} from "../../server/review-requests/settings.ts";

/** A whole number from a form value ("7" → 7); anything else is passed on for the schema to refuse. */
const whole = (v: FormDataEntryValue | null): unknown => (typeof v === "string" && /^\s*\d{1,6}\s*$/.test(v) ? Number(v) : (v ?? ""));
const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : "");

/** Read the form against the store's current settings. @returns the patch, or a message per field. */
export function reviewRequestForm(form: FormData, current: ReviewRequestSettings): { ok: true; patch: ReviewRequestSettingsPatch } | { ok: false; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  const templates: Record<string, { subject: string; body: string } | null> = {};
  for (const lang of Object.keys(current.templates)) {
    if (lang !== "en" && form.get(`remove.${lang}`) === "on") templates[lang] = null;
    else templates[lang] = { subject: text(form.get(`subject.${lang}`)), body: text(form.get(`body.${lang}`)) };
  }
  const newLang = text(form.get("newLang")).trim();
  const newSubject = text(form.get("newSubject"));
  const newBody = text(form.get("newBody"));
  if (newLang || newSubject.trim() || newBody.trim()) {
    const tag = languageTag.safeParse(newLang);
    if (!tag.success) fieldErrors.newLang = newLang ? tag.error.issues[0].message : "Give the language tag of the new template, e.g. fr";
    else if (tag.data in current.templates) fieldErrors.newLang = `There is a ${tag.data} template already: edit it above`;
    else templates[tag.data] = { subject: newSubject, body: newBody };
  }
  const raw = {
    enabled: form.get("enabled") === "on",
    delayDays: whole(form.get("delayDays")),
    reminderDays: form.get("reminder") === "on" ? whole(form.get("reminderDays")) : null,
    quietHours: form.get("quiet") === "on" ? { startHour: whole(form.get("quietStart")), endHour: whole(form.get("quietEnd")) } : null,
    timeZone: text(form.get("timeZone")),
    askShopRating: form.get("askShopRating") === "on",
    templates,
  };
  const patch = reviewRequestSettingsPatchSchema.safeParse(raw);
  if (!patch.success) collect(patch.error, fieldErrors, newLang);
  else {
    const next = reviewRequestSettingsSchema.safeParse(applyPatch(current, patch.data));
    if (!next.success) collect(next.error, fieldErrors, newLang);
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  return { ok: true, patch: patch.data! };
}

/** The form field of a zod issue path. */
function fieldKey(path: PropertyKey[], newLang: string): string {
  const [head, second, third] = path.map(String);
  if (head === "quietHours") return second === "endHour" ? "quietEnd" : "quietStart";
  if (head === "templates" && second) {
    const isNew = second === newLang;
    if (third === "subject") return isNew ? "newSubject" : `subject-${second}`;
    if (third === "body") return isNew ? "newBody" : `body-${second}`;
    return isNew ? "newLang" : `subject-${second}`;
  }
  if (head === "templates") return "newLang";
  return head ?? "form";
}

function collect(error: z.ZodError, into: Record<string, string>, newLang: string): void {
  for (const issue of error.issues) {
    const key = fieldKey(issue.path, newLang);
    into[key] ??= issue.message;
  }
}

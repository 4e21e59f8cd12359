/**
 * Review-request settings of a store (issue #22 item 2; docs/review-requests.md): the zod schema of the
 * section (also the `reviewRequests` section of `GET/PATCH /enterprise/settings`), its defaults, the
 * templates with their placeholders, and the quiet-hours maths. Pure functions, no SQL.
 */
import { z } from "zod";

/** Placeholders a subject or body template may use. Each is replaced by plain text (escaped in HTML). */
export const PLACEHOLDERS = ["customerName", "storeName", "orderNumber", "orderId"] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** Template limits in characters. */
export const TEMPLATE_LIMITS = { subjectMax: 200, bodyMax: 5000, languages: 30 } as const;

/** The English templates every store starts with (and falls back to for a language it has none for). */
export const DEFAULT_TEMPLATES = {
  en: {
    subject: "How do you like your order from {{storeName}}?",
    body: "Hi {{customerName}},\n\nThank you for your order {{orderNumber}} at {{storeName}}. Would you tell other shoppers what you think of it? It takes a minute: pick the stars right here, or follow the link for each product.",
  },
} as const;

/** The name used for `{{customerName}}` when the order has none. */
export const UNKNOWN_CUSTOMER_NAME = "there";

const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** The placeholders in `template` that are not in PLACEHOLDERS. */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER_PATTERN)].map((m) => m[1]).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** `template` with every `{{name}}` replaced by its value (plain text; the caller escapes for HTML). */
export function fillTemplate(template: string, values: PlaceholderValues): string {
  return template.replace(PLACEHOLDER_PATTERN, (whole, name: string) => ((PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole));
}

/** Whether `zone` is an IANA time zone this runtime knows (e.g. "Europe/Paris", "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An object schema's error for a value that is not an object (other issues, e.g. unknown keys, keep their own message). */
const notAnObject = (message: string) => ({ error: (issue: { code?: string }) => (issue.code === "invalid_type" ? message : undefined) });

const hour = (name: string) =>
  z
    .number({ error: `${name} must be a whole hour from 0 to 23` })
    .int(`${name} must be a whole hour from 0 to 23`)
    .min(0, `${name} must be a whole hour from 0 to 23`)
    .max(23, `${name} must be a whole hour from 0 to 23`);

const templateText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`)
    .refine((t) => unknownPlaceholders(t).length === 0, {
      error: (issue) => `${name}: unknown placeholder {{${unknownPlaceholders(String(issue.input))[0]}}}; use ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")}`,
    });

/** A language's subject and body templates. The body is plain text; blank lines separate paragraphs. */
export const templateSchema = z
  .object(
    {
      subject: templateText("subject", TEMPLATE_LIMITS.subjectMax),
      body: templateText("body", TEMPLATE_LIMITS.bodyMax),
    },
    notAnObject("a template must be an object with subject and body"),
  )
  .strict();
export type Template = z.output<typeof templateSchema>;

/** A language tag as a template key: a BCP 47 primary language with an optional region ("en", "fr", "pt-BR"). */
export const languageTag = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, "template languages are tags like en, fr or pt-BR");

const quietHours = z
  .object({ startHour: hour("quietHours.startHour"), endHour: hour("quietHours.endHour") }, notAnObject("quietHours must be an object with startHour and endHour, or null"))
  .strict()
  .refine((q) => q.startHour !== q.endHour, "quietHours: startHour and endHour must differ (use null for no quiet hours)");

/** The review-request settings of a store, as stored and as the API shows them. */
export const reviewRequestSettingsSchema = z
  .object({
    /** Whether orders get review requests at all. */
    enabled: z.boolean({ error: "enabled must be true or false" }),
    /** Days after fulfilment before the request is sent (0 = at once, after quiet hours). */
    delayDays: z
      .number({ error: "delayDays must be a whole number of days from 0 to 365" })
      .int("delayDays must be a whole number of days from 0 to 365")
      .min(0, "delayDays must be a whole number of days from 0 to 365")
      .max(365, "delayDays must be a whole number of days from 0 to 365"),
    /** Days after the request before the one reminder; null = no reminder. */
    reminderDays: z
      .number({ error: "reminderDays must be a whole number of days from 1 to 365, or null" })
      .int("reminderDays must be a whole number of days from 1 to 365, or null")
      .min(1, "reminderDays must be a whole number of days from 1 to 365, or null")
      .max(365, "reminderDays must be a whole number of days from 1 to 365, or null")
      .nullable(),
    /** Local hours [startHour, endHour) in `timeZone` when nothing is sent (may wrap midnight, e.g. 21 → 8); null = none. */
    quietHours: quietHours.nullable(),
    /** IANA time zone of the quiet hours (default "UTC"). */
    timeZone: z.string({ error: "timeZone must be an IANA time zone such as Europe/Paris or UTC" }).refine(isTimeZone, "timeZone must be an IANA time zone such as Europe/Paris or UTC"),
    /**
     * Whether the hosted review page also asks for a rating of the shop itself: a store review, verified, for Google
     * seller ratings (docs/review-requests.md "Rate the shop"). Default false.
     */
    askShopRating: z.boolean({ error: "askShopRating must be true or false" }),
    /** Subject and body per language; "en" is always present (the fallback). */
    templates: z
      .record(languageTag, templateSchema, { error: "templates must be an object of language → { subject, body }" })
      .refine((t) => Object.keys(t).length <= TEMPLATE_LIMITS.languages, `templates may hold at most ${TEMPLATE_LIMITS.languages} languages`)
      .refine((t) => "en" in t, "templates must keep an en (English) template: it is the fallback"),
  })
  .strict()
  .meta({ id: "ReviewRequestSettings", description: "Review-request e-mails of the store (docs/review-requests.md)." });
export type ReviewRequestSettings = z.output<typeof reviewRequestSettingsSchema>;

/**
 * A change of the settings (`PATCH /enterprise/settings` section `reviewRequests`, the admin form): any
 * subset of the fields; `templates` merges by language, and a language set to null is removed ("en" cannot be).
 */
export const reviewRequestSettingsPatchSchema = z
  .object(
    {
      enabled: reviewRequestSettingsSchema.shape.enabled.optional(),
      delayDays: reviewRequestSettingsSchema.shape.delayDays.optional(),
      reminderDays: reviewRequestSettingsSchema.shape.reminderDays.optional(),
      quietHours: reviewRequestSettingsSchema.shape.quietHours.optional(),
      timeZone: reviewRequestSettingsSchema.shape.timeZone.optional(),
      askShopRating: reviewRequestSettingsSchema.shape.askShopRating.optional(),
      templates: z.record(languageTag, templateSchema.nullable(), { error: "templates must be an object of language → { subject, body } or null" }).optional(),
    },
    notAnObject("reviewRequests must be an object"),
  )
  .strict()
  .meta({ id: "ReviewRequestSettingsPatch" });
export type ReviewRequestSettingsPatch = z.output<typeof reviewRequestSettingsPatchSchema>;

/** The settings of a store that never saved any: off, 7 days after fulfilment, one reminder 7 days later, quiet 21:00–08:00 UTC. */
export const DEFAULT_SETTINGS: ReviewRequestSettings = {
  enabled: false,
  delayDays: 7,
  reminderDays: 7,
  quietHours: { startHour: 21, endHour: 8 },
  timeZone: "UTC",
  askShopRating: false,
  templates: { en: { ...DEFAULT_TEMPLATES.en } },
};

/** `current` with `patch` applied (templates merged by language; null removes one). Validate the result with the schema. */
export function applyPatch(current: ReviewRequestSettings, patch: ReviewRequestSettingsPatch): ReviewRequestSettings {
  const templates = { ...current.templates };
  for (const [lang, t] of Object.entries(patch.templates ?? {})) {
    if (t === null) delete templates[lang];
    else templates[lang] = t;
  }
  const { templates: _ignored, ...rest } = patch;
  return { ...current, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), templates };
}

/**
 * The template for a shopper's `locale` ("fr-CA" → "fr-CA", then "fr", then "en") and the language chosen.
 */
export function templateFor(settings: ReviewRequestSettings, locale: string | null): { language: string; template: Template } {
  const tags: string[] = [];
  if (locale) {
    const [lang, region] = locale.replace("_", "-").split("-");
    if (lang && region) tags.push(`${lang.toLowerCase()}-${region.toUpperCase()}`);
    if (lang) tags.push(lang.toLowerCase());
  }
  for (const tag of tags) if (settings.templates[tag]) return { language: tag, template: settings.templates[tag] };
  return { language: "en", template: settings.templates.en ?? DEFAULT_TEMPLATES.en };
}

const HOUR_MS = 3_600_000;

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** The local hour (0–23) and the ms since that hour began, of instant `ms` in `timeZone`. */
function localHour(ms: number, timeZone: string): { hour: number; intoHourMs: number } {
  let format = hourFormats.get(timeZone);
  if (!format) hourFormats.set(timeZone, (format = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" })));
  const parts = format.formatToParts(ms);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: get("hour"), intoHourMs: (get("minute") * 60 + get("second")) * 1000 + (((ms % 1000) + 1000) % 1000) };
}

/** Whether local hour `h` is inside quiet hours [start, end) (wrapping midnight when start > end). */
export const isQuietHour = (h: number, q: { startHour: number; endHour: number }) => (q.startHour < q.endHour ? h >= q.startHour && h < q.endHour : h >= q.startHour || h < q.endHour);

/**
 * The first instant at or after `ms` outside the quiet hours of `settings` (in its time zone): `ms` itself
 * when it is not quiet, else the start of the local hour `endHour`. Daylight-saving jumps are stepped over.
 */
export function afterQuietHours(ms: number, settings: Pick<ReviewRequestSettings, "quietHours" | "timeZone">): number {
  const q = settings.quietHours;
  if (!q) return ms;
  let t = ms;
  for (let i = 0; i < 30; i++) {
    const { hour: h, intoHourMs } = localHour(t, settings.timeZone);
    if (!isQuietHour(h, q)) return t;
    // To the start of the next local hour, then check again (at most 24 steps, plus DST shifts).
    t = t - intoHourMs + HOUR_MS;
  }
  return t;
}

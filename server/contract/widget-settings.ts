/**
 * Widget settings of a store (issue #21 item 4): the texts shoppers see, per language, over the English
 * defaults of ./widget-strings.ts; the accent and star colours; which widgets show; the product attributes the
 * review form asks (issue #23 item 2: scales and choices, `reviewForm.attributes`). Zod schemas of the
 * whole section (the admin's and `/enterprise/settings` section `widgets`), of a change to it, and of the
 * storefront answer the widgets read (`GET /v1/stores/{storeId}/widget_settings`).
 */
import { z } from "zod";
import { DEFAULT_TEXTS, placeholdersOf, TEXT_IDS, type TextId } from "./widget-strings.ts";

import { WIDGET_KEYS, type WidgetKey } from "./widget-keys.ts";

export { WIDGET_KEYS, type WidgetKey } from "./widget-keys.ts";

/** A CSS hex colour, `#rgb` or `#rrggbb` (stored lower-case). */
export const hexColorSchema = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a CSS hex colour: # and 3 or 6 hex digits, e.g. #3b3fb6")
  .transform((v) => v.toLowerCase());

/** A language tag (BCP 47 shape: `en`, `de`, `pt-BR`, `zh-Hant`), stored lower-case. */
export const languageTagSchema = z
  .string()
  .trim()
  .max(35, "must be at most 35 characters")
  .regex(/^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/, "must be a language tag like en, de or pt-BR")
  .transform((v) => v.toLowerCase());

/** Longest merchant text (characters). */
export const MAX_TEXT_LENGTH = 500;

/** A merchant's text for `id`: 1..500 characters, only the default's placeholders. */
function textSchemaFor(id: TextId) {
  const allowed = placeholdersOf(DEFAULT_TEXTS[id]);
  return (
    z
      .string()
      .trim()
      .min(1, "must not be empty (clear it to use the default)")
      .max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`)
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      .refine((v) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v), "must not contain control characters")
      .superRefine((v, ctx) => {
        const unknown = placeholdersOf(v).filter((p) => !allowed.includes(p));
        if (unknown.length) {
          ctx.addIssue({
            code: "custom",
            message: allowed.length
              ? `may use only the placeholders ${allowed.map((p) => `{${p}}`).join(", ")} (not {${unknown[0]}})`
              : `must not use placeholders such as {${unknown[0]}}: this text has none`,
          });
        }
      })
  );
}

const textShape = Object.fromEntries(TEXT_IDS.map((id) => [id, textSchemaFor(id).optional()])) as Record<TextId, z.ZodOptional<ReturnType<typeof textSchemaFor>>>;
/** One language's texts: any subset of the text IDs (an unknown ID is an error). */
export const languageTextsSchema = z.object(textShape).strict();
export type LanguageTexts = Partial<Record<TextId, string>>;

const colorsShape = {
  /** Buttons, links, focus ring, active chips; null: the page's `--chorus-accent` or the default. */
  accent: hexColorSchema.nullable(),
  /** Filled stars; null: the page's `--chorus-star` or the default. */
  star: hexColorSchema.nullable(),
};
const widgetsShape = Object.fromEntries(WIDGET_KEYS.map((k) => [k, z.boolean()])) as Record<WidgetKey, z.ZodBoolean>;

/** Most product attributes a review form asks; most options of a choice; longest title, label or option (characters). */
export const FORM_ATTRIBUTE_LIMITS = { attributes: 6, options: 10, text: 40 } as const;

/**
 * A merchant's attribute title, scale label or choice option: trimmed, inner white space collapsed,
 * 1..40 characters (0 allowed when `optional`), no control characters and no `<` or `>` (these words reach
 * shoppers' pages, Okendo's clients insert them as HTML).
 */
const attributeText = (optional = false) =>
  z
    .string({ error: "must be text" })
    .transform((v) => v.trim().replace(/\s+/g, " "))
    .pipe(
      z
        .string()
        .min(optional ? 0 : 1, "must not be empty")
        .max(FORM_ATTRIBUTE_LIMITS.text, `must be at most ${FORM_ATTRIBUTE_LIMITS.text} characters`)
        // eslint-disable-next-line no-control-regex -- finding control characters is the point
        .refine((v) => !/[\u0000-\u001f\u007f<>]/.test(v), "must not contain < or > or control characters"),
    );

/**
 * A scale the shopper answers from 1 to 5 (Okendo's `attributesWithRating`), e.g. Fit: "Runs small" (1) …
 * "True to size" (3, optional) … "Runs large" (5). `required`: the form is not sent without an answer.
 */
export const scaleAttributeSchema = z
  .object({
    kind: z.literal("scale"),
    title: attributeText(),
    minLabel: attributeText(),
    /** Label of the middle (3); "" for none. */
    midLabel: attributeText(true).default(""),
    maxLabel: attributeText(),
    required: z.boolean().default(false),
  })
  .strict();

/** A choice among the merchant's options (Okendo's `productAttributes`), e.g. Size bought: S, M, L. */
export const choiceAttributeSchema = z
  .object({
    kind: z.literal("choice"),
    title: attributeText(),
    options: z
      .array(attributeText(), { error: "must be a list of options" })
      .min(2, "must have at least 2 options")
      .max(FORM_ATTRIBUTE_LIMITS.options, `may have at most ${FORM_ATTRIBUTE_LIMITS.options} options`)
      .refine((o) => new Set(o.map((v) => v.toLowerCase())).size === o.length, "must not repeat an option"),
    required: z.boolean().default(false),
  })
  .strict();

/** One attribute the review form asks. */
export const formAttributeSchema = z.discriminatedUnion("kind", [scaleAttributeSchema, choiceAttributeSchema], { error: 'kind must be "scale" or "choice"' });
export type FormAttribute = z.output<typeof formAttributeSchema>;
export type ScaleAttribute = z.output<typeof scaleAttributeSchema>;
export type ChoiceAttribute = z.output<typeof choiceAttributeSchema>;

/** The form's attributes in the order it asks them: at most 6, titles unique (ignoring case). */
export const formAttributesSchema = z
  .array(formAttributeSchema, { error: "must be a list of attributes" })
  .max(FORM_ATTRIBUTE_LIMITS.attributes, `may hold at most ${FORM_ATTRIBUTE_LIMITS.attributes} attributes`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [i, a] of list.entries()) {
      const key = a.title.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i, "title"], message: `must differ from the other attributes' titles ("${a.title}" is used twice)` });
      seen.add(key);
    }
  });

/** The review form's settings: the product attributes it asks. */
const reviewFormSchema = z.object({ attributes: formAttributesSchema }).strict();

/** The whole section: what `get(storeId)` returns and the admin edits. */
export const widgetSettingsSchema = z
  .object({
    /** Texts by language tag (lower-case); each language only the texts the merchant changed. */
    texts: z.record(languageTagSchema, languageTextsSchema),
    colors: z.object(colorsShape).strict(),
    /** Which widgets show (true) or render nothing (false). */
    widgets: z.object(widgetsShape).strict(),
    /** The product attributes the review form asks (scales and choices). */
    reviewForm: reviewFormSchema,
  })
  .strict();
export type WidgetSettings = {
  texts: Record<string, LanguageTexts>;
  colors: { accent: string | null; star: string | null };
  widgets: Record<WidgetKey, boolean>;
  reviewForm: { attributes: FormAttribute[] };
};

/** A text in a change: blank (after trimming) or null → back to the default (null); else as textSchemaFor. */
const patchTextSchemaFor = (id: TextId) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), z.union([z.null(), textSchemaFor(id)]));

/**
 * A change (`update(storeId, patch)`): only what is given changes. `texts[lang][id]`: a text sets it,
 * null or "" goes back to the default; `texts[lang] = null` removes the language. Colours: a hex colour
 * or null (the default). `widgets`: the flags given. `reviewForm.attributes`: the whole new list.
 */
export const widgetSettingsPatchSchema = z
  .object({
    texts: z
      .record(
        languageTagSchema,
        z
          .object(Object.fromEntries(TEXT_IDS.map((id) => [id, patchTextSchemaFor(id).optional()])) as unknown as Record<TextId, z.ZodOptional<z.ZodType<string | null>>>)
          .strict()
          .nullable(),
      )
      .optional(),
    colors: z.object(colorsShape).partial().strict().optional(),
    widgets: z.object(widgetsShape).partial().strict().optional(),
    reviewForm: reviewFormSchema.optional(),
  })
  .strict();
export type WidgetSettingsPatch = z.output<typeof widgetSettingsPatchSchema>;

/** What a fresh store has: English defaults, no colours, every widget shown. */
export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  texts: {},
  colors: { accent: null, star: null },
  widgets: Object.fromEntries(WIDGET_KEYS.map((k) => [k, true])) as Record<WidgetKey, boolean>,
  reviewForm: { attributes: [] },
};

/** The storefront answer: the texts of the one language chosen for the shopper, colours and flags. */
export const storefrontWidgetSettingsSchema = z.object({
  widgetSettings: z.object({
    /** The language whose merchant texts `texts` holds (`en` when the store has none for the asked one). */
    locale: z.string(),
    /** Only the texts the merchant changed; every other text is the widget's English default. */
    texts: z.record(z.string(), z.string()),
    colors: z.object({ accent: z.string().nullable(), star: z.string().nullable() }),
    widgets: z.object(Object.fromEntries(WIDGET_KEYS.map((k) => [k, z.boolean()])) as Record<WidgetKey, z.ZodBoolean>),
    reviewForm: z.object({
      attributes: z
        .array(
          z.union([
            z.object({ kind: z.literal("scale"), title: z.string(), minLabel: z.string(), midLabel: z.string(), maxLabel: z.string(), required: z.boolean() }),
            z.object({ kind: z.literal("choice"), title: z.string(), options: z.array(z.string()), required: z.boolean() }),
          ]),
        )
        .meta({
          description:
            "The product attributes the review form asks, in order: a scale answered 1 to 5 (sent as `attributesWithRating`) or a choice among `options` (sent as `productAttributes`). The merchant's words, not translated.",
        }),
    }),
  }),
});
export type StorefrontWidgetSettings = z.infer<typeof storefrontWidgetSettingsSchema>["widgetSettings"];

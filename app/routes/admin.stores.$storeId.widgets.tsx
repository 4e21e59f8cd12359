import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import widgetStyles from "~/styles/admin-widgets.css?url";
import { WIDGET_KEYS, WIDGET_TAGS_BY_KEY, type WidgetKey } from "../../server/contract/widget-keys.ts";
import { FORM_ATTRIBUTE_LIMITS, languageTagSchema, type FormAttribute } from "../../server/contract/widget-settings.ts";
import { DEFAULT_TEXTS, TEXT_GROUPS, TEXT_IDS } from "../../server/contract/widget-strings.ts";
import { uiLocaleFor } from "../../server/contract/widget-locales.ts";
import { TRANSLATIONS } from "../../server/contract/widget-translations.ts";

export const meta: MetaFunction = () => [{ title: "Widgets · Chorus admin" }];
export const headers = adminHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: widgetStyles }];

/** What each show/hide switch is called in the admin. */
const WIDGET_LABELS: Record<WidgetKey, string> = {
  reviews: "Reviews, the review form and the reviews carousel",
  starRating: "Star rating badge",
  media: "Customer photos and videos",
  questions: "Questions and answers",
  summary: "AI summary of the reviews",
  keywords: "Review topics",
  loyalty: "Loyalty program",
};

/**
 * The picker's starting colours and the examples in the hints. Without an admin colour or the page's
 * `--chorus-*`, the widgets' accent is the page's text colour (buttons outlined) and the stars are #b45309
 * (widgets/internal/tokens.ts).
 */
const DEFAULT_COLORS = { accent: "#3b3fb6", star: "#b45309" } as const;
const COLOR_LABELS = { accent: "Accent colour (buttons, links, focus ring)", star: "Star colour" } as const;

/** Success notes after the redirect that follows a saved form (`?saved=`). */
const SAVED: Record<string, string> = {
  appearance: "Colours and widgets saved. The preview and your shop show them on the next page view.",
  texts: "Texts saved. The preview and your shop show them on the next page view.",
  removed: "Language removed: shoppers in it see the English texts.",
  attributes: "Review form attributes saved. The review form asks them on the next page view.",
};

/** Form field name and HTML ID of a review form attribute's field (`attr.0.title`, `attr-0-title`). */
const attrField = (row: number, name: string) => `attr.${row}.${name}`;
const attrId = (row: number, name: string) => `attr-${row}-${name}`;
const ATTRIBUTE_FIELDS = ["kind", "title", "minLabel", "midLabel", "maxLabel", "options", "required"] as const;

/**
 * The review form's attributes from the posted rows (`attr.N.*`, N < 6): a row with a blank title is left
 * out (that removes it). Scale rows give their labels, choice rows their options (one per line).
 * @returns the attributes in row order and, for each, its row number (to put errors beside the right fields).
 */
function attributesFromForm(form: FormData): { attributes: unknown[]; rows: number[]; values: Record<string, string> } {
  const attributes: unknown[] = [];
  const rows: number[] = [];
  const values: Record<string, string> = {};
  for (let row = 0; row < FORM_ATTRIBUTE_LIMITS.attributes; row++) {
    for (const name of ATTRIBUTE_FIELDS) {
      const v = form.get(attrField(row, name));
      if (typeof v === "string") values[attrField(row, name)] = v;
    }
    const title = field(form, attrField(row, "title"));
    if (!title) continue;
    const required = form.get(attrField(row, "required")) === "on";
    const kind = field(form, attrField(row, "kind"));
    rows.push(row);
    attributes.push(
      kind === "choice"
        ? {
            kind,
            title,
            options: String(form.get(attrField(row, "options")) ?? "")
              .split(/\r?\n/)
              .map((o) => o.trim())
              .filter(Boolean),
            required,
          }
        : { kind, title, minLabel: field(form, attrField(row, "minLabel")), midLabel: field(form, attrField(row, "midLabel")), maxLabel: field(form, attrField(row, "maxLabel")), required },
    );
  }
  return { attributes, rows, values };
}

/** Form field name of a text (`text.reviews.writeReview`). */
const textField = (id: string) => `text.${id}`;
/** HTML ID of a text's input. */
const textInputId = (id: string) => `text-${id.replace(/\./g, "-")}`;

/** The language shown (`?lang=`, lower-case tag; `en` when absent or malformed). */
function currentLanguage(request: Request): string {
  const parsed = languageTagSchema.safeParse(new URL(request.url).searchParams.get("lang") ?? "en");
  return parsed.success ? parsed.data : "en";
}

/** The widget settings of the store, the language being edited and what the preview needs. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const settings = await context.services.widgetSettings.get(store.storeId);
  const lang = currentLanguage(request);
  const languages = [...new Set(["en", ...Object.keys(settings.texts), lang])].sort();
  const saved = new URL(request.url).searchParams.get("saved") ?? "";
  // The preview frame reloads whenever the saved settings change (its URL carries their fingerprint).
  const version = hashOf(JSON.stringify(settings));
  return {
    storeId: store.storeId,
    settings,
    lang,
    texts: settings.texts[lang] ?? {},
    // The widgets' own words in this language (issue #23 item 3), shown greyed under the merchant's: only this language's.
    shippedLocale: uiLocaleFor(lang),
    shipped: uiLocaleFor(lang) === "en" ? {} : TRANSLATIONS[uiLocaleFor(lang) as Exclude<ReturnType<typeof uiLocaleFor>, "en">],
    languages,
    saved: SAVED[saved] ?? "",
    /** The text group just saved (`?group=`), shown open. */
    savedGroup: Number(new URL(request.url).searchParams.get("group") ?? -1),
    previewUrl: `/admin/stores/${encodeURIComponent(store.storeId)}/widgets/preview?lang=${encodeURIComponent(lang)}&v=${encodeURIComponent(version)}`,
  };
}

/** A short, stable fingerprint of a string (FNV-1a, hex). */
function hashOf(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

type Failure = { intent: string; errors: Record<string, string>; values: Record<string, string> };

/**
 * Intents: `appearance` (colours, show/hide), `texts` (one language's texts; blank = the default),
 * `add-language` (go to a new language's texts), `remove-language`. Saved → redirect to this page with
 * `?saved=` (redirect-after-POST); invalid → 400 with an error per field and the values sent.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const service = context.services.widgetSettings;
  const intent = field(form, "intent");
  const base = `/admin/stores/${encodeURIComponent(store.storeId)}/widgets`;
  const fail = (errors: Record<string, string>, values: Record<string, string>) => data<Failure>({ intent, errors, values }, { status: 400 });

  if (intent === "appearance") {
    const values = { accent: field(form, "accent"), star: field(form, "star") };
    const patch = {
      colors: { accent: values.accent || null, star: values.star || null },
      widgets: Object.fromEntries(WIDGET_KEYS.map((k) => [k, form.get(`show.${k}`) === "on"])),
    };
    const errors = service.fieldErrors(patch);
    if (errors) {
      const byField: Record<string, string> = {};
      for (const [path, message] of Object.entries(errors)) byField[path.replace(/^colors\./, "")] = message;
      return fail(byField, values);
    }
    await service.update(store.storeId, patch);
    return redirect(`${base}?lang=${encodeURIComponent(field(form, "lang") || "en")}&saved=appearance`);
  }

  if (intent === "attributes") {
    const { attributes, rows, values } = attributesFromForm(form);
    const patch = { reviewForm: { attributes } };
    const errors = service.fieldErrors(patch);
    if (errors) {
      // `reviewForm.attributes.1.options.2` → the field `attr.<row of attribute 1>.options`; the list itself → `attributes`.
      const byField: Record<string, string> = {};
      for (const [path, message] of Object.entries(errors)) {
        const [, , index, name] = path.split(".");
        const key = index === undefined ? "attributes" : attrField(rows[Number(index)] ?? 0, name ?? "title");
        byField[key] ??= message;
      }
      return fail(byField, values);
    }
    await service.update(store.storeId, patch);
    return redirect(`${base}?lang=${encodeURIComponent(field(form, "lang") || "en")}&saved=attributes`);
  }

  if (intent === "texts") {
    const lang = languageTagSchema.safeParse(field(form, "lang"));
    if (!lang.success) return fail({ form: `Language: ${lang.error.issues[0]!.message}.` }, {});
    // One group of texts per form (its own save): the other texts of the language stay as saved.
    const groupField = field(form, "group");
    const groupIndex = Number(groupField);
    const group = groupField !== "" && Number.isInteger(groupIndex) ? TEXT_GROUPS[groupIndex] : undefined;
    const posted = group ? Object.keys(group.texts) : TEXT_IDS;
    const savedTexts: Record<string, string> = (await service.get(store.storeId)).texts[lang.data] ?? {};
    const texts = Object.fromEntries(TEXT_IDS.map((id) => [id, posted.includes(id) ? field(form, textField(id)) : (savedTexts[id] ?? "")]));
    const errors = service.fieldErrors({ texts: { [lang.data]: texts } });
    if (errors) {
      const byField: Record<string, string> = {};
      for (const [path, message] of Object.entries(errors)) byField[path.replace(`texts.${lang.data}.`, "")] = message;
      return fail(byField, texts);
    }
    await service.update(store.storeId, { texts: { [lang.data]: texts } });
    const anchor = group ? `&group=${groupIndex}#texts-group-${groupIndex}` : "";
    return redirect(`${base}?lang=${encodeURIComponent(lang.data)}&saved=texts${anchor}`);
  }

  if (intent === "add-language") {
    const lang = languageTagSchema.safeParse(field(form, "language"));
    if (!lang.success) return fail({ language: `Language: ${lang.error.issues[0]!.message}.` }, { language: field(form, "language") });
    return redirect(`${base}?lang=${encodeURIComponent(lang.data)}`);
  }

  if (intent === "remove-language") {
    const lang = languageTagSchema.safeParse(field(form, "lang"));
    if (!lang.success) return fail({ form: `Language: ${lang.error.issues[0]!.message}.` }, {});
    await service.update(store.storeId, { texts: { [lang.data]: null } });
    return redirect(`${base}?lang=en&saved=removed`);
  }
  return data<Failure>({ intent, errors: { form: `Unknown action ${JSON.stringify(intent)}.` }, values: {} }, { status: 400 });
}

/**
 * One row of the review form's attributes: its kind (scale or choice), title, the scale's three labels or
 * the choice's options, and whether shoppers must answer it. `attribute` absent: an empty row to add one.
 */
function AttributeRow({ row, attribute, values, errors }: { row: number; attribute?: FormAttribute; values?: Record<string, string>; errors: Record<string, string> }) {
  const value = (name: string, saved: string) => values?.[attrField(row, name)] ?? saved;
  const [kind, setKind] = useState(value("kind", attribute?.kind ?? "scale"));
  const text = (name: "title" | "minLabel" | "midLabel" | "maxLabel", label: string, saved: string, hint?: string) => {
    const id = attrId(row, name);
    const error = errors[attrField(row, name)];
    return (
      <div className="field text-field">
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p className="field-hint muted" id={`${id}-hint`}>
            {hint}
          </p>
        ) : null}
        <input
          id={id}
          name={attrField(row, name)}
          type="text"
          maxLength={FORM_ATTRIBUTE_LIMITS.text + 20}
          defaultValue={value(name, saved)}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
        />
        <FieldError id={id} error={error} />
      </div>
    );
  };
  const scale = attribute?.kind === "scale" ? attribute : undefined;
  const choice = attribute?.kind === "choice" ? attribute : undefined;
  const optionsId = attrId(row, "options");
  const kindId = attrId(row, "kind");
  return (
    <fieldset className="text-group">
      <legend>{attribute ? `Attribute ${row + 1}: ${attribute.title}` : `Attribute ${row + 1} (new)`}</legend>
      <div className="field text-field">
        <label htmlFor={kindId}>Kind</label>
        <select id={kindId} name={attrField(row, "kind")} value={kind} onChange={(e) => setKind(e.target.value)} {...invalidProps(kindId, errors[attrField(row, "kind")])}>
          <option value="scale">Scale from 1 to 5 (e.g. fit)</option>
          <option value="choice">Choice among options (e.g. size bought)</option>
        </select>
        <FieldError id={kindId} error={errors[attrField(row, "kind")]} />
      </div>
      {text("title", "Title", attribute?.title ?? "", attribute ? "Clear it to remove the attribute." : "e.g. Fit or Size bought; leave it empty to add none.")}
      {kind === "choice" ? (
        <div className="field text-field">
          <label htmlFor={optionsId}>Options, one per line</label>
          <textarea
            id={optionsId}
            name={attrField(row, "options")}
            rows={4}
            defaultValue={value("options", choice?.options.join("\n") ?? "")}
            {...invalidProps(optionsId, errors[attrField(row, "options")])}
          />
          <FieldError id={optionsId} error={errors[attrField(row, "options")]} />
        </div>
      ) : (
        <>
          {text("minLabel", "Label of 1 (low end)", scale?.minLabel ?? "", "e.g. Runs small")}
          {text("midLabel", "Label of 3 (middle, optional)", scale?.midLabel ?? "", "e.g. True to size")}
          {text("maxLabel", "Label of 5 (high end)", scale?.maxLabel ?? "", "e.g. Runs large")}
        </>
      )}
      <label className="choice">
        <input type="checkbox" name={attrField(row, "required")} defaultChecked={values ? values[attrField(row, "required")] === "on" : (attribute?.required ?? false)} /> Shoppers must answer it
      </label>
    </fieldset>
  );
}

/** A colour as a `<input type="color">` and a hex text field kept in step; blank text = the default. */
function ColorField({ name, value, error }: { name: "accent" | "star"; value: string; error?: string }) {
  const [hex, setHex] = useState(value);
  const id = `color-${name}`;
  const valid = /^#[0-9a-f]{6}$/i.test(hex) ? hex : /^#[0-9a-f]{3}$/i.test(hex) ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : DEFAULT_COLORS[name];
  return (
    <div className="field color-field">
      <label htmlFor={id}>{COLOR_LABELS[name]}</label>
      <p className="field-hint muted" id={`${id}-hint`}>
        A CSS hex colour such as {DEFAULT_COLORS[name]}; leave it empty to use your theme's <code>--chorus-{name}</code>, else{" "}
        {name === "accent" ? "your page's text colour (outlined buttons)" : "the default amber"}.
      </p>
      <div className="color-inputs">
        <input type="color" aria-label={`${COLOR_LABELS[name]}: picker`} value={valid} onChange={(e) => setHex(e.target.value)} />
        <input
          id={id}
          name={name}
          type="text"
          value={hex}
          onChange={(e) => setHex(e.target.value)}
          placeholder={DEFAULT_COLORS[name]}
          size={9}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
          aria-invalid={error ? true : undefined}
        />
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

export default function Widgets() {
  const { storeId, settings, lang, texts, shipped, shippedLocale, languages, saved, savedGroup, previewUrl } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as Failure | undefined;
  const busy = useNavigation().state !== "idle";
  const errorsOf = (intent: string) => (failure?.intent === intent ? failure.errors : {});
  const appearanceErrors = errorsOf("appearance");
  const textErrors = errorsOf("texts");
  const attributeErrors = errorsOf("attributes");
  const attributeValues = failure?.intent === "attributes" ? failure.values : undefined;
  const attributes = settings.reviewForm.attributes;
  const attributeRows = Math.min(FORM_ATTRIBUTE_LIMITS.attributes, attributes.length + 1);
  const values = failure?.values ?? {};
  const base = `/admin/stores/${storeId}/widgets`;
  const errorCount = Object.keys(failure?.errors ?? {}).length;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Widgets</h1>
      {saved ? <Flash result={{ ok: saved }} /> : null}
      {failure ? <Flash result={{ error: `Nothing was saved: ${errorCount === 1 ? "one field needs" : `${errorCount} fields need`} a change (see below).` }} /> : null}
      <p>
        What shoppers see in the widgets on your shop: their texts in each language, their colours, and which widgets show. Put them on your pages with the snippet on the{" "}
        <Link to={`/admin/stores/${storeId}/integration`}>Integration</Link> page.
      </p>

      <nav aria-label="On this page" className="page-contents">
        <ul>
          <li>
            <a href="#preview-title">Preview</a>
          </li>
          <li>
            <a href="#appearance-title">Colours and widgets</a>
          </li>
          <li>
            <a href="#attributes-title">Review form attributes</a>
          </li>
          <li>
            <a href="#texts-title">Texts</a>
          </li>
        </ul>
      </nav>

      <h2 id="preview-title">Preview</h2>
      <p className="muted">
        Your most reviewed product with every widget, as saved{lang !== "en" ? ` (page language ${lang})` : ""}.{" "}
        <a href={previewUrl} target="_blank" rel="noopener">
          Open the preview in a new tab
        </a>
      </p>
      <iframe className="widget-preview" src={previewUrl} title="Preview of the widgets on your most reviewed product" loading="lazy" />

      <h2 id="appearance-title">Colours and widgets</h2>
      <Form method="post" className="stack panel" noValidate aria-labelledby="appearance-title">
        <CsrfField />
        <input type="hidden" name="intent" value="appearance" />
        <input type="hidden" name="lang" value={lang} />
        <ColorField name="accent" value={values.accent ?? settings.colors.accent ?? ""} error={appearanceErrors.accent} key={`accent-${settings.colors.accent}`} />
        <ColorField name="star" value={values.star ?? settings.colors.star ?? ""} error={appearanceErrors.star} key={`star-${settings.colors.star}`} />
        <fieldset>
          <legend>Show these widgets</legend>
          <p className="muted">A widget you turn off renders nothing where it is placed.</p>
          {WIDGET_KEYS.map((k) => (
            <label key={k} className="choice">
              <input type="checkbox" name={`show.${k}`} defaultChecked={settings.widgets[k]} /> {WIDGET_LABELS[k]} <code>&lt;{WIDGET_TAGS_BY_KEY[k]}&gt;</code>
              {k === "reviews" ? (
                <>
                  {" "}
                  <code>&lt;chorus-reviews-carousel&gt;</code>
                </>
              ) : null}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy}>
          Save colours and widgets
        </button>
      </Form>

      <h2 id="attributes-title">Review form attributes</h2>
      <p>
        Product attributes the review form asks shoppers besides the stars and the text, at most {FORM_ATTRIBUTE_LIMITS.attributes}: a scale from 1 to 5 with a label at each end (and one in the
        middle), such as Fit from "Runs small" to "Runs large", or a choice among your options, such as Size bought. Reviews show the answers; shoppers can filter reviews by a choice. Your words show
        as you write them in every language.
      </p>
      <Form method="post" className="stack panel" noValidate aria-labelledby="attributes-title" key={JSON.stringify(attributes)}>
        <CsrfField />
        <input type="hidden" name="intent" value="attributes" />
        <input type="hidden" name="lang" value={lang} />
        {attributeErrors.attributes ? (
          <p className="flash flash-error" role="alert">
            Attributes: {attributeErrors.attributes}
          </p>
        ) : null}
        {Array.from({ length: attributeRows }, (_, row) => (
          <AttributeRow key={row} row={row} attribute={attributes[row]} values={attributeValues} errors={attributeErrors} />
        ))}
        <button type="submit" disabled={busy}>
          Save review form attributes
        </button>
      </Form>

      <h2 id="texts-title">Texts</h2>
      <p>
        The widgets speak the page's language (<code>&lt;html lang&gt;</code>, or an element's <code>lang</code>) in 16 shipped languages, else English. Every text starts as the widgets' own text of
        the language (shown greyed in each field). Change a text to replace it in that language; clear it to go back. Texts of a language also apply to its regions (<code>pt</code> for{" "}
        <code>pt-AO</code>); your English texts show where the widgets speak English, never mixed into another language.
      </p>
      <nav aria-label="Languages" className="languages">
        <ul>
          {languages.map((l) => (
            <li key={l}>
              <Link to={`${base}?lang=${encodeURIComponent(l)}`} aria-current={l === lang ? "page" : undefined}>
                {l}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="post" className="inline-form" noValidate aria-label="Add a language">
        <CsrfField />
        <input type="hidden" name="intent" value="add-language" />
        <label htmlFor="new-language">Add a language</label>
        <input
          id="new-language"
          name="language"
          placeholder="e.g. de or pt-BR"
          size={16}
          maxLength={35}
          defaultValue={failure?.intent === "add-language" ? values.language : undefined}
          {...invalidProps("new-language", errorsOf("add-language").language)}
        />
        <button type="submit" className="secondary">
          Add
        </button>
        <FieldError id="new-language" error={errorsOf("add-language").language} />
      </Form>

      <h3 id="texts-lang-title">
        Texts in <span lang="en">{lang}</span>
        {lang === "en" ? " (English pages and languages the widgets do not ship)" : ""}
      </h3>
      {textErrors.form ? (
        <p className="flash flash-error" role="alert">
          {textErrors.form}
        </p>
      ) : null}
      <p className="muted">One part per widget, each saved on its own; open one to change its texts.</p>
      {TEXT_GROUPS.map((group, g) => {
        const ids = Object.keys(group.texts);
        const changed = ids.filter((id) => texts[id as keyof typeof texts]).length;
        const hasError = ids.some((id) => textErrors[id]);
        return (
          <details key={`${lang}-${group.title}`} id={`texts-group-${g}`} className="panel text-group-details" open={hasError || savedGroup === g}>
            <summary>
              <span id={`texts-group-${g}-title`}>{group.title}</span> <span className="muted">({changed ? `${changed} of ${ids.length} changed` : `${ids.length} texts`})</span>
            </summary>
            <Form method="post" className="stack texts-form" noValidate aria-labelledby={`texts-group-${g}-title`}>
              <CsrfField />
              <input type="hidden" name="intent" value="texts" />
              <input type="hidden" name="lang" value={lang} />
              <input type="hidden" name="group" value={g} />
              {ids.map((id) => {
                const inputId = textInputId(id);
                const error = textErrors[id];
                const english = DEFAULT_TEXTS[id as keyof typeof DEFAULT_TEXTS];
                // The shipped text of this language (a language with one plural form has only `.other`).
                const own = (shipped as Record<string, string>)[id] ?? (shipped as Record<string, string>)[id.replace(/\.one$/, ".other")];
                return (
                  <div className="field text-field" key={id}>
                    <label htmlFor={inputId}>
                      {english} <code className="muted text-id">{id}</code>
                    </label>
                    <input
                      id={inputId}
                      name={textField(id)}
                      type="text"
                      maxLength={500}
                      placeholder={own ?? english}
                      lang={own ? shippedLocale : undefined}
                      defaultValue={failure?.intent === "texts" ? (values[id] ?? "") : (texts[id as keyof typeof texts] ?? "")}
                      {...invalidProps(inputId, error)}
                    />
                    <FieldError id={inputId} error={error} />
                  </div>
                );
              })}
              <button type="submit" disabled={busy}>
                Save texts in {lang}
              </button>
            </Form>
          </details>
        );
      })}
      {lang !== "en" && Object.keys(settings.texts).includes(lang) ? (
        <Form method="post" className="inline-form">
          <CsrfField />
          <input type="hidden" name="intent" value="remove-language" />
          <input type="hidden" name="lang" value={lang} />
          <button type="submit" className="danger">
            Remove the texts in {lang}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

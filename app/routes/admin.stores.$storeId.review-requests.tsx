/**
 * Admin: review requests of a store (docs/review-requests.md). The settings form (per-field errors next
 * to each field, redirect after a successful save), a preview of the e-mail with sample values, and the
 * sent / opened / reviewed funnel of the last 30 days (SVG chart with the same figures as a table).
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { FunnelPanel } from "~/components/FunnelChart";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { reviewRequestForm } from "~/lib/review-requests-form.server";
import styles from "~/styles/admin-review-requests.css?url";
import { PLACEHOLDERS } from "../../server/review-requests/settings.ts";

export const meta: MetaFunction = () => [{ title: "Review requests · Chorus admin" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const headers = adminHeaders;

/** Every IANA time zone this server knows, UTC first. */
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const service = context.services.reviewRequests;
  return {
    storeId: store.storeId,
    settings: await service.get(store.storeId),
    funnel: await service.funnel(store.storeId, 30),
    counts: await service.statusCounts(store.storeId),
    timeZones: TIME_ZONES,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  if (field(form, "intent") !== "save") return data({ error: "Unknown action.", fieldErrors: {} as Record<string, string> }, { status: 400 });
  const service = context.services.reviewRequests;
  const parsed = reviewRequestForm(form, await service.get(store.storeId));
  if (!parsed.ok) return data({ error: "The settings were not saved: correct the fields marked below.", fieldErrors: parsed.fieldErrors }, { status: 400 });
  await service.update(store.storeId, parsed.patch);
  return redirect(`/admin/stores/${store.storeId}/review-requests?saved=1`);
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

export default function ReviewRequests() {
  const { storeId, settings, funnel, counts, timeZones } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [search] = useSearchParams();
  const errors: Record<string, string> = result?.fieldErrors ?? {};
  /** aria-invalid / aria-describedby of a field, and its message element. */
  const a11y = (key: string, hint?: string) => {
    const described = [hint, errors[key] ? `err-${key}` : undefined].filter(Boolean).join(" ");
    return { ...(errors[key] ? { "aria-invalid": true as const } : {}), ...(described ? { "aria-describedby": described } : {}) };
  };
  const err = (key: string) =>
    errors[key] ? (
      <span id={`err-${key}`} className="field-error">
        {errors[key]}
      </span>
    ) : null;
  const languages = Object.keys(settings.templates).sort((x, y) => (x === "en" ? -1 : y === "en" ? 1 : x.localeCompare(y)));
  const flash = result ?? (search.get("saved") ? { ok: "Review-request settings saved." } : null);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Review requests</h1>
      <p className="muted">
        After an order is fulfilled, Chorus e-mails the shopper a link per product to review it, and one reminder if you want. Reviews written through these links show as from a verified buyer.
        Requests so far: {["scheduled", "sent", "completed", "skipped", "cancelled"].map((s, i) => `${i ? ", " : ""}${counts[s] ?? 0} ${s}`).join("")}.
      </p>
      <Flash result={flash} />
      <Form method="post" className="stack panel rr-form" noValidate>
        <CsrfField />
        <input type="hidden" name="intent" value="save" />
        <h2>Settings</h2>
        <label className="choice">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} /> Send review requests after orders are fulfilled
        </label>
        <label htmlFor="delayDays">Days after fulfilment before the request</label>
        <input id="delayDays" name="delayDays" type="number" min={0} max={365} step={1} defaultValue={settings.delayDays} {...a11y("delayDays", "delayDays-hint")} />
        <span id="delayDays-hint" className="muted">
          0 sends it as soon as the order is fulfilled (after quiet hours).
        </span>
        {err("delayDays")}
        <fieldset>
          <legend>Reminder</legend>
          <label className="choice">
            <input type="checkbox" name="reminder" defaultChecked={settings.reminderDays !== null} /> Send one reminder for products not reviewed yet
          </label>
          <label htmlFor="reminderDays">Days after the request</label>
          <input id="reminderDays" name="reminderDays" type="number" min={1} max={365} step={1} defaultValue={settings.reminderDays ?? 7} {...a11y("reminderDays")} />
          {err("reminderDays")}
        </fieldset>
        <fieldset>
          <legend>Quiet hours</legend>
          <label className="choice">
            <input type="checkbox" name="quiet" defaultChecked={settings.quietHours !== null} /> Send nothing during these hours (messages wait until they end)
          </label>
          <div className="rr-row">
            <span>
              <label htmlFor="quietStart">From</label>{" "}
              <select id="quietStart" name="quietStart" defaultValue={settings.quietHours?.startHour ?? 21} {...a11y("quietStart")}>
                {HOURS.map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </select>
            </span>
            <span>
              <label htmlFor="quietEnd">until</label>{" "}
              <select id="quietEnd" name="quietEnd" defaultValue={settings.quietHours?.endHour ?? 8} {...a11y("quietEnd")}>
                {HOURS.map((h) => (
                  <option key={h} value={h}>
                    {hourLabel(h)}
                  </option>
                ))}
              </select>
            </span>
          </div>
          {err("quietStart")}
          {err("quietEnd")}
          <label htmlFor="timeZone">Time zone of the quiet hours</label>
          <select id="timeZone" name="timeZone" defaultValue={settings.timeZone} {...a11y("timeZone")}>
            {timeZones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
          {err("timeZone")}
        </fieldset>
        <label className="choice">
          <input type="checkbox" name="askShopRating" aria-describedby="askShopRating-hint" defaultChecked={settings.askShopRating} /> Also ask for a shop rating
        </label>
        <span id="askShopRating-hint" className="muted">
          The review page then asks the shopper to rate your shop too, once per order. Shop ratings are verified store reviews for Google seller ratings (Google Shopping page).
        </span>
        <h3>E-mail text</h3>
        <p className="muted" id="placeholders-hint">
          Placeholders: {PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")}. The body is plain text; a blank line starts a new paragraph. The product links, the star row and the unsubscribe link are
          added below it. Shoppers get the template of their language (from the order), else English.
        </p>
        {languages.map((lang) => (
          <fieldset key={lang}>
            <legend>Template: {lang === "en" ? "English (en, the fallback)" : lang}</legend>
            <label htmlFor={`subject-${lang}`}>Subject</label>
            <input id={`subject-${lang}`} name={`subject.${lang}`} type="text" className="rr-wide" defaultValue={settings.templates[lang].subject} {...a11y(`subject-${lang}`, "placeholders-hint")} />
            {err(`subject-${lang}`)}
            <label htmlFor={`body-${lang}`}>Body</label>
            <textarea id={`body-${lang}`} name={`body.${lang}`} rows={6} defaultValue={settings.templates[lang].body} {...a11y(`body-${lang}`, "placeholders-hint")} />
            {err(`body-${lang}`)}
            {lang !== "en" ? (
              <label className="choice">
                <input type="checkbox" name={`remove.${lang}`} /> Remove this language
              </label>
            ) : null}
          </fieldset>
        ))}
        <fieldset>
          <legend>Add a language (optional)</legend>
          <label htmlFor="newLang">Language tag</label>
          <input id="newLang" name="newLang" type="text" size={8} placeholder="fr" {...a11y("newLang", "newLang-hint")} />
          <span id="newLang-hint" className="muted">
            e.g. fr, de, pt-BR
          </span>
          {err("newLang")}
          <label htmlFor="newSubject">Subject</label>
          <input id="newSubject" name="newSubject" type="text" className="rr-wide" {...a11y("newSubject")} />
          {err("newSubject")}
          <label htmlFor="newBody">Body</label>
          <textarea id="newBody" name="newBody" rows={4} {...a11y("newBody")} />
          {err("newBody")}
        </fieldset>
        <button type="submit">Save review-request settings</button>
      </Form>

      <section className="panel" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview of the e-mail</h2>
        <p className="notice">
          <strong>Preview</strong> with sample values (customer “Alex”, order #1001, up to two of your products), from the saved settings. Its links go nowhere; real messages carry each shopper's own
          links.
        </p>
        {languages.map((lang) => (
          <iframe key={lang} className="rr-preview" src={`/admin/stores/${storeId}/review-requests/preview?lang=${lang}`} title={`Preview of the review-request e-mail (${lang}, sample values)`} />
        ))}
      </section>

      <FunnelPanel funnel={funnel} />
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

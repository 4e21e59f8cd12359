import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { MODERATION_OPTIONS } from "~/components/moderation-options";
import { moderationSchema, translationSchema } from "~/lib/admin-forms.server";
import { transaction } from "../../server/db/database.ts";
import { UI_LOCALES } from "../../server/contract/widget-locales.ts";
import { shopperPagesSettingsPatchSchema } from "../../server/stores/default-language.ts";

export const meta: MetaFunction = () => [{ title: "Settings · Chorus admin" }];
export const headers = adminHeaders;

/**
 * Store settings: moderation, translation, AI auto-publish, the group-level content switch per review group, and the
 * default language of shopper-facing pages (docs/surveys.md "Languages of the hosted pages").
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  return {
    store: { storeId: store.storeId, moderation: store.moderation, translation: store.translation, aiAutoPublish: store.aiAutoPublish, defaultLanguage: store.defaultLanguage },
    groups: (await context.services.stores.listGroups(store.storeId)).map((g) => ({ groupId: g.groupId, name: g.name, useGroupContent: g.useGroupContent })),
  };
}

/**
 * Intents: `store` (moderation, translation, aiAutoPublish), `groups` (the ticked groups use group content) and
 * `shopperPages` (the default language, through the same section as `PATCH /enterprise/settings`).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { stores, db } = context.services;
  const intent = field(form, "intent");
  if (intent === "store") {
    const moderation = moderationSchema.safeParse(field(form, "moderation"));
    if (!moderation.success) return data({ error: moderation.error.issues[0].message }, { status: 400 });
    const translation = translationSchema.safeParse(field(form, "translation"));
    if (!translation.success) return data({ error: translation.error.issues[0].message }, { status: 400 });
    await stores.updateSettings(store.storeId, { moderation: moderation.data, translation: translation.data, aiAutoPublish: form.get("aiAutoPublish") === "on" });
    return { ok: "Settings saved." };
  }
  if (intent === "shopperPages") {
    const patch = shopperPagesSettingsPatchSchema.safeParse({ defaultLanguage: field(form, "defaultLanguage") });
    if (!patch.success) return data({ error: patch.error.issues[0].message }, { status: 400 });
    await context.services.settings.update(store.storeId, { shopperPages: patch.data });
    return { ok: "Language of shopper pages saved." };
  }
  if (intent === "groups") {
    const ticked = new Set(form.getAll("group").map(String));
    // Only this store's groups are written: IDs of other stores' groups are ignored. All or none; each write sets a
    // group's flag to the form's value (idempotent), so a concurrent save of the same form cannot apply anything twice.
    // (The services' queries join this transaction although the Remix build has its own copy of server/db: one
    // transaction scope per process, server/db/query.ts.)
    await transaction(db, async () => {
      for (const g of await stores.listGroups(store.storeId)) {
        if (g.useGroupContent !== ticked.has(g.groupId)) await stores.setGroupContent(store.storeId, g.groupId, ticked.has(g.groupId));
      }
    });
    return { ok: "Group content settings saved." };
  }
  return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
}

/** A widget language by its English name: `de` → "German (de)", `de-formal` → "German, formal (de-formal)". */
function languageName(tag: string): string {
  const [lang] = tag.split("-");
  const name = tag === "de-formal" ? `${new Intl.DisplayNames(["en"], { type: "language" }).of(lang)}, formal` : new Intl.DisplayNames(["en"], { type: "language" }).of(tag);
  return `${name ?? tag} (${tag})`;
}

export default function Settings() {
  const { store, groups } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Settings</h1>
      <Flash result={result} />
      <Form method="post" className="stack panel">
        <CsrfField />
        <input type="hidden" name="intent" value="store" />
        <h2>Reviews and content</h2>
        <fieldset>
          <legend>Moderation of new reviews</legend>
          {MODERATION_OPTIONS.map((o) => (
            <label key={o.value} className="choice">
              <input type="radio" name="moderation" value={o.value} defaultChecked={store.moderation === o.value} /> {o.label}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Translation of reviews in the widgets</legend>
          <label className="choice">
            <input type="radio" name="translation" value="off" defaultChecked={store.translation === "off"} /> Off: show reviews as written
          </label>
          <label className="choice">
            <input type="radio" name="translation" value="on-load" defaultChecked={store.translation === "on-load"} /> On load: translate to the shopper's language when the widget asks
          </label>
        </fieldset>
        <fieldset>
          <legend>AI summaries and keywords</legend>
          <label className="choice">
            <input type="checkbox" name="aiAutoPublish" defaultChecked={store.aiAutoPublish} /> Publish newly generated summaries and keywords without my approval
          </label>
        </fieldset>
        <button type="submit">Save settings</button>
      </Form>

      <Form method="post" className="stack panel">
        <CsrfField />
        <input type="hidden" name="intent" value="shopperPages" />
        <h2>Shopper pages</h2>
        <p className="muted" id="default-language-hint">
          The hosted survey page, the survey after a review on the hosted review page, and the survey element on a page without a language speak the shopper's browser language when it is one of these;
          otherwise this one.
        </p>
        <label htmlFor="default-language">Default language of shopper pages</label>
        <select id="default-language" name="defaultLanguage" defaultValue={store.defaultLanguage} aria-describedby="default-language-hint">
          {UI_LOCALES.map((tag) => (
            <option key={tag} value={tag}>
              {languageName(tag)}
            </option>
          ))}
        </select>
        <button type="submit">Save language</button>
      </Form>

      <Form method="post" className="stack panel">
        <CsrfField />
        <input type="hidden" name="intent" value="groups" />
        <h2>Review groups</h2>
        <p className="muted">A ticked group shows one AI summary and keyword set, made from all its products' reviews, on each of its products.</p>
        {groups.length === 0 ? (
          <p className="empty">This store has no review groups yet.</p>
        ) : (
          <fieldset>
            <legend>Use group-level content for</legend>
            <div className="columns">
              {groups.map((g) => (
                <label key={g.groupId} className="choice">
                  <input type="checkbox" name="group" value={g.groupId} defaultChecked={g.useGroupContent} /> {g.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {groups.length ? <button type="submit">Save group settings</button> : null}
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

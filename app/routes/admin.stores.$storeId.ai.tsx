import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import type { VersionRow } from "../../server/ai/ai.repo.ts";
import type { KeywordTopic } from "../../server/contract/storefront.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "AI content · Chorus admin" }];
export const headers = adminHeaders;

/** Products listed per page (most reviewed first). */
const LIMIT = 25;

type VersionView = {
  versionId: string;
  engine: string;
  summary: string | null;
  keywords: { name: string; occurrences: number }[];
  reviewCount: number;
  dateGenerated: string;
  datePublished: string | null;
};
const view = (v: VersionRow | undefined): VersionView | null =>
  v
    ? {
        versionId: v.version_id,
        engine: v.engine,
        summary: v.summary_body,
        reviewCount: v.contributing_review_count,
        keywords: v.keywords_json ? (JSON.parse(v.keywords_json) as KeywordTopic[]).map((t) => ({ name: t.topic, occurrences: t.keywords.reduce((n, k) => n + k.occurrences, 0) })) : [],
        dateGenerated: new Date(v.generated_ms).toISOString(),
        datePublished: v.published_ms ? new Date(v.published_ms).toISOString() : null,
      }
    : null;

/**
 * AI content (issue 7 item 4): per product (most reviewed first, or one product by ID) and per group using
 * group-level content, the latest generated summary and keywords beside the published ones.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const product =
    new URL(request.url).searchParams
      .get("product")
      ?.trim()
      .replace(new RegExp(`^${store.platform}-`), "")
      .slice(0, 200) || undefined;
  const scopes = await context.services.ai.adminScopes(store.storeId, { limit: LIMIT, product });
  return {
    store: { storeId: store.storeId, platform: store.platform, aiAutoPublish: store.aiAutoPublish, translation: store.translation },
    product: product ?? "",
    minReviews: Math.min(context.services.aiConfig.minReviews, context.services.aiConfig.keywordsMinReviews),
    waiting: await context.services.ai.awaitingApproval(store.storeId),
    scopes: scopes.map((s) => ({ type: s.scope.type, id: s.scope.id, name: s.name, reviewCount: s.reviewCount, queued: s.queued, latest: view(s.latest), published: view(s.published) })),
  };
}

/** Intents: approve / discard (a version), regenerate (a product or group: queued for the worker). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { ai } = context.services;
  const intent = field(form, "intent");
  try {
    switch (intent) {
      case "approve":
        await ai.approve(store.storeId, field(form, "version"));
        return { ok: "Summary published. Your storefront shows it now." };
      case "discard":
        await ai.discard(store.storeId, field(form, "version"));
        return { ok: "Generated version discarded." };
      case "regenerate": {
        const type = field(form, "scopeType");
        if (type !== "product" && type !== "group") return data({ error: "scopeType must be product or group." }, { status: 400 });
        const added = await ai.regenerate(store.storeId, { type, id: field(form, "scopeId") });
        return { ok: added ? "Regeneration queued. Reload this page in a moment to see the new version." : "A regeneration is already queued." };
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

function Version({ v, label }: { v: VersionView | null; label: string }) {
  return (
    <div className="ai-version">
      <h4>{label}</h4>
      {v ? (
        <>
          <p className="meta">
            Generated <time dateTime={v.dateGenerated}>{v.dateGenerated.slice(0, 16).replace("T", " ")}</time> from {v.reviewCount} reviews ({v.engine})
            {v.datePublished ? (
              <>
                {" "}
                · published <time dateTime={v.datePublished}>{v.datePublished.slice(0, 16).replace("T", " ")}</time>
              </>
            ) : (
              " · not published"
            )}
          </p>
          <p className="review-body">{v.summary ?? <em>No summary (too few reviews for one).</em>}</p>
          {v.keywords.length ? <p className="meta">Keyword topics: {v.keywords.map((k) => `${k.name} (${k.occurrences})`).join(", ")}</p> : null}
        </>
      ) : (
        <p className="muted">None yet.</p>
      )}
    </div>
  );
}

export default function AiContent() {
  const { store, product, minReviews, waiting, scopes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const base = `/admin/stores/${store.storeId}`;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">AI content</h1>
      <Flash result={result} />
      {waiting > 0 ? (
        <p className="notice notice-warning" role="status" id="ai-waiting">
          <strong>{waiting === 1 ? "1 AI summary waits" : `${waiting.toLocaleString("en")} AI summaries wait`} for your approval.</strong> Until you approve, your store shows the previously published
          summary and keywords, or none: a new product&apos;s summary and keywords stay hidden.
        </p>
      ) : null}
      <p className="notice">
        One approval rule for summaries and keywords. Auto-publish is <strong>{store.aiAutoPublish ? "on" : "off"}</strong>:{" "}
        {store.aiAutoPublish
          ? "new summaries and keywords go live together as soon as they are generated."
          : "new summaries and keywords wait together for your approval here; approving a version publishes both."}{" "}
        Translation: <strong>{store.translation}</strong>. Change these and the group-level content switches in <Link to={`${base}/settings`}>Settings</Link>.
      </p>
      <Form method="get" className="filters" aria-label="Find a product">
        <div>
          <label htmlFor="f-product">Product ID</label>
          <input id="f-product" name="product" defaultValue={product} placeholder={`e.g. ${store.platform}-1078`} />
        </div>
        <button type="submit" className="secondary">
          Show
        </button>
        {product ? <Link to={`${base}/ai`}>Show all</Link> : null}
      </Form>
      {scopes.length === 0 ? (
        <p className="empty" role="status">
          {product ? "No such product with enough published reviews." : `No product has ${minReviews} published reviews yet: summaries and keywords are made from ${minReviews} reviews up.`}
        </p>
      ) : (
        <ul className="review-list">
          {scopes.map((s) => {
            const pending = s.latest && !s.latest.datePublished ? s.latest : null;
            const titleId = `ai-${s.type}-${s.id}`;
            return (
              <li key={`${s.type}:${s.id}`} className="review">
                <article aria-labelledby={titleId}>
                  <h3 id={titleId}>
                    {s.name}{" "}
                    <span className="muted">
                      ({s.type === "group" ? `group ${s.id}` : `${store.platform}-${s.id}`} · {s.reviewCount} published reviews)
                    </span>
                  </h3>
                  {pending ? (
                    <p>
                      <span className="badge badge-pending">Waiting for approval</span>
                    </p>
                  ) : null}
                  {s.queued ? (
                    <p role="status">
                      <span className="badge badge-pending">Regeneration queued</span>
                    </p>
                  ) : null}
                  <div className="ai-columns">
                    <Version v={s.latest} label="Latest generated" />
                    <Version v={s.published} label="Published (shown on your store)" />
                  </div>
                  <div className="review-actions">
                    {pending ? (
                      <Form method="post">
                        <CsrfField />
                        <input type="hidden" name="version" value={pending.versionId} />
                        <button type="submit" name="intent" value="approve" disabled={busy} aria-describedby={titleId}>
                          Approve
                        </button>{" "}
                        <button type="submit" name="intent" value="discard" className="danger" disabled={busy} aria-describedby={titleId}>
                          Discard
                        </button>
                      </Form>
                    ) : null}
                    <Form method="post">
                      <CsrfField />
                      <input type="hidden" name="scopeType" value={s.type} />
                      <input type="hidden" name="scopeId" value={s.id} />
                      <button type="submit" name="intent" value="regenerate" className="secondary" disabled={busy || s.queued} aria-describedby={titleId}>
                        Regenerate
                      </button>
                    </Form>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

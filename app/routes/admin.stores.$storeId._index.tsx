/**
 * A store's admin home (docs/admin.md "Home: getting started and the last 30 days"): the getting-started
 * checklist while a step is left (each step ticked from the store's data by `services.overview.checklist`),
 * "check my page" (the shop's page fetched through the outgoing-request guard), a notice while AI summaries wait
 * for approval (docs/ai.md), and the dashboard of the last
 * 30 days with its charts and their tables.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { FunnelPanel } from "~/components/FunnelChart";
import { ReviewsChart } from "~/components/ReviewsChart";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { checkPageAnswer } from "~/lib/overview.server";
import rrStyles from "~/styles/admin-review-requests.css?url";
import styles from "~/styles/admin-home.css?url";

export const meta: MetaFunction = () => [{ title: "Home · Chorus admin" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: rrStyles },
  { rel: "stylesheet", href: styles },
];
export const headers = adminHeaders;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const overview = context.services.overview;
  const [checklist, pageCheck, dashboard, counts, aiWaiting] = await Promise.all([
    overview.checklist(store.storeId),
    overview.pageCheckState(store.storeId),
    overview.dashboard(store.storeId),
    context.services.reviews.statusCounts(store.storeId),
    context.services.ai.awaitingApproval(store.storeId),
  ]);
  return { store: { storeId: store.storeId, name: store.name }, checklist, pageCheck, dashboard, pending: counts.pending, aiWaiting };
}

/** "Check my page" (intent `check-page`, field `url`): the answer of `checkPageAnswer`, 400 with the field's error. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  if (field(form, "intent") !== "check-page") return data({ error: "Unknown action." }, { status: 400 });
  const answer = await checkPageAnswer(context.services, store.storeId, field(form, "url"));
  return data(answer, { status: answer.error ? 400 : 200 });
}

const number = (n: number) => n.toLocaleString("en");

export default function Home() {
  const { store, checklist, pageCheck, dashboard, pending, aiWaiting } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const base = `/admin/stores/${store.storeId}`;
  const done = checklist.filter((s) => s.done).length;
  const allDone = done === checklist.length;
  const checking = navigation.state === "submitting" && navigation.formData?.get("intent") === "check-page";
  const found = result && "found" in result ? result.found : null;
  const urlError = result && "error" in result ? result.error : undefined;
  const { reviews, loyalty, nps, funnel } = dashboard;

  const checklistList = (
    <ol className="checklist">
      {checklist.map((step) => (
        <li key={step.id} data-step={step.id} className={step.done ? "step-done" : "step-todo"}>
          <span className="step-mark" aria-hidden="true">
            {step.done ? "✓" : ""}
          </span>
          <div>
            <Link to={`${base}/${step.section}`}>{step.label}</Link>
            <span className="visually-hidden">{step.done ? " (done)" : " (to do)"}</span>
            <p className="muted">{step.hint}</p>
            {step.id === "widgets" ? (
              <Form method="post" className="check-page" aria-labelledby="check-title" noValidate>
                <CsrfField />
                <input type="hidden" name="intent" value="check-page" />
                <h3 id="check-title">Check my page</h3>
                <label htmlFor="check-url">Address of a product page of your shop</label>
                <div className="inline-form">
                  <input
                    id="check-url"
                    name="url"
                    type="url"
                    required
                    maxLength={2048}
                    size={40}
                    defaultValue={pageCheck.last?.pageUrl ?? pageCheck.shopUrl ?? ""}
                    placeholder="https://your-shop.example/products/…"
                    {...invalidProps("check-url", urlError)}
                  />
                  <button type="submit" disabled={checking}>
                    {checking ? "Checking…" : "Check my page"}
                  </button>
                </div>
                <FieldError id="check-url" error={urlError} />
              </Form>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{store.name}</h1>
      <p className="muted">
        Store ID <code>{store.storeId}</code> · <Link to={`${base}/reviews?status=pending`}>{number(pending)} reviews waiting for moderation</Link>
      </p>
      {aiWaiting > 0 ? (
        <p className="notice notice-warning" role="status">
          {aiWaiting === 1 ? "1 AI summary waits" : `${number(aiWaiting)} AI summaries wait`} for your approval: your store does not show it until you approve.{" "}
          <Link to={`${base}/ai`}>Review AI content</Link>
        </p>
      ) : null}

      {/* The live region exists before any check, so screen readers announce what the check found. */}
      <div role="status" aria-live="polite" className="check-result" data-testid="check-result">
        {found ? <PageFound found={found} /> : null}
      </div>

      {allDone ? (
        <details className="panel">
          <summary>Getting started: all {checklist.length} steps done</summary>
          {checklistList}
        </details>
      ) : (
        <section className="panel getting-started" aria-labelledby="start-title">
          <h2 id="start-title">Getting started</h2>
          <p>
            <strong data-testid="checklist-progress">
              {done} of {checklist.length} done.
            </strong>{" "}
            Each step ticks itself once it is done in its page.
          </p>
          {checklistList}
        </section>
      )}

      <h2 id="dashboard-title">
        The last 30 days{" "}
        <span className="muted">
          ({dashboard.from} to {dashboard.to}, UTC)
        </span>
      </h2>
      <ul className="figures" aria-labelledby="dashboard-title">
        <li>
          <span className="figure" data-testid="reviews-received">
            {number(reviews.received)}
          </span>{" "}
          reviews received
        </li>
        <li>
          <span className="figure" data-testid="reviews-published">
            {number(reviews.published)}
          </span>{" "}
          of them published
        </li>
        <li>
          <span className="figure" data-testid="average-rating">
            {reviews.averageRating === null ? "—" : reviews.averageRating.toFixed(2)}
          </span>{" "}
          average rating (published, of 5)
        </li>
        <li>
          <span className="figure" data-testid="loyalty-members">
            {number(loyalty.members)}
          </span>{" "}
          loyalty members ({number(loyalty.newMembers)} new)
        </li>
        <li>
          <span className="figure" data-testid="points">
            {number(loyalty.pointsEarned)}
          </span>{" "}
          points earned ({number(loyalty.pointsRedeemed)} redeemed)
        </li>
        <li>
          <span className="figure" data-testid="nps">
            {nps.score === null ? "—" : nps.score}
          </span>{" "}
          NPS ({number(nps.answered)} answers)
        </li>
      </ul>

      <section className="panel" aria-labelledby="reviews-chart-title">
        <h2 id="reviews-chart-title">Reviews</h2>
        <ReviewsChart days={reviews.days} />
      </section>
      <FunnelPanel funnel={funnel} />
      <section className="panel" aria-labelledby="nps-home-title">
        <h2 id="nps-home-title">Net Promoter Score</h2>
        {nps.answered ? (
          <p>
            {nps.promoters} promoters, {nps.passives} passives and {nps.detractors} detractors answered in all surveys: NPS <strong>{nps.score}</strong> (from −100 to +100).{" "}
            <Link to={`${base}/surveys`}>Survey responses</Link>
          </p>
        ) : (
          <p className="muted">
            No NPS answers in these days. <Link to={`${base}/surveys`}>Surveys</Link>
          </p>
        )}
      </section>
    </section>
  );
}

/** What a page check found, in words. */
function PageFound({ found }: { found: { url: string; scriptFound: boolean; elements: { tag: string; count: number }[]; otherStoreElements: string[]; truncated: boolean } }) {
  const ok = found.scriptFound && found.elements.length > 0;
  return (
    <div className={`flash ${ok ? "flash-ok" : "flash-error"}`}>
      <p>
        {ok ? "The widgets are on your page. " : "The widgets are not on your page yet. "}
        Checked{" "}
        <a href={found.url} rel="noreferrer noopener" target="_blank">
          {found.url}
        </a>
        : {found.scriptFound ? "the Chorus script is there" : "the Chorus script (chorus.js) is missing"};{" "}
        {found.elements.length ? `found ${found.elements.map((e) => `<${e.tag}>${e.count > 1 ? ` (${e.count})` : ""}`).join(", ")}` : "no Chorus element with this store's ID"}.
      </p>
      {found.otherStoreElements.length ? <p>Elements with another store ID or none: {found.otherStoreElements.map((t) => `<${t}>`).join(", ")}. Copy the snippet of this store again.</p> : null}
      {found.truncated ? <p>The page is long: only its first 2 MB were read.</p> : null}
    </div>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { qaQuerySchema } from "../../server/admin/qa-moderation.service.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { BulkModerationForm, ModerationButtons, StatusBadge, StatusFilter } from "~/components/Moderation";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, httpError, requireStore, requireStoreAction } from "~/lib/admin.server";
import { moderationIntent } from "~/lib/admin-forms.server";

export const meta: MetaFunction = () => [{ title: "Questions · Chorus admin" }];
export const headers = adminHeaders;

/** The Q&A moderation queue: questions of one status (pending by default), filtered, newest first, keyset paged, with their answers. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const parsed = qaQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw httpError(400, parsed.error.issues[0]?.message ?? "Bad filter");
  let page;
  try {
    page = await context.services.qaModeration.queue(store.storeId, store.platform, parsed.data);
  } catch (error) {
    if (isApiError(error)) throw httpError(error.status, "This page link is no longer valid (the filter changed). Start again from the first page.");
    throw error;
  }
  return {
    store: { storeId: store.storeId, platform: store.platform },
    query: { status: parsed.data.status, product: parsed.data.product ?? "", answers: parsed.data.answers ?? "" },
    next: page.next,
    questions: page.questions.map((q) => ({
      questionId: q.question_id,
      productId: q.product_id,
      productName: q.product_name,
      body: q.body,
      askerName: q.asker_name,
      askerEmail: q.asker_email,
      status: q.status,
      dateCreated: new Date(q.created_ms).toISOString(),
      answers: q.answers.map((a) => ({
        answerId: a.answer_id,
        body: a.body,
        authorName: a.author_name,
        authorEmail: a.author_email,
        isStoreAnswer: a.is_store_answer === 1,
        isPublic: a.is_public === 1,
        status: a.status,
        verifiedBuyer: a.verified_status === "verified-buyer",
        dateCreated: new Date(a.created_ms).toISOString(),
      })),
    })),
  };
}

/**
 * Intents: publish / reject (one question), bulk-publish / bulk-reject (checked questions), answer (as
 * the store, published at once), answer-publish / answer-reject (one answer). Another store's question
 * or answer is not found (404) and never changed.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { qaModeration, questions } = context.services;
  const intent = field(form, "intent");
  try {
    const moderated = await moderationIntent(intent, form, "question", "question", (ids, status) => qaModeration.setStatus(store.storeId, ids, status));
    if (moderated) return moderated;
    switch (intent) {
      case "answer": {
        await questions.answerAsStore({ storeId: store.storeId, questionId: field(form, "question"), body: String(form.get("answer") ?? ""), authorName: store.name.slice(0, 60) });
        return { ok: "Answer published as the store. Shoppers see it while the question is published." };
      }
      case "answer-publish":
      case "answer-reject": {
        await questions.setAnswerStatus(store.storeId, field(form, "answer"), intent === "answer-publish" ? "published" : "rejected");
        return { ok: intent === "answer-publish" ? "Answer published." : "Answer rejected." };
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) {
      const message = error.message.startsWith("body ") ? `Answer: ${error.message.slice(5)}` : error.message;
      return data({ error: message }, { status: error.status });
    }
    throw error;
  }
}

export default function Questions() {
  const { store, query, questions, next } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const base = `/admin/stores/${store.storeId}/questions`;
  const nextParams = new URLSearchParams({ ...query, ...(next ? { after: next } : {}) });
  const heading = { pending: "Questions waiting for moderation", published: "Published questions", rejected: "Rejected questions" }[query.status];

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Questions</h1>
      <p className="muted">Questions shoppers ask about your products, and their answers. Shoppers see a question once it is published, with its published answers.</p>
      <Flash result={result} />

      <Form method="get" className="filters" aria-label="Filter questions">
        <StatusFilter value={query.status} />
        <div>
          <label htmlFor="f-product">Product ID</label>
          <input id="f-product" name="product" defaultValue={query.product} placeholder={`e.g. ${store.platform}-B00004U9JP`} />
        </div>
        <div>
          <label htmlFor="f-answers">Answers</label>
          <select id="f-answers" name="answers" defaultValue={query.answers}>
            <option value="">Any</option>
            <option value="pending">With an answer waiting</option>
          </select>
        </div>
        <button type="submit" className="secondary">
          Apply filters
        </button>
      </Form>

      <h2>{heading}</h2>
      {questions.length === 0 ? (
        <p className="empty" role="status">
          {query.status === "pending" ? "Nothing waiting: every question matching these filters has been moderated." : "No questions match these filters."}
        </p>
      ) : (
        <>
          <BulkModerationForm status={query.status} noun="questions" busy={busy} />
          <ol className="review-list" aria-busy={busy}>
            {questions.map((q) => (
              <li key={q.questionId} className="review">
                <article aria-labelledby={`t-${q.questionId}`}>
                  <div className="review-head">
                    <input type="checkbox" form="bulk" name="question" value={q.questionId} id={`c-${q.questionId}`} aria-labelledby={`t-${q.questionId}`} />
                    <h3 id={`t-${q.questionId}`} className="review-body">
                      {q.body}
                    </h3>
                  </div>
                  <p className="meta">
                    {q.productName} (
                    <code>
                      {store.platform}-{q.productId}
                    </code>
                    ) · asked by {q.askerName}
                    {q.askerEmail ? ` <${q.askerEmail}>` : ""} · <time dateTime={q.dateCreated}>{q.dateCreated.slice(0, 10)}</time>
                    {" · "}
                    <StatusBadge status={q.status} />
                  </p>
                  <div className="review-actions">
                    <ModerationButtons field="question" id={q.questionId} status={q.status} busy={busy} describedBy={`t-${q.questionId}`} />
                  </div>
                  {q.answers.length ? (
                    <>
                      <h4>
                        {q.answers.length} answer{q.answers.length === 1 ? "" : "s"}
                      </h4>
                      <ul className="answers">
                        {q.answers.map((a) => (
                          <li key={a.answerId} className="reply">
                            <p className="meta" id={`a-${a.answerId}`}>
                              {a.isStoreAnswer ? <strong>Store answer</strong> : a.authorName}
                              {a.verifiedBuyer ? " · verified buyer" : ""}
                              {a.authorEmail ? ` <${a.authorEmail}>` : ""}
                              {" · "}
                              <time dateTime={a.dateCreated}>{a.dateCreated.slice(0, 10)}</time>
                              {" · "}
                              <StatusBadge status={a.status} />
                              {a.isPublic ? "" : " · not public"}
                            </p>
                            <p className="reply-body">{a.body}</p>
                            {a.status !== "published" || !a.isStoreAnswer ? (
                              <ModerationButtons
                                field="answer"
                                id={a.answerId}
                                status={a.status}
                                busy={busy}
                                describedBy={`a-${a.answerId}`}
                                intentPrefix="answer-"
                                nounSuffix=" answer"
                                publishClassName="secondary"
                              />
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <p className="muted">No answers yet.</p>
                  )}
                  <details className="answer-form" key={`answer-form-${q.answers.length}`}>
                    <summary>Answer as the store</summary>
                    <Form method="post" className="stack">
                      <CsrfField />
                      <input type="hidden" name="intent" value="answer" />
                      <input type="hidden" name="question" value={q.questionId} />
                      <label htmlFor={`answer-${q.questionId}`}>Your answer (plain text, published at once as a store answer)</label>
                      <textarea id={`answer-${q.questionId}`} name="answer" rows={3} maxLength={5000} required />
                      <button type="submit" disabled={busy}>
                        Post store answer
                      </button>
                    </Form>
                  </details>
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
      <nav className="pager" aria-label="Pages">
        <Link to={`${base}?${new URLSearchParams(query)}`}>First page</Link>
        {next ? (
          <Link to={`${base}?${nextParams}`} rel="next">
            Next page
          </Link>
        ) : (
          <span className="muted">No more questions</span>
        )}
      </nav>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

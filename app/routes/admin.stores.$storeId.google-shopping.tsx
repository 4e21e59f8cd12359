import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { IDENTIFIERS_CSV_MAX_BYTES, type CsvLineError, type ProductCoverage } from "../../server/feeds/feeds.service.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { demoProductPages } from "~/lib/feeds.server";

export const meta: MetaFunction = () => [{ title: "Google Shopping · Chorus admin" }];
export const headers = adminHeaders;

/** Products listed on the page (most reviewed first); the totals count every product. */
const LISTED = 200;

/**
 * Google Shopping (issue #38, docs/google-shopping.md): the Product Reviews feed URL (the same as
 * `GET /enterprise/settings` `feeds.googleProductReviewsUrl`), and per product what the feed lacks and how many
 * reviews Google can take. Seller ratings: the merchant review feed URL (`feeds.googleMerchantReviewsUrl`) and the
 * store reviews waiting for moderation (docs/google-shopping.md "Seller ratings").
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { feeds } = context.services;
  const coverage = await feeds.coverage(store.storeId, context.publicOrigin, demoProductPages);
  return {
    feedUrl: await feeds.googleProductReviewsUrl(store.storeId, context.publicOrigin),
    merchantFeedUrl: await feeds.googleMerchantReviewsUrl(store.storeId, context.publicOrigin),
    pendingStoreReviews: (await context.services.storeReviews.list(store.storeId, "pending")).map((r) => ({
      reviewId: r.review_id,
      rating: r.rating,
      title: r.title,
      body: r.body,
      reviewerName: r.reviewer_name,
      verified: r.verified_status === "verified-buyer",
    })),
    totals: {
      reviewCount: coverage.reviewCount,
      acceptedCount: coverage.acceptedCount,
      inFeedCount: coverage.inFeedCount,
      products: coverage.products.length,
      productsLacking: coverage.productsLacking,
    },
    products: coverage.products.slice(0, LISTED),
    maxMb: IDENTIFIERS_CSV_MAX_BYTES / 1024 / 1024,
  };
}

type Result = { error: string; fieldError?: string; lines?: CsvLineError[] } | { ok: string; lines: CsvLineError[] };

/**
 * Intents: `rotate` (a new feed URL; redirect), `import` (an identifiers CSV, multipart; the summary and the refused
 * lines), `publish-store-review` / `reject-store-review` (moderation of the store review `reviewId`).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId, IDENTIFIERS_CSV_MAX_BYTES + 64 * 1024);
  const intent = field(form, "intent");
  if (intent === "rotate") {
    await context.services.feeds.rotateToken(store.storeId);
    return redirect(`/admin/stores/${store.storeId}/google-shopping?rotated=1`);
  }
  if (intent === "publish-store-review" || intent === "reject-store-review") {
    const published = intent === "publish-store-review";
    const changed = await context.services.storeReviews.setStatus(store.storeId, [field(form, "reviewId")], published ? "published" : "rejected");
    return data<Result>(changed ? { ok: `Store review ${published ? "published" : "rejected"}.`, lines: [] } : { error: "That store review was already moderated." });
  }
  if (intent !== "import") return data<Result>({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) return data<Result>({ error: "Check the highlighted field.", fieldError: "Choose a CSV file of product identifiers." }, { status: 400 });
  try {
    const report = await context.services.feeds.importIdentifiersCsv(store.storeId, Buffer.from(await file.arrayBuffer()));
    const n = report.errors.length;
    return data<Result>({ ok: `${report.imported} line${report.imported === 1 ? "" : "s"} imported, ${n} line${n === 1 ? "" : "s"} refused.`, lines: report.errors.slice(0, 50) });
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data<Result>({ error: "Check the highlighted field.", fieldError: error.message }, { status: error.status });
    throw error;
  }
}

const LACKS: Record<ProductCoverage["lacks"][number], string> = {
  "gtin-or-brand-mpn": "a GTIN, or brand and MPN",
  "product-url": "a product page URL",
  content: "text on some reviews",
};

export default function GoogleShopping() {
  const { feedUrl, merchantFeedUrl, pendingStoreReviews, totals, products, maxMb } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | undefined;
  const busy = useNavigation().state !== "idle";
  const [search] = useSearchParams();
  const fieldError = result && "error" in result ? result.fieldError : undefined;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Google Shopping</h1>
      {search.get("rotated") && !result ? (
        <p className="flash flash-ok" role="status">
          New feed URL made: the old one no longer works. Update it in Merchant Center.
        </p>
      ) : null}
      {result && "error" in result ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      {result && "ok" in result ? (
        <p className="flash flash-ok" role="status">
          {result.ok}
        </p>
      ) : null}
      <p>
        Product rating stars in Google Shopping ads and listings come from a Product Reviews feed that Merchant Center fetches on a schedule. Google matches each review to a product by its
        identifiers: a GTIN, or the brand together with the MPN.
      </p>

      <h2>Product Reviews feed</h2>
      <p>In Merchant Center: Growth → Manage programs → Product ratings, then add a feed with a scheduled fetch from this address. It holds a secret: share it only with Google.</p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Feed address">
        <code id="feed-url">{feedUrl}</code>
      </pre>
      <CopyButton targetId="feed-url" label="Copy feed address" />
      <Form method="post" className="inline-form">
        <CsrfField />
        <input type="hidden" name="intent" value="rotate" />
        <button type="submit" className="secondary" disabled={busy}>
          Make a new feed address
        </button>
      </Form>

      <h2 id="seller-ratings-title">Seller ratings</h2>
      <p>
        Google seller ratings (stars for the shop itself) come from store reviews: reviews of the shop, collected by <code>{"<chorus-review-form store-review>"}</code> on your pages, by the
        review-request page when "Also ask for a shop rating" is on (Review requests), or sent to <code>POST /v1/stores/{"{store}"}/store_reviews</code>, and moderated here. In Merchant Center, add a
        merchant review feed with a scheduled fetch from this address (it uses the same secret as the feed above).
      </p>
      <pre className="snippet" tabIndex={0} role="region" aria-label="Merchant review feed address">
        <code id="merchant-feed-url">{merchantFeedUrl}</code>
      </pre>
      <CopyButton targetId="merchant-feed-url" label="Copy merchant review feed address" />
      <h3 id="store-reviews-title">Store reviews waiting for moderation</h3>
      {pendingStoreReviews.length ? (
        <ul aria-labelledby="store-reviews-title" className="stack">
          {pendingStoreReviews.map((r) => (
            <li key={r.reviewId} className="panel">
              <p>
                <strong>{r.rating} of 5</strong> · {r.reviewerName}
                {r.verified ? " · verified buyer" : ""}
                {r.title ? ` · ${r.title}` : ""}
              </p>
              <p>{r.body}</p>
              <Form method="post" className="inline-form">
                <CsrfField />
                <input type="hidden" name="reviewId" value={r.reviewId} />
                <button type="submit" name="intent" value="publish-store-review" disabled={busy}>
                  Publish
                </button>
                <button type="submit" name="intent" value="reject-store-review" className="secondary" disabled={busy}>
                  Reject
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None: new store reviews appear here unless the store publishes them automatically (Settings → moderation).</p>
      )}

      <h2 id="coverage-title">What Google can take</h2>
      <p data-testid="coverage-summary">
        Google can take <strong>{totals.acceptedCount}</strong> of {totals.reviewCount} published reviews. The feed holds {totals.inFeedCount} (every published review with text, of a product with a
        page); {totals.productsLacking} of {totals.products} reviewed products have no GTIN and no brand with MPN, so Google cannot match their reviews.
      </p>
      <table aria-labelledby="coverage-title">
        <caption className="muted">
          The {Math.min(products.length, totals.products)} most reviewed products{totals.products > products.length ? ` of ${totals.products}` : ""}
        </caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Published reviews</th>
            <th scope="col">Google can take</th>
            <th scope="col">The feed lacks</th>
          </tr>
        </thead>
        <tbody>
          {products.map((p) => (
            <tr key={p.productId}>
              <th scope="row">{p.name}</th>
              <td>{p.reviewCount}</td>
              <td>{p.acceptedCount}</td>
              <td>{p.lacks.length ? p.lacks.map((l) => LACKS[l]).join("; ") : "nothing"}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <Form method="post" encType="multipart/form-data" className="stack panel" aria-labelledby="import-title">
        <h2 id="import-title">Import product identifiers</h2>
        <CsrfField />
        <input type="hidden" name="intent" value="import" />
        <p id="file-hint" className="muted">
          A CSV file (at most {maxMb} MB) whose first line names the columns <code>productId</code> and any of <code>variantId</code>, <code>gtin</code>,<code> mpn</code>, <code>sku</code>,{" "}
          <code>brand</code>; one product (empty <code>variantId</code>) or variant per line. An empty cell keeps what is stored. Shopify's barcodes, SKUs and vendors arrive by webhook without this.
        </p>
        <label htmlFor="file">CSV file</label>
        <input
          id="file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby={["file-hint", fieldError ? "file-error" : undefined].filter(Boolean).join(" ")}
          {...(fieldError ? { "aria-invalid": true as const } : {})}
        />
        {fieldError ? (
          <p id="file-error" className="field-error">
            {fieldError}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Import
        </button>
      </Form>
      {result?.lines?.length ? (
        <>
          <h3 id="refused-title">Refused lines</h3>
          <ul aria-labelledby="refused-title">
            {result.lines.map((l) => (
              <li key={l.line}>
                Line {l.line}: {l.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

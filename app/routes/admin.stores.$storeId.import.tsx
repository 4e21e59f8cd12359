import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { MAX_REVIEWS_CSV_BYTES } from "../../server/import/reviews-upload.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Import reviews · Chorus admin" }];
export const headers = adminHeaders;

/** The page: the store and the upload limit. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  return { storeId: store.storeId, moderation: store.moderation, maxMb: MAX_REVIEWS_CSV_BYTES / 1024 / 1024 };
}

type Result =
  | { error: string; fieldError?: string }
  | { ok: string; report: { rowsRead: number; inserted: number; alreadyPresent: number; badRowCount: number; badRows: { line: number; reason: string }[]; products: number; source: string } };

/**
 * Upload a reviews CSV (multipart, at most MAX_REVIEWS_CSV_BYTES plus the form): checked and imported by
 * `services.reviewImport`; answers the summary and the bad rows. Importing the same file again adds
 * nothing (rows are keyed by file name and row), so a repeated submission is harmless.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId, MAX_REVIEWS_CSV_BYTES + 64 * 1024);
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) return data<Result>({ error: "Check the highlighted field.", fieldError: "Choose a CSV file of reviews." }, { status: 400 });
  const status = field(form, "status") === "pending" ? "pending" : "published";
  try {
    const report = await context.services.reviewImport.importUpload(store.storeId, {
      fileName: "name" in file && typeof file.name === "string" ? file.name : "reviews.csv",
      bytes: new Uint8Array(await file.arrayBuffer()),
      status,
    });
    const { rowsRead, inserted, alreadyPresent, badRowCount, badRows, products, source } = report;
    return data<Result>({
      ok: `${inserted} review${inserted === 1 ? "" : "s"} imported, ${alreadyPresent} already present, ${badRowCount} row${badRowCount === 1 ? "" : "s"} skipped with errors.`,
      report: { rowsRead, inserted, alreadyPresent, badRowCount, badRows, products, source },
    });
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data<Result>({ error: "Check the highlighted field.", fieldError: error.message }, { status: error.status });
    throw error;
  }
}

export default function ImportReviews() {
  const { maxMb, moderation } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const fieldError = result && "fieldError" in result ? result.fieldError : undefined;
  const report = result && "report" in result ? result.report : undefined;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Import reviews</h1>
      <p>
        Moving from Judge.me, Yotpo, Okendo, Stamped or Loox?{" "}
        <Link to="apps" relative="path">
          Import that app's review export
        </Link>
        : dates, names, replies, photos and curation are kept.
      </p>
      <Flash result={result} />
      <Form method="post" encType="multipart/form-data" className="stack panel" aria-labelledby="upload-title">
        <h2 id="upload-title">Upload a CSV file</h2>
        <CsrfField />
        <label htmlFor="import-file">Reviews CSV file (UTF-8, at most {maxMb} MB)</label>
        <input
          id="import-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          required
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? "import-file-error" : "import-columns"}
        />
        {fieldError ? (
          <p id="import-file-error" className="field-error">
            {fieldError}
          </p>
        ) : null}
        <fieldset>
          <legend>Imported reviews are</legend>
          <label className="choice">
            <input type="radio" name="status" value="published" defaultChecked /> Published at once
          </label>
          <label className="choice">
            <input type="radio" name="status" value="pending" /> Waiting for moderation (the store's moderation is {moderation})
          </label>
        </fieldset>
        <button type="submit" disabled={busy}>
          {busy ? "Importing…" : "Import reviews"}
        </button>
        {busy ? (
          <p role="status" className="muted">
            Importing: reading and checking every row…
          </p>
        ) : null}
      </Form>

      {report ? (
        <div className="panel" aria-labelledby="result-title">
          <h2 id="result-title">Result</h2>
          <dl className="summary" data-testid="import-summary">
            <dt>Rows read</dt>
            <dd>{report.rowsRead}</dd>
            <dt>Imported</dt>
            <dd data-testid="import-inserted">{report.inserted}</dd>
            <dt>Already present (skipped)</dt>
            <dd>{report.alreadyPresent}</dd>
            <dt>Rows with errors (skipped)</dt>
            <dd data-testid="import-bad">{report.badRowCount}</dd>
            <dt>Products</dt>
            <dd>{report.products}</dd>
          </dl>
          {report.badRows.length ? (
            <div className="table-wrap">
              <table>
                <caption>Rows not imported{report.badRowCount > report.badRows.length ? ` (the first ${report.badRows.length} of ${report.badRowCount})` : ""}</caption>
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {report.badRows.map((b) => (
                    <tr key={b.line}>
                      <td>{b.line}</td>
                      <td>{b.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      ) : null}

      <h2 id="import-columns">CSV columns</h2>
      <p>The first row names the columns (any letter case, in any order); other columns are ignored. Each row is one review.</p>
      <div className="table-wrap">
        <table aria-labelledby="import-columns">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Required</th>
              <th scope="col">What it holds</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>product_id</code> (or <code>Clothing ID</code>)
              </td>
              <td>yes</td>
              <td>
                Your product's ID on the shop platform (letters, digits, <code>_ . : -</code>; at most 64). A product not yet known is created.
              </td>
            </tr>
            <tr>
              <td>
                <code>rating</code>
              </td>
              <td>yes</td>
              <td>A whole number from 1 to 5.</td>
            </tr>
            <tr>
              <td>
                <code>title</code>
              </td>
              <td>no</td>
              <td>The review's title.</td>
            </tr>
            <tr>
              <td>
                <code>body</code> (or <code>Review Text</code>)
              </td>
              <td>no</td>
              <td>The review's text.</td>
            </tr>
            <tr>
              <td>
                <code>reviewer</code> (or <code>display_name</code>, <code>name</code>)
              </td>
              <td>no</td>
              <td>The name shown; "Anonymous shopper" when empty.</td>
            </tr>
            <tr>
              <td>
                <code>date</code> (or <code>created_at</code>)
              </td>
              <td>no</td>
              <td>
                When it was written, ISO 8601 (<code>2026-05-01</code> or <code>2026-05-01T12:00:00Z</code>).
              </td>
            </tr>
            <tr>
              <td>
                <code>recommended</code>
              </td>
              <td>no</td>
              <td>
                <code>1</code>/<code>true</code> or <code>0</code>/<code>false</code>.
              </td>
            </tr>
            <tr>
              <td>
                <code>helpful_count</code>
              </td>
              <td>no</td>
              <td>Helpful votes it already had.</td>
            </tr>
            <tr>
              <td>
                <code>verified_purchase</code>
              </td>
              <td>no</td>
              <td>
                <code>1</code>, <code>true</code>, <code>y</code> or <code>yes</code> when your shop platform confirmed the purchase: the review shows as from a verified buyer.
              </td>
            </tr>
            <tr>
              <td>
                <code>category</code> (or <code>Class Name</code>)
              </td>
              <td>no</td>
              <td>Groups products (a review group per category).</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="muted">
        A row with an error is skipped and listed with its line number; the others are imported. Importing a file with the same name again adds only rows it did not import before.
      </p>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

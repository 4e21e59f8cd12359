import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, httpError, readAdminForm, requireCsrf, requireStore } from "~/lib/admin.server";
import { APP_FORMATS, FIELD_LABELS, FORMAT_NAMES, IMPORT_FIELDS, type AppFormat, type ImportField } from "../../server/import/app-formats.ts";
import { appImporterOf, ImportFileError, type AppImportReport } from "../../server/import/app-import.ts";
import { readResult, receiveUpload, removeUpload, saveResult, uploadPath } from "../../server/import/app-upload.ts";
import { isApiError } from "../../server/contract/errors.ts";

export const meta: MetaFunction = () => [{ title: "Import from another review app · Chorus admin" }];
export const headers = adminHeaders;

/** At most this many bad rows and media failures are listed on the page (the counts are complete). */
const LISTED = 200;

type Settings = { token: string; format: AppFormat; map: Record<string, ImportField | null>; skip: boolean; order: "" | "dmy" | "mdy" };

/** The import settings carried in the page's URL (after an upload) or a form; null when incomplete or malformed. */
function readSettings(get: (name: string) => string | null): Settings | null {
  const token = get("upload") ?? "";
  const format = get("format") ?? "";
  if (!token || !(APP_FORMATS as readonly string[]).includes(format)) return null;
  let map: Record<string, ImportField | null> = {};
  try {
    const parsed: unknown = JSON.parse(get("map") || "{}");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    for (const [column, f] of Object.entries(parsed)) {
      if (f !== null && !(IMPORT_FIELDS as readonly string[]).includes(String(f))) return null;
      map[column] = f as ImportField | null;
    }
  } catch {
    map = {};
  }
  const order = get("order") ?? "";
  return { token, format: format as AppFormat, map, skip: get("skip") === "1", order: order === "dmy" || order === "mdy" ? order : "" };
}

const settingsQuery = (s: Settings, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    upload: s.token,
    format: s.format,
    ...(Object.keys(s.map).length ? { map: JSON.stringify(s.map) } : {}),
    ...(s.skip ? { skip: "1" } : {}),
    ...(s.order ? { order: s.order } : {}),
    ...extra,
  }).toString();

/** What the page shows of a report: lists cut to LISTED entries. */
const shown = (r: AppImportReport) => ({
  ...r,
  badRowCount: r.badRows.length,
  badRows: r.badRows.slice(0, LISTED),
  mediaFailedCount: r.media.failed.length,
  media: { ...r.media, failed: r.media.failed.slice(0, LISTED) },
});
type ShownReport = ReturnType<typeof shown>;

/**
 * Step 1 (no upload): the upload form. Step 2 (`?upload=&format=`): the dry run of the uploaded file with
 * the column mapping and its numbers. Step 3 (`&done=1`): the report of the confirmed import.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const url = new URL(request.url);
  const base = { formats: APP_FORMATS.map((f) => ({ value: f, label: FORMAT_NAMES[f] })), fields: IMPORT_FIELDS.map((f) => ({ value: f, label: FIELD_LABELS[f] })) };
  const settings = readSettings((n) => url.searchParams.get(n));
  if (!settings) return { ...base, step: "upload" as const };
  if (url.searchParams.get("done") === "1") {
    const result = readResult<ShownReport>(store.storeId, settings.token);
    return result ? { ...base, step: "done" as const, settings, report: result } : { ...base, step: "upload" as const, notice: "That import's report is no longer kept." };
  }
  const file = uploadPath(store.storeId, settings.token);
  if (!file) return { ...base, step: "upload" as const, notice: "The uploaded file is no longer kept (uploads wait a day): upload it again." };
  try {
    const report = await appImporterOf(context.services).run({
      storeId: store.storeId,
      file,
      format: settings.format,
      map: settings.map,
      dryRun: true,
      skipBadRows: settings.skip,
      dateOrder: settings.order || undefined,
    });
    return { ...base, step: "preview" as const, settings, report: shown(report) };
  } catch (error) {
    if (error instanceof ImportFileError) return { ...base, step: "preview" as const, settings, fileError: error.message };
    throw error;
  }
}

type ActionErrors = { errors: { format?: string; file?: string; form?: string } };

/** Intents: upload (multipart: the file, then a redirect to its preview), mapping (a new preview), import (the real run). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const base = `/admin/stores/${store.storeId}/import/apps`;
  if (/^multipart\/form-data\b/i.test(request.headers.get("content-type") ?? "")) {
    let upload;
    try {
      upload = await receiveUpload(request, store.storeId);
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.status === 413 || error.status === 415) throw httpError(error.status, error.message, { Connection: "close" });
      return data<ActionErrors>({ errors: { file: error.message } }, { status: 400 });
    }
    const form = new FormData();
    for (const [k, v] of Object.entries(upload.fields)) form.set(k, v);
    try {
      requireCsrf(form, session);
    } catch (error) {
      if (upload.token) removeUpload(store.storeId, upload.token);
      throw error;
    }
    const format = upload.fields.format ?? "";
    const errors: ActionErrors["errors"] = {};
    if (!(APP_FORMATS as readonly string[]).includes(format)) errors.format = "Choose the app the file comes from.";
    if (!upload.token) errors.file = "Choose the export file (CSV) to upload.";
    if (errors.format || errors.file) {
      if (upload.token) removeUpload(store.storeId, upload.token);
      return data<ActionErrors>({ errors }, { status: 400 });
    }
    const order = upload.fields.order === "dmy" || upload.fields.order === "mdy" ? upload.fields.order : "";
    return redirect(`${base}?${settingsQuery({ token: upload.token!, format: format as AppFormat, map: {}, skip: upload.fields.skip === "on", order })}`);
  }

  const form = await readAdminForm(request);
  requireCsrf(form, session);
  const settings = readSettings((n) => (form.has(n) ? field(form, n) : null));
  if (!settings) return data<ActionErrors>({ errors: { form: "The import settings are incomplete: upload the file again." } }, { status: 400 });
  const intent = field(form, "intent");
  if (intent === "mapping") {
    const map: Record<string, ImportField | null> = {};
    for (let i = 0; form.has(`column-${i}`); i++) {
      const f = field(form, `field-${i}`);
      if (f && !(IMPORT_FIELDS as readonly string[]).includes(f)) return data<ActionErrors>({ errors: { form: `Unknown field ${JSON.stringify(f)}.` } }, { status: 400 });
      map[field(form, `column-${i}`)] = (f || null) as ImportField | null;
    }
    return redirect(`${base}?${settingsQuery({ ...settings, map, skip: form.get("skip") === "on" })}`);
  }
  if (intent === "import") {
    const file = uploadPath(store.storeId, settings.token);
    if (!file) return data<ActionErrors>({ errors: { form: "The uploaded file is no longer kept: upload it again." } }, { status: 400 });
    let report: AppImportReport;
    try {
      report = await appImporterOf(context.services).run({
        // A merchant's file must not make the server fetch internal hosts: media URLs go through the outgoing-request guard (media-download.ts).
        storeId: store.storeId,
        file,
        format: settings.format,
        map: settings.map,
        skipBadRows: settings.skip,
        dateOrder: settings.order || undefined,
      });
    } catch (error) {
      if (error instanceof ImportFileError) return data<ActionErrors>({ errors: { form: error.message } }, { status: 400 });
      throw error;
    }
    if (!report.committed) return data<ActionErrors>({ errors: { form: `${report.badRows.length} bad rows: nothing was imported. Fix them in the file, or tick "Skip bad rows".` } }, { status: 400 });
    removeUpload(store.storeId, settings.token);
    saveResult(store.storeId, settings.token, shown(report));
    return redirect(`${base}?${settingsQuery(settings, { done: "1" })}`);
  }
  return data<ActionErrors>({ errors: { form: `Unknown action ${JSON.stringify(intent)}.` } }, { status: 400 });
}

function Numbers({ report, dry }: { report: ShownReport; dry: boolean }) {
  const c = report.curation;
  return (
    <dl className="stats">
      <div>
        <dt>Rows read</dt>
        <dd>{report.rowsRead}</dd>
      </div>
      <div>
        <dt>{dry ? "Reviews to import" : "Reviews imported"}</dt>
        <dd>{report.imported}</dd>
      </div>
      <div>
        <dt>Already in the store</dt>
        <dd>{report.alreadyPresent}</dd>
      </div>
      <div>
        <dt>Bad rows</dt>
        <dd>{report.badRowCount}</dd>
      </div>
      <div>
        <dt>Published / pending / hidden / spam</dt>
        <dd>
          {c.published} / {c.pending} / {c.hidden} / {c.spam}
        </dd>
      </div>
      <div>
        <dt>Verified buyers</dt>
        <dd>{report.verifiedBuyers}</dd>
      </div>
      <div>
        <dt>Store replies</dt>
        <dd>{report.replies}</dd>
      </div>
      <div>
        <dt>Products matched / created</dt>
        <dd>
          {report.products.matched} / {report.products.created}
        </dd>
      </div>
      <div>
        <dt>{dry ? "Photo and video URLs (downloaded on import)" : "Photos and videos imported / failed"}</dt>
        <dd>{dry ? report.media.found : `${report.media.imported} / ${report.mediaFailedCount}`}</dd>
      </div>
    </dl>
  );
}

function Problems({ report }: { report: ShownReport }) {
  return (
    <>
      {report.badRowCount > 0 ? (
        <>
          <h3>Bad rows{report.badRowCount > report.badRows.length ? ` (first ${report.badRows.length} of ${report.badRowCount})` : ""}</h3>
          <ul className="problems">
            {report.badRows.map((b) => (
              <li key={`${b.line}-${b.reason}`}>
                Line {b.line}: {b.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.mediaFailedCount > 0 ? (
        <>
          <h3>Photos and videos not imported</h3>
          <ul className="problems">
            {report.media.failed.map((f) => (
              <li key={`${f.line}-${f.url}`}>
                Line {f.line}: {f.url}: {f.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

export default function ImportApps() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionErrors | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors = result?.errors ?? {};
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Import from another review app</h1>
      <p className="muted">
        Move your reviews from Judge.me, Yotpo, Okendo, Stamped or Loox: upload the app's review export (CSV), check the preview, then import. Dates, names, replies, photos, verified buyers and hidden
        or spam reviews are kept; e-mail addresses stay private. Importing the same file again adds nothing.
      </p>
      {"notice" in page && page.notice ? (
        <p className="flash flash-error" role="alert">
          {page.notice}
        </p>
      ) : null}
      <Flash result={errors.form ? { error: errors.form } : null} />

      {page.step === "upload" ? (
        <Form method="post" encType="multipart/form-data" className="stack panel" aria-labelledby="upload-title">
          <h2 id="upload-title">1. Upload the export file</h2>
          <CsrfField />
          <div className="field">
            <label htmlFor="import-format">Review app</label>
            <select id="import-format" name="format" defaultValue="" {...invalidProps("import-format", errors.format)}>
              <option value="" disabled>
                Choose the app
              </option>
              {page.formats.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
            <FieldError id="import-format" error={errors.format} />
          </div>
          <div className="field">
            <label htmlFor="import-order">Dates written like 01/02/2023 are</label>
            <select id="import-order" name="order" defaultValue="">
              <option value="">Not in my file (or unambiguous)</option>
              <option value="dmy">Day first (1 February)</option>
              <option value="mdy">Month first (January 2)</option>
            </select>
          </div>
          <label className="choice">
            <input type="checkbox" name="skip" /> Skip bad rows (import the good rows of a file with errors)
          </label>
          <div className="field">
            <label htmlFor="import-file">Export file (CSV)</label>
            <input id="import-file" type="file" name="file" accept=".csv,text/csv" {...invalidProps("import-file", errors.file)} />
            <FieldError id="import-file" error={errors.file} />
          </div>
          <button type="submit" disabled={busy}>
            Upload and preview
          </button>
        </Form>
      ) : null}

      {page.step === "preview" ? (
        <div className="stack">
          <h2>2. Preview: nothing is imported yet</h2>
          <p>
            {FORMAT_NAMES[page.settings.format]} export. <Link to=".">Upload another file</Link>
          </p>
          {"fileError" in page && page.fileError ? (
            <p className="flash flash-error" role="alert">
              {page.fileError}
            </p>
          ) : null}
          {"report" in page && page.report ? <Numbers report={page.report} dry /> : null}
          {"report" in page && page.report ? (
            <Form method="post" className="stack panel" aria-labelledby="mapping-title">
              <h3 id="mapping-title">Columns</h3>
              <p className="muted">Each column of the file and the field it fills. Change a column's field (or ignore it) and update the preview.</p>
              <CsrfField />
              <input type="hidden" name="intent" value="mapping" />
              <input type="hidden" name="upload" value={page.settings.token} />
              <input type="hidden" name="format" value={page.settings.format} />
              <input type="hidden" name="map" value={JSON.stringify(page.settings.map)} />
              <input type="hidden" name="order" value={page.settings.order} />
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Column</th>
                      <th scope="col">Field</th>
                      <th scope="col">Note</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.report.columns.map((c) => (
                      <tr key={c.index}>
                        <th scope="row">
                          <label htmlFor={`field-${c.index}`}>{c.column || "(unnamed)"}</label>
                        </th>
                        <td>
                          <input type="hidden" name={`column-${c.index}`} value={c.column} />
                          <select id={`field-${c.index}`} name={`field-${c.index}`} defaultValue={c.field ?? ""}>
                            <option value="">Ignore</option>
                            {page.fields.map((f) => (
                              <option key={f.value} value={f.value}>
                                {f.label}
                              </option>
                            ))}
                          </select>
                        </td>
                        <td>{c.note}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <label className="choice">
                <input type="checkbox" name="skip" defaultChecked={page.settings.skip} /> Skip bad rows
              </label>
              <button type="submit" className="secondary" disabled={busy}>
                Update preview
              </button>
            </Form>
          ) : null}
          {"report" in page && page.report ? <Problems report={page.report} /> : null}
          {"report" in page && page.report ? (
            <Form method="post" className="stack panel" aria-labelledby="confirm-title">
              <h3 id="confirm-title">3. Import</h3>
              <CsrfField />
              <input type="hidden" name="intent" value="import" />
              <input type="hidden" name="upload" value={page.settings.token} />
              <input type="hidden" name="format" value={page.settings.format} />
              <input type="hidden" name="map" value={JSON.stringify(page.settings.map)} />
              <input type="hidden" name="order" value={page.settings.order} />
              {page.settings.skip ? <input type="hidden" name="skip" value="1" /> : null}
              {page.report.badRowCount > 0 && !page.settings.skip ? (
                <p className="flash flash-error" role="alert">
                  This file has {page.report.badRowCount} bad rows: nothing will be imported until they are fixed or skipped (tick "Skip bad rows" and update the preview).
                </p>
              ) : null}
              <button type="submit" disabled={busy || page.report.imported === 0 || (page.report.badRowCount > 0 && !page.settings.skip)}>
                Import {page.report.imported} reviews
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}

      {page.step === "done" ? (
        <div className="stack">
          <h2>Import finished</h2>
          <p className="flash flash-ok" role="status">
            {page.report.imported} reviews imported from {FORMAT_NAMES[page.settings.format]}.
          </p>
          <Numbers report={page.report} dry={false} />
          <Problems report={page.report} />
          <p>
            <Link to=".">Import another file</Link>
          </p>
        </div>
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };

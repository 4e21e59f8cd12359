/**
 * Building blocks shared by the admin's moderation pages (reviews, questions and answers): the status
 * label and badge, the status filter, the bulk publish/reject form and one item's publish/reject buttons.
 * Each item's checkbox joins the bulk form through `form="bulk"`.
 */
import { Form } from "@remix-run/react";
import { CsrfField } from "~/components/CsrfField";

export type ModerationStatus = "pending" | "published" | "rejected";

/** How the admin names each moderation status. */
export const STATUS_LABEL: Record<ModerationStatus, string> = { pending: "Waiting", published: "Published", rejected: "Rejected" };

/** A coloured status badge (`badge-<status>` in the admin CSS). */
export function StatusBadge({ status }: { status: ModerationStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABEL[status]}</span>;
}

/** The "Status" select of a filter form (`status` query parameter). */
export function StatusFilter({ value }: { value: ModerationStatus }) {
  return (
    <div>
      <label htmlFor="f-status">Status</label>
      <select id="f-status" name="status" defaultValue={value}>
        {(Object.keys(STATUS_LABEL) as ModerationStatus[]).map((s) => (
          <option key={s} value={s}>
            {STATUS_LABEL[s]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The bulk actions form (`id="bulk"`): publish or reject the ticked items (intents `bulk-publish`,
 * `bulk-reject`); the action that would not change the listed status is not offered.
 */
export function BulkModerationForm({ status, noun, busy, rejectReasons }: { status: ModerationStatus; noun: string; busy: boolean; rejectReasons?: RejectReason[] }) {
  return (
    <Form method="post" id="bulk" className="bulk" aria-label="Bulk actions">
      <CsrfField />
      <p className="muted">Tick {noun} below, then:</p>
      {status !== "published" ? (
        <button type="submit" name="intent" value="bulk-publish" disabled={busy}>
          Publish selected
        </button>
      ) : null}
      {rejectReasons && status !== "rejected" ? (
        <span className="bulk-reason">
          <label htmlFor="bulk-reason">Reason for rejecting</label>{" "}
          <select id="bulk-reason" name="reason" defaultValue="">
            <option value="">Choose a reason</option>
            {rejectReasons.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </span>
      ) : null}
      {status !== "rejected" ? (
        <button type="submit" name="intent" value="bulk-reject" className="danger" disabled={busy}>
          Reject selected
        </button>
      ) : null}
    </Form>
  );
}

/** A reason a merchant can give for a rejection (server/admin/moderation.service.ts REJECTION_REASONS). */
export type RejectReason = { value: string; label: string };

/**
 * Reject one item with a reason: a disclosure ("Reject…") holding the reasons as radio buttons (one is
 * required), an optional text for "Other", and the submit button (intent `reject`, `<field>=<id>`, fields
 * `reason` and `reasonNote`). Keyboard: Enter or Space opens it, arrow keys choose a reason.
 */
export function RejectWithReason(props: { field: string; id: string; busy: boolean; describedBy: string; reasons: RejectReason[]; noun: string }) {
  const { field, id, busy, describedBy, reasons, noun } = props;
  return (
    <details className="reject-reason">
      <summary aria-describedby={describedBy}>Reject…</summary>
      <Form method="post" className="stack">
        <CsrfField />
        <input type="hidden" name={field} value={id} />
        <input type="hidden" name="intent" value="reject" />
        <fieldset>
          <legend>Why reject this {noun}?</legend>
          {reasons.map((r) => (
            <label key={r.value} className="choice">
              <input type="radio" name="reason" value={r.value} required /> {r.label}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`reason-note-${id}`}>With “Other”: in your words (optional)</label>
        <input id={`reason-note-${id}`} name="reasonNote" maxLength={500} />
        <button type="submit" className="danger" disabled={busy} aria-describedby={describedBy}>
          Reject {noun}
        </button>
      </Form>
    </details>
  );
}

/**
 * Publish / Reject buttons for one item: posts `<field>=<id>` with intent `<intentPrefix>publish` or
 * `<intentPrefix>reject`; each button is described by the element `describedBy` (the item's title).
 */
export function ModerationButtons(props: {
  field: string;
  id: string;
  status: ModerationStatus;
  busy: boolean;
  describedBy: string;
  intentPrefix?: string;
  nounSuffix?: string;
  publishClassName?: string;
  /** Leave out the Reject button (the page offers RejectWithReason instead). */
  noReject?: boolean;
}) {
  const { field, id, status, busy, describedBy, intentPrefix = "", nounSuffix = "", publishClassName, noReject } = props;
  return (
    <Form method="post">
      <CsrfField />
      <input type="hidden" name={field} value={id} />
      {status !== "published" ? (
        <button type="submit" name="intent" value={`${intentPrefix}publish`} className={publishClassName} disabled={busy} aria-describedby={describedBy}>
          Publish{nounSuffix}
        </button>
      ) : null}{" "}
      {status !== "rejected" && !noReject ? (
        <button type="submit" name="intent" value={`${intentPrefix}reject`} className="danger" disabled={busy} aria-describedby={describedBy}>
          Reject{nounSuffix}
        </button>
      ) : null}
    </Form>
  );
}

import type { FunnelDay } from "../../server/review-requests/review-requests.service.ts";
import { DailyBars } from "./DailyBars";

const SERIES = [
  { key: "sent", label: "Sent", className: "bar-sent" },
  { key: "opened", label: "Opened", className: "bar-opened" },
  { key: "reviewed", label: "Reviewed", className: "bar-reviewed" },
] as const;

/**
 * The review-request funnel: totals, a server-rendered SVG bar chart of requests sent, opened and
 * reviewed per UTC day (role="img" with <title>/<desc>), and the same figures as a table (the text
 * alternative, always in the page). "Opened" means a link of the e-mail was followed (no tracking pixel).
 */
export function FunnelPanel({ funnel }: { funnel: { days: FunnelDay[]; totals: { sent: number; opened: number; reviewed: number } } }) {
  const { days, totals } = funnel;
  const pct = (n: number) => (totals.sent ? `${Math.round((100 * n) / totals.sent)} %` : "—");
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  return (
    <section className="panel" aria-labelledby="funnel-title">
      <h2 id="funnel-title">Funnel of the last {days.length} days</h2>
      <dl className="rr-totals">
        <div>
          <dt>Sent</dt>
          <dd data-testid="funnel-sent">{totals.sent}</dd>
        </div>
        <div>
          <dt>Opened</dt>
          <dd data-testid="funnel-opened">
            {totals.opened} <span className="muted">({pct(totals.opened)})</span>
          </dd>
        </div>
        <div>
          <dt>Reviewed</dt>
          <dd data-testid="funnel-reviewed">
            {totals.reviewed} <span className="muted">(reviews)</span>
          </dd>
        </div>
      </dl>
      <p className="muted">
        Sent: requests e-mailed that day (first message). Opened: requests whose link a shopper first followed that day (Chorus uses no tracking pixel, so a shopper who only read the e-mail is not
        counted). Reviewed: reviews written through the links that day. Days are UTC.
      </p>
      <DailyBars
        id="funnel-svg"
        className="rr-chart"
        days={days}
        series={SERIES}
        height={240}
        title="Review requests sent, opened and reviewed per day"
        desc={
          `Bar chart, three bars per day from ${first} to ${last}: ${totals.sent} sent, ${totals.opened} opened, ${totals.reviewed} reviewed in all. ` +
          'Every daily figure is in the table "Funnel per day" below the chart.'
        }
      />
      <ul className="rr-legend" aria-label="Chart legend">
        {SERIES.map((s) => (
          <li key={s.key}>
            <span className={`swatch ${s.className}`} aria-hidden="true" /> {s.label}
          </li>
        ))}
      </ul>
      <details className="rr-table">
        <summary>Funnel per day as a table ({days.length} days)</summary>
        <div className="table-wrap">
          <table>
            <caption>Funnel per day (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Sent</th>
                <th scope="col">Opened</th>
                <th scope="col">Reviewed</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">
                    <time dateTime={d.day}>{d.day}</time>
                  </th>
                  <td>{d.sent}</td>
                  <td>{d.opened}</td>
                  <td>{d.reviewed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

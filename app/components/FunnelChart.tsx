import type { FunnelDay } from "../../server/review-requests/review-requests.service.ts";

const W = 720;
const H = 240;
const PAD = { left: 40, right: 12, top: 12, bottom: 36 };
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
  const max = Math.max(1, ...days.flatMap((d) => [d.sent, d.opened, d.reviewed]));
  const top = max <= 4 ? max : Math.ceil(max / 4) * 4;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, days.length);
  const bar = Math.max(1, (slot - 2) / 3);
  const y = (n: number) => PAD.top + (1 - n / top) * (H - PAD.top - PAD.bottom);
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 4, top / 2, (3 * top) / 4, top];
  const step = Math.max(1, Math.ceil(days.length / 6));
  const pct = (n: number) => (totals.sent ? `${Math.round((100 * n) / totals.sent)} %` : "—");
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  return (
    <section className="panel" aria-labelledby="funnel-title">
      <h2 id="funnel-title">Funnel of the last {days.length} days</h2>
      <dl className="rr-totals">
        <div><dt>Sent</dt><dd data-testid="funnel-sent">{totals.sent}</dd></div>
        <div><dt>Opened</dt><dd data-testid="funnel-opened">{totals.opened} <span className="muted">({pct(totals.opened)})</span></dd></div>
        <div><dt>Reviewed</dt><dd data-testid="funnel-reviewed">{totals.reviewed} <span className="muted">(reviews)</span></dd></div>
      </dl>
      <p className="muted">
        Sent: requests e-mailed that day (first message). Opened: requests whose link a shopper first followed that day (Chorus uses no
        tracking pixel, so a shopper who only read the e-mail is not counted). Reviewed: reviews written through the links that day. Days are UTC.
      </p>
      <svg className="rr-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="funnel-svg-title funnel-svg-desc" preserveAspectRatio="xMidYMid meet">
        <title id="funnel-svg-title">Review requests sent, opened and reviewed per day</title>
        <desc id="funnel-svg-desc">
          {`Bar chart, three bars per day from ${first} to ${last}: ${totals.sent} sent, ${totals.opened} opened, ${totals.reviewed} reviewed in all. ` +
            'Every daily figure is in the table "Funnel per day" below the chart.'}
        </desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="tick">{Number.isInteger(v) ? v : v.toFixed(1)}</text>
          </g>
        ))}
        {days.map((d, i) => (
          <g key={d.day}>
            {SERIES.map((s, j) => (d[s.key] > 0 ? (
              <rect key={s.key} x={PAD.left + i * slot + 1 + j * bar} y={y(d[s.key])} width={bar} height={y(0) - y(d[s.key])} className={s.className} />
            ) : null))}
            {i % step === 0 ? <text x={PAD.left + i * slot + slot / 2} y={H - PAD.bottom + 18} textAnchor="middle" className="tick">{d.day.slice(5)}</text> : null}
          </g>
        ))}
      </svg>
      <ul className="rr-legend" aria-label="Chart legend">
        {SERIES.map((s) => <li key={s.key}><span className={`swatch ${s.className}`} aria-hidden="true" /> {s.label}</li>)}
      </ul>
      <details className="rr-table">
        <summary>Funnel per day as a table ({days.length} days)</summary>
        <div className="table-wrap">
          <table>
            <caption>Funnel per day (UTC)</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Sent</th><th scope="col">Opened</th><th scope="col">Reviewed</th></tr></thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}><th scope="row"><time dateTime={d.day}>{d.day}</time></th><td>{d.sent}</td><td>{d.opened}</td><td>{d.reviewed}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

const W = 720;
const H = 220;
const PAD = { left: 40, right: 12, top: 12, bottom: 36 };

/** One UTC day: reviews written that day, and how many of them are published. */
export type ReviewDay = { day: string; received: number; published: number };

/**
 * Reviews received and published per UTC day as a server-rendered SVG bar chart (role="img" with
 * <title>/<desc>: the span, the totals and the busiest day) and the same figures as a table (the text
 * alternative, in the page, one click to open). Two bars a day: received, then published.
 */
export function ReviewsChart({ days }: { days: readonly ReviewDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.received));
  const top = max <= 4 ? max : Math.ceil(max / 4) * 4;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, days.length);
  const bar = Math.max(1, (slot - 2) / 2);
  const y = (n: number) => PAD.top + (1 - n / top) * (H - PAD.top - PAD.bottom);
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 4, top / 2, (3 * top) / 4, top];
  const step = Math.max(1, Math.ceil(days.length / 6));
  const received = days.reduce((s, d) => s + d.received, 0);
  const published = days.reduce((s, d) => s + d.published, 0);
  const busiest = days.reduce<ReviewDay | undefined>((m, d) => (d.received && (!m || d.received > m.received) ? d : m), undefined);
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  return (
    <figure className="home-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="reviews-svg-title reviews-svg-desc" preserveAspectRatio="xMidYMid meet">
        <title id="reviews-svg-title">Reviews received and published per day</title>
        <desc id="reviews-svg-desc">
          {`Bar chart, two bars per day from ${first} to ${last}: ${received} reviews received, ${published} of them published. ` +
            (busiest ? `Most on ${busiest.day} (${busiest.received}). ` : "No reviews in these days. ") +
            'Every daily figure is in the table "Reviews per day" below the chart.'}
        </desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="grid" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="tick">{Number.isInteger(v) ? v : v.toFixed(1)}</text>
          </g>
        ))}
        {days.map((d, i) => (
          <g key={d.day}>
            {d.received > 0 ? <rect x={PAD.left + i * slot + 1} y={y(d.received)} width={bar} height={y(0) - y(d.received)} className="bar-received" /> : null}
            {d.published > 0 ? <rect x={PAD.left + i * slot + 1 + bar} y={y(d.published)} width={bar} height={y(0) - y(d.published)} className="bar-published" /> : null}
            {i % step === 0 ? <text x={PAD.left + i * slot + slot / 2} y={H - PAD.bottom + 18} textAnchor="middle" className="tick">{d.day.slice(5)}</text> : null}
          </g>
        ))}
      </svg>
      <figcaption>
        <ul className="home-legend" aria-label="Chart legend">
          <li><span className="swatch bar-received" aria-hidden="true" /> Received</li>
          <li><span className="swatch bar-published" aria-hidden="true" /> Published</li>
        </ul>
      </figcaption>
      <details className="home-table">
        <summary>Reviews per day as a table ({days.length} days)</summary>
        <div className="table-wrap">
          <table>
            <caption>Reviews per day (UTC)</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Received</th><th scope="col">Published</th></tr></thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}><th scope="row"><time dateTime={d.day}>{d.day}</time></th><td>{d.received}</td><td>{d.published}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

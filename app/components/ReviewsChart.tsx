import { DailyBars } from "./DailyBars";

const SERIES = [
  { key: "received", className: "bar-received" },
  { key: "published", className: "bar-published" },
] as const;

/** One UTC day: reviews written that day, and how many of them are published. */
export type ReviewDay = { day: string; received: number; published: number };

/**
 * Reviews received and published per UTC day as a server-rendered SVG bar chart (role="img" with
 * <title>/<desc>: the span, the totals and the busiest day) and the same figures as a table (the text
 * alternative, in the page, one click to open). Two bars a day: received, then published.
 */
export function ReviewsChart({ days }: { days: readonly ReviewDay[] }) {
  const received = days.reduce((s, d) => s + d.received, 0);
  const published = days.reduce((s, d) => s + d.published, 0);
  const busiest = days.reduce<ReviewDay | undefined>((m, d) => (d.received && (!m || d.received > m.received) ? d : m), undefined);
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  return (
    <figure className="home-chart">
      <DailyBars
        id="reviews-svg"
        days={days}
        series={SERIES}
        height={220}
        title="Reviews received and published per day"
        desc={
          `Bar chart, two bars per day from ${first} to ${last}: ${received} reviews received, ${published} of them published. ` +
          (busiest ? `Most on ${busiest.day} (${busiest.received}). ` : "No reviews in these days. ") +
          'Every daily figure is in the table "Reviews per day" below the chart.'
        }
      />
      <figcaption>
        <ul className="home-legend" aria-label="Chart legend">
          <li>
            <span className="swatch bar-received" aria-hidden="true" /> Received
          </li>
          <li>
            <span className="swatch bar-published" aria-hidden="true" /> Published
          </li>
        </ul>
      </figcaption>
      <details className="home-table">
        <summary>Reviews per day as a table ({days.length} days)</summary>
        <div className="table-wrap">
          <table>
            <caption>Reviews per day (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Received</th>
                <th scope="col">Published</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">
                    <time dateTime={d.day}>{d.day}</time>
                  </th>
                  <td>{d.received}</td>
                  <td>{d.published}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

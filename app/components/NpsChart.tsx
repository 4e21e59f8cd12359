import type { NpsSummary } from "../../server/surveys/surveys.service.ts";

const W = 720;
const H = 260;
const PAD = { left: 48, right: 16, top: 16, bottom: 40 };
const WEEK_MS = 7 * 86_400_000;

/**
 * The NPS panel: the score (−100…100), promoter/passive/detractor counts, and the weekly score as a
 * server-rendered SVG line chart (role="img" with <title>/<desc>) plus the same figures as a table
 * (the text alternative, always in the page and openable with one click).
 */
export function NpsPanel({ nps, surveyName }: { nps: NpsSummary; surveyName: string }) {
  const { weeks } = nps;
  const pct = (n: number) => (nps.answered ? `${Math.round((100 * n) / nps.answered)} %` : "—");
  const first = weeks.length ? Date.parse(weeks[0].weekStart) : 0;
  const span = weeks.length > 1 ? Date.parse(weeks[weeks.length - 1].weekStart) - first : WEEK_MS;
  const x = (weekStart: string) => PAD.left + ((Date.parse(weekStart) - first) / span) * (W - PAD.left - PAD.right);
  const y = (score: number) => PAD.top + ((100 - score) / 200) * (H - PAD.top - PAD.bottom);
  const points = weeks.map((w) => `${x(w.weekStart).toFixed(1)},${y(w.score).toFixed(1)}`).join(" ");
  const lowest = weeks.reduce<(typeof weeks)[number] | undefined>((m, w) => (!m || w.score < m.score ? w : m), undefined);
  const highest = weeks.reduce<(typeof weeks)[number] | undefined>((m, w) => (!m || w.score > m.score ? w : m), undefined);
  // About six date labels along the x axis.
  const step = Math.max(1, Math.ceil(weeks.length / 6));
  const labels = weeks.filter((_, i) => i % step === 0);
  return (
    <section className="panel nps-panel" aria-labelledby="nps-title">
      <h2 id="nps-title">Net Promoter Score</h2>
      {nps.score === undefined ? (
        <p className="empty" role="status">
          No NPS answers match these filters yet.
        </p>
      ) : (
        <>
          <dl className="nps-figures">
            <div>
              <dt>NPS</dt>
              <dd className="nps-score" data-testid="nps-score">
                {nps.score > 0 ? `+${nps.score}` : nps.score}
              </dd>
            </div>
            <div>
              <dt>Promoters (9–10)</dt>
              <dd data-testid="nps-promoters">
                {nps.promoters} <span className="muted">({pct(nps.promoters)})</span>
              </dd>
            </div>
            <div>
              <dt>Passives (7–8)</dt>
              <dd data-testid="nps-passives">
                {nps.passives} <span className="muted">({pct(nps.passives)})</span>
              </dd>
            </div>
            <div>
              <dt>Detractors (0–6)</dt>
              <dd data-testid="nps-detractors">
                {nps.detractors} <span className="muted">({pct(nps.detractors)})</span>
              </dd>
            </div>
            <div>
              <dt>Answered</dt>
              <dd>{nps.answered}</dd>
            </div>
          </dl>
          <p className="muted">NPS = % promoters − % detractors, from −100 to +100. Responses without a score are not counted.</p>
          <h3 id="nps-chart-title">NPS by week</h3>
          <svg className="nps-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="nps-svg-title nps-svg-desc" preserveAspectRatio="xMidYMid meet">
            <title id="nps-svg-title">{`Weekly NPS of ${surveyName}`}</title>
            <desc id="nps-svg-desc">
              {`Line chart of the Net Promoter Score per week (weeks start on Monday, UTC), ${weeks.length} week${weeks.length === 1 ? "" : "s"} from ${weeks[0].weekStart} to ${weeks[weeks.length - 1].weekStart}. ` +
                `Lowest ${lowest!.score} in the week of ${lowest!.weekStart}, highest ${highest!.score} in the week of ${highest!.weekStart}. Every weekly figure is in the table "Weekly NPS" below the chart.`}
            </desc>
            {[100, 50, 0, -50, -100].map((v) => (
              <g key={v}>
                <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className={v === 0 ? "axis-zero" : "grid"} />
                <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="tick">
                  {v > 0 ? `+${v}` : v}
                </text>
              </g>
            ))}
            {labels.map((w) => (
              <text key={w.weekStart} x={x(w.weekStart)} y={H - PAD.bottom + 18} textAnchor="middle" className="tick">
                {w.weekStart}
              </text>
            ))}
            <polyline points={points} className="line" fill="none" />
            {weeks.map((w) => (
              <circle key={w.weekStart} cx={x(w.weekStart)} cy={y(w.score)} r={3} className="dot" />
            ))}
          </svg>
          <h3 id="nps-shares-title">Promoters, passives and detractors by week</h3>
          <ul className="nps-legend" aria-hidden="true">
            <li>
              <span className="promoter" />
              Promoters
            </li>
            <li>
              <span className="passive" />
              Passives
            </li>
            <li>
              <span className="detractor" />
              Detractors
            </li>
          </ul>
          <NpsShares weeks={weeks} surveyName={surveyName} />
          <details className="nps-table">
            <summary>Weekly NPS as a table ({weeks.length} weeks)</summary>
            <div className="table-wrap">
              <table>
                <caption>Weekly NPS (weeks start on Monday, UTC)</caption>
                <thead>
                  <tr>
                    <th scope="col">Week of</th>
                    <th scope="col">NPS</th>
                    <th scope="col">Promoters</th>
                    <th scope="col">Passives</th>
                    <th scope="col">Detractors</th>
                    <th scope="col">Answered</th>
                    <th scope="col">Promoter share</th>
                    <th scope="col">Passive share</th>
                    <th scope="col">Detractor share</th>
                  </tr>
                </thead>
                <tbody>
                  {weeks.map((w) => (
                    <tr key={w.weekStart}>
                      <th scope="row">
                        <time dateTime={w.weekStart}>{w.weekStart}</time>
                      </th>
                      <td>{w.score}</td>
                      <td>{w.promoters}</td>
                      <td>{w.passives}</td>
                      <td>{w.detractors}</td>
                      <td>{w.answered}</td>
                      <td>{share(w.promoters, w.answered)}</td>
                      <td>{share(w.passives, w.answered)}</td>
                      <td>{share(w.detractors, w.answered)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}

/** A count's share of the answered, as a whole per cent ("62 %"). */
const share = (n: number, answered: number) => (answered ? `${Math.round((100 * n) / answered)} %` : "—");

/**
 * Weekly promoter, passive and detractor shares as 100 % stacked bars (one per week, oldest left), a server-rendered
 * SVG with role="img" and a <title>/<desc>; the figures are in the "Weekly NPS" table beside it (its share columns).
 */
export function NpsShares({ weeks, surveyName }: { weeks: NpsSummary["weeks"]; surveyName: string }) {
  const inner = W - PAD.left - PAD.right;
  const slot = inner / Math.max(weeks.length, 1);
  const bar = Math.max(1, slot * 0.8);
  const h = H - PAD.top - PAD.bottom;
  const step = Math.max(1, Math.ceil(weeks.length / 6));
  const total = weeks.reduce((t, w) => ({ p: t.p + w.promoters, d: t.d + w.detractors, a: t.a + w.answered }), { p: 0, d: 0, a: 0 });
  return (
    <svg className="nps-chart nps-shares" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="nps-shares-svg-title nps-shares-svg-desc" preserveAspectRatio="xMidYMid meet">
      <title id="nps-shares-svg-title">{`Weekly promoter, passive and detractor shares of ${surveyName}`}</title>
      <desc id="nps-shares-svg-desc">
        {`Stacked bars, one per week (weeks start on Monday, UTC), ${weeks.length} week${weeks.length === 1 ? "" : "s"}: promoters at the bottom, passives in the middle, detractors at the top, as shares of the week's NPS answers. ` +
          `Over all weeks ${share(total.p, total.a)} promoters and ${share(total.d, total.a)} detractors. Every weekly share is in the table "Weekly NPS" below.`}
      </desc>
      {[0, 50, 100].map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + h - (v / 100) * h} y2={PAD.top + h - (v / 100) * h} className="grid" />
          <text x={PAD.left - 6} y={PAD.top + h - (v / 100) * h + 4} textAnchor="end" className="tick">{`${v} %`}</text>
        </g>
      ))}
      {weeks.map((w, i) => {
        const x = PAD.left + i * slot + (slot - bar) / 2;
        const hp = (w.promoters / w.answered) * h;
        const ha = (w.passives / w.answered) * h;
        const hd = (w.detractors / w.answered) * h;
        return (
          <g key={w.weekStart} data-week={w.weekStart}>
            <rect x={x} width={bar} y={PAD.top + h - hp} height={hp} className="promoter" />
            <rect x={x} width={bar} y={PAD.top + h - hp - ha} height={ha} className="passive" />
            <rect x={x} width={bar} y={PAD.top + h - hp - ha - hd} height={hd} className="detractor" />
          </g>
        );
      })}
      {weeks
        .filter((_, i) => i % step === 0)
        .map((w) => (
          <text key={w.weekStart} x={PAD.left + weeks.indexOf(w) * slot + slot / 2} y={H - PAD.bottom + 18} textAnchor="middle" className="tick">
            {w.weekStart}
          </text>
        ))}
    </svg>
  );
}

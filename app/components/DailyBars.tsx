const W = 720;
const PAD = { left: 40, right: 12, top: 12, bottom: 36 };

/** One bar series of `DailyBars`: the day's field it draws and the class that colours it. */
export type DailyBarSeries<K extends string> = { key: K; className: string };

/**
 * A server-rendered SVG bar chart with one group of bars per UTC day, one bar per series (role="img" with
 * <title>/<desc> under the ids `${id}-title` and `${id}-desc`): a scale of 0 to the largest value rounded up to a
 * multiple of 4, up to five grid lines, and about six day labels (MM-DD). The caller puts the same figures in a
 * table beside it (the text alternative). `height` in SVG units (the width is 720).
 */
export function DailyBars<K extends string>({
  id,
  days,
  series,
  title,
  desc,
  height,
  className,
}: {
  id: string;
  days: readonly ({ day: string } & Record<K, number>)[];
  series: readonly DailyBarSeries<K>[];
  title: string;
  desc: string;
  height: number;
  className?: string;
}) {
  const H = height;
  const max = Math.max(1, ...days.flatMap((d) => series.map((s) => d[s.key])));
  const top = max <= 4 ? max : Math.ceil(max / 4) * 4;
  const slot = (W - PAD.left - PAD.right) / Math.max(1, days.length);
  const bar = Math.max(1, (slot - 2) / series.length);
  const y = (n: number) => PAD.top + (1 - n / top) * (H - PAD.top - PAD.bottom);
  const ticks = top <= 4 ? Array.from({ length: top + 1 }, (_, i) => i) : [0, top / 4, top / 2, (3 * top) / 4, top];
  const step = Math.max(1, Math.ceil(days.length / 6));
  return (
    <svg className={className} viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMidYMid meet">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{desc}</desc>
      {ticks.map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="grid" />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="tick">
            {Number.isInteger(v) ? v : v.toFixed(1)}
          </text>
        </g>
      ))}
      {days.map((d, i) => (
        <g key={d.day}>
          {series.map((s, j) => (d[s.key] > 0 ? <rect key={s.key} x={PAD.left + i * slot + 1 + j * bar} y={y(d[s.key])} width={bar} height={y(0) - y(d[s.key])} className={s.className} /> : null))}
          {i % step === 0 ? (
            <text x={PAD.left + i * slot + slot / 2} y={H - PAD.bottom + 18} textAnchor="middle" className="tick">
              {d.day.slice(5)}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}

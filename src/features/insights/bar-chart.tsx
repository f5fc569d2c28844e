import { useId, useState } from 'react';
import { niceTicks } from './chart-ticks';

export interface ChartPoint {
  /** The category or period, as the table beside the chart names it. */
  label: string;
  value: number;
  /** The exact figure, formatted (`$1,234.50`, `42%`). */
  display: string;
}

const WIDTH = 600;
const HEIGHT = 220;
/** Room on the left for the value axis's labels, below for the periods'. */
const PAD = { top: 12, right: 8, bottom: 36, left: 52 };

/** A hand-drawn SVG bar chart (no library): each bar focusable and named; the table is its text. */
export function BarChart({
  title,
  points,
  valueName,
  axis,
}: {
  title: string;
  points: readonly ChartPoint[];
  /** What the values are ("Net payouts"), for the read-out. */
  valueName: string;
  /** The value axis: its labels' format, and whether steps are whole (counts). */
  axis: { format: (value: number) => string; whole?: boolean };
}) {
  const [active, setActive] = useState<number | undefined>(undefined);
  const readoutId = useId();
  const ticks = niceTicks(Math.max(0, ...points.map((p) => p.value)), { whole: axis.whole });
  // The bars are drawn against the top tick, so the axis's labels read true.
  const max = ticks[ticks.length - 1]!;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = points.length === 0 ? innerW : innerW / points.length;
  const barW = Math.max(2, slot * 0.7);
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const shown = active === undefined ? undefined : points[active];
  return (
    <figure className="chart" data-chart-ready="true">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="group"
        aria-label={title}
        aria-describedby={readoutId}
        className="chart-svg"
        onMouseLeave={() => setActive(undefined)}
      >
        <g className="chart-ticks" aria-hidden="true">
          {ticks.map((tick) => {
            const y = HEIGHT - PAD.bottom - (max === 0 ? 0 : (tick / max) * innerH);
            return (
              <g key={tick}>
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} className="chart-grid" />
                <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="chart-label">
                  {axis.format(tick)}
                </text>
              </g>
            );
          })}
        </g>
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          className="chart-axis"
        />
        {points.map((point, i) => {
          const h = max === 0 ? 0 : (point.value / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={point.label}>
              <rect
                x={x}
                y={HEIGHT - PAD.bottom - h}
                width={barW}
                height={Math.max(h, 0.5)}
                className={i === active ? 'chart-bar chart-bar-active' : 'chart-bar'}
                tabIndex={0}
                role="img"
                aria-label={`${point.label}: ${point.display}`}
                onMouseEnter={() => setActive(i)}
                onFocus={() => setActive(i)}
                onBlur={() => setActive(undefined)}
              >
                <title>{`${point.label}: ${point.display}`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text
                  x={PAD.left + i * slot + slot / 2}
                  y={HEIGHT - PAD.bottom + 16}
                  textAnchor="middle"
                  className="chart-label"
                  aria-hidden="true"
                >
                  {point.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption id={readoutId} className="chart-readout" aria-live="polite">
        {shown
          ? `${shown.label}: ${valueName} ${shown.display}`
          : 'Hover or focus a bar for its exact figure.'}
      </figcaption>
    </figure>
  );
}

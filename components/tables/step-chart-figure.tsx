// Two step lines on one time axis, drawn as plain SVG paths: the table history's pending
// generations (left axis) and wait (right axis). Each line is one path however many points
// it has (a busy table's 6 h is ~1,800), so a chart draws in milliseconds where a chart
// library's per-point elements took about a second. This file is the drawing alone, with no
// state: a server component draws it (a live table page arrives with its chart drawn), and
// ./step-chart.tsx makes it interactive in the browser.
import type { KeyboardEvent, MouseEvent, Ref } from "react";
import { formatTime } from "@/components/ui/format";

export interface StepSeries {
  name: string;
  color: string;
  /** the axis it is read on */
  axis: "left" | "right";
  unit?: string;
  /** one value per point; null breaks the line */
  values: readonly (number | null)[];
}

export interface StepChartProps {
  /** point times, ascending */
  times: readonly number[];
  fromMs: number;
  toMs: number;
  series: readonly StepSeries[];
  /** a dashed vertical marker (where compaction cut the history) */
  marker?: { atMs: number; label: string } | null;
  label: string;
  height?: number;
}

export const PAD = { top: 10, right: 52, bottom: 24, left: 48 };
/** the width drawn at until the box is measured (about a panel's on a laptop) */
const NOMINAL_WIDTH = 640;

/** 0 and four or five round steps up to at least `max` */
function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 4;
  const pow = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= rough)!;
  const out: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) out.push(+v.toFixed(6));
  return out;
}

/** round wall-clock steps for the time axis (UTC, like every time the console shows) */
function timeTicks(from: number, to: number, widthPx: number): number[] {
  const steps = [
    60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
  ];
  const most = Math.max(2, Math.floor(widthPx / 90));
  const step = steps.find((s) => (to - from) / s <= most) ?? steps[steps.length - 1];
  const out: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) out.push(t);
  return out;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The index of the last time ≤ t (or 0). */
export function atOrBefore(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where a time falls across the plot, and the plot's size, at `width` (0: not measured yet). */
export function geometry(p: StepChartProps, width: number) {
  const height = p.height ?? 260;
  // before the box is measured (the server's render, and the browser's first), the chart is
  // drawn at a nominal width and stretched to the box: a page that arrives with its data arrives drawn
  const drawnW = width || NOMINAL_WIDTH;
  const plotW = Math.max(10, drawnW - PAD.left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const span = Math.max(1, p.toMs - p.fromMs);
  const x = (t: number) => PAD.left + ((Math.min(Math.max(t, p.fromMs), p.toMs) - p.fromMs) / span) * plotW;
  return { height, drawnW, plotW, plotH, span, x };
}

function axesOf(series: readonly StepSeries[]) {
  const maxOf = (axis: "left" | "right") =>
    Math.max(
      0,
      ...series.filter((s) => s.axis === axis).flatMap((s) => s.values.filter((v): v is number => v !== null)),
    );
  return { left: niceTicks(maxOf("left")), right: niceTicks(maxOf("right")) };
}

function pathsOf(p: StepChartProps, g: ReturnType<typeof geometry>, axes: ReturnType<typeof axesOf>) {
  const { times, toMs } = p;
  const { plotH, x } = g;
  return p.series.map((s) => {
    const ticks = s.axis === "left" ? axes.left : axes.right;
    const top = ticks[ticks.length - 1] || 1;
    const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
    let d = "";
    let open = false;
    for (let i = 0; i < times.length; i++) {
      const v = s.values[i];
      if (v === null) {
        // a gap: the previous value holds until this point, then the line breaks
        if (open) d += `H${x(times[i]).toFixed(1)}`;
        open = false;
        continue;
      }
      const px = x(times[i]).toFixed(1);
      const py = y(v).toFixed(1);
      d += open ? `H${px}V${py}` : `M${px} ${py}`;
      open = true;
    }
    if (open) d += `H${x(toMs).toFixed(1)}`;
    return { name: s.name, color: s.color, d };
  });
}

/** The chart's lines at `width` (the interactive chart keeps them while only the point read out moves). */
export const linesOf = (p: StepChartProps, width: number) => pathsOf(p, geometry(p, width), axesOf(p.series));

/** What the interactive chart adds: the measured width, the point read out, and the handlers. */
export interface StepChartLive {
  width: number;
  focus: number | null;
  /** ./linesOf's answer for these props and width, when kept (else drawn here) */
  lines?: ReturnType<typeof linesOf>;
  boxRef?: Ref<HTMLDivElement>;
  onMouseMove?: (e: MouseEvent) => void;
  onMouseLeave?: () => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  onBlur?: () => void;
}

export function StepChartFigure(props: StepChartProps & StepChartLive) {
  const { times, fromMs, toMs, series, marker, label, width, focus, boxRef } = props;
  const g = geometry(props, width);
  const { height, drawnW, plotW, plotH, x } = g;
  const axes = axesOf(series);
  const paths = props.lines ?? pathsOf(props, g, axes);
  const tooltip = focus !== null && times[focus] !== undefined ? focus : null;
  return (
    <div className="step-chart" ref={boxRef}>
      <svg
        width={width || "100%"}
        height={height}
        viewBox={`0 0 ${drawnW} ${height}`}
        preserveAspectRatio={width ? undefined : "none"}
        role="img"
        aria-label={label}
        tabIndex={props.onKeyDown ? 0 : undefined}
        onMouseMove={props.onMouseMove}
        onMouseLeave={props.onMouseLeave}
        onKeyDown={props.onKeyDown}
        onBlur={props.onBlur}
      >
        <>
          {axes.left.map((v) => {
            const y = PAD.top + plotH - (v / (axes.left[axes.left.length - 1] || 1)) * plotH;
            return (
              <g key={`l${v}`}>
                <line x1={PAD.left} x2={PAD.left + plotW} y1={y} y2={y} className="step-grid" />
                <text x={PAD.left - 6} y={y + 4} textAnchor="end" className="step-tick">
                  {v.toLocaleString("en-US")}
                </text>
              </g>
            );
          })}
          {axes.right.map((v) => {
            const y = PAD.top + plotH - (v / (axes.right[axes.right.length - 1] || 1)) * plotH;
            return (
              <text key={`r${v}`} x={PAD.left + plotW + 6} y={y + 4} textAnchor="start" className="step-tick">
                {v.toLocaleString("en-US")}
                {series.find((s) => s.axis === "right")?.unit ?? ""}
              </text>
            );
          })}
          {timeTicks(fromMs, toMs, plotW).map((t) => (
            <g key={`t${t}`}>
              <line x1={x(t)} x2={x(t)} y1={PAD.top} y2={PAD.top + plotH} className="step-grid" />
              <text x={x(t)} y={height - 6} textAnchor="middle" className="step-tick">
                {hhmm(t)}
              </text>
            </g>
          ))}
          {marker ? (
            <g>
              <line x1={x(marker.atMs)} x2={x(marker.atMs)} y1={PAD.top} y2={PAD.top + plotH} className="step-marker" />
              <text x={x(marker.atMs) + 4} y={PAD.top + 12} className="step-marker-label">
                {marker.label}
              </text>
            </g>
          ) : null}
          {paths.map((p) => (
            <path key={p.name} d={p.d} fill="none" stroke={p.color} strokeWidth={1.5} />
          ))}
          {tooltip !== null ? (
            <line
              x1={x(times[tooltip])}
              x2={x(times[tooltip])}
              y1={PAD.top}
              y2={PAD.top + plotH}
              className="step-cursor"
            />
          ) : null}
        </>
      </svg>
      {tooltip !== null ? (
        <div
          className="step-readout"
          role="status"
          style={{ left: Math.min(Math.max(0, x(times[tooltip]) + 8), Math.max(0, drawnW - 200)) }}
        >
          <strong>{formatTime(times[tooltip])} UTC</strong>
          {series.map((s) => (
            <span key={s.name} style={{ color: s.color }}>
              {s.name}:{" "}
              {s.values[tooltip] === null ? "—" : `${s.values[tooltip]!.toLocaleString("en-US")}${s.unit ?? ""}`}
            </span>
          ))}
        </div>
      ) : null}
      <div className="step-legend" aria-hidden="true">
        {series.map((s) => (
          <span key={s.name}>
            <i style={{ background: s.color }} />
            {s.name}
          </span>
        ))}
      </div>
    </div>
  );
}

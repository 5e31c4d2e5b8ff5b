"use client";
// Two step lines on one time axis, drawn as plain SVG paths: the table history's pending
// generations (left axis) and wait (right axis). Each line is one path however many points
// it has (a busy table's 6 h is ~1,800), so a chart draws in milliseconds where a chart
// library's per-point elements took about a second. Hovering (or focusing and using the
// arrow keys) reads out the nearest point; the data table beside the chart has every value.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
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

interface Props {
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

const PAD = { top: 10, right: 52, bottom: 24, left: 48 };

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
function atOrBefore(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function StepChart({ times, fromMs, toMs, series, marker, label, height = 260 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [focus, setFocus] = useState<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const plotW = Math.max(10, width - PAD.left - PAD.right);
  const plotH = height - PAD.top - PAD.bottom;
  const span = Math.max(1, toMs - fromMs);
  const x = useCallback(
    (t: number) => PAD.left + ((Math.min(Math.max(t, fromMs), toMs) - fromMs) / span) * plotW,
    [fromMs, toMs, span, plotW],
  );

  const axes = useMemo(() => {
    const maxOf = (axis: "left" | "right") =>
      Math.max(
        0,
        ...series.filter((s) => s.axis === axis).flatMap((s) => s.values.filter((v): v is number => v !== null)),
      );
    const left = niceTicks(maxOf("left"));
    const right = niceTicks(maxOf("right"));
    return { left, right };
  }, [series]);

  const paths = useMemo(() => {
    if (width === 0) return [];
    return series.map((s) => {
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
  }, [series, times, axes, plotH, width, x, toMs]);

  const pick = (clientX: number) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || times.length === 0) return;
    const t = fromMs + ((clientX - rect.left - PAD.left) / plotW) * span;
    setFocus(atOrBefore(times, t));
  };
  const onKey = (e: KeyboardEvent) => {
    if (times.length === 0) return;
    const step =
      e.key === "ArrowRight"
        ? 1
        : e.key === "ArrowLeft"
          ? -1
          : e.key === "End"
            ? times.length
            : e.key === "Home"
              ? -times.length
              : 0;
    if (step === 0) return;
    e.preventDefault();
    setFocus((f) => Math.min(times.length - 1, Math.max(0, (f ?? (step > 0 ? -1 : times.length)) + step)));
  };

  const tooltip = focus !== null && times[focus] !== undefined ? focus : null;
  return (
    <div className="step-chart" ref={box}>
      <svg
        width={width}
        height={height}
        role="img"
        aria-label={label}
        tabIndex={0}
        onMouseMove={(e: MouseEvent) => pick(e.clientX)}
        onMouseLeave={() => setFocus(null)}
        onKeyDown={onKey}
        onBlur={() => setFocus(null)}
      >
        {width > 0 ? (
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
                <line
                  x1={x(marker.atMs)}
                  x2={x(marker.atMs)}
                  y1={PAD.top}
                  y2={PAD.top + plotH}
                  className="step-marker"
                />
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
        ) : null}
      </svg>
      {tooltip !== null ? (
        <div
          className="step-readout"
          role="status"
          style={{ left: Math.min(Math.max(0, x(times[tooltip]) + 8), Math.max(0, width - 200)) }}
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

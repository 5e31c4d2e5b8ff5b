"use client";
// The reasons view's stacked chart as plain SVG (like the table history's step chart, not
// a chart library): one column per step, one band per code, stacked in `codes` order.
// Every band is a button: opening it lists the tables that held that code at that step.
import type { ReasonCode } from "@/lib/schema/codes";
import { formatTime } from "@/components/ui/format";
import { codeInWords } from "@/lib/words/codes";
import type { ReasonsResponse } from "@/lib/client/resources/reasons";

const PALETTE = [
  "#2f7d32",
  "#c62828",
  "#1565c0",
  "#ef6c00",
  "#6a1b9a",
  "#00838f",
  "#ad1457",
  "#558b2f",
  "#4e342e",
  "#37474f",
  "#f9a825",
  "#283593",
];
export const colorOf = (codes: readonly string[], code: string) =>
  code === "placed" ? "#2e7d32" : PALETTE[(codes.indexOf(code) + 1) % PALETTE.length];
export const wordsOf = (code: string) => (code === "placed" ? "placed" : codeInWords(code));

const W = 900;
const H = 260;
const PAD = { top: 10, right: 10, bottom: 24, left: 40 };
/** a tick's time: to the minute, or to the second when the steps are under a minute apart (the ticks would repeat) */
const tickTime = (ms: number, stepMs: number) => new Date(ms).toISOString().slice(11, stepMs < 60_000 ? 19 : 16);

export function ReasonsChart({
  r,
  codes,
  onOpen,
}: {
  r: ReasonsResponse;
  codes: readonly ReasonCode[];
  onOpen: (atMs: number, code: string) => void;
}) {
  const max = Math.max(1, ...r.points.map((p) => p.due));
  const n = Math.max(1, r.points.length);
  const colW = (W - PAD.left - PAD.right) / n;
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max);
  const labelEvery = Math.max(1, Math.ceil(n / 8));
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={`due tables by reason from ${formatTime(r.from_ms)} to ${formatTime(r.to_ms)}`}
      data-testid="reasons-chart"
    >
      <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} stroke="#999" />
      <text x={PAD.left - 4} y={y(max) + 4} textAnchor="end" fontSize="11">
        {max}
      </text>
      <text x={PAD.left - 4} y={y(0)} textAnchor="end" fontSize="11">
        0
      </text>
      {r.points.map((p, i) => {
        let base = 0;
        const x = PAD.left + i * colW;
        return (
          <g key={p.at_ms}>
            {codes.map((code) => {
              const v = p.by_code[code] ?? 0;
              if (v === 0) return null;
              const top = y(base + v);
              const bottom = y(base);
              base += v;
              return (
                <rect
                  key={code}
                  x={x + 0.5}
                  y={top}
                  width={Math.max(1, colW - 1)}
                  height={bottom - top}
                  fill={colorOf(codes, code)}
                  role="button"
                  tabIndex={0}
                  aria-label={`${v} ${wordsOf(code)} at ${formatTime(p.at_ms)}`}
                  data-testid={`band-${p.at_ms}-${code}`}
                  style={{ cursor: "pointer" }}
                  onClick={() => onOpen(p.at_ms, code)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" || e.key === " ") onOpen(p.at_ms, code);
                  }}
                >
                  <title>{`${formatTime(p.at_ms)}: ${v} ${wordsOf(code)}`}</title>
                </rect>
              );
            })}
            {i % labelEvery === 0 ? (
              <text x={x} y={H - 6} fontSize="11">
                {tickTime(p.at_ms, r.step_ms)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

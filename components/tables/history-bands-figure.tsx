// The history chart's class and verdict bands ("next cycle from 02:10 to 03:40, then
// placed"). Each band is one SVG whatever it holds: one path per colour, and a label only on
// a segment wide enough to read one. A busy table's 6 h is ~2,700 segments; drawn as one
// positioned element each, their style and layout were ~0.4 s of the chart's first draw on
// the 2-CPU bench machine. This file is the drawing alone, with no state (a server component
// draws it); ./history-bands.tsx adds the hover: a band says the segment under the pointer.
import type { MouseEvent, ReactNode } from "react";
import { formatTime } from "@/components/ui/format";
import { pointTime, verdictSpans, type HistoryResponse } from "@/lib/client/resources/table-history";
import { stateInWords } from "@/lib/words/time-in-state";

/** A segment is labelled only when it is this share of the window or wider. */
const LABELLED_SHARE = 0.04;
/** Two segments of one colour are told apart by a line when both are this share of the window or wider (~3 px). */
const SEPARATED_SHARE = 0.005;
/** the bands' SVG width in user units (stretched to the track) */
const VIEW_W = 10_000;

export interface Segment {
  /** its fill (a CSS class) */
  fill: string;
  label: string;
  title: string;
  fromMs: number;
  toMs: number;
}

function classSegments(h: HistoryResponse): Segment[] {
  const out: Segment[] = [];
  for (const p of h.points) {
    const at = pointTime(p);
    if (at === null) continue;
    const last = out[out.length - 1];
    if (last?.label === p.class) continue;
    if (last) last.toMs = at;
    out.push({ fill: `class-${p.class}`, label: p.class, title: "", fromMs: at, toMs: h.to_ms });
  }
  for (const s of out) s.title = `${s.label} from ${formatTime(s.fromMs)}`;
  return out;
}

function verdictSegments(h: HistoryResponse): Segment[] {
  return verdictSpans(h.points, h.to_ms).map((s) => ({
    fill: s.state === "would_place" ? "seg-place" : s.state === "would_skip" ? "seg-skip" : "seg-none",
    label: s.state === "would_place" ? "placed" : s.state === "would_skip" ? (s.code ?? "skipped") : "figures only",
    title: `${stateInWords(s.state, s.code)} from ${formatTime(s.fromMs)}`,
    fromMs: s.fromMs,
    toMs: s.toMs,
  }));
}

export interface BandProps {
  name: string;
  segments: Segment[];
  fromMs: number;
  toMs: number;
  /** the segment under the pointer, said as the track's title */
  hovered?: Segment | null;
  onMouseMove?: (e: MouseEvent<HTMLDivElement>) => void;
  onMouseLeave?: () => void;
}

/** The segment under the pointer of `e` on a band's track (the last one starting at or before it). */
export function segmentAt(
  segments: readonly Segment[],
  fromMs: number,
  toMs: number,
  e: MouseEvent<HTMLDivElement>,
): Segment | null {
  const box = e.currentTarget.getBoundingClientRect();
  const ms = fromMs + ((e.clientX - box.left) / Math.max(1, box.width)) * Math.max(1, toMs - fromMs);
  let lo = 0;
  let hi = segments.length - 1;
  let found: Segment | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid].fromMs <= ms) {
      found = segments[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function BandTrack({ name, segments, fromMs, toMs, hovered, onMouseMove, onMouseLeave }: BandProps) {
  const span = Math.max(1, toMs - fromMs);
  const clamp = (ms: number) => Math.min(toMs, Math.max(fromMs, ms));
  const share = (ms: number) => (clamp(ms) - fromMs) / span;
  const wide = (s: Segment) => clamp(s.toMs) - clamp(s.fromMs) >= span * SEPARATED_SHARE;
  const fills = new Map<string, string>();
  let separators = "";
  segments.forEach((s, i) => {
    const a = share(s.fromMs) * VIEW_W;
    const b = share(s.toMs) * VIEW_W;
    if (b <= a) return;
    fills.set(s.fill, `${fills.get(s.fill) ?? ""}M${a.toFixed(1)} 0H${b.toFixed(1)}V1H${a.toFixed(1)}Z`);
    // two segments of one colour side by side (two skip codes) are told apart by a line, where
    // both are wide enough to be told apart at all (narrower, the lines would hide the colour)
    const previous = segments[i - 1];
    if (previous?.fill === s.fill && wide(previous) && wide(s)) separators += `M${a.toFixed(1)} 0V1`;
  });
  return (
    <div className="history-band">
      <span className="history-band-label">{name}</span>
      <div
        className="history-track"
        title={hovered?.title}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        data-segments={segments.length}
      >
        <svg className="history-track-svg" viewBox={`0 0 ${VIEW_W} 1`} preserveAspectRatio="none" aria-hidden="true">
          {[...fills].map(([fill, d]) => (
            <path key={fill} className={`history-fill ${fill}`} d={d} />
          ))}
          {separators && <path className="history-separators" d={separators} vectorEffect="non-scaling-stroke" />}
        </svg>
        {segments
          .filter((s) => clamp(s.toMs) - clamp(s.fromMs) >= span * LABELLED_SHARE)
          .map((s) => (
            <span
              key={s.fromMs}
              className="history-seg-label"
              style={{ left: `${share(s.fromMs) * 100}%`, width: `${(share(s.toMs) - share(s.fromMs)) * 100}%` }}
            >
              {s.label}
            </span>
          ))}
      </div>
    </div>
  );
}

/** Both bands, each drawn by `Track` (default: no hover; ./history-bands.tsx gives one with it). */
export function BandsFigure({
  h,
  Track = BandTrack,
}: {
  h: HistoryResponse;
  Track?: (props: Pick<BandProps, "name" | "segments" | "fromMs" | "toMs">) => ReactNode;
}) {
  return (
    <div className="history-bands" aria-hidden="true" data-testid="history-bands">
      <Track name="class" segments={classSegments(h)} fromMs={h.from_ms} toMs={h.to_ms} />
      <Track name="verdict" segments={verdictSegments(h)} fromMs={h.from_ms} toMs={h.to_ms} />
    </div>
  );
}

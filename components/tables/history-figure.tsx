// The history panel's body, drawn (console-api.md "Time", GET /scheduler/demand/history): the
// summary in words, time in state, the step chart, the bands and the basis. No state here: a
// live table page's server draws it from the answer it read (app/(console)/tables/[target]),
// so the chart is on the page before React has hydrated it, and ./history-chart.tsx draws the
// same with the chart, bands and data table interactive, once the browser has the answer too.
import type { ReactNode } from "react";
import { formatCount, formatTime } from "@/components/ui/format";
import { pointTime, type HistoryResponse } from "@/lib/client/resources/table-history";
import { historyBasisInWords } from "@/lib/words/history-basis";
import { historyStartInWords } from "@/lib/words/history-start";
import { timeInStateWords } from "@/lib/words/time-in-state";
import { BandsFigure } from "./history-bands-figure";
import { historySummary } from "./history-summary";
import { StepChartFigure, type StepChartProps, type StepSeries } from "./step-chart-figure";

/** The dated points as the chart's two step lines: pending generations, and wait in minutes. */
function chartedOf(h: HistoryResponse): { times: number[]; series: StepSeries[] } {
  const dated = h.points.filter((p) => pointTime(p) !== null);
  return {
    times: dated.map((p) => pointTime(p)!),
    series: [
      { name: "pending generations", color: "#6cb6ff", axis: "left", values: dated.map((p) => p.pending_generations) },
      {
        name: "wait",
        color: "#e0a53a",
        axis: "right",
        unit: " min",
        values: dated.map((p) => (p.wait_ms === null ? null : +(p.wait_ms / 60000).toFixed(1))),
      },
    ],
  };
}

/** The step chart of `h`. */
export function chartProps(h: HistoryResponse, target: string): StepChartProps {
  const charted = chartedOf(h);
  return {
    label: `pending generations and wait of ${target} from ${formatTime(h.from_ms)} to ${formatTime(h.to_ms)}`,
    fromMs: h.from_ms,
    toMs: h.to_ms,
    times: charted.times,
    series: charted.series,
    marker:
      h.compacted_before !== null && charted.times.length > 0
        ? { atMs: charted.times[0], label: "older history compacted" }
        : null,
  };
}

/** The data table's summary line (the table itself opens in the browser). */
export const POINTS_TABLE_SELECTOR = "details[data-points-table]";
export const pointsTableSummary = (n: number) => `The data as a table (${formatCount(n)} change${n === 1 ? "" : "s"})`;

/** The body with its chart, bands and data table given (drawn, or interactive). */
export function HistoryBodyFigure({
  h,
  pinned,
  chart,
  bands,
  table,
}: {
  h: HistoryResponse;
  pinned: boolean;
  chart: ReactNode;
  bands: ReactNode;
  table: ReactNode;
}) {
  const inState = timeInStateWords(h.time_in_state);
  return (
    <>
      <p data-testid="history-summary">{historySummary(h, pinned)}</p>
      {h.history_starts !== null && (
        <p role="note" data-testid="history-starts">
          {historyStartInWords(h.history_starts)}
        </p>
      )}
      {inState !== null && <p data-testid="time-in-state">Over the window: {inState}.</p>}
      {chart}
      {bands}
      <p className="muted">
        {formatCount(h.points.length)} change{h.points.length === 1 ? "" : "s"} from {formatTime(h.from_ms)} to{" "}
        {formatTime(h.to_ms)}, each evaluated at its own time.{" "}
        <span data-testid="history-basis">{historyBasisInWords(h)}</span>
        {h.compacted_before !== null ? ` History before revision ${formatCount(h.compacted_before)} is compacted.` : ""}
      </p>
      {table}
    </>
  );
}

/** A live page's history body as its server draws it (the data table's rows open in the browser). */
export function HistoryDrawn({ h, target }: { h: HistoryResponse; target: string }) {
  return (
    <HistoryBodyFigure
      h={h}
      pinned={false}
      chart={<StepChartFigure {...chartProps(h, target)} width={0} focus={null} />}
      bands={<BandsFigure h={h} />}
      table={
        <details data-points-table="">
          <summary>{pointsTableSummary(h.points.length)}</summary>
        </details>
      }
    />
  );
}

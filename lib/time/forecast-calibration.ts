import "server-only";
// GET /api/v1/forecasts/calibration?window_ms= (console-api.md "Forecasts, per world, that
// say how often they come true"): each world's forecasts sampled in the window ending at the
// answer's `now_ms` (the server clock, or a pin's own time), as they came out by then — made,
// resolved (within, early, late), open, coverage, median width and error — from the forecast
// chunks stored at the answer's revision (lib/journal/forecasts/report.ts). The fold starts
// one calibration window before the window, so each forecast's reliability is read against
// the calibration it was made with.
import { DEFAULT_FORECAST_LEVEL } from "@/lib/schema/forecast-codes";
import type { CalibrationQuery, CalibrationResponse } from "@/lib/schema/api/forecasts";
import { CALIBRATION_WINDOW_MS, ForecastLedger } from "@/lib/journal/forecasts/ledger";
import { FORECAST_ROLLUP_MS } from "@/lib/journal/forecasts/records";
import { worldScores } from "@/lib/journal/forecasts/report";
import { gapReasonOf } from "@/lib/journal/codec";
import { fleetView } from "@/lib/live/fleet-view";
import { evaluate } from "@/lib/live/evaluation";
import { forecastChunkKeys, forecastChunks } from "@/lib/scheduler/forecast-ledger";

export async function forecastCalibration(q: CalibrationQuery): Promise<CalibrationResponse> {
  const view = await fleetView(q.revision);
  const { now } = await evaluate(view, q);
  const to = now;
  const from = to - q.window_ms;
  const keys = (await forecastChunkKeys(view.revision, from - CALIBRATION_WINDOW_MS - FORECAST_ROLLUP_MS)).filter(
    (k) => k.from_ms <= to,
  );
  const chunks = await forecastChunks(keys, view.revision);
  const ledger = new ForecastLedger({ keepFromMs: from });
  const gaps: CalibrationResponse["gaps"] = [];
  let lastTo: number | null = null;
  for (const c of chunks) {
    const reason = gapReasonOf(c.kind);
    if (reason && lastTo !== null && c.from_ms > from)
      gaps.push({ from_ms: Math.max(from, lastTo), to_ms: c.from_ms, reason });
    ledger.add(c);
    lastTo = c.to_ms;
  }
  return {
    revision: view.revision,
    now_ms: now,
    from_ms: from,
    to_ms: to,
    level: DEFAULT_FORECAST_LEVEL,
    worlds: worldScores(ledger.kept, from, to),
    chunks: { read: chunks.length, unreadable: keys.length - chunks.length },
    gaps,
  };
}

import "server-only";
// The forecast gauges of one scrape (console-api.md "Forecasts …"; alert
// SchedulerForecastCoverageLow): each world's coverage and resolved count over the last 6 h,
// as GET /api/v1/forecasts/calibration?window_ms=21600000 answers them. Computed again only
// when the forecast journal's chunks changed (a new chunk a minute), not on every scrape.
import { metrics } from "@/lib/metrics";
import { FORECAST_WORLDS } from "@/lib/schema/forecast-codes";
import { DEFAULT_CALIBRATION_WINDOW_MS } from "@/lib/schema/api/forecasts";
import { fleetView } from "@/lib/live/fleet-view";
import { forecastCalibration } from "@/lib/time/forecast-calibration";
import { forecastLedgerAt } from "@/lib/scheduler/forecast-ledger";

let lastVersion: string | null = null;

export async function refreshForecastGauges(): Promise<void> {
  const view = await fleetView();
  const { version } = await forecastLedgerAt(view.revision);
  if (version === lastVersion) return;
  const r = await forecastCalibration({ window_ms: DEFAULT_CALIBRATION_WINDOW_MS });
  const m = metrics();
  for (const w of FORECAST_WORLDS) {
    const s = r.worlds[w];
    if (s.coverage === null) m.forecastCoverage.remove({ world: w });
    else m.forecastCoverage.set({ world: w }, s.coverage);
    m.forecastsResolved.set({ world: w }, s.resolved);
  }
  lastVersion = version;
}

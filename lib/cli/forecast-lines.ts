// The forecasts of `scheduler-console why <table>` in words (console-api.md "Forecasts, per
// world …"): each world's place and ETA, the acting world first and named as such, the other
// as a what-if; the basis is the server's sentence, as the table page prints it.
import type { DemandOne } from "../client/api-types";
import { etaWords, overdueForecastWords, worldLabel } from "../words/forecasts";
import { formatCount } from "../words/format";

type Forecast = DemandOne["table"]["forecasts"][number];

function placeOf(f: Forecast): string {
  if (f.position === null) return "not in line";
  const p = `${formatCount(f.position.rank)} of ${formatCount(f.position.of)}`;
  return f.world === "legacy"
    ? `${p} queued ${f.position.kind} tasks`
    : `${p} in the planner's ${f.position.kind} line`;
}

export function forecastLines(forecasts: readonly Forecast[]): string[] {
  const lines = ["When:"];
  for (const f of forecasts) {
    lines.push(`  ${worldLabel(f.world, f.acting)}: place ${placeOf(f)}; its turn may come: ${etaWords(f.eta)}`);
    lines.push(`     ${f.basis}`);
    if (f.overdue) lines.push(`     ${overdueForecastWords(f.overdue)}`);
  }
  return lines;
}

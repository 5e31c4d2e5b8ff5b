// A place in line in words (console-api.md `position`): "3 of 1,200", or "—". An ETA in words
// is lib/words/forecasts.ts `etaWords` (the pages and the command line share it).
import { formatCount } from "./format";
import type { TableSummary } from "../client/api-types";

export function positionText(p: TableSummary["position"]): string {
  return p ? `${formatCount(p.rank)} of ${formatCount(p.of)}` : "—";
}

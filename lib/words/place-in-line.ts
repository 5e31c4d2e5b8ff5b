// Place in line and ETA in words (console-api.md `position`, `eta`): a range, "now" or
// "unknown", never negative.
import { formatCount, formatDuration } from "./format";
import type { TableDetail, TableSummary } from "../client/api-types";

export function positionText(p: TableSummary["position"]): string {
  return p ? `${formatCount(p.rank)} of ${formatCount(p.of)}` : "—";
}

export function etaText(eta: TableDetail["eta"]): string {
  if (!eta) return "unknown";
  const low = Math.max(0, eta.low_ms);
  const high = Math.max(low, eta.high_ms);
  if (high === 0) return "now";
  return low === high ? `in about ${formatDuration(low)}` : `in ${formatDuration(low)} – ${formatDuration(high)}`;
}

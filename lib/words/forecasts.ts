// Forecasts in words (console-api.md "Forecasts, per world, that say how often they come
// true"), for the pages and the command line alike: which world a figure is about, an ETA
// interval and its level, an overdue promise, a sampled forecast's fate. The basis sentence
// itself is the server's (`forecasts[].basis`), printed as given on every surface.
import type { ForecastFate, ForecastWorld } from "../schema/forecast-codes";
import { formatDuration, formatTime } from "../schema/format";
import { overdueText } from "./format";

/** Which world a figure is about: the one acting now, or the other one's "what if". */
export const WORLD_WORDS: Record<ForecastWorld, { name: string; acting: string; other: string }> = {
  legacy: {
    name: "legacy queue",
    acting: "the legacy queue acts on this table",
    other: "if the legacy queue did",
  },
  planner: {
    name: "planner",
    acting: "the planner acts on this table",
    other: "if the planner ran this table",
  },
};

/** The label of a world's forecast: "Legacy queue (acts now)" or "Planner (if the planner ran this table)". */
export function worldLabel(world: ForecastWorld, acting: boolean): string {
  const w = WORLD_WORDS[world];
  const name = w.name.charAt(0).toUpperCase() + w.name.slice(1);
  return acting ? `${name} (acts on it now)` : `${name} (${w.other})`;
}

/** A sampled forecast's fate (GET /forecasts/calibration), for the canary page's legend. */
export const FATE_WORDS: Record<ForecastFate, string> = {
  within: "came true (within its interval)",
  early: "early (before its interval)",
  late: "late (after its interval)",
  open: "open (neither yet)",
  withdrawn: "withdrawn (its premise went)",
  lost: "lost (a gap in the journal)",
};

/** An ETA interval in words: "in 2m 00s – 10m 00s (80 %)", "now", or "unknown"; never negative. */
export function etaWords(eta: { low_ms: number; high_ms: number; level: number } | null): string {
  if (!eta) return "unknown";
  const low = Math.max(0, eta.low_ms);
  const high = Math.max(low, eta.high_ms);
  if (high === 0) return "now";
  const pct = `${Math.round(eta.level * 100)} %`;
  return low === high
    ? `in about ${formatDuration(low)} (${pct})`
    : `in ${formatDuration(low)} – ${formatDuration(high)} (${pct})`;
}

/** An earlier forecast whose interval ended without the outcome. */
export function overdueForecastWords(o: {
  made_ms: number;
  low_ms: number;
  high_ms: number;
  overdue_ms: number;
}): string {
  return `The forecast made at ${formatTime(o.made_ms)} said ${formatDuration(o.low_ms)} – ${formatDuration(o.high_ms)}: ${overdueText(o.overdue_ms)}.`;
}

/** A share as a percentage with one decimal, or "—". */
export const shareWords = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)} %`);

/** The overview's "placed next": the planner's placements, a what-if while the legacy queue acts. */
export const PLACED_NEXT_WORDS = {
  title: `Placed next ${WORLD_WORDS.planner.other.replace("this table", "these tables")}`,
  note: "In P1 the legacy queue acts on every table whose policy mode is not planner: these are the console's plan, not what runs next. A table's page gives both worlds' place and ETA.",
};

// Small labels for the planner's own words: class, backlog class, verdict, age bound.
import type { AgeBound, BacklogClass, Verdict } from "@/lib/client/api-types";
import { formatBytes, waitText } from "./format";
import { classLabel, verdictLabel } from "@/lib/words/codes";

export function ClassBadge({ name }: { name: string }) {
  return <span className={`badge class-${name}`}>{classLabel(name)}</span>;
}

export function BacklogBadge({ name }: { name: BacklogClass | string }) {
  return <span className={`badge backlog-${name}`}>{name}</span>;
}

/**
 * "upper" (spec §3.4): the oldest pending generation's exact flush time was pruned, so the
 * shown time is an upper bound on it ("≤ time") and the wait a lower bound ("≥ wait").
 */
export function AgeBoundMark({ bound, of = "time" }: { bound: AgeBound; of?: "time" | "wait" }) {
  if (bound !== "upper") return null;
  const title =
    of === "time"
      ? "upper bound: the exact flush time of the oldest pending generation was pruned; it flushed at or before this"
      : "lower bound: waited at least this long (the exact flush time was pruned)";
  return (
    <abbr className="upper-bound" title={title} data-testid="upper-bound">
      {of === "time" ? "≤" : "≥"}
    </abbr>
  );
}

/**
 * A wait; a lower bound ("at least", age_bound "upper") is shown in full colour so it can't
 * pass for an exact, short wait.
 */
export function WaitText({ waitMs, bound }: { waitMs: number | null; bound: AgeBound }) {
  if (bound === "upper" && waitMs !== null)
    return (
      <abbr
        className="wait-bound"
        title="at least this long: the exact flush time of the oldest pending generation was pruned"
        data-testid="upper-bound"
      >
        {waitText(waitMs, bound)}
      </abbr>
    );
  return <>{waitText(waitMs, bound)}</>;
}

export function VerdictText({ verdict }: { verdict: Verdict | null }) {
  if (!verdict) return <span className="muted">—</span>;
  if (verdict.state === "would_place")
    return (
      <span
        className="verdict-place"
        title={`would place on ${verdict.executor}, reserving ${formatBytes(verdict.reserved_bytes)}`}
      >
        {verdictLabel(verdict)}
      </span>
    );
  return (
    <span className="verdict-skip" title={`${verdict.code}: ${verdict.message}`} data-code={verdict.code}>
      {verdictLabel(verdict)}
    </span>
  );
}

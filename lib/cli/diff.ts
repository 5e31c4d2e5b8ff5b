// `scheduler-console diff --from … --to …`: what changed between two moments
// (console-api.md Additions, GET /api/v1/scheduler/diff), each side evaluated at its own time,
// in the words and the ranking the /diff page uses (lib/words/changes.ts).
import {
  classChangeSize,
  classInWords,
  executorChanges,
  rankByChange,
  verdictChangeSize,
  verdictInWords,
  type ExecutorFacts,
} from "../words/changes";
import { codeInWords } from "../words/codes";
import { formatCount, formatTime } from "../words/format";
import { OUTCOME_MEANING } from "../words/outcomes";
import { moreOf } from "./text";

type VerdictKey = { state: string; code?: string | null } | null;
type Leader = { instance?: string; token?: string } | null;

/** The diff answer as the contract names it; fields beyond it are ignored. */
export interface FleetDiff {
  from: { revision: number; at_ms: number | null };
  to: { revision: number; at_ms: number | null };
  /** how the sides' verdicts were reached (console-api.md "The decision journal") */
  verdict_basis?: "journal" | "fleet_plan";
  tables: {
    class_changed: Array<{ target: string; before: string | null; after: string | null }>;
    verdict_changed: Array<{ target: string; before: VerdictKey; after: VerdictKey }>;
    appeared: string[];
    cleared: string[];
  };
  executors: {
    added: unknown[];
    removed: unknown[];
    changed: Array<{ id: string; before: ExecutorFacts; after: ExecutorFacts }>;
  };
  policies: { changed: string[] };
  leader: { before: Leader; after: Leader };
  shadow: { before: Record<string, number> | null; after: Record<string, number> | null };
}

const BASIS_WORDS = {
  journal: "both sides read from the decision journal",
  fleet_plan: "re-planned where the decision journal does not cover a side",
} as const;
const side = (s: FleetDiff["from"]) => `revision ${s.revision}${s.at_ms === null ? "" : ` (${formatTime(s.at_ms)})`}`;
const leader = (l: Leader) => (l === null ? "no leader" : (l.instance ?? l.token ?? "unknown"));
const id = (e: unknown) => (typeof e === "string" ? e : ((e as { id?: string })?.id ?? JSON.stringify(e)));

/** A titled list, capped like every list here (the JSON answer has them all). */
function section(title: string, items: string[], max = 50): string[] {
  if (items.length === 0) return [`${title}: none`];
  const more = items.length > max ? [`  ${moreOf(items.length, max)}`] : [];
  return [`${title} (${formatCount(items.length)}):`, ...items.slice(0, max).map((i) => `  ${i}`), ...more];
}

export function diffText(d: FleetDiff): string {
  const outcomes = [...new Set([...Object.keys(d.shadow.before ?? {}), ...Object.keys(d.shadow.after ?? {})])];
  const shadow = outcomes
    .filter((o) => (d.shadow.before?.[o] ?? 0) !== (d.shadow.after?.[o] ?? 0))
    .map((o) => {
      const label = OUTCOME_MEANING[o as keyof typeof OUTCOME_MEANING]?.label ?? codeInWords(o);
      return `${label} ${formatCount(d.shadow.before?.[o] ?? 0)} → ${formatCount(d.shadow.after?.[o] ?? 0)}`;
    });
  const leaderLine =
    leader(d.leader.before) === leader(d.leader.after)
      ? `Leader: ${leader(d.leader.after)} (unchanged)`
      : `Leader: ${leader(d.leader.before)} → ${leader(d.leader.after)}`;
  return [
    `From ${side(d.from)} to ${side(d.to)}`,
    ...(d.verdict_basis === undefined ? [] : [`Verdicts: ${BASIS_WORDS[d.verdict_basis]}`]),
    ...section(
      "Class changed",
      rankByChange(
        d.tables.class_changed,
        (c) => classChangeSize(c.before, c.after),
        (c) => c.target,
      ).map((c) => `${c.target}: ${classInWords(c.before)} → ${classInWords(c.after)}`),
    ),
    ...section(
      "Verdict changed",
      rankByChange(
        d.tables.verdict_changed,
        (c) => verdictChangeSize(c.before, c.after),
        (c) => c.target,
      ).map((c) => `${c.target}: ${verdictInWords(c.before)} → ${verdictInWords(c.after)}`),
    ),
    ...section("Appeared", d.tables.appeared),
    ...section("Cleared", d.tables.cleared),
    ...section("Executors added", d.executors.added.map(id)),
    ...section("Executors removed", d.executors.removed.map(id)),
    ...section(
      "Executors changed",
      rankByChange(
        d.executors.changed.map((c) => ({ id: c.id, changes: executorChanges(c.before, c.after) })),
        (c) => c.changes.length,
        (c) => c.id,
      ).map((c) => `${c.id}: ${c.changes.join("; ") || "no change in words"}`),
    ),
    ...section(
      "Policies changed",
      d.policies.changed.map((t) => (t === "_default" ? "the fleet default" : t)),
    ),
    leaderLine,
    ...section("Shadow outcomes changed", shadow),
  ].join("\n");
}

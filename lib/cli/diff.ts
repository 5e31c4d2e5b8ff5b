// `scheduler-console diff --from … --to …`: what changed between two moments
// (console-api.md Additions, GET /api/v1/scheduler/diff), each side evaluated at its own time.
import { formatCount, formatTime } from "../../components/ui/format";
import { moreOf } from "./text";

type VerdictKey = { state: string; code?: string | null } | null;
type Leader = { instance?: string; token?: string } | null;

/** The diff answer as the contract names it; fields beyond it are ignored. */
export interface FleetDiff {
  from: { revision: number; at_ms: number | null };
  to: { revision: number; at_ms: number | null };
  tables: {
    class_changed: Array<{ target: string; before: string | null; after: string | null }>;
    verdict_changed: Array<{ target: string; before: VerdictKey; after: VerdictKey }>;
    appeared: string[];
    cleared: string[];
  };
  executors: { added: unknown[]; removed: unknown[]; changed: Array<{ id: string; before: unknown; after: unknown }> };
  policies: { changed: string[] };
  leader: { before: Leader; after: Leader };
  shadow: { before: Record<string, number> | null; after: Record<string, number> | null };
}

const side = (s: FleetDiff["from"]) => `revision ${s.revision}${s.at_ms === null ? "" : ` (${formatTime(s.at_ms)})`}`;
const verdict = (v: VerdictKey) => (v === null ? "none" : v.state === "would_skip" && v.code ? `would skip (${v.code})` : v.state.replace("_", " "));
const leader = (l: Leader) => (l === null ? "no leader" : (l.instance ?? l.token ?? "unknown"));
const id = (e: unknown) => (typeof e === "string" ? e : ((e as { id?: string })?.id ?? JSON.stringify(e)));

/** The fields of two records that differ, `name a → b`. */
function changedFields(before: unknown, after: unknown): string {
  if (typeof before !== "object" || typeof after !== "object" || before === null || after === null) return `${JSON.stringify(before)} → ${JSON.stringify(after)}`;
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return names.map((k) => `${k} ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`).join("; ");
}

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
    .map((o) => `${o} ${formatCount(d.shadow.before?.[o] ?? 0)} → ${formatCount(d.shadow.after?.[o] ?? 0)}`);
  const leaderLine = leader(d.leader.before) === leader(d.leader.after) ? `Leader: ${leader(d.leader.after)} (unchanged)` : `Leader: ${leader(d.leader.before)} → ${leader(d.leader.after)}`;
  return [
    `From ${side(d.from)} to ${side(d.to)}`,
    ...section("Class changed", d.tables.class_changed.map((c) => `${c.target}: ${c.before ?? "none"} → ${c.after ?? "none"}`)),
    ...section("Verdict changed", d.tables.verdict_changed.map((c) => `${c.target}: ${verdict(c.before)} → ${verdict(c.after)}`)),
    ...section("Appeared", d.tables.appeared),
    ...section("Cleared", d.tables.cleared),
    ...section("Executors added", d.executors.added.map(id)),
    ...section("Executors removed", d.executors.removed.map(id)),
    ...section("Executors changed", d.executors.changed.map((c) => `${c.id}: ${changedFields(c.before, c.after)}`)),
    ...section("Policies changed", d.policies.changed),
    leaderLine,
    ...section("Shadow outcomes changed", shadow),
  ].join("\n");
}

// `scheduler-console canary | facts | ready <table>`: the canary evidence, the fleet facts and
// the takeover gate in words (console-api.md "The takeover gate and the canary evidence").
import { OUTCOME_MEANING, plannerModeAmongMisses } from "../words/outcomes";
import { formatBytes, formatCount, formatDuration, formatTime } from "../words/format";
import type { CanaryResponse } from "../schema/api/canary";
import { MIN_CANARY_SAMPLES } from "../schema/codes";
import type { FactsResponse } from "../schema/api/fleet";
import type { GatesResponse } from "../schema/api/takeover";
import type { OutcomeName } from "../client/api-types";
import { columns } from "./text";

const num = (n: number | null, digits = 1) =>
  n === null ? "—" : n.toLocaleString("en-US", { maximumFractionDigits: digits });
const pct = (n: number | null | undefined) => (n == null ? "—" : `${(n * 100).toFixed(1)} %`);
const secs = (s: number | null | undefined) => (s == null ? "—" : formatDuration(s * 1000));

export function canaryText(r: CanaryResponse): string {
  const rows = Object.keys(r.outcomes) as OutcomeName[];
  const table = columns(rows, [
    { title: "OUTCOME", cell: (o) => o },
    { title: "NOW", cell: (o) => formatCount(r.current.outcomes[o]), align: "right" },
    { title: "MEAN", cell: (o) => num(r.outcomes[o].mean), align: "right" },
    {
      title: "FIRST→LAST",
      cell: (o) => `${num(r.outcomes[o].first, 0)}→${num(r.outcomes[o].last, 0)}`,
      align: "right",
    },
    { title: "TREND/DAY", cell: (o) => num(r.outcomes[o].trend_per_day), align: "right" },
    { title: "READ AS", cell: (o) => OUTCOME_MEANING[o]?.healthy ?? "" },
  ]);
  return [
    `Canary ${formatTime(r.from_ms)} → ${formatTime(r.to_ms)}: ${formatCount(r.samples)} samples${r.enough_data ? "" : ` — not enough data (fewer than ${MIN_CANARY_SAMPLES}): the trends say little yet`}`,
    "Observations, not a verdict (scheduler-model.md §6.2).",
    table,
    ...r.rising.map(
      (o) =>
        `WARNING: ${o} among tables in legacy mode rose over the window (${num(r.legacy_mode[o].first, 0)} → ${num(r.legacy_mode[o].last, 0)}); it ${OUTCOME_MEANING[o]?.healthy ?? "should fall"}.`,
    ),
    ...(plannerModeAmongMisses(r)
      ? [
          `Of the ${formatCount(r.current.outcomes.discovery_miss)} discovery misses now, ${formatCount(r.current.discovery_miss_in_planner_mode)} are tables in planner mode (the planner runs their merges: no legacy task is expected); the warning counts the tables in legacy mode only.`,
        ]
      : []),
    `Placements agreed in ${pct(r.agreement.placements_agree_share)} of ${formatCount(r.agreement.samples)} samples; now they ${r.current.placements_agree ? "agree" : "differ"}.`,
    r.chronic.length === 0 ? "Chronic disagreements: none." : `Chronic disagreements (${r.chronic.length}):`,
    ...r.chronic.map(
      (c) =>
        `  ${c.target}  ${c.outcome}  ${pct(c.share)} of samples${c.in_planner_mode ? "  (in planner mode: the planner runs it)" : ""}`,
    ),
    `Evidence digest: ${r.digest}`,
  ].join("\n");
}

export function factsText(f: FactsResponse): string {
  const kinds = Object.keys(f.task_failure_share);
  return [
    `Fleet facts at revision ${f.revision}; tasks finished ${formatTime(f.from_ms)} → ${formatTime(f.to_ms)} (nearest-rank)`,
    `Tables: ${formatCount(f.tables)}, ${pct(f.hot_share)} with pending work`,
    `Generation size: p50 ${formatBytes(f.generation_bytes.p50)}, p90 ${formatBytes(f.generation_bytes.p90)}, p99 ${formatBytes(f.generation_bytes.p99)}, max ${formatBytes(f.generation_bytes.max)}`,
    kinds.length === 0
      ? "Tasks: none finished in the window."
      : columns(kinds, [
          { title: "KIND", cell: (k) => k },
          { title: "TIMED", cell: (k) => formatCount(f.task_seconds[k]?.count ?? 0), align: "right" },
          { title: "P50", cell: (k) => secs(f.task_seconds[k]?.p50), align: "right" },
          { title: "P90", cell: (k) => secs(f.task_seconds[k]?.p90), align: "right" },
          { title: "P99", cell: (k) => secs(f.task_seconds[k]?.p99), align: "right" },
          { title: "FAILED", cell: (k) => pct(f.task_failure_share[k]), align: "right" },
        ]),
    "Implies:",
    `  critical_generations ${f.implies.critical_generations ?? "—"} (the p99 of pending generations)`,
    `  max_turn_wait_secs ${f.implies.max_turn_wait_secs ?? "—"} (ten p99 merges)`,
    `  expected bytes ${formatBytes(f.implies.expected_bytes)} (2 × max(64 MiB, p99 generation))`,
  ].join("\n");
}

export function readyText(g: GatesResponse): string {
  return [
    g.ready
      ? `${g.target} may switch to mode planner: every gate passes.`
      : `${g.target} cannot switch to mode planner yet (a save answers takeover_not_ready):`,
    ...g.gates.map((x) => `  ${x.ok ? "ok  " : "FAIL"} ${x.gate}: ${x.detail}`),
  ].join("\n");
}

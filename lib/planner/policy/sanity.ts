// Warnings for effective values that are valid but far outside sane ranges (console-api.md
// Additions "Policy edits an admin can trust"). They never block a save; each names the
// range it leaves and why the range matters. Pure.
import type { EffectivePolicy, PolicyDocument } from "@/lib/schema/policy";
import { POLICY_TURN_KINDS } from "@/lib/schema/policy";
import { formatCount } from "@/lib/schema/format";

export interface PolicyWarning {
  /** dot path of the field the warning is about */
  path: string;
  message: string;
  /** the sane range, e.g. "1 to 4,096 generations" */
  range: string;
}

/** scheduler-model.md §4.2: the read path warns at 256 pending generations and answers writers 503 at 4,096. */
const WRITE_WARN_GENERATIONS = 256;
const WRITE_CLIFF_GENERATIONS = 4096;
const DAY_SECS = 86_400;
const TIB = 1_099_511_627_776;
const MAX_SANE_TURNS = 100;

const n = formatCount;

interface Rule {
  path: string;
  value: (p: EffectivePolicy) => number | undefined;
  max: number;
  range: string;
  why: (v: number) => string;
}

const RULES: Rule[] = [
  {
    path: "merge.critical_generations",
    value: (p) => p.merge.critical_generations,
    max: WRITE_CLIFF_GENERATIONS,
    range: `1 to ${n(WRITE_CLIFF_GENERATIONS)} generations`,
    why: (v) =>
      `A table becomes critical at ${n(v)} pending generations, above the ${n(WRITE_CLIFF_GENERATIONS)}-generation write cliff: writers get HTTP 503 before the table is treated as critical.`,
  },
  {
    path: "merge.min_generations",
    value: (p) => p.merge.min_generations,
    max: WRITE_WARN_GENERATIONS,
    range: `1 to ${n(WRITE_WARN_GENERATIONS)} generations`,
    why: (v) =>
      `A merge is not due before ${n(v)} pending generations; writers are already warned at ${n(WRITE_WARN_GENERATIONS)}.`,
  },
  {
    path: "backlog.critical_generations",
    value: (p) => p.backlog.critical_generations,
    max: WRITE_CLIFF_GENERATIONS,
    range: `1 to ${n(WRITE_CLIFF_GENERATIONS)} generations`,
    why: (v) =>
      `The backlog reads critical only at ${n(v)} pending generations, above the ${n(WRITE_CLIFF_GENERATIONS)}-generation write cliff.`,
  },
  {
    path: "merge.max_age_secs",
    value: (p) => p.merge.max_age_secs,
    max: DAY_SECS,
    range: `1 to ${n(DAY_SECS)} seconds (one day)`,
    why: (v) => `Age adds to the merge score only over ${n(v)} seconds (${(v / DAY_SECS).toFixed(1)} days).`,
  },
  {
    path: "merge.min_bytes",
    value: (p) => p.merge.min_bytes,
    max: TIB,
    range: `0 to ${n(TIB)} bytes (1 TiB)`,
    why: (v) => `A merge is due by size only after ${n(v)} pending bytes.`,
  },
  ...POLICY_TURN_KINDS.map((k): Rule => ({
    path: `max_turn_wait_secs.${k}`,
    value: (p) => p.max_turn_wait_secs[k],
    max: DAY_SECS,
    range: `0 to ${n(DAY_SECS)} seconds (one day)`,
    why: (v) =>
      `A ${k} unit is promoted for age only after ${n(v)} seconds (${(v / DAY_SECS).toFixed(1)} days) of waiting.`,
  })),
  ...POLICY_TURN_KINDS.map((k): Rule => ({
    path: `max_consecutive_turns.${k}`,
    value: (p) => p.max_consecutive_turns[k],
    max: MAX_SANE_TURNS,
    range: `1 to ${MAX_SANE_TURNS} turns`,
    why: (v) => `${k} may take ${n(v)} write turns in a row before another kind gets one.`,
  })),
];

/** Warnings for the effective policy, about the fields `doc` itself sets (inherited values were warned about where they are set). */
export function policyWarnings(effective: EffectivePolicy, doc: PolicyDocument): PolicyWarning[] {
  const out: PolicyWarning[] = [];
  for (const rule of RULES) {
    const v = rule.value(effective);
    if (v === undefined || v <= rule.max || !setsPath(doc, rule.path)) continue;
    out.push({ path: rule.path, message: `${rule.why(v)} Sane range: ${rule.range}.`, range: rule.range });
  }
  if (
    effective.kinds_allowed.length > 0 &&
    !effective.kinds_allowed.includes("MergeWal") &&
    setsPath(doc, "kinds_allowed")
  ) {
    out.push({
      path: "kinds_allowed",
      message: "MergeWal is not allowed: pending generations will only grow, up to the write cliff.",
      range: "MergeWal included",
    });
  }
  return out;
}

function setsPath(doc: unknown, path: string): boolean {
  let cur: unknown = doc;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur !== undefined && cur !== null;
}

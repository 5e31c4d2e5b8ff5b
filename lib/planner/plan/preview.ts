// Policy preview (console-api.md `POST /policies/{target}/preview` and Additions "Policy
// edits an admin can trust"): plan the same revision with the stored policies and with the
// proposed document, list the tables whose class, score or verdict would change, and sum
// up the blast radius (placements lost and gained, promotions, demotions, new starvation).
// Writes nothing; pure.
import { DEFAULT_POLICY_TARGET, type PolicyDocument } from "@/lib/schema/policy";
import type { PlannerFleet } from "./input";
import { planSteps, STEP_TABLES, toEnd } from "./full-plan";
import type { FleetPlan, TablePlan } from "./types";

interface PreviewSide {
  class: TablePlan["class"];
  class_rank: number;
  score: TablePlan["score"];
  verdict: TablePlan["verdict"];
}

const PREVIEW_EFFECTS = ["placements_lost", "placements_gained", "promoted", "demoted", "newly_starving"] as const;
type PreviewEffect = (typeof PREVIEW_EFFECTS)[number];

interface PreviewRow {
  target: string;
  before: PreviewSide;
  after: PreviewSide;
  /** which of the summary's counts this table is part of */
  effects: PreviewEffect[];
}

export interface PolicyPreview {
  changed: PreviewRow[];
  unchanged_count: number;
  summary: Record<PreviewEffect, number>;
  /** how many tables would run under each effective `mode` (§7.3: what the master reads depends on it) */
  modes: Partial<Record<TablePlan["policy"]["effective"]["mode"], number>>;
}

/** The fleet with `proposed` stored for `target` (`_default` = the fleet default; null = delete). */
function withPolicy(fleet: PlannerFleet, target: string, proposed: PolicyDocument | null): PlannerFleet {
  if (target === DEFAULT_POLICY_TARGET) return { ...fleet, policies: { ...fleet.policies, default: proposed } };
  const tables = new Map(fleet.policies.tables);
  if (proposed) tables.set(target, proposed);
  else tables.delete(target);
  return { ...fleet, policies: { ...fleet.policies, tables } };
}

const side = (t: TablePlan): PreviewSide => ({
  class: t.class,
  class_rank: t.class_rank,
  score: t.score,
  verdict: t.verdict,
});

function sameVerdict(a: TablePlan["verdict"], b: TablePlan["verdict"]): boolean {
  if (a.state !== b.state) return false;
  if (a.state === "would_place" && b.state === "would_place") {
    return a.executor === b.executor && a.reserved_bytes === b.reserved_bytes && a.kind === b.kind;
  }
  return a.state === "would_skip" && b.state === "would_skip" && a.code === b.code && a.message === b.message;
}

/**
 * [PROPOSAL] A table starves when it has pending generations and the plan gives it no turn
 * that comes by itself: its skip is one someone must clear (a why-not that is not
 * retryable, §5.6(f): frozen, draining, kind or executor not allowed, no executors, needs
 * attention), or it is held as a tail below the merge threshold while its backlog already
 * warns writers (§4.2 backlog_class warn or critical: ≥ 256 pending by default).
 */
export function isStarving(t: TablePlan): boolean {
  if (t.pending_generations === 0 || t.verdict.state !== "would_skip") return false;
  const code = t.verdict.code;
  const retryable = t.why_not.find((w) => w.code === code)?.retryable ?? true;
  if (!retryable) return true;
  return t.class === "tail" && t.backlog_class !== "ok";
}

function effectsOf(
  before: TablePlan,
  after: TablePlan,
  placedBefore: Set<string>,
  placedAfter: Set<string>,
): PreviewEffect[] {
  const effects: PreviewEffect[] = [];
  if (placedBefore.has(before.target) && !placedAfter.has(after.target)) effects.push("placements_lost");
  if (!placedBefore.has(before.target) && placedAfter.has(after.target)) effects.push("placements_gained");
  if (after.class_rank < before.class_rank) effects.push("promoted");
  if (after.class_rank > before.class_rank) effects.push("demoted");
  if (isStarving(after) && !isStarving(before)) effects.push("newly_starving");
  return effects;
}

const placedTargets = (plan: FleetPlan) => new Set(plan.placements.map((p) => p.target));

/** Tables whose class, score or verdict differ (or that carry an effect), in the proposed plan's planner order. */
export function previewPolicy(
  fleet: PlannerFleet,
  target: string,
  proposed: PolicyDocument | null,
  now: number,
): PolicyPreview {
  return toEnd(previewPolicyInSteps(fleet, target, proposed, now));
}

/**
 * `previewPolicy` in steps: the two plans of the fleet pause as the clock's plan does
 * (./full-plan.ts `planSteps`, every STEP_TABLES tables), and so does the comparison, so a
 * caller can preview 13k tables without holding the thread for the whole of it
 * (lib/policies/preview.ts). The same code either way: the result does not depend on when,
 * or whether, the caller pauses.
 */
export function* previewPolicyInSteps(
  fleet: PlannerFleet,
  target: string,
  proposed: PolicyDocument | null,
  now: number,
): Generator<void, PolicyPreview> {
  const beforePlan = (yield* planSteps(fleet, now, false)).plan;
  yield;
  const afterPlan = (yield* planSteps(withPolicy(fleet, target, proposed), now, false)).plan;
  yield;
  const placedBefore = placedTargets(beforePlan);
  const placedAfter = placedTargets(afterPlan);
  const summary = Object.fromEntries(PREVIEW_EFFECTS.map((e) => [e, 0])) as Record<PreviewEffect, number>;
  const changed: PreviewRow[] = [];
  const modes: PolicyPreview["modes"] = {};
  let compared = 0;
  for (const next of afterPlan.tables) {
    if (++compared % STEP_TABLES === 0) yield;
    modes[next.policy.effective.mode] = (modes[next.policy.effective.mode] ?? 0) + 1;
    const prev = beforePlan.byTarget.get(next.target);
    if (!prev) continue;
    const effects = effectsOf(prev, next, placedBefore, placedAfter);
    if (
      effects.length > 0 ||
      prev.class !== next.class ||
      prev.score !== next.score ||
      !sameVerdict(prev.verdict, next.verdict)
    ) {
      changed.push({ target: next.target, before: side(prev), after: side(next), effects });
      for (const e of effects) summary[e]++;
    }
  }
  return { changed, unchanged_count: afterPlan.tables.length - changed.length, summary, modes };
}

/** The targets in each effect set, sorted: what a save decides (console-api.md third version). */
export type DecisionSets = Record<PreviewEffect, string[]>;

export function decisionSets(preview: PolicyPreview): DecisionSets {
  const sets = Object.fromEntries(PREVIEW_EFFECTS.map((e) => [e, [] as string[]])) as DecisionSets;
  for (const row of preview.changed) for (const e of row.effects) sets[e].push(row.target);
  for (const e of PREVIEW_EFFECTS) sets[e].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sets;
}

/**
 * What a preview's digest binds (console-api.md "Policy edits on a live fleet"): the
 * decision sets — the targets that lose or gain a placement, are promoted, demoted or
 * newly starve. Scores, classes and verdict details that move with the clock or with
 * headroom while the admin reads are left out: they do not change what the save decides.
 */
export function previewEffect(preview: PolicyPreview): string {
  const sets = decisionSets(preview);
  return JSON.stringify(PREVIEW_EFFECTS.map((e) => [e, sets[e]]));
}

interface SetChange {
  added: string[];
  removed: string[];
}
export type DecisionChanges = Record<PreviewEffect, SetChange>;

/** Per effect, the targets in `fresh` but not in `reviewed` (added) and the reverse (removed). */
export function decisionChanges(reviewed: DecisionSets, fresh: DecisionSets): DecisionChanges {
  const out = {} as DecisionChanges;
  for (const e of PREVIEW_EFFECTS) {
    const was = new Set(reviewed[e]);
    const now = new Set(fresh[e]);
    out[e] = { added: fresh[e].filter((t) => !was.has(t)), removed: reviewed[e].filter((t) => !now.has(t)) };
  }
  return out;
}

/** The changes left after dropping `targets` (e.g. tables whose own records moved); empty sets mean none. */
export function changesExcept(changes: DecisionChanges, skip: (target: string) => boolean): DecisionChanges {
  const out = {} as DecisionChanges;
  for (const e of PREVIEW_EFFECTS)
    out[e] = { added: changes[e].added.filter((t) => !skip(t)), removed: changes[e].removed.filter((t) => !skip(t)) };
  return out;
}

export const noDecisionChange = (changes: DecisionChanges) =>
  PREVIEW_EFFECTS.every((e) => changes[e].added.length === 0 && changes[e].removed.length === 0);

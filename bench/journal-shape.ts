// The production fleet's shape as the decision journal sees it, shared by the journal
// benches (./journal.ts writes it, ./journal-history.ts reads a window of it back): 13,405
// tables, 354 of them busy, a flush every 5 s and a checkpoint every 30 min.
import type { TableState } from "../lib/journal/entry";

export { rng } from "../lib/sim/seed-kv";

export const TABLES = 13_405;
export const BUSY = 354;
export const FLUSH_MS = 5000;
export const CHECKPOINT_MS = 1_800_000;
const CODES = ["no_free_slot", "cycle_limit", "write_turn_held", "tail_below_threshold", "insufficient_bytes"] as const;
const BUSY_CLASSES = ["normal", "critical", "tail"] as const;

export const idle: TableState = {
  class: "idle",
  verdict: { state: "would_skip", code: "no_demand", executor: null },
  write_turn: null,
  shadow_outcome: null,
  demand: { head: "other", pending_generations: 0, score: 0, since_ms: null },
};

/** A busy table's entry, drawn from `r` (its demand facts: a merge head, lib/journal/demand.ts). */
export function busyState(r: () => number): TableState {
  const place = r() < 0.1;
  const pending = 1 + Math.floor(r() * 300);
  const oldest = 1_780_000_000_000 + Math.floor(r() * 3_600_000);
  return {
    class: BUSY_CLASSES[Math.floor(r() * 3)],
    verdict: place
      ? { state: "would_place", code: null, executor: `worker-${Math.floor(r() * 6)}` }
      : { state: "would_skip", code: CODES[Math.floor(r() * CODES.length)], executor: null },
    write_turn: r() < 0.05 ? "held" : null,
    shadow_outcome: place ? "running" : r() < 0.5 ? "queued_only" : null,
    demand: {
      head: "merge",
      pending_generations: pending,
      pending_bytes: pending * 4_194_304,
      wait_floor_ms: oldest,
      exact_ms: oldest,
      thresholds: {
        min_generations: 8,
        min_bytes: 0,
        max_age_secs: 3600,
        critical_generations: 256,
        max_turn_wait_secs: 3600,
      },
    },
  };
}

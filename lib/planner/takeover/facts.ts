// The design's open questions answered from the fleet's own records (console-api.md "The
// takeover gate and the canary evidence", `GET /fleet/facts`): the table count and hot
// share, the generation size distribution, task durations and failure shares per kind, and
// what they imply for the policy's knobs. Pure: `now` and the window are parameters.
import type { TaskRecord } from "@/lib/schema/tasks";

/** Nearest-rank percentile of ascending `sorted` (null when empty): the ⌈p/100 · n⌉-th value. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

export interface Percentiles {
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

function percentilesOf(values: readonly number[]): Percentiles & { count: number; max: number | null } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    p99: nearestRank(sorted, 99),
    count: sorted.length,
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

export interface TableLoad {
  pending_generations: number;
  pending_bytes: number;
}

export interface TaskFacts {
  task_seconds: Record<string, Percentiles & { count: number }>;
  task_failure_share: Record<string, number>;
}

/** Tasks finished in (fromMs, toMs]: durations of those with both times, failed ÷ finished per kind. */
export function taskFacts(tasks: Iterable<TaskRecord>, fromMs: number, toMs: number): TaskFacts {
  const seconds = new Map<string, number[]>();
  const finished = new Map<string, { all: number; failed: number }>();
  for (const t of tasks) {
    if (
      (t.state !== "done" && t.state !== "failed") ||
      t.finished_at == null ||
      t.finished_at <= fromMs ||
      t.finished_at > toMs
    )
      continue;
    const f = finished.get(t.kind) ?? { all: 0, failed: 0 };
    f.all += 1;
    if (t.state === "failed") f.failed += 1;
    finished.set(t.kind, f);
    if (t.started_at != null && t.finished_at >= t.started_at) {
      const list = seconds.get(t.kind) ?? [];
      list.push((t.finished_at - t.started_at) / 1000);
      seconds.set(t.kind, list);
    }
  }
  const task_seconds: TaskFacts["task_seconds"] = {};
  for (const [kind, list] of [...seconds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { p50, p90, p99, count } = percentilesOf(list);
    task_seconds[kind] = { count, p50, p90, p99 };
  }
  const task_failure_share: Record<string, number> = {};
  for (const [kind, f] of [...finished].sort(([a], [b]) => (a < b ? -1 : 1)))
    task_failure_share[kind] = f.failed / f.all;
  return { task_seconds, task_failure_share };
}

/** §5.3: the per-pass target a merge reads (ROLLOUT_APPEND_MAX_BYTES, 64 MiB). */
const PASS_TARGET_BYTES = 67_108_864;

export interface Implications {
  critical_generations: number | null;
  max_turn_wait_secs: number | null;
  expected_bytes: number | null;
}

/**
 * What the facts suggest (a starting point an admin previews, never applied by itself):
 * * critical_generations — the p99 of pending generations: the top 1 % of backlogs jump the
 *   queue (§4.1 class 1), at least 8 (min_generations) and at most 4,096 (the write cliff);
 * * max_turn_wait_secs — ten p99 merges: a table passed over for ten whole merges is promoted
 *   (§4.1 `promoted_for_age`), at least 60 s;
 * * expected bytes — §5.3's older rule with the p99 generation instead of the average:
 *   2 × max(64 MiB, p99 generation bytes).
 */
export function implications(
  pendingGenerations: readonly number[],
  generationBytesP99: number | null,
  mergeSecondsP99: number | null,
): Implications {
  const p99 = nearestRank(
    [...pendingGenerations].sort((a, b) => a - b),
    99,
  );
  return {
    critical_generations: p99 === null ? null : Math.min(4096, Math.max(8, Math.ceil(p99))),
    max_turn_wait_secs: mergeSecondsP99 === null ? null : Math.max(60, Math.ceil(mergeSecondsP99 * 10)),
    expected_bytes: generationBytesP99 === null ? null : 2 * Math.max(PASS_TARGET_BYTES, Math.ceil(generationBytesP99)),
  };
}

/** Tables, hot share and each pending table's average generation. */
export function loadFacts(tables: readonly TableLoad[]) {
  const pending = tables.filter((t) => t.pending_generations > 0);
  const generationBytes = pending.map((t) => t.pending_bytes / t.pending_generations);
  return {
    tables: tables.length,
    hot_share: tables.length === 0 ? null : pending.length / tables.length,
    generation_bytes: percentilesOf(generationBytes),
    pending_generations: pending.map((t) => t.pending_generations),
  };
}

import "server-only";
// GET /api/v1/scheduler/failures: the merge failure ledger with the read-time correction
// (§9.1) and task cooldowns (§9.2); needs-attention first, then soonest retry.
import { correctOnRead } from "@/lib/planner/failure-ledger";
import { isCooling } from "@/lib/planner/cooldown";
import { overdueMs } from "@/lib/planner/deadline";
import { compareTargets } from "@/lib/planner/order";
import type { CooldownRow, FailureRow, FailuresQuery, FailuresResponse } from "@/lib/schema/api/failures";
import type { FleetView } from "@/lib/live/cache";
import { snapshotMeta, type Evaluation } from "@/lib/live/evaluation";

export function failureRows(view: FleetView, now: number, target?: string): FailureRow[] {
  const rows: FailureRow[] = [];
  for (const { failure } of view.snapshot.mergeFailures) {
    if (target !== undefined && failure.target !== target) continue;
    const { record, corrected } = correctOnRead(failure);
    rows.push({
      target: record.target,
      endpoint: record.endpoint,
      class: record.class,
      stored_class: failure.class,
      consecutive_attempts: record.consecutive_attempts,
      needs_attention: record.needs_attention,
      next_retry_ms: record.next_retry_ms,
      last_failure_ms: record.last_failure_ms,
      last_error: record.last_error,
      corrected,
      retry_in_ms: Math.max(0, record.next_retry_ms - now),
      overdue_ms: overdueMs(record.next_retry_ms, now),
    });
  }
  return rows.sort(
    (a, b) =>
      Number(b.needs_attention) - Number(a.needs_attention) ||
      a.next_retry_ms - b.next_retry_ms ||
      compareTargets(a.target, b.target) ||
      compareTargets(a.endpoint, b.endpoint),
  );
}

export function cooldownRows(view: FleetView, now: number, target?: string): CooldownRow[] {
  const rows: CooldownRow[] = [];
  for (const { cooldown } of view.snapshot.cooldowns) {
    if (target !== undefined && cooldown.target !== target) continue;
    rows.push({
      kind: cooldown.kind,
      target: cooldown.target,
      failures: cooldown.failures,
      until_ms: cooldown.until_ms,
      cooling: isCooling(cooldown, now),
      overdue_ms: overdueMs(cooldown.until_ms, now),
      last_error: cooldown.last_error,
    });
  }
  return rows.sort(
    (a, b) =>
      Number(b.cooling) - Number(a.cooling) ||
      (a.until_ms ?? 0) - (b.until_ms ?? 0) ||
      compareTargets(a.target, b.target) ||
      compareTargets(a.kind, b.kind),
  );
}

export function failuresResponse(view: FleetView, query: FailuresQuery, evaluation: Evaluation): FailuresResponse {
  const { now } = evaluation;
  let failures = failureRows(view, now, query.target);
  if (query.needs_attention !== undefined)
    failures = failures.filter((f) => f.needs_attention === query.needs_attention);
  return { ...snapshotMeta(view, evaluation), now_ms: now, failures, cooldowns: cooldownRows(view, now, query.target) };
}

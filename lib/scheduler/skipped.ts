import "server-only";
// GET /api/v1/scheduler/skipped and the `skipped` summary of list responses (console-api.md
// "Conventions": records that fail to parse are skipped and counted, never fatal).
import type { FleetSnapshot } from "@/lib/snapshot/types";
import type { SkippedResponse } from "@/lib/schema/api/skipped";
import type { FleetView } from "@/lib/live/cache";
import { snapshotMeta, type Evaluation } from "@/lib/live/evaluation";

export function skippedSummary(snapshot: FleetSnapshot): { total: number; by_reason: Record<string, number> } {
  const by_reason: Record<string, number> = {};
  for (const s of snapshot.skipped) by_reason[s.reason] = (by_reason[s.reason] ?? 0) + 1;
  return { total: snapshot.skipped.length, by_reason };
}

export function skippedResponse(view: FleetView, evaluation?: Evaluation): SkippedResponse {
  return {
    ...snapshotMeta(view, evaluation),
    skipped: view.snapshot.skipped.map((s) => ({
      key: s.key,
      family: s.family,
      reason: s.reason,
      detail: s.detail ?? null,
    })),
  };
}

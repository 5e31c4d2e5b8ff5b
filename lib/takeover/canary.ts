import "server-only";
// GET /api/v1/canary (console-api.md "The takeover gate and the canary evidence"): the shadow
// outcomes over a window as observations and their trend (scheduler-model.md §6.2, never a
// pass/fail verdict), the placement agreement, the chronic tables, and the comparison at the
// answer's revision (live, or the pin: the window then ends at the revision's time).
import { createHash } from "node:crypto";
import { canaryHistoryReport, inPlannerMode, type CanaryHistoryReport } from "@/lib/planner/takeover/canary";
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import { EVIDENCE_WINDOWS_MS } from "@/lib/schema/api/fleet";
import type { CanaryQuery, CanaryResponse, CanarySample } from "@/lib/schema/api/canary";
import type { OutcomeCounts } from "@/lib/schema/api/shadow";
import { readCanaryHistory } from "./canary-history";
import { placementsAgreeAtMasterPass } from "./canary-sample";
import { fleetView } from "@/lib/live/fleet-view";
import { shadowFor } from "@/lib/live/plan";

/**
 * The digest binds the window and the observations it rests on (not the live comparison,
 * which moves with every revision): an admin who read this report sends it back as
 * X-Evidence-Digest (./gates.ts).
 */
function evidenceDigest(windowMs: number, toMs: number, report: CanaryHistoryReport): string {
  const basis = JSON.stringify({
    window_ms: windowMs,
    to_ms: toMs,
    samples: report.samples,
    outcomes: report.outcomes,
    legacy_mode: report.legacy_mode,
    agreement: report.agreement,
    chronic: report.chronic,
  });
  return createHash("sha256").update(basis).digest("hex").slice(0, 32);
}

/** A report ends at the last sample of the hour before `endMs` (so it stays the same until the next sample), else at `endMs`. */
const SAMPLE_SLACK_MS = 3_600_000;

function windowReport(samples: readonly CanarySample[], windowMs: number, endMs: number) {
  const last = samples.findLast((s) => s.at_ms <= endMs);
  const toMs = last && last.at_ms > endMs - SAMPLE_SLACK_MS ? last.at_ms : endMs;
  const inWindow = samples.filter((s) => s.at_ms > toMs - windowMs && s.at_ms <= toMs);
  const report = canaryHistoryReport(inWindow);
  return { fromMs: toMs - windowMs, toMs, report, digest: evidenceDigest(windowMs, toMs, report) };
}

export async function canaryReport(query: CanaryQuery): Promise<CanaryResponse> {
  const planned = await shadowFor(await fleetView(query.revision), query);
  const endMs = planned.evaluation.now;
  // pinned: the samples as they were at the revision (one written later, dated inside the
  // window by the revision's estimated time, is not part of that moment)
  const samples = await readCanaryHistory(
    endMs - query.window_ms - SAMPLE_SLACK_MS,
    endMs,
    query.revision === undefined ? undefined : planned.view.revision,
  );
  const { fromMs, toMs, report, digest } = windowReport(samples, query.window_ms, endMs);
  const outcomes = {} as OutcomeCounts;
  for (const o of SHADOW_OUTCOMES) outcomes[o] = planned.comparison.counts[o];
  return {
    revision: planned.view.revision,
    now_ms: planned.now,
    window_ms: query.window_ms,
    from_ms: fromMs,
    to_ms: toMs,
    ...report,
    chronic: report.chronic.map((c) => ({ ...c, in_planner_mode: inPlannerMode(planned.plan, c.target) })),
    current: {
      revision: planned.view.revision,
      outcomes,
      discovery_miss_in_planner_mode: planned.missesInPlannerMode,
      placements_agree: await placementsAgreeAtMasterPass(planned),
    },
    digest,
  };
}

/**
 * The digests an admin may have read in the last `recentMs`: every window's report ending at
 * each sample of that span (a new sample arrives every minute; reading and saving may take a few).
 */
export async function recentEvidenceDigests(nowMs: number, recentMs: number): Promise<Set<string>> {
  const longest = Math.max(...EVIDENCE_WINDOWS_MS);
  const samples = await readCanaryHistory(nowMs - recentMs - longest - SAMPLE_SLACK_MS, nowMs);
  const ends = samples.filter((s) => s.at_ms > nowMs - recentMs).map((s) => s.at_ms);
  if (ends.length === 0) ends.push(nowMs);
  const digests = new Set<string>();
  for (const end of ends) for (const w of EVIDENCE_WINDOWS_MS) digests.add(windowReport(samples, w, end).digest);
  return digests;
}

import "server-only";
// The takeover gate (console-api.md "The takeover gate and the canary evidence"): a policy
// save that switches a table (or `_default`, the fleet) to `mode: "planner"` answers
// `409 takeover_not_ready` with its gates, and writes nothing, while any gate fails:
// * fleet_homogeneous — every resident master applies policies (./fleet-masters.ts);
// * observed_days — at least CONSOLE_TAKEOVER_MIN_DAYS of shadow observations of the table in
//   the decision journal (./observed-days.ts); until then the detail says how many it has;
// * evidence_read — X-Evidence-Digest is the digest of a canary report of the last
//   EVIDENCE_RECENT_MS (./canary.ts): the admin read the evidence before switching.
// X-Override-Gates (comma list) with X-Override-Reason overrides named gates; the audit
// entry records which, and why. The policy PUT calls `checkTakeover` (lib/policies/policies.ts).
import { journalEnv, takeoverEnv } from "@/lib/config/env";
import type { PolicyDocument } from "@/lib/schema/policy";
import {
  TAKEOVER_GATES,
  type GatesResponse,
  type TakeoverGate,
  type TakeoverGateName,
} from "@/lib/schema/api/takeover";
import { recentEvidenceDigests } from "./canary";
import { ApiError } from "@/lib/schema/api/errors";
import { fleetView } from "@/lib/live/fleet-view";
import { mastersOf } from "./fleet-masters";
import { observedDaysDetail, observedTime } from "./observed-days";

/** how old a canary report may be when its digest comes back (a sample arrives every minute) */
const EVIDENCE_RECENT_MS = 15 * 60_000;

export interface GateHeaders {
  evidence: string | null;
  overrideGates: string | null;
  overrideReason: string | null;
}

export const NO_GATE_HEADERS: GateHeaders = { evidence: null, overrideGates: null, overrideReason: null };

export function gateHeaders(request: Request): GateHeaders {
  const h = request.headers;
  return {
    evidence: h.get("x-evidence-digest"),
    overrideGates: h.get("x-override-gates"),
    overrideReason: h.get("x-override-reason"),
  };
}

/** The gates of switching `target` to planner now (every gate evaluated, none short-circuits). */
async function takeoverGates(target: string, evidence: string | null, nowMs: number): Promise<TakeoverGate[]> {
  const env = takeoverEnv();
  const fleet = mastersOf(await fleetView(), env.policyAwareVersion);
  const aware = fleet.masters.filter((m) => m.policy_aware).length;
  const behind = fleet.masters
    .filter((m) => !m.policy_aware)
    .map((m) => `${m.instance} runs ${m.version ?? "no version"}`);
  const homogeneousDetail =
    env.policyAwareVersion === null
      ? "CONSOLE_POLICY_AWARE_VERSION is unset, so no master is known to apply policies."
      : fleet.masters.length === 0
        ? "No resident master heartbeats: nothing would apply the policy."
        : `${aware} of ${fleet.masters.length} masters apply policies (${env.policyAwareVersion} or later)${behind.length ? `; ${behind.join(", ")}` : ""}.`;
  const observed = await observedTime(target, nowMs);
  const observedDetail = observedDaysDetail(target, observed, env.minDays, journalEnv().retentionMs);
  let evidenceOk = false;
  let evidenceDetail = "No X-Evidence-Digest: read the canary report (/canary) first; its digest comes with the save.";
  if (evidence !== null && evidence.trim() !== "") {
    evidenceOk = (await recentEvidenceDigests(nowMs, EVIDENCE_RECENT_MS)).has(evidence.trim());
    evidenceDetail = evidenceOk
      ? "The canary report you read is the current one."
      : "The digest is not one of a canary report of the last 15 minutes: read the report again.";
  }
  return [
    { gate: "fleet_homogeneous", ok: fleet.homogeneous, detail: homogeneousDetail },
    { gate: "observed_days", ok: observed.days >= env.minDays, detail: observedDetail },
    { gate: "evidence_read", ok: evidenceOk, detail: evidenceDetail },
  ];
}

/** What the audit entry records of a save that passed the gate (empty when none was overridden). */
export type GateAudit = {
  overridden_gates?: TakeoverGateName[];
  override_reason?: string;
};

const switchesToPlanner = (before: PolicyDocument | null, after: PolicyDocument | null) =>
  after?.mode === "planner" && before?.mode !== "planner";

function parseOverride(headers: GateHeaders): { names: TakeoverGateName[]; reason: string | null } {
  const names = (headers.overrideGates ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((n) => !(TAKEOVER_GATES as readonly string[]).includes(n));
  const issues = [
    ...(unknown.length
      ? [
          {
            path: "override_gates",
            message: `unknown gate ${unknown.join(", ")}; gates are ${TAKEOVER_GATES.join(", ")}`,
          },
        ]
      : []),
    ...(names.length && !(headers.overrideReason ?? "").trim()
      ? [
          {
            path: "override_reason",
            message: "overriding a gate needs its own reason (X-Override-Reason, 1 to 500 characters)",
          },
        ]
      : []),
    ...((headers.overrideReason ?? "").trim().length > 500
      ? [{ path: "override_reason", message: "X-Override-Reason is at most 500 characters" }]
      : []),
  ];
  if (issues.length)
    throw new ApiError(422, "invalid_policy", issues.map((i) => `${i.path}: ${i.message}`).join("; "), { issues });
  return {
    names: names as TakeoverGateName[],
    reason: names.length ? decodeURIComponentSafe(headers.overrideReason!.trim()) : null,
  };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return /%[0-9a-f]{2}/i.test(s) ? decodeURIComponent(s) : s;
  } catch {
    return s;
  }
}

/**
 * The hook of the policy PUT: nothing to check unless the save switches to planner; else
 * 409 takeover_not_ready (with every gate) while a gate that is not overridden fails.
 */
export async function checkTakeover(
  target: string,
  before: PolicyDocument | null,
  after: PolicyDocument | null,
  headers: GateHeaders,
): Promise<GateAudit> {
  if (!switchesToPlanner(before, after)) return {};
  const override = parseOverride(headers);
  const gates = await takeoverGates(target, headers.evidence, Date.now());
  const blocking = gates.filter((g) => !g.ok && !override.names.includes(g.gate));
  if (blocking.length > 0) {
    throw new ApiError(
      409,
      "takeover_not_ready",
      `${target} cannot switch to mode planner yet: ${blocking.map((g) => g.detail).join(" ")}`,
      { gates },
    );
  }
  const overridden = gates.filter((g) => !g.ok).map((g) => g.gate);
  return overridden.length ? { overridden_gates: overridden, override_reason: override.reason! } : {};
}

/** GET /takeover/gates: what the editor shows before review (and `ready <table>` prints). */
export async function gatesFor(target: string, evidence: string | undefined): Promise<GatesResponse> {
  const now = Date.now();
  const gates = await takeoverGates(target, evidence ?? null, now);
  return { target, now_ms: now, ready: gates.every((g) => g.ok), gates };
}

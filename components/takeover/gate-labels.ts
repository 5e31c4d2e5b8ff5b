// The takeover gates in words (console-api.md "The takeover gate and the canary evidence"),
// shared by the gates panel, the override controls and the audit log.
import type { TakeoverGateName } from "@/lib/schema/api/takeover";

export const GATE_LABEL: Record<TakeoverGateName, string> = {
  fleet_homogeneous: "Every master applies policies",
  observed_days: "Enough days of shadow observations",
  evidence_read: "The canary report was read",
};

/** A stored gate name in words (an unknown one as written). */
export const gateLabel = (gate: string): string => GATE_LABEL[gate as TakeoverGateName] ?? gate;

// Where the policy editor (./policy-form.tsx) stands: editing, reviewing a change with its
// preview, saved, or one of the refusals a save can meet (412 conflict, 409 stale preview or
// takeover gates, any other error).
import type { DecisionChangesBody, PreviewResponse } from "@/lib/schema/api/policies";
import type { TakeoverGate } from "@/lib/schema/api/takeover";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { GateOverride } from "@/components/takeover/gate-override";

export type Action = "save" | "delete";
/** A 409 preview_stale: the preview the admin confirmed, and the material changes since (null: unknown to this server). */
export interface Stale {
  reviewed: PreviewResponse;
  changed: DecisionChangesBody | null;
  /** bumped on every refusal, so each one takes the focus again */
  count: number;
}
export interface ReviewStage {
  name: "review";
  action: Action;
  proposed: PolicyDocument;
  preview: PreviewResponse | null;
  stale?: Stale;
  confirming: boolean;
}
export type Stage =
  | { name: "edit" }
  | ReviewStage
  | { name: "saved"; modRevision: number; deleted: boolean }
  | { name: "conflict"; mine: PolicyDocument; current: unknown; currentModRevision: number }
  | { name: "error"; message: string; status: number }
  /** 409 takeover_not_ready: the gates, and what to save again with the admin's overrides */
  | { name: "gated"; retry: (o: GateOverride) => void; message: string; gates: TakeoverGate[] };

/** A review about to load its preview. */
export const reviewStage = (action: Action, proposed: PolicyDocument): Stage => ({
  name: "review",
  action,
  proposed,
  preview: null,
  confirming: false,
});
/** what a deletion proposes: no override at all */
export const DELETE_ALL: PolicyDocument = {};

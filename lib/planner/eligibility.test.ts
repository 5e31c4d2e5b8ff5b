import { describe, expect, it } from "vitest";
import { EMPTY_FENCE, admissionEligibility } from "./eligibility";
import type { AdmissionRequest, TargetFence } from "./eligibility";

const merge: AdmissionRequest = { kind: "merge_wal", target: "alpha" };
const fence = (f: Partial<TargetFence>): TargetFence => ({ ...EMPTY_FENCE, ...f });

describe("T45 merge_yields_to_matching_prepared_commit_only_without_execution", () => {
  it.each<[string, AdmissionRequest, Partial<TargetFence>, string]>([
    ["matching prepared commit", merge, { preparation: "tok", commitReady: "tok" }, "yield_to_prepared_commit"],
    ["stale hint with other values", merge, { preparation: "new", commitReady: "old" }, "ok"],
    [
      "existing execution is never blocked",
      merge,
      { preparation: "tok", commitReady: "tok", execution: { id: "x" }, targetLock: "merge-execution:x" },
      "ok",
    ],
    [
      "a preparing compact",
      { kind: "compact", target: "alpha", preparing: true, ownPreparation: "tok" },
      { preparation: "tok", commitReady: "tok" },
      "ok",
    ],
  ])("%s", (_name, req, f, code) => {
    expect(admissionEligibility(req, fence(f)).code).toBe(code);
  });
});

describe("T46 ownership_predicates_block_as_before", () => {
  it.each<[string, AdmissionRequest, Partial<TargetFence>, string]>([
    ["empty", merge, {}, "ok"],
    ["task claim", merge, { taskClaimed: true }, "ownership_blocked"],
    ["foreign target lock", merge, { targetLock: "other-token" }, "ownership_blocked"],
    ["merge claim", merge, { mergeClaim: "reconciler" }, "ownership_blocked"],
    ["catch-up owner", merge, { catchupOwner: { job: "job-1" } }, "ownership_blocked"],
    [
      "catch-up owner is the expected job",
      { ...merge, expectedCatchupJob: "job-1" },
      { catchupOwner: { job: "job-1" } },
      "ok",
    ],
    ["own execution lock", merge, { execution: { id: "e1" }, targetLock: "merge-execution:e1" }, "ok"],
    [
      "lock of another execution",
      merge,
      { execution: { id: "e1" }, targetLock: "merge-execution:e0" },
      "ownership_blocked",
    ],
  ])("%s", (_name, req, f, code) => {
    expect(admissionEligibility(req, fence(f)).code).toBe(code);
  });
});

describe("§5.6(a) other codes", () => {
  it("kind_not_runnable, not_resident_eligible, worker_execution_needs_merge", () => {
    expect(admissionEligibility({ ...merge, pollerKinds: ["compact"] }, EMPTY_FENCE).code).toBe("kind_not_runnable");
    const resident = { owned: true, draining: false, targets: ["*"] };
    expect(admissionEligibility({ ...merge, resident }, EMPTY_FENCE).code).toBe("ok");
    expect(admissionEligibility({ ...merge, target: "generic:x", resident }, EMPTY_FENCE).code).toBe(
      "not_resident_eligible",
    );
    expect(admissionEligibility({ ...merge, resident: { ...resident, draining: true } }, EMPTY_FENCE).code).toBe(
      "not_resident_eligible",
    );
    expect(admissionEligibility({ ...merge, resident: { ...resident, targets: ["beta"] } }, EMPTY_FENCE).code).toBe(
      "not_resident_eligible",
    );
    expect(admissionEligibility({ kind: "compact", target: "alpha", resident }, EMPTY_FENCE).code).toBe(
      "not_resident_eligible",
    );
    const worker = fence({ execution: { id: "w1" }, targetLock: "merge-execution:w1" });
    expect(admissionEligibility({ kind: "index_id", target: "alpha" }, worker).code).toBe(
      "worker_execution_needs_merge",
    );
    const maint = fence({ execution: { id: "m1", maintenance: "compact" }, targetLock: "merge-execution:m1" });
    expect(admissionEligibility({ kind: "compact", target: "alpha" }, maint).code).toBe("ok");
    expect(
      admissionEligibility({ kind: "compact", target: "alpha", preparing: true }, fence({ preparation: "p2" })).code,
    ).toBe("ownership_blocked");
    expect(
      admissionEligibility(
        { kind: "compact", target: "alpha", preparing: true },
        fence({ catchupOwner: { job: "j", shared: true } }),
      ).code,
    ).toBe("ok");
  });
});

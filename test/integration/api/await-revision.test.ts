// Read-your-writes on the server without polling (issue 24, issue 22 item 1): the live cache's
// `awaitRevision(r)` resolves from the watch batch that reaches r, or false at its deadline,
// and a policy preview (`viewAtLeast`) evaluates on a view holding the write it read. Real
// etcd, in-process live cache.
import { describe, expect, it } from "vitest";
import { incidentsInProcess } from "./in-process";

const world = incidentsInProcess("await-revision");

describe("awaitRevision", () => {
  it("resolves once the watch has delivered the revision, and the live view then holds the write", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const before = await liveCache().current();
    expect(await liveCache().awaitRevision(before.revision, 10)).toBe(true);
    for (let n = 1; n <= 5; n++) {
      const waiting = liveCache().awaitRevision(before.revision + n, 30_000);
      const revision = await world.putPolicy("await-revision/table", { merge: { min_generations: 10 + n } });
      expect(revision).toBe(before.revision + n);
      expect(await waiting).toBe(true);
      const view = await liveCache().current();
      expect(view.revision).toBeGreaterThanOrEqual(revision);
      const stored = view.snapshot.policies.find((p) => p.target === "await-revision/table");
      expect(stored?.modRevision).toBe(revision);
    }
  });

  it("resolves false at its deadline for a revision nobody wrote", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const view = await liveCache().current();
    expect(await liveCache().awaitRevision(view.revision + 1_000_000, 50)).toBe(false);
  });

  it("a preview's view includes the policy it read, at once after the write", async () => {
    const { viewAtLeast } = await import("@/lib/policies/preview");
    for (let n = 1; n <= 3; n++) {
      const revision = await world.putPolicy("await-revision/other", { merge: { min_generations: 20 + n } });
      const view = await viewAtLeast(revision);
      expect(view.revision).toBeGreaterThanOrEqual(revision);
      expect(view.pinned).toBe(false);
      expect(view.snapshot.policies.find((p) => p.target === "await-revision/other")?.modRevision).toBe(revision);
    }
  });
});

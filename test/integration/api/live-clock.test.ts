// The clock's full re-plan runs off the request path (issue 24 "No request waits for a
// plan"): while live requests come, a timer makes the next live plan so that it is finished
// when the current one's `now` is SAME_CONTENT_REUSE_MS old (it starts as long before as the
// last full plan took), so the next request finds it finished; the plan it serves is exactly
// the full plan of its view at its own `now`. Real etcd, in-process API.
import { describe, expect, it } from "vitest";
import { incidentsInProcess } from "./in-process";
import { planFleet, type FleetPlan } from "@/lib/planner/plan";
import { isLayered } from "@/lib/planner/layered-map";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { metrics } from "@/lib/metrics";

incidentsInProcess("live-clock");

const canonical = (plan: FleetPlan) =>
  JSON.stringify(plan, (_k, v: unknown) =>
    v instanceof Map || (v !== null && typeof v === "object" && isLayered(v as ReadonlyMap<unknown, unknown>))
      ? [...(v as ReadonlyMap<unknown, unknown>).entries()]
      : v,
  );

const plansMade = async () => (await metrics().plans.get()).values.reduce((sum, v) => sum + v.value, 0);

async function until(probe: () => Promise<boolean>, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the clock moves the live plan on ahead of the requests", () => {
  it("makes the next plan without a request, and the next request is served it", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const { planFor, SAME_CONTENT_REUSE_MS } = await import("@/lib/live/plan");
    const first = await planFor(await liveCache().current(), undefined);
    const made = await plansMade();
    // no request from here on until the clock has planned
    await until(async () => (await plansMade()) > made, "the clock's re-plan", 6 * SAME_CONTENT_REUSE_MS);
    const next = await planFor(await liveCache().current(), undefined);
    // started ahead by as long as the first plan took (milliseconds on this fleet), not sooner
    expect(next.now).toBeGreaterThan(first.now + SAME_CONTENT_REUSE_MS - 1000);
    expect(next.now).toBeLessThanOrEqual(first.now + 2 * SAME_CONTENT_REUSE_MS);
    expect(next.evaluation.now).toBe(next.now);
    // that request started no plan of its own: it was served the clock's finished one
    expect(await plansMade()).toBe(made + 1);
    expect(canonical(next.plan)).toBe(canonical(planFleet(plannerFleet(next.view), next.now)));
  });
});

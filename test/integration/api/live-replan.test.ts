// A content change of the live view (a watch event) is followed by a patch of the live plan
// at the plan's own `now` (lib/live/plan.ts, lib/planner/plan/replan.ts), and the patched
// plan is exactly the full plan of the new revision at that now. Real etcd, in-process API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { testPrefix } from "../../support/prefix";
import { publishDemandEvent, seedScenarios } from "@/lib/sim";
import { writerEvent } from "@/lib/planner/join";
import { planFleet, type FleetPlan } from "@/lib/planner/plan";
import { isLayered } from "@/lib/planner/layered-map";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { clientFor, useConsoleEnv } from "../time/world";

let client: Etcd3;
let prefix: string;

beforeAll(async () => {
  prefix = testPrefix("live-replan");
  const endpoints = sharedEtcd();
  useConsoleEnv(endpoints, prefix);
  client = clientFor(endpoints);
  await seedScenarios(client, ["incidents"], { prefix });
});

afterAll(() => client?.close());

/** Maps (the live plan's rows are a layered map: lib/planner/layered-map.ts) as their entries in order. */
const canonical = (plan: FleetPlan) =>
  JSON.stringify(plan, (_k, v: unknown) =>
    v instanceof Map || (v !== null && typeof v === "object" && isLayered(v as ReadonlyMap<unknown, unknown>))
      ? [...(v as ReadonlyMap<unknown, unknown>).entries()]
      : v,
  );

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the live plan follows a demand event by a patch", () => {
  it("at the plan's own now, equal to a full plan of the new revision at that now", async () => {
    const { liveCache } = await import("@/lib/live/cache");
    const { planFor, SAME_CONTENT_REUSE_MS } = await import("@/lib/live/plan");
    const first = await planFor(await liveCache().current(), undefined);
    let previous = first;
    for (let n = 1; n <= 5; n++) {
      const target = `live-replan/table-${n % 3}`;
      const event = writerEvent({
        shard: "s1",
        sealed: 10 * n,
        bytes: 10_000 * n,
        epoch: 1,
        flushedAtMs: first.now - 60_000 * n,
      });
      expect(await publishDemandEvent(client, prefix, target, event)).toBe(true);
      const view = await until(async () => {
        const v = await liveCache().current();
        return v.tables.get(target)?.shards.s1?.sealed.value === 10 * n ? v : undefined;
      }, `event ${n} in the live view`);
      // the patch is bounded by its own cost, so the newest content may take a few ms
      const planned = await until(async () => {
        const p = await planFor(await liveCache().current(), undefined);
        return p.view.revision >= view.revision ? p : undefined;
      }, `a plan of revision ${view.revision}`);
      // (only the clock moves the live plan on, every SAME_CONTENT_REUSE_MS, with a full plan)
      if (Date.now() - previous.now < SAME_CONTENT_REUSE_MS)
        expect(planned.now, "patched at the live plan's now").toBe(previous.now);
      previous = planned;
      expect(planned.plan.byTarget.get(target)?.pending_generations).toBe(10 * n);
      expect(canonical(planned.plan)).toBe(canonical(planFleet(plannerFleet(planned.view), planned.now)));
    }
  });
});

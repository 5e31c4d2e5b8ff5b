// The in-process console over the `incidents` scenario, under a prefix of its own: the route
// handlers and the live cache run in this process against the suite's real etcd. Registers the
// suite's hooks (seed before, close the live cache and the client after).
import { afterAll, beforeAll } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { seedScenarios } from "@/lib/sim";
import { policyKeys } from "@/lib/schema/keys";
import { testPrefix } from "../../support/prefix";
import { clientFor, useConsoleEnv } from "../time/world";

export interface InProcessWorld {
  client: Etcd3;
  prefix: string;
  /** stores a policy document for `target` (`_default`: the fleet default); the write's revision */
  putPolicy(target: string, doc: object): Promise<number>;
}

export function incidentsInProcess(name: string): InProcessWorld {
  const world = {
    putPolicy: async (target: string, doc: object) => {
      const res = await world.client.put(policyKeys.policy(world.prefix, target)).value(JSON.stringify(doc));
      return Number(res.header.revision);
    },
  } as InProcessWorld;
  beforeAll(async () => {
    world.prefix = testPrefix(name);
    const endpoints = sharedEtcd();
    useConsoleEnv(endpoints, world.prefix);
    world.client = clientFor(endpoints);
    await seedScenarios(world.client, ["incidents"], { prefix: world.prefix });
  });
  afterAll(async () => {
    const { liveCache } = await import("@/lib/live/cache");
    await liveCache().close();
    world.client?.close();
  });
  return world;
}

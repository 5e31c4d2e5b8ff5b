import "server-only";
// This replica's elected sampler (lib/live/sampler.ts): the shadow-history counts from the
// live plan, and the revision clock. Configured by lib/config/env.ts (sampler block).
import { SHADOW_OUTCOMES } from "@/lib/planner/shadow";
import type { OutcomeCounts, ShadowSample } from "@/lib/schema/api/shadow";
import { samplerEnv } from "@/lib/config/env";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { liveCache } from "@/lib/live/cache";
import { ShadowSampler } from "@/lib/live/sampler";
import { shadowFor } from "./plan";

/** One history sample from the live view (what the sampler records every minute). */
export async function currentShadowSample(): Promise<ShadowSample> {
  const { comparison, view } = await shadowFor(await liveCache().current(), undefined);
  const outcomes = {} as OutcomeCounts;
  for (const o of SHADOW_OUTCOMES) outcomes[o] = comparison.counts[o];
  return { at_ms: Date.now(), revision: view.revision, outcomes, disagreements: comparison.disagreements };
}

const KEY = Symbol.for("scheduler-console.shadow-sampler");

/** Starts this replica's sampler once; null when `CONSOLE_SHADOW_SAMPLER=off`. */
export function ensureSampler(): ShadowSampler | null {
  const g = globalThis as unknown as Record<symbol, ShadowSampler | undefined>;
  let sampler = g[KEY];
  if (!sampler) {
    const env = samplerEnv();
    if (!env.enabled) return null;
    sampler = new ShadowSampler({
      client: etcdClient(),
      prefix: etcdPrefix(),
      sample: currentShadowSample,
      intervalMs: env.shadowSampleMs,
      electionTtlSecs: env.electionTtlSecs,
    });
    g[KEY] = sampler;
    sampler.start();
  }
  return sampler;
}

// Programmatic seeding (CLI, demo, tests, benches): scenario kvs → chunked txns.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { incidentKvs } from "./scenarios/incidents";
import { largeRecordKvs } from "./scenarios/large-records";
import { productionKvs } from "./scenarios/production";
import { realisticKvs } from "./scenarios/realistic";
import { loadKvs, type LoadResult } from "./load";
import type { SeedKv } from "./seed-kv";

export const SCENARIOS = ["production", "realistic", "large-records", "incidents"] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export function isScenario(name: string): name is ScenarioName {
  return (SCENARIOS as readonly string[]).includes(name);
}

export function scenarioKvs(name: ScenarioName, prefix: string, now: number): Iterable<SeedKv> {
  switch (name) {
    case "production":
      return productionKvs(prefix);
    case "realistic":
      return realisticKvs(prefix, now);
    case "large-records":
      return largeRecordKvs(prefix, now);
    case "incidents":
      return incidentKvs(prefix, now);
  }
}

export interface SeedOptions {
  prefix: string;
  now?: number;
  leaseTtlSec?: number;
  progress?: (line: string) => void;
}

/** Writes the scenarios in order (later ones overwrite shared keys). */
export async function seedScenarios(
  client: Etcd3,
  names: readonly ScenarioName[],
  opts: SeedOptions,
): Promise<Record<string, LoadResult>> {
  const now = opts.now ?? Date.now();
  const results: Record<string, LoadResult> = {};
  for (const name of names) {
    results[name] = await loadKvs(client, scenarioKvs(name, opts.prefix, now), {
      leaseTtlSec: opts.leaseTtlSec,
      progress: opts.progress,
      label: `seed ${name}`,
    });
  }
  return results;
}

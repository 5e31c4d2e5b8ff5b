// The canary evidence and the takeover gate (console-api.md "The takeover gate and the canary
// evidence"): query keys carry the pinned revision and the window, so a pin pins them too.
import type { CanaryResponse } from "@/lib/schema/api/canary";
import type { FactsResponse, MastersResponse } from "@/lib/schema/api/fleet";
import type { GatesResponse } from "@/lib/schema/api/takeover";
import { fetchJson } from "../fetch-json";
import { fetchLiveOrLastGood } from "./last-good";

export const takeoverKeys = {
  canary: (revision: number | null, windowMs: number) => ["canary", revision ?? "live", windowMs] as const,
  facts: (revision: number | null, windowMs: number) => ["fleet-facts", revision ?? "live", windowMs] as const,
  masters: (revision: number | null) => ["fleet-masters", revision ?? "live"] as const,
  gates: (target: string, digest: string | null) => ["takeover-gates", target, digest ?? ""] as const,
};

export const fetchCanary = (revision: number | null, windowMs: number, signal?: AbortSignal) =>
  fetchJson<CanaryResponse>("/api/v1/canary", { revision, window_ms: windowMs }, signal);
export const fetchFacts = (revision: number | null, windowMs: number, signal?: AbortSignal) =>
  fetchJson<FactsResponse>("/api/v1/fleet/facts", { revision, window_ms: windowMs }, signal);
// on the overview and /executors: while etcd is away, the last good revision like every panel there
export const fetchMasters = (revision: number | null, signal?: AbortSignal) =>
  fetchLiveOrLastGood<MastersResponse>("/api/v1/fleet/masters", { revision }, signal);
export const fetchGates = (target: string, digest: string | null, signal?: AbortSignal) =>
  fetchJson<GatesResponse>("/api/v1/takeover/gates", { target, evidence_digest: digest ?? undefined }, signal);

// The reasons view (console-api.md "The decision journal": GET /api/v1/scheduler/reasons
// and its band opened, /reasons/targets), both answered from the journal.
import type { ReasonCode } from "@/lib/schema/codes";
import type { ReasonTargetsResponse, ReasonsResponse } from "@/lib/schema/api/reasons";
import { fetchJson } from "../fetch-json";

export type { ReasonTargetsResponse, ReasonsResponse };

export const reasonsKeys = {
  reasons: (fromMs: number, toMs: number | null) => ["reasons", fromMs, toMs ?? "now"] as const,
  targets: (atMs: number, code: string) => ["reasons", "targets", atMs, code] as const,
  opened: () => ["reasons", "opened"] as const,
};

/**
 * When a live view was opened, on the server's clock: the `now_ms` of a live answer (the
 * first row of the demand list, answered from the live plan), never the browser's clock.
 */
export async function fetchServerNow(signal?: AbortSignal): Promise<number> {
  return (await fetchJson<{ now_ms: number }>("/api/v1/scheduler/demand", { limit: 1 }, signal)).now_ms;
}

/** ~60 steps on a whole number of seconds */
export const stepFor = (fromMs: number, toMs: number) => Math.max(1000, Math.ceil((toMs - fromMs) / 60 / 1000) * 1000);

export function fetchReasons(
  fromMs: number,
  toMs: number | null,
  stepMs: number,
  signal?: AbortSignal,
): Promise<ReasonsResponse> {
  return fetchJson<ReasonsResponse>(
    "/api/v1/scheduler/reasons",
    { from_ms: Math.floor(fromMs), to_ms: toMs === null ? null : Math.floor(toMs), step_ms: stepMs },
    signal,
  );
}

export function fetchReasonTargets(atMs: number, code: string, signal?: AbortSignal): Promise<ReasonTargetsResponse> {
  return fetchJson<ReasonTargetsResponse>("/api/v1/scheduler/reasons/targets", { at_ms: atMs, code }, signal);
}

/** The codes of a window, most held first (summed over its points), so the biggest band sits at the bottom. */
export function codesOf(r: ReasonsResponse): ReasonCode[] {
  const sum = new Map<ReasonCode, number>();
  for (const p of r.points)
    for (const [code, n] of Object.entries(p.by_code) as [ReasonCode, number][])
      sum.set(code, (sum.get(code) ?? 0) + n);
  return [...sum].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([code]) => code);
}

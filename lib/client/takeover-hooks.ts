"use client";
// Hooks of the canary report, the fleet facts, the masters and the takeover gates.
import { useQuery } from "@tanstack/react-query";
import { fetchCanary, fetchFacts, fetchGates, fetchMasters, takeoverKeys } from "./resources/takeover";
import { freshness, usePinnedRevision } from "./revision";
import { fetchCalibration, forecastKeys } from "./resources/forecasts";

export function useCanary(windowMs: number) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: takeoverKeys.canary(revision, windowMs),
    queryFn: ({ signal }) => fetchCanary(revision, windowMs, signal),
    ...freshness(revision, 60_000),
  });
}

export function useFacts(windowMs: number) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: takeoverKeys.facts(revision, windowMs),
    queryFn: ({ signal }) => fetchFacts(revision, windowMs, signal),
    ...freshness(revision, 60_000),
  });
}

export function useMasters() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: takeoverKeys.masters(revision),
    queryFn: ({ signal }) => fetchMasters(revision, signal),
    ...freshness(revision, 30_000),
  });
}

/** The gates now (never pinned: a save happens now). */
export function useGates(target: string, digest: string | null) {
  return useQuery({
    queryKey: takeoverKeys.gates(target, digest),
    queryFn: ({ signal }) => fetchGates(target, digest, signal),
    staleTime: 10_000,
  });
}

/** How often each world's forecasts came true over the window (the canary page's calibration panel). */
export function useForecastCalibration(windowMs: number) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: forecastKeys.calibration(revision, windowMs),
    queryFn: ({ signal }) => fetchCalibration(revision, windowMs, signal),
    ...freshness(revision, 60_000),
  });
}

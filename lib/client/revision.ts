"use client";
// Time travel (console-api.md "Conventions"): `?revision=R` in the URL pins every query
// to that etcd revision. Pinned data never changes, so it isn't polled; live data
// refetches every few seconds.
import { useSearchParams } from "next/navigation";
import { tableOfPath } from "./paths";
import { LIVE_REFETCH_MS } from "./query-client";

/** The pinned revision from the URL, or null when live. */
export function usePinnedRevision(): number | null {
  const raw = useSearchParams().get("revision");
  if (!raw || !/^\d+$/.test(raw)) return null;
  const revision = Number(raw);
  return revision > 0 ? revision : null;
}

/** Query options shared by every resource: poll when live, keep last good data on error. */
export function freshness(revision: number | null, refetchMs = LIVE_REFETCH_MS) {
  return {
    refetchInterval: revision === null ? refetchMs : (false as const),
    staleTime: revision === null ? 2000 : Infinity,
    placeholderData: samePinPlaceholder(revision),
  };
}

/**
 * While a new key loads (a filter, a sort) the previous rows stay on screen, but only rows of
 * the same moment: a pinned page never shows the live answer (nor another revision's) under
 * its pin while its own loads or fails. Query keys carry the revision, or "live".
 */
export function samePinPlaceholder(revision: number | null) {
  const pin = revision ?? "live";
  return <T>(previous: T | undefined, previousQuery?: { queryKey: readonly unknown[] }): T | undefined =>
    previousQuery?.queryKey.includes(pin) ? previous : undefined;
}

/** Append the pinned revision to an in-app href so navigation stays in the same past. */
export function withRevision(href: string, revision: number | null): string {
  if (revision === null) return href;
  return `${href}${href.includes("?") ? "&" : "?"}revision=${revision}`;
}

/** `?now=server` on a pinned page: evaluate at the server clock instead of the revision's time. */
export function useEvaluateNow(): boolean {
  return useSearchParams().get("now") === "server";
}

/** What a page shows, for "step back / forward one change" (GET /api/v1/revisions/change). */
export function changeScopeOf(pathname: string): { scope: string; target: string | null } {
  const table = tableOfPath(pathname);
  if (table !== null) return { scope: "table", target: table };
  const section = pathname.split("/")[1] ?? "";
  const known: Record<string, string> = {
    tables: "tables",
    executors: "executors",
    shadow: "shadow",
    failures: "failures",
    policies: "policies",
    audit: "audit",
    skipped: "skipped",
  };
  return { scope: known[section] ?? "overview", target: null };
}

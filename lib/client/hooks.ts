"use client";
// One hook per resource: the query key carries the pinned revision, so pinning a revision
// pins every query on the page; live keys poll (lib/client/revision.ts).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { DeletedPolicyResponse, SavedPolicyResponse } from "@/lib/schema/api/policies";
import type { PolicyDocument } from "@/lib/schema/policy";
import { awaitedRevision, requireRevision, subscribeAwaited, type QueryParams } from "./fetch-json";
import { auditKeys, fetchAudit, type AuditFilters } from "./resources/audit";
import {
  deletePolicy,
  fetchPolicy,
  fetchPolicyList,
  policyKeys,
  previewPolicy,
  savePolicy,
  type WriteGuard,
} from "./resources/policies";
import type { DemandList } from "./api-types";
import { useLiveFleetListing } from "./fleet-stream";
import {
  demandKeys,
  fetchDemandPage,
  fetchFleetPage,
  fetchTable,
  nextFleetPage,
  type FleetPageParam,
} from "./resources/demand";
import { executorKeys, fetchAssignments, fetchExecutors } from "./resources/executors";
import { failureKeys, fetchFailures } from "./resources/failures";
import { fetchShadow, fetchShadowHistory, shadowKeys } from "./resources/shadow";
import { HEALTH_POLL_MS, healthKeys, pollHealth } from "./resources/health";
import { fetchSkipped, skippedKeys } from "./resources/skipped";
import { freshness, samePinPlaceholder, usePinnedRevision } from "./revision";

export function useDemandPage(params: QueryParams) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: demandKeys.summary(revision, params),
    queryFn: ({ signal }) => fetchDemandPage({ ...params, revision }, signal),
    ...freshness(revision),
  });
}

/**
 * Every table: first page by page (2,000 a page), so rows show as soon as the first page
 * lands and the rest stream in behind it, all at the first page's revision; then, while
 * live, kept by the changes the server pushes for each plan step (./fleet-stream.ts), or by
 * asking only for what changed since the listing the page holds (`?since=`) when the stream
 * cannot be had; never every page again.
 */
export function useFleetListing() {
  const revision = usePinnedRevision();
  const pages = useInfiniteQuery({
    queryKey: demandKeys.fleetPages(revision),
    initialPageParam: { cursor: null, revision, now_ms: null } as FleetPageParam,
    queryFn: ({ pageParam, signal }) => fetchFleetPage(pageParam, signal),
    getNextPageParam: nextFleetPage,
    // the first load only: live refreshes are the listing's changes below
    staleTime: Infinity,
    placeholderData: samePinPlaceholder(revision),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, isError]);
  const streamed = useMemo(() => {
    const all = pages.data?.pages;
    if (!all || all.length === 0) return undefined;
    return {
      ...all[0],
      tables: all.flatMap((p) => p.tables),
      listing: all[all.length - 1].listing,
      next_cursor: null,
    } satisfies DemandList;
  }, [pages.data]);
  const complete = streamed !== undefined && hasNextPage === false;
  // live: the server pushes each plan step's changes; asking is the fallback (./fleet-stream.ts)
  const changes = useLiveFleetListing(revision === null, complete ? streamed : undefined);
  return {
    data: changes.data ?? streamed,
    /** still streaming the first load's pages */
    loadingMore: hasNextPage === true,
    isError: pages.isError || changes.isError,
    error: changes.error ?? pages.error,
  };
}

export function useTable(target: string) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: demandKeys.table(target, revision),
    queryFn: ({ signal }) => fetchTable(target, revision, signal),
    ...freshness(revision),
  });
}

export function useExecutors() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: executorKeys.list(revision),
    queryFn: ({ signal }) => fetchExecutors(revision, signal),
    ...freshness(revision),
  });
}

export function useAssignments() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: executorKeys.assignments(revision),
    queryFn: ({ signal }) => fetchAssignments(revision, signal),
    ...freshness(revision),
  });
}

export function useShadow() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: shadowKeys.now(revision),
    queryFn: ({ signal }) => fetchShadow(revision, signal),
    ...freshness(revision),
  });
}

/** History is a time series, not a revision: it is never pinned. */
export function useShadowHistory() {
  return useQuery({
    queryKey: shadowKeys.history(),
    queryFn: ({ signal }) => fetchShadowHistory(signal),
    ...freshness(null, 5000),
  });
}

export function useFailures() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: failureKeys.list(revision),
    queryFn: ({ signal }) => fetchFailures(revision, signal),
    ...freshness(revision),
  });
}

export function useSkipped() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: skippedKeys.list(revision),
    queryFn: ({ signal }) => fetchSkipped(revision, signal),
    ...freshness(revision),
  });
}

export function usePolicyList() {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: policyKeys.list(revision),
    queryFn: ({ signal }) => fetchPolicyList(revision, signal),
    ...freshness(revision),
  });
}

/** One policy; the editor keeps its own copy of what it started from, so this polls only when live. */
export function usePolicy(target: string) {
  const revision = usePinnedRevision();
  return useQuery({
    queryKey: policyKeys.one(target, revision),
    queryFn: ({ signal }) => fetchPolicy(target, revision, signal),
    ...freshness(revision),
  });
}

export function useAudit(filters: AuditFilters) {
  const revision = usePinnedRevision();
  return useInfiniteQuery({
    queryKey: auditKeys.list(filters, revision),
    queryFn: ({ pageParam, signal }) => fetchAudit({ filters, cursor: pageParam, revision }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    ...freshness(revision),
  });
}

export function usePreviewPolicy(target: string) {
  return useMutation({ mutationFn: (doc: PolicyDocument) => previewPolicy(target, doc) });
}

/** Live query keys carry "live" where a pinned one carries its revision (the pinned past never changes). */
const isLive = (query: { queryKey: readonly unknown[] }) => query.queryKey.includes("live");

/**
 * After a write at revision R (read your writes): every live read waits for R (fetch-json's
 * floor); live data cached for pages not on screen is dropped, so opening one shows
 * "loading" rather than what the save replaced; the queries on screen refetch now (the
 * refreshing notice says so meanwhile) instead of at their next poll.
 */
function useAfterWrite() {
  const queryClient = useQueryClient();
  return (revision: number) => {
    requireRevision(revision);
    queryClient.removeQueries({ type: "inactive", predicate: isLive });
    void queryClient.invalidateQueries({ type: "active", predicate: isLive });
  };
}

/** PUT with the guard; `doc: null` deletes the override (DELETE). */
export function useSavePolicy(target: string) {
  const afterWrite = useAfterWrite();
  return useMutation({
    mutationFn: ({
      doc,
      guard,
    }: {
      doc: PolicyDocument | null;
      guard: WriteGuard;
    }): Promise<SavedPolicyResponse | DeletedPolicyResponse> =>
      doc === null ? deletePolicy(target, guard) : savePolicy(target, doc, guard),
    onSuccess: (saved) => afterWrite(saved.revision),
  });
}

/** The revision live reads are waiting for after a save, or null (for a "refreshing" note). */
export function useAwaitedRevision(): number | null {
  return useSyncExternalStore(subscribeAwaited, awaitedRevision, () => null);
}

/**
 * The polling health query every part shares (one request per 2 s per tab, whoever asks):
 * the outage banner, the revision picker's live revision and the overview's etcd panel.
 * Not retried: a failed poll is itself the news (the banner counts them).
 */
export function useHealthPoll() {
  return useQuery({
    queryKey: healthKeys.now(),
    queryFn: ({ signal }) => pollHealth(signal), // shared by the browser's tabs
    refetchInterval: HEALTH_POLL_MS,
    retry: false,
  });
}

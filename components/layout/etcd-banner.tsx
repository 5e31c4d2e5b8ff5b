"use client";
// The etcd-unreachable banner: says how old the data on screen is. Pages keep showing
// their last good data underneath (TanStack keeps `data` when a refetch fails).
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { formatCount, formatDuration } from "@/components/ui/format";
import { fetchHealth, healthKeys } from "@/lib/client/resources/health";
import { useNow } from "@/lib/client/use-now";
import { useHydrated } from "@/lib/client/use-hydrated";

export function EtcdBanner() {
  const health = useQuery({ queryKey: healthKeys.now(), queryFn: ({ signal }) => fetchHealth(signal), refetchInterval: 2000, retry: false });
  const now = useNow();
  const lastOk = useRef<{ at: number; revision: number | null } | null>(null);
  const hydrated = useHydrated();
  const body = hydrated ? health.data : undefined;
  if (body && body.status !== "down" && !health.isError) lastOk.current = { at: health.dataUpdatedAt, revision: body.revision };

  const consoleDown = hydrated && health.isError && health.failureCount > 0;
  const etcdDown = body?.status === "down";
  if (!consoleDown && !etcdDown) {
    if (body?.status === "degraded") {
      const bad = body.endpoints.filter((e) => !e.ok).map((e) => e.url);
      return (
        <div className="banner banner-warn" role="status">
          etcd degraded: {bad.length ? `${bad.join(", ")} not answering` : "some endpoints not answering"}
        </div>
      );
    }
    return null;
  }
  const snapshotAge = etcdDown && body?.snapshot?.age_ms != null ? body.snapshot.age_ms : lastOk.current && now ? now - lastOk.current.at : null;
  const revision = body?.snapshot?.revision ?? lastOk.current?.revision ?? null;
  return (
    <div className="banner banner-down" role="alert" data-testid="etcd-banner">
      <strong>{etcdDown ? "etcd unreachable" : "console unreachable"}</strong> — showing the last good data
      {revision !== null ? ` (revision ${formatCount(revision)}` : " ("}
      {snapshotAge !== null ? `${revision !== null ? ", " : ""}snapshot age ${formatDuration(snapshotAge)})` : ")"}. Retrying every 2 s.
    </div>
  );
}

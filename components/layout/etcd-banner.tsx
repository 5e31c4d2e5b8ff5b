"use client";
// The etcd-unreachable banner: says how old the data on screen is. Pages keep showing
// their last good data underneath (TanStack keeps `data` when a refetch fails).
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatCount, formatDuration } from "@/components/ui/format";
import { fetchHealth, healthKeys } from "@/lib/client/resources/health";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useNow } from "@/lib/client/use-now";

interface Outage {
  /** consecutive polls that found etcd down (or the console unreachable) */
  polls: number;
  lastGoodAt: number | null;
  lastGoodRevision: number | null;
}

export function EtcdBanner() {
  const health = useQuery({ queryKey: healthKeys.now(), queryFn: ({ signal }) => fetchHealth(signal), refetchInterval: 2000, retry: false });
  const now = useNow();
  const hydrated = useHydrated();
  const [outage, setOutage] = useState<Outage>({ polls: 0, lastGoodAt: null, lastGoodRevision: null });
  const body = health.data;
  const down = health.isError || body?.status === "down";
  const polledAt = Math.max(health.dataUpdatedAt, health.errorUpdatedAt);

  // Count once per poll. One slow answer is not an outage: the banner needs two in a row.
  useEffect(() => {
    if (!polledAt) return;
    setOutage((o) =>
      down ? { ...o, polls: o.polls + 1 } : { polls: 0, lastGoodAt: health.dataUpdatedAt, lastGoodRevision: body?.revision ?? o.lastGoodRevision },
    );
  }, [polledAt, down, health.dataUpdatedAt, body?.revision]);

  if (!hydrated) return null;
  if (outage.polls < 2) {
    if (!down && body?.status === "degraded") {
      const bad = body.endpoints.filter((e) => !e.ok).map((e) => e.url);
      return (
        <div className="banner banner-warn" role="status">
          etcd degraded: {bad.length ? `${bad.join(", ")} not answering` : "the live cache is catching up"}
        </div>
      );
    }
    return null;
  }
  const etcdDown = !health.isError && body?.status === "down";
  const snapshotAge = etcdDown && body?.snapshot?.age_ms != null ? body.snapshot.age_ms : outage.lastGoodAt && now ? now - outage.lastGoodAt : null;
  const revision = (etcdDown ? body?.snapshot?.revision : null) ?? outage.lastGoodRevision;
  return (
    <div className="banner banner-down" role="alert" data-testid="etcd-banner">
      <strong>{etcdDown ? "etcd unreachable" : "console unreachable"}</strong> — showing the last good data
      {revision != null ? ` (revision ${formatCount(revision)}` : " ("}
      {snapshotAge !== null ? `${revision != null ? ", " : ""}snapshot age ${formatDuration(snapshotAge)})` : ")"}. Retrying every 2 s.
    </div>
  );
}

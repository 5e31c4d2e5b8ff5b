"use client";
// The etcd-unreachable banner and the header's live mark: both read the tab's one outage
// record (lib/client/resources/health.ts), so the header never says "live" under a red
// banner. Pages keep showing their last good data underneath: TanStack keeps `data` when
// a refetch fails, and a page opened during the outage reads the last good revision.
import { formatCount, formatDuration } from "@/components/ui/format";
import { useOutage } from "@/lib/client/resources/health";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useNow } from "@/lib/client/use-now";
import { useHealthPoll } from "@/lib/client/hooks";

/** How old the data on screen is during an outage, or null when unknown. */
function useStaleAge(): number | null {
  const o = useOutage();
  const now = useNow();
  if (o.cause === "etcd" && o.snapshotAgeMs !== null) return o.snapshotAgeMs;
  return o.lastGoodAt !== null && now ? Math.max(0, now - o.lastGoodAt) : null;
}

/** "● live · rev N" while etcd answers; "stale · rev N, 41s old" during an outage. */
export function LiveMark({ liveRevision }: { liveRevision: number | null }) {
  const o = useOutage();
  const age = useStaleAge();
  const hydrated = useHydrated();
  if (hydrated && o.down) {
    const revision = o.snapshotRevision ?? o.lastGoodRevision;
    return (
      <span className="stale-mark" data-testid="live-state" role="status" title="etcd is unreachable: what you see is the last good data, not live">
        stale{revision !== null ? ` · rev ${formatCount(revision)}` : ""}
        {age !== null ? ` · ${formatDuration(age)} old` : ""}
      </span>
    );
  }
  return (
    <span className="live-dot" data-testid="live-state">
      live{liveRevision !== null ? ` · rev ${formatCount(liveRevision)}` : ""}
    </span>
  );
}

export function EtcdBanner() {
  useHealthPoll();
  const o = useOutage();
  const age = useStaleAge();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  if (!o.down) {
    if (o.degraded) {
      const bad = o.degraded.endpoints.filter((e) => !e.ok).map((e) => e.url);
      return (
        <div className="banner banner-warn" role="status">
          etcd degraded: {bad.length ? `${bad.join(", ")} not answering` : "the live cache is catching up"}
        </div>
      );
    }
    return null;
  }
  const etcdDown = o.cause === "etcd";
  const revision = (etcdDown ? o.snapshotRevision : null) ?? o.lastGoodRevision;
  const facts = [revision !== null ? `revision ${formatCount(revision)}` : null, age !== null ? `snapshot age ${formatDuration(age)}` : null].filter(Boolean);
  return (
    <div className="banner banner-down" role="alert" data-testid="etcd-banner">
      <strong>{etcdDown ? "etcd unreachable" : "console unreachable"}</strong> — everything below is the last good data
      {facts.length ? ` (${facts.join(", ")})` : ""}, not live. Retrying every 2 s.
    </div>
  );
}

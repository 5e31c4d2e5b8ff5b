"use client";
// The etcd-unreachable banner and the header's live mark: both read the tab's one outage
// record (lib/client/resources/health.ts), so the header never says "live" under a red
// banner. Pages keep showing their last good data underneath: TanStack keeps `data` when
// a refetch fails, and a page opened during the outage reads the last good revision.
import { formatCount, formatDuration } from "@/components/ui/format";
import { useOutage } from "@/lib/client/resources/health";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useCountingAge } from "@/lib/client/use-now";
import { useHealthPoll } from "@/lib/client/hooks";

/**
 * How old the data on screen is during an outage, or null when unknown: the server's own
 * snapshot age while it answers; when the console itself is unreachable, the age it gave at
 * its last good answer plus the time since, measured on this tab's monotonic clock.
 */
function useStaleAge(): number | null {
  const o = useOutage();
  // the server's age at its last answer, counted on from when that answer arrived (never frozen between polls)
  const fromServer = o.cause === "etcd" && o.snapshotAgeMs !== null && o.snapshotSeenAt !== null;
  return useCountingAge(
    fromServer ? o.snapshotAgeMs : o.lastGoodAgeMs,
    fromServer ? o.snapshotSeenAt : o.lastGoodSeenAt,
  );
}

/** "● live · rev N" while etcd answers; "stale · rev N, 41s old" during an outage. */
export function LiveMark({ liveRevision }: { liveRevision: number | null }) {
  const o = useOutage();
  const age = useStaleAge();
  const hydrated = useHydrated();
  if (hydrated && o.down) {
    const revision = o.snapshotRevision ?? o.lastGoodRevision;
    return (
      <span
        className="stale-mark"
        data-testid="live-state"
        role="status"
        title="etcd is unreachable: what you see is the last good data, not live"
      >
        stale{revision !== null ? ` · rev ${formatCount(revision)}` : ""}
        {age !== null ? ` · ${formatDuration(age)} old` : ""}
      </span>
    );
  }
  return (
    <span
      className="live-dot"
      data-testid="live-state"
      title="the newest revision this tab has seen etcd at (its health poll, or a pushed /tables step); a page's own revision (beside its title) is the one its answer was planned at, and trails this by the writes since"
    >
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
  const facts = [
    revision !== null ? `revision ${formatCount(revision)}` : null,
    age !== null ? `snapshot age ${formatDuration(age)}` : null,
  ].filter(Boolean);
  // etcd's members answer, but none has a leader: the cluster lost quorum (not a network fault of this console)
  const noQuorum = etcdDown ? o.noQuorum : null;
  return (
    <div className="banner banner-down" role="alert" data-testid="etcd-banner">
      <strong>{noQuorum ? "etcd has lost quorum" : etcdDown ? "etcd unreachable" : "console unreachable"}</strong>
      {noQuorum
        ? ` (${formatCount(noQuorum.leaderless)} of ${formatCount(noQuorum.members)} endpoints answer${noQuorum.leaderless === 1 ? "s" : ""}, with no leader)`
        : ""}{" "}
      — everything below is the last good data
      {facts.length ? ` (${facts.join(", ")})` : ""}, not live. Retrying every 2 s.
    </div>
  );
}

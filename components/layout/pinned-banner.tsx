"use client";
// A strip under the header while a past revision is pinned: when it was written ("as of
// 2026-12-01 03:10:12 (±4 s, estimated from heartbeats)"), that every number is evaluated
// as of then, and an explicit switch to evaluate it at today's clock instead. A compacted
// revision says so and offers the oldest readable one.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { encodedPath } from "@/lib/client/links";
import { formatCount } from "@/components/ui/format";
import { ApiError } from "@/lib/client/fetch-json";
import { fetchRevisionTime, revisionKeys, revisionTimeText } from "@/lib/client/resources/revisions";
import { useEvaluateNow, usePinnedRevision } from "@/lib/client/revision";
import { useHydrated } from "@/lib/client/use-hydrated";

export function PinnedBanner() {
  const revision = usePinnedRevision();
  const evaluateNow = useEvaluateNow();
  // the path re-encoded: a table target's "/" must not travel raw (console-api.md third version)
  const pathname = encodedPath(usePathname());
  const params = useSearchParams();
  const router = useRouter();
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: revisionKeys.time(revision ?? 0),
    queryFn: ({ signal }) => fetchRevisionTime(revision!, signal),
    enabled: revision !== null,
    staleTime: 60_000,
  });
  // TanStack reads the cache while React hydrates (its server snapshot is the current result):
  // until hydration is over, say what the server said ("…"), never an answer it did not have
  const hydrated = useHydrated();
  const time = hydrated ? query : { data: undefined, error: null, isPending: true };
  // Pinned answers are cached forever under their revision: once the URL carries the new
  // clock (the fetchers read `now` from it), fetch them again. Resetting in the click handler
  // raced the navigation and refetched on the old clock (issue 27: "evaluate now").
  const clockShown = useRef(evaluateNow);
  useEffect(() => {
    if (clockShown.current === evaluateNow) return;
    clockShown.current = evaluateNow;
    void queries.resetQueries({ predicate: (q) => q.queryKey[0] !== "revisions" && q.queryKey[0] !== "health" });
  }, [evaluateNow, queries]);
  if (revision === null) return null;
  const href = (change: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params.toString());
    change(next);
    const query = next.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const liveHref = href((p) => (p.delete("revision"), p.delete("at"), p.delete("now")));
  const toggleClock = () => router.push(href((p) => (evaluateNow ? p.delete("now") : p.set("now", "server"))));
  const compacted =
    time.error instanceof ApiError && time.error.code === "revision_compacted"
      ? (time.error.body?.compact_revision ?? null)
      : undefined;
  return (
    <div className="pinned-banner" role="status" data-testid="pinned-banner">
      {compacted !== undefined ? (
        <>
          Revision {formatCount(revision)} was compacted away: etcd no longer keeps it.{" "}
          {compacted !== null ? (
            <Link
              href={href((p) => (p.set("revision", String(compacted)), p.delete("at")))}
              style={{ color: "inherit", textDecoration: "underline" }}
              data-testid="oldest-readable"
            >
              Open the oldest readable revision ({formatCount(compacted)})
            </Link>
          ) : null}{" "}
        </>
      ) : (
        <>
          <span data-testid="as-of">
            As of {time.data?.at_ms != null ? revisionTimeText(time.data) : time.isPending ? "…" : "an unknown time"}
          </span>
          {" — "}etcd revision {formatCount(revision)}, not live.{" "}
          {evaluateNow
            ? "Evaluated at today's clock, not as of then."
            : "Every wait, score, class and verdict is as the planner saw it then."}{" "}
          <button
            type="button"
            className="link-button"
            onClick={toggleClock}
            aria-pressed={evaluateNow}
            data-testid="evaluate-now"
          >
            {evaluateNow ? "evaluate as of then" : "evaluate now"}
          </button>{" "}
        </>
      )}
      <Link href={liveHref} style={{ color: "inherit", textDecoration: "underline" }}>
        Return to live
      </Link>
    </div>
  );
}

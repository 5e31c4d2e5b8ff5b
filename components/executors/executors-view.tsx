"use client";
// `/executors`: every executor with its headroom and live assignments.
import { formatBytes, formatCount } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { Empty, QueryState } from "@/components/ui/query-state";
import type { Assignment } from "@/lib/client/api-types";
import { useAssignments, useExecutors } from "@/lib/client/hooks";
import { usePinnedRevision } from "@/lib/client/revision";
import { useNow } from "@/lib/client/use-now";
import { ExecutorCard } from "./executor-card";

export function ExecutorsView() {
  const executors = useExecutors();
  const assignments = useAssignments();
  const revision = usePinnedRevision();
  const now = useNow();
  const byExecutor = new Map<string, Assignment[]>();
  for (const a of assignments.data?.assignments ?? []) byExecutor.set(a.executor, [...(byExecutor.get(a.executor) ?? []), a]);

  return (
    <QueryState query={executors} what="executors">
      {(d) => (
        <>
          <PageTitle title="Executors" revision={d.revision} readAtMs={d.read_at_ms}>
            <span className="muted" data-testid="executor-totals">
              {d.totals.executors} executors · {d.totals.draining} draining · {d.totals.orphans} orphan · free slots{" "}
              {Object.entries(d.totals.slots_free).map(([k, n]) => `${k} ${formatCount(n)}`).join(", ")} · bytes free {formatBytes(d.totals.bytes_free)}
            </span>
          </PageTitle>
          {d.executors.length === 0 ? (
            <Empty>No executor has a heartbeat and no assignment points anywhere: nothing can be placed.</Empty>
          ) : (
            <div className="grid grid-2">
              {d.executors.map((e) => (
                <ExecutorCard key={e.id} executor={e} assignments={byExecutor.get(e.id) ?? []} now={now} revision={revision} />
              ))}
            </div>
          )}
        </>
      )}
    </QueryState>
  );
}

"use client";
// `/executors`: every executor with its headroom and live assignments.
import { countOf, formatCount } from "@/lib/words/format";
import { HeadroomTable } from "./headroom-table";
import { PageTitle } from "@/components/ui/page-title";
import { Empty, QueryState } from "@/components/ui/query-state";
import type { Assignment } from "@/lib/client/api-types";
import { useAssignments, useExecutors } from "@/lib/client/hooks";
import { usePinnedRevision } from "@/lib/client/revision";
import { ExecutorCard } from "./executor-card";

export function ExecutorsView() {
  const executors = useExecutors();
  const assignments = useAssignments();
  const revision = usePinnedRevision();
  const byExecutor = new Map<string, Assignment[]>();
  for (const a of assignments.data?.assignments ?? [])
    byExecutor.set(a.executor, [...(byExecutor.get(a.executor) ?? []), a]);

  return (
    <QueryState query={executors} what="executors">
      {(d) => (
        <>
          <PageTitle title="Executors" revision={d.revision} readAtMs={d.read_at_ms}>
            <span className="muted" data-testid="executor-totals">
              {countOf(d.totals.executors, "executor")} · {formatCount(d.totals.draining)} draining ·{" "}
              {countOf(d.totals.orphans, "orphan")}
            </span>
          </PageTitle>
          <p className="explain" data-testid="headroom-note">
            <strong>Free</strong> is what every verdict uses: the slots an executor has, minus those its live
            assignments (assigned or bound) reserve. Beside it, and not counted: the master&apos;s shadow rows (its next
            pass replaces them, spec §6.2 step 3) and legacy executions running outside any assignment (P1&apos;s
            planner does not see them).
          </p>
          <section className="panel" aria-label="free capacity">
            <h2>Free capacity</h2>
            <HeadroomTable executors={d} />
          </section>
          {d.executors.length === 0 ? (
            <Empty>No executor has a heartbeat and no assignment points anywhere: nothing can be placed.</Empty>
          ) : (
            <div className="grid grid-2">
              {d.executors.map((e) => (
                <ExecutorCard key={e.id} executor={e} assignments={byExecutor.get(e.id) ?? []} revision={revision} />
              ))}
            </div>
          )}
        </>
      )}
    </QueryState>
  );
}

"use client";
// `/executors`: every executor with its headroom and live assignments.
import { countOf, formatCount } from "@/lib/words/format";
import { BytesFreeTotal } from "./bytes-free-total";
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
              {countOf(d.totals.orphans, "orphan")} · free slots{" "}
              {Object.entries(d.totals.slots_free)
                .map(([k, n]) => `${k} ${formatCount(n)}`)
                .join(", ")}{" "}
              · <BytesFreeTotal executors={d} />
            </span>
          </PageTitle>
          <p className="explain" data-testid="headroom-note">
            Two headrooms: the bars count every live assignment, the master&apos;s shadow rows included, as the
            master&apos;s own fold does. The table pages&apos; verdicts use the headroom <strong>without</strong> shadow
            rows (they are replaced every pass and never bound, spec §6.2 step 3); where the two differ, a card says so.
          </p>
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

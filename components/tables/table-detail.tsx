"use client";
// `/tables/[target]`: everything the planner knows about one table, with the why-not
// explanation up front so a reviewer sees in seconds why a merge is not placed.
import Link from "next/link";
import type { ReactNode } from "react";
import { BacklogBadge, ClassBadge } from "@/components/ui/badges";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { ApiError } from "@/lib/client/fetch-json";
import { useShadow, useTable } from "@/lib/client/hooks";
import { useHydrated } from "@/lib/client/use-hydrated";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { classReasonInWords } from "@/lib/words/class-reason";
import { DemandPanel } from "./demand-panel";
import { HistoryChart, usePrefetchLiveHistory } from "./history-chart";
import { LegacyPanel } from "./legacy-panel";
import { PolicyPanel } from "./policy-panel";
import { ClockSkewFlag } from "./place-in-line";
import { ForecastsPanel } from "./forecasts-panel";
import { ShardsPanel } from "./shards-panel";
import { WhyNotPanel } from "./why-not";

/**
 * A table without demand: the planner has nothing for it, but the legacy queue may still
 * hold a merge for it (a phantom task, spec §6.2). Say so, from the shadow comparison.
 */
function NoDemand({ target }: { target: string }) {
  const shadow = useShadow();
  const revision = usePinnedRevision();
  const phantom = shadow.data?.tables.phantom_task.includes(target) ?? false;
  return (
    <div className="state state-empty" data-testid="table-not-found">
      <strong className="mono">{target}</strong> has neither demand events nor a cache row at this revision: the planner
      has never seen demand for it.
      {phantom ? (
        <p className="explain explain-skip" data-testid="phantom-task">
          The legacy queue nevertheless holds a merge task for it (queued or running): a <strong>phantom task</strong>,
          work the master&apos;s planner cannot see. See it on the{" "}
          <Link href={withRevision("/shadow?open=phantom_task", revision)}>shadow page</Link>.
        </p>
      ) : (
        <p className="muted" data-testid="phantom-task-none">
          {shadow.data ? "No legacy task is queued or running for it either." : "Checking the legacy queue…"}
        </p>
      )}
    </div>
  );
}

/**
 * `history`: a live page's chart as its server renders it (drawn from the answer it read while
 * the page rendered: app/(console)/tables/[target]); without it, or pinned, the chart as before.
 */
export function TableDetailView({ target, history }: { target: string; history?: ReactNode }) {
  const query = useTable(target);
  const revision = usePinnedRevision();
  usePrefetchLiveHistory(target);
  const served = history !== undefined && revision === null;
  const hydrated = useHydrated();
  const notFound =
    hydrated && query.data === undefined && query.error instanceof ApiError && query.error.status === 404;
  return (
    <>
      <p className="muted" style={{ margin: "0 0 6px" }}>
        <Link href={withRevision("/tables", revision)}>← all tables</Link>
      </p>
      {notFound ? <NoDemand target={target} /> : null}
      {notFound ? null : (
        <QueryState query={query} what={`table ${target}`}>
          {(d) => {
            const t = d.table;
            return (
              <>
                <PageTitle title={t.target} revision={d.revision} readAtMs={d.read_at_ms}>
                  <ClassBadge name={t.class} />
                  <BacklogBadge name={t.backlog_class} />
                </PageTitle>
                <div className="explain" data-testid="class-reason">
                  <code>{t.reason ?? "idle"}</code> — {classReasonInWords(t, t.score_breakdown)}
                </div>
                <ClockSkewFlag skew={t.clock_skew} />
                <ForecastsPanel table={t} />
                <div className="grid grid-2" style={{ marginTop: 10 }}>
                  <WhyNotPanel table={t} />
                  <DemandPanel table={t} />
                  <LegacyPanel legacy={t.legacy} nowMs={d.now_ms} holder={t.write_turn_holder} />
                  {served ? history : <HistoryChart target={t.target} nowMs={d.now_ms} />}
                  <ShardsPanel table={t} />
                  <PolicyPanel target={t.target} policy={t.policy} />
                </div>
              </>
            );
          }}
        </QueryState>
      )}
    </>
  );
}

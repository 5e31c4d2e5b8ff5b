"use client";
// Fleet overview (`/`): what is shown and how old, who leads, etcd health, counts, the
// work waiting, free capacity, shadow disagreements and skipped records.
import Link from "next/link";
import { BacklogBadge, ClassBadge } from "@/components/ui/badges";
import { countOf, formatAgo, formatCount, formatTime } from "@/lib/words/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { PLACEMENT_NAMES, skipReasonInWords } from "@/lib/words/codes";
import { OUTCOME_MEANING } from "@/lib/words/outcomes";
import { PLACED_NEXT_WORDS } from "@/lib/words/forecasts";
import { applyListView, parseListView } from "@/components/tables/list-view";
import { HeadroomTable } from "@/components/executors/headroom-table";
import { BACKLOG_CLASSES, CLASS_NAMES, type TableSummary } from "@/lib/client/api-types";
import { useDemandPage, useExecutors, useShadow } from "@/lib/client/hooks";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { useNow } from "@/lib/client/use-now";
import { useHydrated } from "@/lib/client/use-hydrated";
import { TopTables } from "./top-tables";
import { useHealthPoll } from "@/lib/client/hooks";

/** How many tables each overview list shows. */
const TOP = 10;
const BY_WAIT = { ...parseListView(new URLSearchParams()), sort: "wait" as const, order: "desc" as const };

/** The longest waits that are not already among the placements or the stuck criticals shown. */
function longestWaitsAfter(byWait: TableSummary[], ...lists: TableSummary[][]): TableSummary[] {
  const shown = new Set(lists.flat().map((t) => t.target));
  return applyListView(
    byWait.filter((t) => !shown.has(t.target) && t.wait_ms !== null),
    BY_WAIT,
  ).slice(0, TOP);
}

export function FleetOverview() {
  const revision = usePinnedRevision();
  const now = useNow();
  // issue 27: "next" is what the planner places, in its order; stuck criticals are their own list
  const planner = useDemandPage({ limit: TOP, verdict: "would_place" });
  const stuck = useDemandPage({ limit: TOP, class: ["recovery", "critical"], verdict: "would_skip" });
  // enough rows that, after leaving out the next ten placements and ten stuck criticals, ten remain
  const waits = useDemandPage({ limit: TOP * 4, sort: "wait", order: "desc" });
  const executors = useExecutors();
  const shadow = useShadow();
  const hydrated = useHydrated();
  const health = useHealthPoll();
  // One outage is one message: the first panel that failed says it, the others stay quiet.
  const quiet = planner.isError && planner.data === undefined;

  return (
    <>
      <QueryState query={planner} what="fleet demand">
        {(d) => (
          <>
            <PageTitle title="Fleet overview" revision={d.revision} readAtMs={d.read_at_ms}>
              <span className="muted" data-testid="snapshot-age">
                {revision === null && now ? `age ${formatAgo(d.read_at_ms, now)}` : "pinned"}
              </span>
            </PageTitle>
            <div className="grid grid-4">
              <section className="panel" aria-label="leader">
                <h2>Leader</h2>
                {d.leader ? (
                  <dl className="kv">
                    <dt>instance</dt>
                    <dd className="mono" data-testid="leader-instance">
                      {d.leader.instance}
                    </dd>
                    <dt>since</dt>
                    <dd>
                      {formatTime(d.leader.since_ms)}{" "}
                      <span className="muted" data-testid="leader-since">
                        ({formatAgo(d.leader.since_ms, d.now_ms)})
                      </span>
                    </dd>
                    <dt>token</dt>
                    <dd className="mono">{d.leader.token}</dd>
                  </dl>
                ) : (
                  <p className="state state-error">No leader record: nothing is planning.</p>
                )}
              </section>
              <section className="panel" aria-label="etcd health">
                <h2>etcd</h2>
                {hydrated && health.data ? (
                  <table className="data">
                    <tbody>
                      {health.data.endpoints.map((e) => (
                        <tr key={e.url}>
                          <td className="mono">{e.url}</td>
                          <td>
                            {e.ok ? <span className="tag tag-ok">ok</span> : <span className="tag tag-bad">down</span>}
                          </td>
                          <td className="num">{e.latency_ms != null ? `${e.latency_ms} ms` : "—"}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="muted">checking…</p>
                )}
              </section>
              <section className="panel" aria-label="tables">
                <h2>Tables</h2>
                <div className="stat" data-testid="total-tables">
                  {formatCount(d.total_tables)}
                </div>
                <div className="stat-label">
                  <Link href={withRevision("/tables", revision)}>
                    {formatCount(d.tables_with_pending)} with pending work
                  </Link>
                  {d.clock_skew_tables > 0 && (
                    <div data-testid="clock-skew-tables">
                      <span className="tag tag-warn">clock skew</span> {formatCount(d.clock_skew_tables)} with a record
                      stamped in the future
                    </div>
                  )}
                </div>
                <div className="stat-label">
                  <Link href="/diff?since=1h" data-testid="changed-last-hour">
                    What changed in the last hour
                  </Link>
                </div>
              </section>
              <section className="panel" aria-label="skipped records">
                <h2>Skipped records</h2>
                <div className="stat">
                  <Link href={withRevision("/skipped", revision)} data-testid="skipped-total">
                    {formatCount(d.skipped.total)}
                  </Link>
                </div>
                <div className="stat-label">
                  {Object.entries(d.skipped.by_reason)
                    .filter(([, n]) => n > 0)
                    .map(([reason, n]) => `${skipReasonInWords(reason)} ${formatCount(n)}`)
                    .join(" · ") || "none: every record parsed"}
                </div>
              </section>
            </div>
            <div className="grid grid-2" style={{ marginTop: 12 }}>
              <section className="panel" aria-label="counts by class">
                <h2>By class</h2>
                <table className="data">
                  <tbody>
                    {CLASS_NAMES.map((c) => (
                      <tr key={c}>
                        <td>
                          <Link href={withRevision(`/tables?class=${c}`, revision)}>
                            <ClassBadge name={c} />
                          </Link>
                        </td>
                        <td className="num" data-testid={`count-class-${c}`}>
                          {formatCount(d.counts.by_class[c] ?? 0)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
              <section className="panel" aria-label="counts by backlog">
                <h2>By backlog class</h2>
                <table className="data">
                  <tbody>
                    {BACKLOG_CLASSES.map((b) => (
                      <tr key={b}>
                        <td>
                          <Link href={withRevision(`/tables?backlog=${b}`, revision)}>
                            <BacklogBadge name={b} />
                          </Link>
                        </td>
                        <td className="num" data-testid={`count-backlog-${b}`}>
                          {formatCount(d.counts.by_backlog[b] ?? 0)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            </div>
            <div className="grid grid-2 overview-lists" style={{ marginTop: 12 }}>
              <section className="panel" aria-label="placed next">
                <h2 data-testid="placed-next-title">{PLACED_NEXT_WORDS.title}, in planner order</h2>
                <TopTables tables={d.tables} nowMs={d.now_ms} empty="The planner places nothing now." />
                <p className="muted" style={{ margin: "6px 0 0" }}>
                  {countOf(d.matched ?? d.tables.length, "table")} would be placed by {PLACEMENT_NAMES.design} at
                  revision {formatCount(d.revision)}; the same rows lead /tables. {PLACED_NEXT_WORDS.note}
                </p>
              </section>
              <section className="panel" aria-label="stuck criticals">
                <h2>Critical but not placed</h2>
                <QueryState query={stuck} what="stuck criticals" quiet={quiet}>
                  {(c) => <TopTables tables={c.tables} nowMs={c.now_ms} empty="Every critical table is placed." />}
                </QueryState>
                <p className="muted" style={{ margin: "6px 0 0" }}>
                  Recovery and critical tables the planner skips now, with the reason in the verdict column.
                </p>
              </section>
            </div>
            <div className="grid grid-2 overview-lists" style={{ marginTop: 12 }}>
              <section className="panel" aria-label="longest waits">
                <h2>Waiting longest, after those</h2>
                <QueryState query={waits} what="longest waits" quiet={quiet}>
                  {(w) => (
                    <TopTables
                      tables={longestWaitsAfter(w.tables, d.tables, stuck.data?.tables ?? [])}
                      nowMs={w.now_ms}
                      empty="No other table is waiting."
                    />
                  )}
                </QueryState>
                <p className="muted" style={{ margin: "6px 0 0" }}>
                  Longest waits first, leaving out the placements and stuck criticals above; a wait marked{" "}
                  <span className="wait-bound">≥</span> is at least that long (the exact flush time was pruned) and
                  sorts by the value shown.
                </p>
              </section>
            </div>
          </>
        )}
      </QueryState>
      <div className="grid grid-2" style={{ marginTop: 12 }}>
        <section className="panel" aria-label="executors free capacity">
          <h2>
            <Link href={withRevision("/executors", revision)}>Executors</Link> · free capacity
          </h2>
          <QueryState query={executors} what="executors" quiet={quiet}>
            {(e) => (
              <>
                <p className="muted">
                  {countOf(e.totals.executors, "executor")} · {formatCount(e.totals.draining)} draining ·{" "}
                  {countOf(e.totals.orphans, "orphan")}
                </p>
                <HeadroomTable executors={e} />
              </>
            )}
          </QueryState>
        </section>
        <section className="panel" aria-label="shadow disagreements">
          <h2>
            <Link href={withRevision("/shadow", revision)}>Shadow</Link> · disagreements
          </h2>
          <QueryState query={shadow} what="shadow comparison" quiet={quiet}>
            {(s) => (
              <>
                <div className="stat" data-testid="shadow-disagreements">
                  {formatCount(s.disagreements)}
                </div>
                <div className="stat-label">
                  {formatCount(s.outcomes.discovery_miss)} {OUTCOME_MEANING.discovery_miss.label} +{" "}
                  {formatCount(s.outcomes.phantom_task)} {OUTCOME_MEANING.phantom_task.label} · placements{" "}
                  {s.placements.agree ? (
                    <span className="tag tag-ok">agree with master</span>
                  ) : (
                    <span className="tag tag-warn">differ from master</span>
                  )}
                </div>
              </>
            )}
          </QueryState>
        </section>
      </div>
    </>
  );
}

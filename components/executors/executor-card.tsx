"use client";
// One executor: slot usage per kind and byte headroom as reserved-vs-total bars (spec §5.2:
// headroom comes from assignments, never from the sample), shown both ways: as the master's
// fold counts it (shadow rows in) and as the design verdict uses it (shadow rows out, §6.2
// step 3). Then marks and assignments.
import Link from "next/link";
import { UsageBar } from "@/components/ui/bar";
import { countOf, formatBytes, formatCount, formatDuration, slotsText } from "@/lib/words/format";
import { codeInWords } from "@/lib/words/codes";
import type { Assignment, Executor } from "@/lib/client/api-types";
import { tableHref } from "@/lib/client/links";

function BytesHeadroom({ e }: { e: Executor }) {
  if (e.bytes_total === 0) return <>no byte budget (not byte-checked)</>;
  if (e.overcommitted_bytes > 0)
    return (
      <span
        className="tag tag-bad"
        data-testid="overcommitted"
        title={`${formatBytes(e.bytes_reserved)} reserved of ${formatBytes(e.bytes_total)}`}
      >
        over by {formatBytes(e.overcommitted_bytes)}
      </span>
    );
  return (
    <>
      {formatBytes(e.bytes_free)} free of {formatBytes(e.bytes_total)}
    </>
  );
}

/** What runs here (console-api.md "One answer"): the same write turns the table pages name. */
function RunningHere({ e, revision }: { e: Executor; revision: number | null }) {
  if (e.executions.length === 0)
    return (
      <p className="muted" data-testid="executions">
        Nothing running here.
      </p>
    );
  return (
    <p data-testid="executions">
      Running here:{" "}
      {e.executions.map((x, i) => (
        <span key={x.execution_id} data-testid="execution" data-execution={x.execution_id} data-target={x.target}>
          {i > 0 ? "; " : ""}
          <span className="mono">{x.execution_id}</span> on <Link href={tableHref(x.target, revision)}>{x.target}</Link>{" "}
          ({x.phase},{" "}
          {x.progress === "stalled"
            ? codeInWords("stalled")
            : x.progress === "advancing"
              ? "advancing"
              : "progress not yet seen"}
          {x.sequence === null ? "" : `, sequence ${formatCount(x.sequence)}`})
        </span>
      ))}
    </p>
  );
}

export function ExecutorCard({
  executor: e,
  assignments,
  revision,
}: {
  executor: Executor;
  assignments: Assignment[];
  revision: number | null;
}) {
  const kinds = Array.from(new Set([...Object.keys(e.slots_total), ...Object.keys(e.slots_reserved)]));
  const shadowShown = e.shadow_assignments > 0;
  return (
    <article className="panel exec-card" data-testid="executor-card" data-executor={e.id}>
      <header>
        <h3 className="mono" style={{ margin: 0 }}>
          {e.id}
        </h3>
        <span className="muted">{e.kind}</span>
        {e.version && <span className="muted">v{e.version}</span>}
        {e.draining && !e.orphan && <span className="tag tag-warn">draining</span>}
        {e.orphan && (
          <span
            className="tag tag-bad"
            title="assignments point at it but it has no live heartbeat (the master's fold counts it as draining)"
          >
            orphan
          </span>
        )}
        <span className="muted" style={{ marginLeft: "auto" }} data-testid="heartbeat-age">
          {e.heartbeat_age_ms === null ? "no heartbeat" : `heartbeat ${formatDuration(e.heartbeat_age_ms)} ago`}
        </span>
      </header>
      {e.orphan && (
        <p className="muted" style={{ margin: 0 }}>
          No live heartbeat, but {countOf(e.assignments, "assignment")} still point{e.assignments === 1 ? "s" : ""} at
          it: nothing new is placed here.
        </p>
      )}
      <RunningHere e={e} revision={revision} />
      {kinds.length === 0 && <p className="muted">No slots.</p>}
      {kinds.map((k) => {
        const total = e.slots_total[k] ?? 0;
        const reserved = e.slots_reserved[k] ?? 0;
        const freeWithout = e.slots_free_excluding_shadow[k] ?? 0;
        return (
          <div key={k} className="slot-row">
            <span className="mono">{k}</span>
            <UsageBar used={reserved} total={total} label={`${k} slots reserved`} />
            <span className="num" data-testid={`slots-${k}`}>
              {slotsText(reserved, total, e.slots_free[k] ?? 0)}
            </span>
            {shadowShown && (e.slots_reserved_excluding_shadow[k] ?? 0) !== reserved && (
              <span className="muted slot-note" data-testid={`slots-excluding-shadow-${k}`}>
                without shadow rows: {formatCount(freeWithout)} free (what the verdict uses)
              </span>
            )}
          </div>
        );
      })}
      <div className="slot-row">
        <span>bytes</span>
        <UsageBar used={e.bytes_reserved} total={e.bytes_total} label="bytes reserved" />
        <span className="num" data-testid="bytes-headroom">
          <BytesHeadroom e={e} />
        </span>
        {shadowShown && e.bytes_total > 0 && e.bytes_reserved_excluding_shadow !== e.bytes_reserved && (
          <span className="muted slot-note" data-testid="bytes-excluding-shadow">
            without shadow rows: {formatBytes(Math.max(0, e.bytes_free_excluding_shadow))} free of{" "}
            {formatBytes(e.bytes_total)} (what the verdict uses)
          </span>
        )}
      </div>
      <div className="muted">
        reserved {formatBytes(e.bytes_reserved)}
        {shadowShown && e.bytes_reserved > e.bytes_reserved_excluding_shadow
          ? ` (${formatBytes(e.bytes_reserved - e.bytes_reserved_excluding_shadow)} of it by ${formatCount(e.shadow_assignments)} master shadow row${e.shadow_assignments === 1 ? "" : "s"})`
          : ""}
        {e.bytes_total > 0 ? ` of ${formatBytes(e.bytes_total)}` : ""} · sample (diagnostic only, never used for
        placement): {formatBytes(e.bytes_free_sample)}
      </div>
      {assignments.length > 0 ? (
        <table className="data">
          <thead>
            <tr>
              <th>unit</th>
              <th>kind</th>
              <th>target</th>
              <th>state</th>
              <th className="num">reserved</th>
              <th className="num">age</th>
            </tr>
          </thead>
          <tbody>
            {assignments.map((a) => (
              <tr key={a.unit_id}>
                <td className="mono">{a.unit_id}</td>
                <td className="mono">{a.kind}</td>
                <td className="target">
                  <Link href={tableHref(a.target, revision)}>{a.target}</Link>
                </td>
                <td>
                  {a.state === "shadow" ? (
                    <span title="the master's shadow pass: replaced every pass, never bound">shadow</span>
                  ) : (
                    a.state
                  )}
                  {a.overdue && (
                    <span className="tag tag-bad" title="past its bind deadline and not bound">
                      {" "}
                      overdue
                    </span>
                  )}
                </td>
                <td className="num">{formatBytes(a.reserved_bytes)}</td>
                <td className="num">{formatDuration(a.age_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{countOf(e.assignments, "live assignment")}.</p>
      )}
    </article>
  );
}

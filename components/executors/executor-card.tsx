"use client";
// One executor: per kind, the one headroom the verdict uses (`free`) with its parts beside it
// (console-api.md "One capacity"; spec §5.2: from assignments, never from the sample), the
// bytes likewise, what runs here, and its assignments.
import Link from "next/link";
import { UsageBar } from "@/components/ui/bar";
import { countOf, formatBytes, formatCount, formatDuration } from "@/lib/words/format";
import { bytesHeadroomText, headroomText, legacyNote } from "@/lib/words/capacity";
import { codeInWords } from "@/lib/words/codes";
import type { Assignment, Executor } from "@/lib/client/api-types";
import { tableHref } from "@/lib/client/links";

function BytesHeadroom({ e }: { e: Executor }) {
  if (e.bytes.total === 0) return <>no byte budget (not byte-checked)</>;
  if (e.bytes.reserved > e.bytes.total)
    return (
      <span
        className="tag tag-bad"
        data-testid="overcommitted"
        title={`${formatBytes(e.bytes.reserved)} reserved of ${formatBytes(e.bytes.total)}`}
      >
        over by {formatBytes(e.bytes.reserved - e.bytes.total)}
      </span>
    );
  return <>{bytesHeadroomText(e.bytes)}</>;
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
  const kinds = Object.keys(e.slots);
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
        const h = e.slots[k];
        const note = legacyNote(k, h);
        return (
          <div key={k} className="slot-row">
            <span className="mono">{k}</span>
            <UsageBar used={h.reserved} total={h.total} label={`${k} slots reserved`} />
            <span className="num" data-testid={`slots-${k}`} data-free={h.free}>
              {headroomText(h)}
            </span>
            {note && (
              <span className="slot-note" data-testid={`legacy-note-${k}`}>
                {note}
              </span>
            )}
          </div>
        );
      })}
      <div className="slot-row">
        <span>bytes</span>
        <UsageBar used={e.bytes.reserved} total={e.bytes.total} label="bytes reserved" />
        <span className="num" data-testid="bytes-headroom">
          <BytesHeadroom e={e} />
        </span>
      </div>
      <div className="muted">
        sample (diagnostic only, never used for placement): {formatBytes(e.bytes_free_sample)}
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

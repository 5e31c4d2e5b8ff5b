"use client";
// The legacy task-queue view of one table (spec §2.8, §7.1, §9): queued/running, cooldown
// window, failure ledger with next retry, lock holder, execution, eligibility, progress.
import { formatDuration, formatTime } from "@/components/ui/format";
import type { Cooldown, Failure, Legacy } from "@/lib/client/api-types";
import { useNow } from "@/lib/client/use-now";

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">none</span>;
  if (typeof value !== "object") return <span className="mono">{String(value)}</span>;
  return <code style={{ whiteSpace: "pre-wrap" }}>{JSON.stringify(value)}</code>;
}

export function LegacyPanel({ legacy: l }: { legacy: Legacy }) {
  const now = useNow();
  // The detail response types these rows loosely; they are the /failures rows (§9).
  const cooldowns = l.cooldowns as Partial<Cooldown>[];
  const failures = l.failures as Partial<Failure>[];
  return (
    <section className="panel" aria-label="legacy view">
      <h2>Legacy view</h2>
      <dl className="kv">
        <dt>queue</dt>
        <dd>
          {l.running ? <span className="tag tag-ok">running</span> : l.queued ? <span className="tag">queued</span> : <span className="muted">neither queued nor running</span>}
          {l.task_ids.length > 0 && <span className="mono"> {l.task_ids.join(", ")}</span>}
        </dd>
        <dt>eligibility</dt>
        <dd data-testid="eligibility">
          {l.eligibility ? (
            <>
              <code>{l.eligibility.code}</code> {l.eligibility.message}
            </>
          ) : (
            <span className="muted">—</span>
          )}
        </dd>
        <dt>target lock</dt>
        <dd><Json value={l.target_lock} /></dd>
        <dt>execution</dt>
        <dd><Json value={l.execution} /></dd>
        <dt>progress</dt>
        <dd>
          {l.progress ? (
            <>
              <code>{l.progress.status}</code>
              {l.progress.sequence !== null && ` · sequence ${l.progress.sequence}`}
              {l.progress.unchanged_for_ms !== null && ` · unchanged for ${formatDuration(l.progress.unchanged_for_ms)}`}{" "}
              {l.progress.stalled && <span className="tag tag-bad">stalled</span>}
              {l.progress.work_report !== null && l.progress.work_report !== undefined && (
                <div className="muted">
                  work report: <Json value={l.progress.work_report} />
                </div>
              )}
            </>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
      </dl>
      <h3 style={{ marginTop: 8 }}>Cooldowns</h3>
      {cooldowns.length === 0 ? (
        <p className="muted">No cooldown.</p>
      ) : (
        <table className="data">
          <thead><tr><th>kind</th><th className="num">failures</th><th>until</th><th>state</th><th>last error</th></tr></thead>
          <tbody>
            {cooldowns.map((c) => (
              <tr key={String(c.kind)}>
                <td className="mono">{c.kind}</td>
                <td className="num">{c.failures}</td>
                <td>{formatTime(c.until_ms)}{now && c.cooling && c.until_ms ? ` (in ${formatDuration(c.until_ms - now)})` : ""}</td>
                <td>{c.cooling ? <span className="tag tag-warn">cooling</span> : <span className="muted">expired</span>}</td>
                <td className="mono">{c.last_error ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 style={{ marginTop: 8 }}>Merge failure ledger</h3>
      {failures.length === 0 ? (
        <p className="muted">No recorded failure.</p>
      ) : (
        <table className="data">
          <thead><tr><th>endpoint</th><th>class</th><th className="num">attempts</th><th>next retry</th><th>last error</th></tr></thead>
          <tbody>
            {failures.map((f) => (
              <tr key={String(f.endpoint)}>
                <td className="mono">{f.endpoint}</td>
                <td>{f.class} {f.needs_attention && <span className="tag tag-bad">needs attention</span>}</td>
                <td className="num">{f.consecutive_attempts}</td>
                <td>{formatTime(f.next_retry_ms)}{now && f.next_retry_ms ? ` (${f.next_retry_ms > now ? `in ${formatDuration(f.next_retry_ms - now)}` : "due"})` : ""}</td>
                <td className="mono">{f.last_error ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

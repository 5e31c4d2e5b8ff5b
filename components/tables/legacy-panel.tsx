"use client";
// The legacy task-queue view of one table (spec §2.8, §7.1, §9): queued/running, cooldown
// window, failure ledger with next retry, lock holder, execution, eligibility, progress.
import { formatCount, formatIn, formatLeft, formatTime, overdueText } from "@/lib/words/format";
import { codeInWords } from "@/lib/words/codes";
import { cooldownBelowThreshold } from "@/components/failures/cooldown-words";
import { progressInWords } from "@/lib/words/progress";
import type { Cooldown, Failure, Legacy, TableSummary } from "@/lib/client/api-types";
import { WriteTurnHolder } from "./write-turn-holder";

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">none</span>;
  if (typeof value !== "object") return <span className="mono">{String(value)}</span>;
  return <code style={{ whiteSpace: "pre-wrap" }}>{JSON.stringify(value)}</code>;
}

type LockView = NonNullable<Legacy["target_lock"]>;

/**
 * The `target-locks/` key in words: who holds it and whether a lease keeps it (spec §1.2).
 * Without a key it never says "free" while something else holds the write turn.
 */
function LockInWords({ lock, held }: { lock: LockView | null; held: boolean }) {
  if (!lock)
    return (
      <span className="muted">
        {held ? "no target-locks key: the write turn is held as the row above says" : "no target-locks key"}
      </span>
    );
  const who = lock.execution_id !== null ? `merge execution ${lock.execution_id}` : `claim ${lock.value}`;
  return (
    <span>
      held by <strong className="mono">{who}</strong> ·{" "}
      {lock.leased ? "leased (lapses with its holder's lease)" : "durable (no lease: stays until released)"}
      <span className="muted"> · since revision {formatCount(lock.mod_revision)}</span>
    </span>
  );
}

function QueueState({ legacy: l }: { legacy: Legacy }) {
  const e = l.execution;
  if (e && e.unfinished) {
    const stalled = e.progress === "stalled";
    return (
      <div data-testid="running-execution">
        <span className={`tag ${stalled ? "tag-bad" : "tag-ok"}`}>
          {codeInWords(stalled ? "write_turn_stalled" : "write_turn_held")}
        </span>{" "}
        execution <span className="mono">{e.id}</span> run by <strong className="mono">{e.instance}</strong> on{" "}
        <span className="mono">{e.endpoint}</span>, phase {e.phase}
        {e.sequence !== null ? `, progress sequence ${formatCount(e.sequence)}` : ""}:{" "}
        <span data-testid="execution-progress">{progressInWords(e)}</span>
        {!e.holds_lock && <div className="muted">It does not hold the table&apos;s write-turn lock.</div>}
        {l.task_ids.length > 0 && (
          <div className="muted">
            legacy tasks: <span className="mono">{l.task_ids.join(", ")}</span>
          </div>
        )}
      </div>
    );
  }
  return (
    <>
      {l.running ? (
        <span className="tag tag-ok">task running</span>
      ) : l.queued ? (
        <span className="tag">task queued</span>
      ) : (
        <span className="muted">no legacy task queued or running, and no merge execution in flight</span>
      )}
      {l.task_ids.length > 0 && <span className="mono"> {l.task_ids.join(", ")}</span>}
      {e && !e.unfinished && (
        <div className="muted">
          last execution {e.id}: {e.phase}
          {e.error ? ` (${e.error})` : ""}
        </div>
      )}
    </>
  );
}

/** A cooldown's state: cooling with time left, below its threshold, or a window that ended. */
function CooldownState({ c, now }: { c: Partial<Cooldown>; now: number }) {
  const failures = c.failures ?? 0;
  if (c.cooling)
    return <span className="tag tag-warn">cooling{now && c.until_ms ? `, ${formatLeft(c.until_ms, now)}` : ""}</span>;
  if (c.until_ms === null || c.until_ms === undefined)
    return (
      <span className="muted" data-testid="cooldown-below-threshold">
        {cooldownBelowThreshold(failures)}
      </span>
    );
  return (
    <span className="muted">
      window ended {formatTime(c.until_ms)}
      {c.overdue_ms != null && <> · {overdueText(c.overdue_ms)}, no success since</>}
    </span>
  );
}

const PROGRESS_WORDS: Record<string, string> = {
  reported: "reported",
  progress_details_unavailable: "running, without progress details",
  progress_unknown: "unknown (no progress record)",
};

/** `nowMs`: the answer's own clock; every "in" and "left" here counts from it (issue 27). */
export function LegacyPanel({
  legacy: l,
  nowMs: now,
  holder,
}: {
  legacy: Legacy;
  nowMs: number;
  /** the table's one write-turn holder (the answer's `write_turn_holder`) */
  holder: TableSummary["write_turn_holder"];
}) {
  // The detail response types these rows loosely; they are the /failures rows (§9).
  const cooldowns = l.cooldowns as Partial<Cooldown>[];
  const failures = l.failures as Partial<Failure>[];
  const p = l.progress;
  return (
    <section className="panel" aria-label="legacy view">
      <h2>Legacy queue and write turn</h2>
      <dl className="kv">
        <dt>queue</dt>
        <dd data-testid="legacy-queue">
          <QueueState legacy={l} />
        </dd>
        <dt>eligibility</dt>
        <dd data-testid="eligibility">
          {l.eligibility ? (
            <>
              {l.eligibility.message} <code className="muted">{l.eligibility.code}</code>
            </>
          ) : (
            <span className="muted">—</span>
          )}
        </dd>
        <dt>write turn</dt>
        <dd data-testid="write-turn">
          <WriteTurnHolder holder={holder} nowMs={now} />
        </dd>
        <dt>target lock</dt>
        <dd data-testid="target-lock">
          <LockInWords lock={l.target_lock} held={holder !== null} />
        </dd>
        <dt>merge progress</dt>
        <dd>
          {p.status === "no_active_record" ? (
            <span className="muted">no merge is reporting progress</span>
          ) : (
            <>
              {PROGRESS_WORDS[p.status] ?? p.status}
              {p.sequence !== null && ` · sequence ${formatCount(p.sequence)}`}
              {p.work_report !== null && p.work_report !== undefined && (
                <details className="muted">
                  <summary>work report</summary>
                  <Json value={p.work_report} />
                </details>
              )}
            </>
          )}
        </dd>
      </dl>
      <h3 style={{ marginTop: 8 }}>Cooldowns</h3>
      {cooldowns.length === 0 ? (
        <p className="muted">No cooldown.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>kind</th>
              <th className="num">failures</th>
              <th>state</th>
              <th>last error</th>
            </tr>
          </thead>
          <tbody>
            {cooldowns.map((c) => (
              <tr key={String(c.kind)}>
                <td className="mono">{c.kind}</td>
                <td className="num">{c.failures}</td>
                <td>
                  <CooldownState c={c} now={now} />
                </td>
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
          <thead>
            <tr>
              <th>endpoint</th>
              <th>class</th>
              <th className="num">attempts</th>
              <th>next retry</th>
              <th>last error</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((f) => (
              <tr key={String(f.endpoint)}>
                <td className="mono">{f.endpoint}</td>
                <td>
                  {f.class} {f.needs_attention && <span className="tag tag-bad">needs attention</span>}
                </td>
                <td className="num">{f.consecutive_attempts}</td>
                <td>
                  {formatTime(f.next_retry_ms)}
                  {now && f.next_retry_ms ? ` (${formatIn(f.next_retry_ms, now)})` : ""}
                </td>
                <td className="mono">{f.last_error ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

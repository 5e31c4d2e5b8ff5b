"use client";
// `/failures`: the merge failure ledger (spec §9.1, with the read-time correction) and
// task cooldowns (§9.2); needs-attention first, next-retry countdowns, error text.
import Link from "next/link";
import { formatCount, formatTime } from "@/components/ui/format";
import { formatIn, formatLeft, overdueText } from "@/lib/words/format";
import { cooldownBelowThreshold } from "./cooldown-words";
import { PageTitle } from "@/components/ui/page-title";
import { Empty, QueryState } from "@/components/ui/query-state";
import type { Failure } from "@/lib/client/api-types";
import { useFailures } from "@/lib/client/hooks";
import { tableHref } from "@/lib/client/links";
import { usePinnedRevision } from "@/lib/client/revision";

/** Needs-attention first, then the soonest retry (display order only). */
function attentionFirst(a: Failure, b: Failure): number {
  if (a.needs_attention !== b.needs_attention) return a.needs_attention ? -1 : 1;
  return (a.next_retry_ms ?? Infinity) - (b.next_retry_ms ?? Infinity) || a.target.localeCompare(b.target);
}

/**
 * Relative to the answer's `now_ms` (console-api.md "One answer, as of its moment"), never the
 * browser clock, in the words the table page uses: a retry is "in 20m 01s", a cooldown "16m 34s left".
 */
function Countdown({ at, now, words }: { at: number | null; now: number; words: "in" | "left" }) {
  if (at === null) return <span className="muted">—</span>;
  if (!now) return <span>{formatTime(at)}</span>;
  return (
    <span className={at <= now ? "countdown-due" : undefined} title={formatTime(at)} data-testid="countdown">
      {words === "in" ? formatIn(at, now) : formatLeft(at, now)}
    </span>
  );
}

export function FailuresView() {
  const failures = useFailures();
  const revision = usePinnedRevision();
  return (
    <QueryState query={failures} what="failures">
      {(d) => {
        const now = d.now_ms;
        const ledger = [...d.failures].sort(attentionFirst);
        const attention = ledger.filter((f) => f.needs_attention).length;
        return (
          <>
            <PageTitle title="Failures" revision={d.revision} readAtMs={d.read_at_ms}>
              <span className="muted" data-testid="failure-summary">
                {formatCount(ledger.length)} ledger entries · {formatCount(attention)} need attention ·{" "}
                {formatCount(d.cooldowns.filter((c) => c.cooling).length)} cooling down
              </span>
            </PageTitle>
            <section className="panel" aria-label="failure ledger">
              <h2>Merge failure ledger</h2>
              {ledger.length === 0 ? (
                <Empty>No merge failures recorded.</Empty>
              ) : (
                <table className="data" data-testid="failure-ledger">
                  <thead>
                    <tr>
                      <th>target</th>
                      <th>endpoint</th>
                      <th>failure class</th>
                      <th className="num">failures in a row</th>
                      <th>next retry</th>
                      <th>last failure</th>
                      <th>last error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {ledger.map((f) => (
                      <tr key={`${f.target}|${f.endpoint}`} data-testid="failure-row">
                        <td className="target">
                          <Link href={tableHref(f.target, revision)}>{f.target}</Link>{" "}
                          {f.needs_attention && <span className="tag tag-bad">needs attention</span>}
                        </td>
                        <td className="mono">{f.endpoint}</td>
                        <td>
                          {f.class}
                          {f.corrected && (
                            <span className="muted" title="corrected at read time (spec §9.1)">
                              {" "}
                              (corrected)
                            </span>
                          )}
                        </td>
                        <td className="num">{formatCount(f.consecutive_attempts)}</td>
                        <td className="nowrap">
                          <Countdown at={f.next_retry_ms} now={now} words="in" />
                        </td>
                        <td className="nowrap">{formatTime(f.last_failure_ms)}</td>
                        <td className="mono" style={{ maxWidth: 420, overflowWrap: "anywhere" }}>
                          {f.last_error ?? "—"}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <section className="panel" aria-label="cooldowns" style={{ marginTop: 12 }}>
              <h2>Task cooldowns (compact, index, repair)</h2>
              {d.cooldowns.length === 0 ? (
                <Empty>No task is cooling down.</Empty>
              ) : (
                <table className="data" data-testid="cooldowns">
                  <thead>
                    <tr>
                      <th>kind</th>
                      <th>target</th>
                      <th className="num">failures</th>
                      <th>cooling</th>
                      <th>last error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...d.cooldowns]
                      .sort((a, b) => Number(b.cooling) - Number(a.cooling) || (a.until_ms ?? 0) - (b.until_ms ?? 0))
                      .map((c) => (
                        <tr key={`${c.kind}|${c.target}`} data-testid="cooldown-row">
                          <td className="mono">{c.kind}</td>
                          <td className="target">
                            <Link href={tableHref(c.target, revision)}>{c.target}</Link>
                          </td>
                          <td className="num">{c.failures}</td>
                          <td className="nowrap">
                            {c.cooling ? (
                              <Countdown at={c.until_ms} now={now} words="left" />
                            ) : c.until_ms === null ? (
                              <span className="muted" data-testid="cooldown-below-threshold">
                                {cooldownBelowThreshold(c.failures)}
                              </span>
                            ) : (
                              <span className="muted">
                                window ended {formatTime(c.until_ms)}
                                {c.overdue_ms != null && <> · {overdueText(c.overdue_ms)}, no success since</>}
                              </span>
                            )}
                          </td>
                          <td className="mono">{c.last_error ?? "—"}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        );
      }}
    </QueryState>
  );
}

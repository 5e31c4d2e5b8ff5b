"use client";
// Demand and its score breakdown (spec §3.4, §4.1), the turn-wait clock, units per kind.
import { AgeBoundMark, ClassBadge, WaitText } from "@/components/ui/badges";
import { UsageBar } from "@/components/ui/bar";
import { formatBytes, formatCount, formatDuration, formatScore, formatTime } from "@/components/ui/format";
import { codeInWords } from "@/lib/words/codes";
import type { TableDetail } from "@/lib/client/api-types";

export function DemandPanel({ table: t }: { table: TableDetail }) {
  const b = t.score_breakdown;
  const turnWaitMs = b ? b.max_turn_wait_secs * 1000 : null;
  return (
    <section className="panel" aria-label="demand and score">
      <h2>Demand and score</h2>
      <dl className="kv">
        <dt>pending generations</dt>
        <dd data-testid="pending-generations">{formatCount(t.pending_generations)}</dd>
        <dt>pending bytes</dt>
        <dd>
          {formatBytes(t.pending_bytes)}{" "}
          <span className="muted">(bytes through sealed on shards with pending work)</span>
        </dd>
        <dt>oldest pending</dt>
        <dd>
          <AgeBoundMark bound={t.age_bound} />
          {formatTime(t.oldest_pending_ms)} {t.age_bound === "upper" && <span className="muted">(upper bound)</span>}
        </dd>
        <dt>wait</dt>
        <dd>
          <WaitText waitMs={t.wait_ms} bound={t.age_bound} />
          {t.age_bound === "upper" && <span className="muted"> (a lower bound: the exact flush time was pruned)</span>}
        </dd>
        <dt>score</dt>
        <dd data-testid="score">{formatScore(t.score)}</dd>
        {b && (
          <>
            <dt>score =</dt>
            <dd>
              the larger of <span title="by_generations">{formatScore(b.by_generations)} by generations</span> and{" "}
              <span title="by_bytes">{formatScore(b.by_bytes)} by bytes</span>, times an{" "}
              <span title="age_boost">age boost of {b.age_boost.toFixed(3)}</span>
            </dd>
            <dt>exact wait / floor</dt>
            <dd>
              {formatDuration(b.wait_exact_ms)} / {formatDuration(t.wait_ms)}
              {b.wait_floor_ms !== null && b.wait_floor_ms > 1e12
                ? ` (floor time ${formatTime(b.wait_floor_ms)})`
                : ""}{" "}
              <span className="muted">(age boost uses the exact wait only; a bound never inflates the score)</span>
            </dd>
            <dt>thresholds</dt>
            <dd data-testid="thresholds">
              <span title="merge.min_generations">a merge is due at {formatCount(b.min_generations)} generations</span>{" "}
              or <span title="merge.min_bytes">{formatBytes(b.min_bytes)} to merge</span>;{" "}
              <span title="merge.max_age_secs">
                the age boost adds 1 for every {formatDuration(b.max_age_secs * 1000)} waited
              </span>
              ;{" "}
              <span title="merge.critical_generations">
                critical at {formatCount(b.critical_generations)} generations
              </span>
              ;{" "}
              <span title="max_turn_wait_secs">
                promoted after waiting {formatDuration(b.max_turn_wait_secs * 1000)}
              </span>
            </dd>
          </>
        )}
      </dl>
      {turnWaitMs !== null && t.pending_generations > 0 && (
        <div style={{ marginTop: 8 }} data-testid="turn-wait-clock">
          <h3>Turn-wait clock</h3>
          {t.wait_ms === null ? (
            <div className="muted">
              The head unit ({t.reason ?? t.class}) carries no wait clock; see the units below.
            </div>
          ) : (
            <>
              <UsageBar used={t.wait_ms} total={turnWaitMs} label="wait out of max turn wait" />
              <div className="muted">
                waited {formatDuration(t.wait_ms)} of {formatDuration(turnWaitMs)}
                {t.wait_ms < turnWaitMs
                  ? ` — promoted for age in ${formatDuration(turnWaitMs - t.wait_ms)} if still waiting`
                  : " — past the turn-wait limit"}
              </div>
            </>
          )}
        </div>
      )}
      <h3 style={{ marginTop: 10 }}>Units per kind</h3>
      {t.units.length === 0 ? (
        <p className="muted">No unit has demand.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>kind</th>
              <th>class</th>
              <th className="num">score</th>
              <th>reason</th>
            </tr>
          </thead>
          <tbody>
            {t.units.map((u) => (
              <tr key={u.kind}>
                <td className="mono">{u.kind}</td>
                <td>
                  <ClassBadge name={u.class} />
                </td>
                <td className="num">{formatScore(u.score)}</td>
                <td title={u.reason}>{u.reason ? codeInWords(u.reason) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

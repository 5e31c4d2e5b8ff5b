"use client";
// `/canary`: the shadow canary over a window, read as observations (scheduler-model.md §6.2:
// "observations, not a gate"): each outcome's level and trend with what it means and does
// not mean, placement agreement, the samples it rests on, the chronic tables (CSV), and a
// warning when an outcome that should fall rose. Pinned: the window ends at the pin.
import Link from "next/link";
import { OUTCOME_MEANING, plannerModeAmongMisses } from "@/lib/words/outcomes";
import { formatCount, formatTime } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { OUTCOMES } from "@/lib/client/api-types";
import { MIN_CANARY_SAMPLES } from "@/lib/schema/codes";
import { tableHref } from "@/lib/client/links";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";
import { useCanary } from "@/lib/client/takeover-hooks";
import { chronicCsv } from "./chronic-csv";
import { useWindowMs, WindowPicker, WINDOWS } from "./window-picker";
import { ForecastCalibration } from "./forecast-calibration";

const fmt = (n: number | null, digits = 1) =>
  n === null ? "—" : n.toLocaleString("en-US", { maximumFractionDigits: digits });
const share = (n: number | null) => (n === null ? "—" : `${(n * 100).toFixed(1)} %`);

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

export function CanaryReport() {
  const [windowMs, setWindowMs] = useWindowMs();
  const canary = useCanary(windowMs);
  const revision = usePinnedRevision();
  const label = WINDOWS.find((w) => w.ms === windowMs)?.label ?? "";
  return (
    <QueryState query={canary} what="canary report">
      {(r) => (
        <>
          <PageTitle title="Canary report" revision={r.revision}>
            <WindowPicker value={windowMs} onChange={setWindowMs} />
          </PageTitle>
          <p className="muted" data-testid="canary-window">
            {label} from {formatTime(r.from_ms)} to {formatTime(r.to_ms)}:{" "}
            <strong data-testid="canary-samples">
              {formatCount(r.samples)} {r.samples === 1 ? "sample" : "samples"}
            </strong>{" "}
            of the shadow comparison (one a minute).{" "}
            {!r.enough_data && (
              <strong data-testid="not-enough-data">
                Not enough data: fewer than {MIN_CANARY_SAMPLES} samples, so levels and trends say little yet.
              </strong>
            )}{" "}
            These are observations of how the planner&apos;s view compares with the legacy queue, not a pass or fail
            verdict.
          </p>
          {r.rising.length > 0 && (
            <div className="state state-error" role="alert" data-testid="rising-warning">
              {r.rising
                .map(
                  (o) =>
                    `${OUTCOME_MEANING[o].label} among tables in legacy mode rose over the window (from ${fmt(r.legacy_mode[o].first, 0)} to ${fmt(r.legacy_mode[o].last, 0)}, ${fmt(r.legacy_mode[o].trend_per_day)} a day)`,
                )
                .join("; ")}
              : {r.rising.map((o) => OUTCOME_MEANING[o].healthy).join(", ")}. Look at the chronic tables below and at{" "}
              <Link href={withRevision("/shadow", revision)}>the shadow page</Link>.
            </div>
          )}
          <table className="data" data-testid="canary-outcomes">
            <thead>
              <tr>
                <th>outcome</th>
                <th>now</th>
                <th>mean</th>
                <th>first → last</th>
                <th>trend a day</th>
                <th>what it means</th>
                <th>what it does not mean</th>
              </tr>
            </thead>
            <tbody>
              {OUTCOMES.map((o) => (
                <tr key={o} data-testid={`canary-outcome-${o}`}>
                  <td title={o}>
                    {OUTCOME_MEANING[o].label}
                    <div className="muted">{OUTCOME_MEANING[o].healthy}</div>
                    {o === "discovery_miss" && plannerModeAmongMisses(r) && (
                      <div className="muted" data-testid="misses-in-planner-mode">
                        {formatCount(r.current.discovery_miss_in_planner_mode)} of them now in planner mode: the planner
                        runs their merges, so no legacy task is expected. The warning counts the tables in legacy mode
                        only ({fmt(r.legacy_mode.discovery_miss.first, 0)} → {fmt(r.legacy_mode.discovery_miss.last, 0)}
                        ).
                      </div>
                    )}
                  </td>
                  <td className="num">{formatCount(r.current.outcomes[o])}</td>
                  <td className="num">{fmt(r.outcomes[o].mean)}</td>
                  <td className="num">
                    {fmt(r.outcomes[o].first, 0)} → {fmt(r.outcomes[o].last, 0)}
                  </td>
                  <td className="num" data-testid={`trend-${o}`}>
                    {fmt(r.outcomes[o].trend_per_day)}
                  </td>
                  <td>{OUTCOME_MEANING[o].means}</td>
                  <td className="muted">{OUTCOME_MEANING[o].notMeans}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <section className="panel" aria-label="placement agreement" style={{ marginTop: 12 }}>
            <h2>Placement agreement</h2>
            <p data-testid="agreement-share">
              The console&apos;s shadow placements matched the master&apos;s (same tables on the same executors) in{" "}
              <strong>{share(r.agreement.placements_agree_share)}</strong> of {formatCount(r.agreement.samples)}{" "}
              {r.agreement.samples === 1 ? "sample" : "samples"}; now they{" "}
              {r.current.placements_agree ? "agree" : "differ"}.
            </p>
            <p className="muted">
              Agreement means both planners reach the same placements from the same records. It does not mean the
              placements are good, nor that the legacy side runs those merges.
            </p>
          </section>
          <section className="panel" aria-label="chronic disagreements" style={{ marginTop: 12 }}>
            <h2>
              Tables that disagree chronically{" "}
              <button
                type="button"
                data-testid="chronic-csv"
                onClick={() => download(`canary-chronic-${r.to_ms}.csv`, chronicCsv(r))}
              >
                export CSV
              </button>
            </h2>
            <p className="muted">
              In a disagreeing outcome (discovery miss, phantom task) in at least half of the samples of the window.
            </p>
            {r.chronic.length === 0 ? (
              <p data-testid="chronic-none">None in this window.</p>
            ) : (
              <table className="data" data-testid="chronic-list">
                <thead>
                  <tr>
                    <th>table</th>
                    <th>outcome</th>
                    <th>share of samples</th>
                  </tr>
                </thead>
                <tbody>
                  {r.chronic.map((c) => (
                    <tr key={`${c.outcome}:${c.target}`}>
                      <td className="target">
                        <Link href={tableHref(c.target, revision)}>{c.target}</Link>
                      </td>
                      <td>
                        {OUTCOME_MEANING[c.outcome].label}
                        {c.in_planner_mode && (
                          <div className="muted" data-testid="chronic-planner-mode">
                            in planner mode now: the planner runs its merges, so no legacy task is expected
                          </div>
                        )}
                      </td>
                      <td className="num">{share(c.share)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <ForecastCalibration windowMs={windowMs} />
          <section className="panel" aria-label="evidence digest" style={{ marginTop: 12 }}>
            <h2>Evidence for the takeover gate</h2>
            <p>
              Digest of this report: <code data-testid="canary-digest">{r.digest}</code>. A switch to mode planner
              carries it (X-Evidence-Digest); the policy editor takes it from{" "}
              <Link href={`/policies/_default?evidence=${r.digest}`} data-testid="evidence-link">
                here
              </Link>
              .
            </p>
          </section>
        </>
      )}
    </QueryState>
  );
}

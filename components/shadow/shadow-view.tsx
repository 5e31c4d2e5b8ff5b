"use client";
// `/shadow`: the canary view. Outcome counts (each one click from its tables), what they
// mean, the trend, and whether the console's placements match the master's shadow rows.
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useState } from "react";
import { countOf, formatBytes, formatCount } from "@/lib/words/format";
import { PLACEMENT_NAMES, codeInWords } from "@/lib/words/codes";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import { OUTCOMES, type OutcomeName, type Placement, type ShadowResponse } from "@/lib/client/api-types";
import { useShadow } from "@/lib/client/hooks";
import { encodedPath, tableHref } from "@/lib/client/links";
import { usePinnedRevision } from "@/lib/client/revision";
import { OUTCOME_MEANING } from "@/lib/words/outcomes";
import { ShadowTrend } from "./shadow-trend";
import { WriteTurnHolder } from "@/components/tables/write-turn-holder";

/**
 * Which outcomes' table lists are open, kept in the URL (`?open=phantom_task&open=running`)
 * so a link shows the same lists. The view answers at once; the URL follows without a
 * server round trip (as on /tables).
 */
function useOpenOutcomes(): [OutcomeName[], (o: OutcomeName) => void] {
  const params = useSearchParams();
  const pathname = encodedPath(usePathname());
  const urlKey = params.getAll("open").join(",");
  const parse = (key: string) =>
    key.split(",").filter((o): o is OutcomeName => (OUTCOMES as readonly string[]).includes(o));
  const [open, setOpen] = useState<OutcomeName[]>(() => parse(urlKey));
  // the URL moved (back/forward, a link): the lists follow it, set while rendering (not in an effect)
  const [shownKey, setShownKey] = useState(urlKey);
  if (shownKey !== urlKey) {
    setShownKey(urlKey);
    setOpen(parse(urlKey));
  }
  const toggle = useCallback(
    (o: OutcomeName) => {
      setOpen((current) => {
        const next = current.includes(o) ? current.filter((x) => x !== o) : [...current, o];
        const query = new URLSearchParams(window.location.search);
        query.delete("open");
        OUTCOMES.filter((x) => next.includes(x)).forEach((x) => query.append("open", x));
        const text = query.toString();
        window.history.replaceState(null, "", text ? `${pathname}?${text}` : pathname);
        return next;
      });
    },
    [pathname],
  );
  return [open, toggle];
}

/** One table of an outcome's list, with the write-turn holder its table page names (and why it still counts). */
function OutcomeTable({
  target,
  shadow: s,
  outcome,
  revision,
}: {
  target: string;
  shadow: ShadowResponse;
  outcome: OutcomeName;
  revision: number | null;
}) {
  const holder = s.write_turn_holders.find((h) => h.target === target)?.holder ?? null;
  const beside = outcome === "discovery_miss" ? s.miss_beside_execution.find((m) => m.target === target) : undefined;
  return (
    <li className="target" data-target={target}>
      <Link href={tableHref(target, revision)}>{target}</Link>
      {holder && (
        <span className="muted" title={beside?.explanation}>
          {" "}
          · <WriteTurnHolder holder={holder} nowMs={s.now_ms} short />
        </span>
      )}
    </li>
  );
}

/** The discovery misses by name, always shown (the API lists them): each with its write-turn holder. */
function DiscoveryMisses({ shadow: s, revision }: { shadow: ShadowResponse; revision: number | null }) {
  const misses = s.tables.discovery_miss;
  // the misses beside a held write turn first: they are the ones a table page explains differently
  const held = new Set(s.write_turn_holders.map((h) => h.target));
  const shown = [...misses.filter((t) => held.has(t)), ...misses.filter((t) => !held.has(t))].slice(0, MISSES_SHOWN);
  return (
    <section className="panel" aria-label="discovery misses" data-testid="discovery-misses" style={{ marginTop: 12 }}>
      <h2>{OUTCOME_MEANING.discovery_miss.label} by name</h2>
      {misses.length === 0 ? (
        <p className="muted">None: the legacy queue has every due table queued or running.</p>
      ) : (
        <>
          <p className="muted">
            Due tables the legacy queue has neither queued nor running; where something holds a table&apos;s write turn,
            it is named as its table page names it. The master&apos;s comparison reads only <code>queue/</code> and{" "}
            <code>running/</code> (§6.2), so a table whose turn is held elsewhere still counts here.
          </p>
          <ul className="outcome-list">
            {shown.map((target) => (
              <OutcomeTable key={target} target={target} shadow={s} outcome="discovery_miss" revision={revision} />
            ))}
          </ul>
          {misses.length > shown.length && (
            <p className="muted">
              … and {formatCount(misses.length - shown.length)} more: open the count above for the whole list.
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** How many discovery misses the always-open list names (the outcome's own list has them all). */
const MISSES_SHOWN = 50;

export function ShadowView() {
  const shadow = useShadow();
  const revision = usePinnedRevision();
  const [open, toggle] = useOpenOutcomes();
  return (
    <QueryState query={shadow} what="shadow comparison">
      {(s) => (
        <>
          <PageTitle title="Shadow canary" revision={s.revision} readAtMs={s.read_at_ms}>
            <span className="muted">
              disagreements ({OUTCOME_MEANING.discovery_miss.label} + {OUTCOME_MEANING.phantom_task.label}):{" "}
              <strong data-testid="disagreements">{formatCount(s.disagreements)}</strong>
            </span>
          </PageTitle>
          <div className="grid grid-5">
            {OUTCOMES.map((o) => (
              <section key={o} className="panel" aria-label={o} data-testid={`outcome-${o}`}>
                <h2 title={o}>{OUTCOME_MEANING[o].label}</h2>
                <button
                  type="button"
                  className="outcome-button"
                  title="show this outcome's tables"
                  onClick={() => toggle(o)}
                  aria-expanded={open.includes(o)}
                  aria-controls={`outcome-tables-${o}`}
                  data-testid={`outcome-count-${o}`}
                >
                  <span className="stat">{formatCount(s.outcomes[o])}</span>
                </button>
                <div className="stat-label">{OUTCOME_MEANING[o].healthy}</div>
                <p style={{ margin: "6px 0 2px" }}>{OUTCOME_MEANING[o].means}</p>
                <p className="muted" style={{ margin: 0 }}>
                  <strong>Does not mean:</strong> {OUTCOME_MEANING[o].notMeans}
                </p>
                {o === "discovery_miss" && s.miss_beside_execution.length > 0 && (
                  <p className="muted" style={{ margin: "4px 0 0" }} data-testid="miss-beside-execution">
                    {countOf(s.miss_beside_execution.length, "miss stands", "misses stand")} beside a running merge: the
                    master&apos;s comparison reads only <code>queue/</code> and <code>running/</code> (§6.2), not{" "}
                    <code>merge-executions/</code>.
                  </p>
                )}
                {open.includes(o) && (
                  <ul className="outcome-list" id={`outcome-tables-${o}`} data-testid={`outcome-tables-${o}`}>
                    {(s.tables[o] ?? []).map((target) => (
                      <OutcomeTable key={target} target={target} shadow={s} outcome={o} revision={revision} />
                    ))}
                    {(s.tables[o] ?? []).length === 0 && <li className="muted">none</li>}
                  </ul>
                )}
              </section>
            ))}
          </div>
          <DiscoveryMisses shadow={s} revision={revision} />
          <div className="grid grid-2" style={{ marginTop: 12 }}>
            <ShadowTrend />
            <section className="panel" aria-label="placement agreement" data-testid="placement-agreement">
              <h2>Placements by {PLACEMENT_NAMES.master}: the console vs the master</h2>
              <p>
                {s.placements.agree ? (
                  <span className="tag tag-ok">agree</span>
                ) : (
                  <span className="tag tag-bad">differ</span>
                )}{" "}
                console places {formatCount(s.placements.console.length)} · master recorded{" "}
                {formatCount(s.placements.master.length)} shadow rows · they agree only when both place the same tables
                on the same executors
              </p>
              <p className="muted" data-testid="shadow-rule-note">
                Both sides here follow <strong>{PLACEMENT_NAMES.master}</strong> (merge work only, shadow rows counted,
                no per-cycle or per-executor limits). A table&apos;s verdict on the tables page follows{" "}
                <strong>{PLACEMENT_NAMES.design}</strong> (every work kind, <code>max_placements_per_cycle</code>,
                fairness, shadow rows left out), so the two can name different executors, and a table placed here can
                still be skipped there (for example &ldquo;{codeInWords("cycle_limit")}&rdquo;).
              </p>
              <ExecutorMismatch rows={s.placements.executor_mismatch} revision={revision} />
              <PlacementDiff
                title="only the console places"
                targets={s.placements.only_console}
                placements={s.placements.console}
                revision={revision}
              />
              <PlacementDiff
                title="only the master recorded"
                targets={s.placements.only_master}
                placements={s.placements.master}
                revision={revision}
              />
            </section>
          </div>
        </>
      )}
    </QueryState>
  );
}

function ExecutorMismatch({
  rows,
  revision,
}: {
  rows: ShadowResponse["placements"]["executor_mismatch"];
  revision: number | null;
}) {
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="executor-mismatch">
        placed on different executors: none
      </p>
    );
  return (
    <>
      <h3>placed by both, on different executors ({formatCount(rows.length)})</h3>
      <table className="data" data-testid="executor-mismatch">
        <thead>
          <tr>
            <th>table</th>
            <th>console ({PLACEMENT_NAMES.master})</th>
            <th>master</th>
            <th>why they can differ</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 50).map((m) => (
            <tr key={m.target}>
              <td className="target" style={{ minWidth: 150 }}>
                <Link href={tableHref(m.target, revision)}>{m.target}</Link>
              </td>
              <td className="mono nowrap">{m.console}</td>
              <td className="mono nowrap">{m.master}</td>
              <td>{m.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function PlacementDiff({
  title,
  targets,
  placements,
  revision,
}: {
  title: string;
  targets: string[];
  placements: Placement[];
  revision: number | null;
}) {
  if (targets.length === 0) return <p className="muted">{title}: none</p>;
  const byTarget = new Map(placements.map((p) => [p.target, p]));
  return (
    <>
      <h3>
        {title} ({formatCount(targets.length)})
      </h3>
      <table className="data">
        <tbody>
          {targets.slice(0, 50).map((t) => (
            <tr key={t}>
              <td className="target">
                <Link href={tableHref(t, revision)}>{t}</Link>
              </td>
              <td className="mono">{byTarget.get(t)?.executor ?? "—"}</td>
              <td className="num">{formatBytes(byTarget.get(t)?.reserved_bytes ?? null)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

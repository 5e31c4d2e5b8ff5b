"use client";
// `/facts`: the design's open questions answered from the fleet's own records (console-api.md
// `GET /fleet/facts`), each beside what it implies for critical_generations,
// max_turn_wait_secs and the expected bytes, and "preview this default": the guarded policy
// editor of `_default`, prefilled, whose review shows the blast radius before any save.
import Link from "next/link";
import { formatBytes, formatCount, formatDuration, formatTime } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import type { FactsResponse } from "@/lib/schema/api/fleet";
import { usePinnedRevision } from "@/lib/client/revision";
import { useFacts } from "@/lib/client/takeover-hooks";
import { usePolicy } from "@/lib/client/hooks";
import { useWindowMs, WindowPicker, WINDOWS } from "./window-picker";
import { PREFILL_PARAM } from "./prefill";

const pct = (n: number | null | undefined) => (n == null ? "—" : `${(n * 100).toFixed(1)} %`);
const secs = (s: number | null) => (s === null ? "—" : formatDuration(s * 1000));

type Doc = Record<string, unknown>;
const section = (v: unknown): Doc => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Doc) : {});

/** The stored `_default` with the knobs the facts inform set to what they imply (the rest kept). */
function suggestedDefault(stored: Doc | null, implies: FactsResponse["implies"]): Doc | null {
  if (implies.critical_generations === null && implies.max_turn_wait_secs === null) return null;
  const doc: Doc = { ...(stored ?? {}) };
  if (implies.critical_generations !== null)
    doc.merge = { ...section(doc.merge), critical_generations: implies.critical_generations };
  if (implies.max_turn_wait_secs !== null)
    doc.max_turn_wait_secs = { ...section(doc.max_turn_wait_secs), merge_wal: implies.max_turn_wait_secs };
  return doc;
}

export function FactsView() {
  const [windowMs, setWindowMs] = useWindowMs();
  const facts = useFacts(windowMs);
  const stored = usePolicy("_default").data?.stored ?? null;
  const pinned = usePinnedRevision();
  const label = WINDOWS.find((w) => w.ms === windowMs)?.label ?? "";
  return (
    <QueryState query={facts} what="fleet facts">
      {(f) => {
        const doc = suggestedDefault(stored as Doc | null, f.implies);
        const previewHref = `/policies/_default?${PREFILL_PARAM}=${encodeURIComponent(JSON.stringify(doc))}`;
        return (
          <>
            <PageTitle title="Fleet facts" revision={f.revision}>
              <WindowPicker value={windowMs} onChange={setWindowMs} />
            </PageTitle>
            <p className="muted">
              The open questions of the design, answered from this fleet&apos;s records at revision{" "}
              {formatCount(f.revision)}; tasks finished {label} from {formatTime(f.from_ms)} to {formatTime(f.to_ms)}.
              Percentiles are nearest-rank.
            </p>
            <section className="panel" aria-label="tables" data-testid="facts-tables">
              <h2>Tables and the hot fraction</h2>
              <p>
                <strong>{formatCount(f.tables)}</strong> tables,{" "}
                <strong data-testid="hot-share">{pct(f.hot_share)}</strong> with pending work.
              </p>
            </section>
            <section
              className="panel"
              aria-label="generation sizes"
              data-testid="facts-generations"
              style={{ marginTop: 12 }}
            >
              <h2>Generation size (each pending table&apos;s average generation)</h2>
              <p>
                p50 {formatBytes(f.generation_bytes.p50)} · p90 {formatBytes(f.generation_bytes.p90)} · p99{" "}
                {formatBytes(f.generation_bytes.p99)} · max {formatBytes(f.generation_bytes.max)} (
                {formatCount(f.generation_bytes.count)} tables)
              </p>
              <p className="muted">
                Implies expected bytes of a merge of{" "}
                <strong data-testid="implied-bytes">{formatBytes(f.implies.expected_bytes)}</strong>: 2 × the larger of
                the 64 MiB pass and the p99 generation (scheduler-model.md §5.3, the older rule with p99 for the
                average). An average is not a maximum: the newest planner reserves the whole local budget.
              </p>
            </section>
            <section className="panel" aria-label="task durations" data-testid="facts-tasks" style={{ marginTop: 12 }}>
              <h2>Task durations and failures per kind</h2>
              {Object.keys(f.task_failure_share).length === 0 ? (
                <p>No task finished in this window.</p>
              ) : (
                <table className="data">
                  <thead>
                    <tr>
                      <th>kind</th>
                      <th>finished</th>
                      <th>p50</th>
                      <th>p90</th>
                      <th>p99</th>
                      <th>failed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.keys(f.task_failure_share).map((kind) => (
                      <tr key={kind} data-testid={`task-${kind}`}>
                        <td>{kind}</td>
                        <td className="num">{formatCount(f.task_seconds[kind]?.count ?? 0)}</td>
                        <td className="num">{secs(f.task_seconds[kind]?.p50 ?? null)}</td>
                        <td className="num">{secs(f.task_seconds[kind]?.p90 ?? null)}</td>
                        <td className="num">{secs(f.task_seconds[kind]?.p99 ?? null)}</td>
                        <td className="num">{pct(f.task_failure_share[kind])}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <p className="muted">
                Implies max_turn_wait_secs of{" "}
                <strong data-testid="implied-wait">
                  {f.implies.max_turn_wait_secs === null ? "—" : `${formatCount(f.implies.max_turn_wait_secs)} s`}
                </strong>
                : ten p99 merges; a table passed over that long is promoted (§4.1).
              </p>
            </section>
            <section className="panel" aria-label="critical generations" style={{ marginTop: 12 }}>
              <h2>critical_generations</h2>
              <p className="muted">
                Implies{" "}
                <strong data-testid="implied-critical">
                  {f.implies.critical_generations === null ? "—" : formatCount(f.implies.critical_generations)}
                </strong>
                : the p99 of pending generations, so the top 1 % of backlogs jump the queue (between 8 and the
                4,096-generation write cliff).
              </p>
            </section>
            <p style={{ marginTop: 12 }}>
              {pinned === null && doc !== null ? (
                <Link href={previewHref} data-testid="preview-default">
                  Preview this default
                </Link>
              ) : (
                <span className="muted">
                  Nothing to preview{pinned !== null ? " on a pinned page: edits apply to the live policy" : ""}.
                </span>
              )}{" "}
              <span className="muted">
                — opens the fleet default&apos;s editor holding these values; its review shows the blast radius before
                anything is saved.
              </span>
            </p>
          </>
        );
      }}
    </QueryState>
  );
}

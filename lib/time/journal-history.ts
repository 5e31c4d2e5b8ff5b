import "server-only";
// One table's history read from the decision journal (console-api.md "The decision
// journal"): the chunk keys say which chunks overlap the window (lib/journal/window.ts), so
// only those and the checkpoint before them are fetched and decompressed — a 6 h window
// reads 6 h of a 7-day journal — and of those, only the ones this process does not keep
// decoded for the table (lib/journal/reader.ts). Where the journal does not cover the window (before its
// start, in its gaps, after its last write) ./history.ts re-plans, as before. A point's revision is
// dated by the revision clock, as the table page pinned there dates it (console-api.md fourth
// version); `now_ms` is the moment the live plan evaluated it.
import { etcdPrefix } from "@/lib/etcd/client";
import { journalPrefix } from "@/lib/schema/keys";
import type { JournalChunk } from "@/lib/journal/codec";
import { journalMetas, tableChunks } from "@/lib/journal/reader";
import { chunkRuns, coveredSpans, targetTimeline, uncovered, type StateKey } from "@/lib/journal/window";
import { verdictKey, type TableState } from "@/lib/journal/entry";
import { figuresAt } from "@/lib/journal/demand";
import type { HistoryPoint } from "@/lib/schema/api/history";
import type { InputsAt } from "./history-moved-by";
import { FutureRevision, RevisionCompacted } from "@/lib/etcd/errors";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import { mapPooled } from "@/lib/util/worker-pool";
import { revisionClock } from "@/lib/live/revision-clock";

interface Span {
  from_ms: number;
  to_ms: number;
  /**
   * the revisions the journal evaluated at either side: a re-planned point must lie after
   * `after` and before `before` (the revision clock is coarser than the journal's own dating,
   * so a time bound alone would repeat a journalled revision)
   */
  after?: number;
  before?: number;
}

export interface JournalWindow {
  points: HistoryPoint[];
  /** what the journal says the table held at the window's start (null: the journal does not cover the start) */
  initial: StateKey | null;
  /** the parts of the window the journal does not cover (re-planned instead) */
  uncovered: Span[];
  /** the revision the journal's state at the window's start was evaluated at (null: it does not cover the start) */
  initialRevision: number | null;
  /** by point (`${revision}:${now_ms}`): the other tables the same evaluation newly placed */
  placedWith: Map<string, string[]>;
  /** by revision: the table's input marks and the executors' capacities, where the sampler marked them */
  inputs: Map<number, InputsAt>;
}

const stateKey = (s: TableState | null): StateKey =>
  s === null ? { state: "gone", code: null } : verdictKey(s.verdict);

function journalPoint(revision: number, nowMs: number, s: TableState | null, before: TableState | null): HistoryPoint {
  const shown = s ?? before; // a table that left the plan keeps its last class; its verdict says "gone"
  // derived at the point's own clock (lib/journal/demand.ts); unknown for a table gone, or in a chunk that did not keep them
  const figures = s?.demand ? figuresAt(s.demand, nowMs) : null;
  return {
    revision,
    // dated below (`datedByRevision`)
    at_ms: null,
    error_ms: null,
    pending_generations: figures?.pending_generations ?? null,
    wait_ms: figures?.wait_ms ?? null,
    class: (shown?.class ?? "tail") as HistoryPoint["class"],
    score: figures?.score ?? null,
    verdict: s === null ? { state: "would_skip", code: "gone" } : verdictKey(s.verdict),
    executor: s?.verdict.executor ?? null,
    now_ms: nowMs,
    basis: "journal",
    journal: { write_turn: s?.write_turn ?? null, shadow_outcome: s?.shadow_outcome ?? null, gone: s === null },
    moved_by: null,
  };
}

/**
 * Each point's `at_ms` and `error_ms` as the revision clock dates its revision: what the table
 * page pinned there says in `revision_time`. A revision etcd compacted since has no pinned page
 * and is not dated (null, as the clock says of a revision nothing dates); nor is one etcd has
 * not reached (a journal restored from elsewhere). Its `now_ms` still says when it was evaluated.
 */
async function datedByRevision(points: HistoryPoint[]): Promise<HistoryPoint[]> {
  const clock = revisionClock();
  const revisions = [...new Set(points.map((p) => p.revision))];
  const times = new Map<number, RevisionTime | null>();
  await mapPooled(revisions, 16, async (revision) => {
    const t = await clock.timeOfReadable(revision).catch((e: unknown) => {
      if (e instanceof RevisionCompacted || e instanceof FutureRevision) return null;
      throw e;
    });
    times.set(revision, t);
  });
  return points.map((p) => {
    const t = times.get(p.revision);
    return t ? { ...p, at_ms: t.at_ms, error_ms: t.error_ms } : p;
  });
}

/** `u` with the last journalled revision at or before its start and the first at or after its end. */
function bounded(u: Span, chunks: readonly JournalChunk[]): Span {
  const out: Span = { ...u };
  for (const c of chunks) {
    for (const ev of c.evaluations) {
      if (ev.now_ms <= u.from_ms) out.after = ev.revision;
      else if (ev.now_ms >= u.to_ms && out.before === undefined) out.before = ev.revision;
    }
  }
  return out;
}

export async function journalWindow(target: string, fromMs: number, toMs: number): Promise<JournalWindow> {
  const prefix = etcdPrefix();
  const base = journalPrefix(prefix);
  const metas = await journalMetas();
  const spans = coveredSpans(metas).filter((s) => s.to_ms >= fromMs && s.from_ms <= toMs);
  const runs = chunkRuns(metas, fromMs, toMs);
  const notCovered: JournalWindow = {
    points: [],
    initial: null,
    uncovered: [{ from_ms: fromMs, to_ms: toMs }],
    initialRevision: null,
    placedWith: new Map(),
    inputs: new Map(),
  };
  if (spans.length === 0 || runs === null) return notCovered;
  const chunks = await tableChunks(base, runs, target); // only what this table's timeline reads
  if (chunks === null) return notCovered; // an unreadable chunk: the window is re-planned, as in a gap
  const restarts = new Set(spans.map((s) => s.from_ms).filter((ms) => ms > fromMs));
  const { initial, initialRevision, changes } = targetTimeline(chunks, target, fromMs, toMs, restarts);
  const points: HistoryPoint[] = [];
  const placedWith = new Map<string, string[]>();
  const inputs = new Map<number, InputsAt>();
  let before: TableState | null = initial ?? null;
  for (const c of changes) {
    if (before === null && c.state === null) continue; // not in the plan, still not
    points.push(journalPoint(c.revision, c.now_ms, c.state, before));
    if (c.placed_with.length > 0) placedWith.set(`${c.revision}:${c.now_ms}`, c.placed_with);
    if (c.state?.inputs && c.capacities) inputs.set(c.revision, { marks: c.state.inputs, capacities: c.capacities });
    before = c.state;
  }
  const coversStart = spans[0].from_ms <= fromMs && initial !== undefined;
  return {
    points: await datedByRevision(points),
    initial: coversStart ? stateKey(initial ?? null) : null,
    initialRevision: coversStart ? initialRevision : null,
    uncovered: uncovered(spans, fromMs, toMs).map((u) => bounded(u, chunks)),
    placedWith,
    inputs,
  };
}

import "server-only";
// What moved each history point's inputs (issue 23 "History from the journal"; the pure
// rules are lib/journal/moved-by.ts, the marks compared lib/journal/inputs.ts). Each point's
// revision, and the window's start, needs the table's input marks and the executors'
// capacities there:
// * a journal point carries them: the elected sampler marked the entry and its evaluation
//   from the very view it planned (lib/snapshot/inputs.ts), so nothing is read;
// * any other revision (the window's start, a re-planned point, an entry the journal did not
//   mark: a checkpoint's, a chunk written before marks were kept) is read from etcd: the
//   table's own keys (keys only) and the executors' heartbeats at that revision, in as few
//   read-only txns as etcd's op limit allows (lib/etcd/key-history.ts
//   `readRangesAtRevisions`). What was read at a revision never changes (etcd's history is
//   immutable), so each revision's read is kept (`READS`, least recently used first out). Marks from either source are the same marks (test/integration/journal).
import { movedBy, type InputsMoved, type TransitionState } from "@/lib/journal/moved-by";
import { executorsMoved, familiesMoved, marksOf, type Capacities, type InputMarks } from "@/lib/journal/inputs";
import type { HistoryPoint } from "@/lib/schema/api/history";
import { keys } from "@/lib/schema/keys";
import { capacitiesOfKvs } from "@/lib/snapshot/inputs";
import { etcdClient, etcdPrefix, type EtcdClient } from "@/lib/etcd/client";
import { readRangesAtRevisions } from "@/lib/etcd/key-history";
import { BoundedMap } from "@/lib/util/bounded-map";

/** What history compares at a revision: the table's input marks and the executors' capacities. */
export interface InputsAt {
  marks: InputMarks;
  capacities: Capacities;
}

/** ~1 KB each: a busy table's 6 h is ~1,800 of them */
const KEPT_READS = 20_000;
const READS = new BoundedMap<string, InputsAt>({ evict: "least-recently-used", maxEntries: KEPT_READS });

/** The reads kept, to count and to forget (tests compare answers from them with answers read afresh). */
export const keptInputReads: { readonly size: number; clear(): void } = READS;

const inputsBetween = (a: InputsAt, b: InputsAt, placedWith: readonly string[]): InputsMoved => ({
  own: familiesMoved(a.marks, b.marks),
  executors: executorsMoved(a.capacities, b.capacities),
  placedWith,
});

const stateOf = (p: HistoryPoint): TransitionState | null =>
  p.journal?.gone
    ? null
    : {
        class: p.class,
        state: p.verdict?.state ?? "unknown", // figures only: no verdict re-planned there
        code: p.verdict?.code ?? null,
        write_turn: p.journal?.write_turn ?? null,
      };

/**
 * The table's input marks and the executors' capacities at each of `revisions`, read from
 * etcd (or kept from an earlier read). Throws when a revision is compacted or etcd is away.
 */
export async function inputsReadAt(
  own: { single: string[]; prefixes: string[] },
  revisions: readonly number[],
  { client, prefix }: { client: EtcdClient; prefix: string } = { client: etcdClient(), prefix: etcdPrefix() },
): Promise<Map<number, InputsAt>> {
  const queries = [
    // the table's own keys are compared by mod_revision alone: their values (a demand event's sealed times) are not fetched
    ...own.single.map((key) => ({ key, keysOnly: true })),
    ...own.prefixes.map((key) => ({ key, prefix: true, keysOnly: true })),
    { key: keys.executors(prefix), prefix: true },
  ];
  const executorsAt = queries.length - 1;
  const readKey = (revision: number) =>
    `${prefix}\u0000${own.single.join("\u0001")}\u0000${own.prefixes.join("\u0001")}\u0000${revision}`;
  const out = new Map<number, InputsAt>();
  for (const revision of revisions) {
    const kept = READS.get(readKey(revision));
    if (kept) out.set(revision, kept);
  }
  const unread = [...new Set(revisions.filter((r) => !out.has(r)))].sort((a, b) => a - b);
  if (unread.length === 0) return out;
  const reads = await readRangesAtRevisions(client, prefix, queries, unread);
  unread.forEach((revision, i) => {
    const at: InputsAt = {
      marks: marksOf(prefix, reads[i].slice(0, executorsAt).flat()),
      capacities: capacitiesOfKvs(prefix, reads[i][executorsAt]),
    };
    out.set(revision, at);
    READS.set(readKey(revision), at);
  });
  return out;
}

/**
 * `points` (ascending revision) with `moved_by` set; the first is compared with
 * `startRevision` (the revision before the window). `known`: the journal's marks by revision
 * (those revisions are not read). A compacted revision leaves them null.
 */
export async function withMovedBy(
  points: HistoryPoint[],
  startRevision: number,
  placedWith: ReadonlyMap<string, string[]>,
  own: { single: string[]; prefixes: string[] },
  known: ReadonlyMap<number, InputsAt> = new Map(),
): Promise<HistoryPoint[]> {
  if (points.length === 0) return points;
  const revisions = [...new Set([Math.max(1, startRevision), ...points.map((p) => p.revision)])];
  const byRevision = new Map<number, InputsAt>();
  for (const revision of revisions) {
    const marked = known.get(revision);
    if (marked) byRevision.set(revision, marked);
  }
  try {
    const read = await inputsReadAt(
      own,
      revisions.filter((r) => !byRevision.has(r)),
    );
    for (const [revision, at] of read) byRevision.set(revision, at);
  } catch {
    return points; // compacted (or etcd away): what moved is not known, `moved_by` stays null
  }
  let previous: { revision: number; state: TransitionState | null } = {
    revision: Math.max(1, startRevision),
    state: null,
  };
  return points.map((p) => {
    const state = stateOf(p);
    const moved = inputsBetween(
      byRevision.get(previous.revision)!,
      byRevision.get(p.revision)!,
      placedWith.get(`${p.revision}:${p.now_ms}`) ?? [],
    );
    const out = {
      ...p,
      moved_by: movedBy(
        { previousRevision: previous.revision, revision: p.revision, before: previous.state, after: state },
        moved,
      ),
    };
    previous = { revision: p.revision, state };
    return out;
  });
}

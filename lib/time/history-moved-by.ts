import "server-only";
// What moved each history point's inputs (issue 23 "History from the journal"; the pure
// rules are lib/journal/moved-by.ts). The table's own keys (`own`: ./history.ts `ownKeys`; their
// mod_revisions only, no values) and the executors' heartbeats are read at every point's revision and at the window's start, in as
// few read-only txns as etcd's op limit allows (lib/etcd/key-history.ts
// `readRangesAtRevisions`); consecutive reads are compared: a key whose mod_revision moved,
// or that came or went, changed in between; an executor whose slots, bytes, kinds or
// draining differ had its capacity moved. What was read at a revision never changes (etcd's
// history is immutable), so each revision's read is kept process-wide (`READS`, least
// recently used first out): the chart's next request — a refresh, the pin moved, another
// reader of the same table — reads only the revisions it has not seen.
import { movedBy, type InputsMoved, type TransitionState } from "@/lib/journal/moved-by";
import type { HistoryPoint } from "@/lib/schema/api/history";
import { KEY_DIRS, keyDirOf, keys } from "@/lib/schema/keys";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readRangesAtRevisions, type VersionedKv } from "@/lib/etcd/key-history";
import { BoundedMap } from "@/lib/schema/bounded-map";
import { processWide } from "@/lib/schema/process-wide";

type Family = "demand" | "policy" | "write_turn";

/** The directories of the keys that hold or claim a table's write turn. */
const WRITE_TURN_DIRS: ReadonlySet<string | null> = new Set([
  KEY_DIRS.targetLocks,
  KEY_DIRS.mergeExecutions,
  KEY_DIRS.mergeClaims,
  KEY_DIRS.catchupActive,
  KEY_DIRS.compactPreparations,
  KEY_DIRS.compactCommitReady,
  KEY_DIRS.assignments,
]);

/** The family of one of the table's own keys (its demand and own records, its policies, its write turn). */
function familyOf(prefix: string, key: string): Family {
  const dir = keyDirOf(prefix, key);
  if (dir === KEY_DIRS.policies) return "policy";
  return WRITE_TURN_DIRS.has(dir) ? "write_turn" : "demand";
}

/** An executor's capacity as a comparable string (its heartbeat's time and load left out). */
function capacityOf(value: string): string {
  try {
    const h = JSON.parse(value) as Record<string, unknown>;
    return JSON.stringify([h.slots_total ?? null, h.bytes_total ?? null, h.draining ?? null, h.kinds ?? null]);
  } catch {
    return value;
  }
}

interface ReadAt {
  own: Map<string, number>;
  executors: Map<string, string>;
}

/** ~1 KB each: a busy table's 6 h is ~1,800 of them */
const KEPT_READS = 20_000;
const READS = processWide(
  "console.history.movedByReads",
  () => new BoundedMap<string, ReadAt>({ evict: "least-recently-used", maxEntries: KEPT_READS }),
);

function inputsBetween(prefix: string, a: ReadAt, b: ReadAt, placedWith: readonly string[]): InputsMoved {
  const own = new Set<Family>();
  for (const key of new Set([...a.own.keys(), ...b.own.keys()]))
    if (a.own.get(key) !== b.own.get(key)) own.add(familyOf(prefix, key));
  const executors: string[] = [];
  for (const id of new Set([...a.executors.keys(), ...b.executors.keys()]))
    if (a.executors.get(id) !== b.executors.get(id)) executors.push(id);
  return { own, executors, placedWith };
}

const stateOf = (p: HistoryPoint): TransitionState | null =>
  p.journal?.gone
    ? null
    : { class: p.class, state: p.verdict.state, code: p.verdict.code, write_turn: p.journal?.write_turn ?? null };

/**
 * `points` (ascending revision) with `moved_by` set; the first is compared with
 * `startRevision` (the revision before the window). A compacted revision leaves them null.
 */
export async function withMovedBy(
  points: HistoryPoint[],
  startRevision: number,
  placedWith: ReadonlyMap<string, string[]>,
  own: { single: string[]; prefixes: string[] },
): Promise<HistoryPoint[]> {
  if (points.length === 0) return points;
  const client = etcdClient();
  const prefix = etcdPrefix();
  const queries = [
    // the table's own keys are compared by mod_revision alone: their values (a demand event's sealed times) are not fetched
    ...own.single.map((key) => ({ key, keysOnly: true })),
    ...own.prefixes.map((key) => ({ key, prefix: true, keysOnly: true })),
    { key: keys.executors(prefix), prefix: true },
  ];
  const executorsAt = queries.length - 1;
  const revisions = [...new Set([Math.max(1, startRevision), ...points.map((p) => p.revision)])].sort((a, b) => a - b);
  const readKey = (revision: number) =>
    `${prefix}\u0000${own.single.join("\u0001")}\u0000${own.prefixes.join("\u0001")}\u0000${revision}`;
  const byRevision = new Map<number, ReadAt>();
  for (const revision of revisions) {
    const kept = READS.get(readKey(revision));
    if (kept) byRevision.set(revision, kept);
  }
  const unread = revisions.filter((r) => !byRevision.has(r));
  let reads: VersionedKv[][][];
  try {
    reads = unread.length === 0 ? [] : await readRangesAtRevisions(client, prefix, queries, unread);
  } catch {
    return points; // compacted (or etcd away): what moved is not known, `moved_by` stays null
  }
  const capacities = new Map<string, string>(); // a heartbeat's value is read at many revisions: parsed once
  unread.forEach((revision, i) => {
    const at: ReadAt = { own: new Map(), executors: new Map() };
    reads[i].forEach((kvs, j) => {
      for (const kv of kvs) {
        if (j === executorsAt) {
          let capacity = capacities.get(kv.value);
          if (capacity === undefined) capacities.set(kv.value, (capacity = capacityOf(kv.value)));
          at.executors.set(kv.key.slice(keys.executors(prefix).length), capacity);
        } else at.own.set(kv.key, kv.modRevision);
      }
    });
    byRevision.set(revision, at);
    READS.set(readKey(revision), at);
  });
  let previous: { revision: number; state: TransitionState | null } = {
    revision: Math.max(1, startRevision),
    state: null,
  };
  return points.map((p) => {
    const state = stateOf(p);
    const moved = inputsBetween(
      prefix,
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

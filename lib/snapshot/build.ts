// FleetSnapshot from raw kvs, pure (no etcd): the fleet read uses it after a read, and
// tests build snapshots from kvs the same way. Parse results are memoized per kv object
// (lib/snapshot/families.ts), so a rebuild after a one-key change parses one record.
import { FAMILIES, familyOfKey, familyPrefix, parseFamilyKv, type FamilyDef, type ListFamilyDef } from "./families";
import type {
  EntryOf,
  FamilyLists,
  FamilyName,
  FleetSnapshot,
  ListField,
  SkippedKey,
  SnapshotKv,
  SnapshotReadStats,
} from "./types";

export type KvsByFamily = ReadonlyMap<FamilyName, Iterable<SnapshotKv>>;

const noStats = (): SnapshotReadStats => ({ pages: 0, shrinks: 0, bytes: 0, keys: 0, durationMs: 0 });

/** How far back `tasks/` is read by default (console-api.md Additions "Fairness is live"). */
export const TASKS_WINDOW_MS = 24 * 3600_000;

/** Where a family read from a moment on starts (undefined: the whole prefix). */
export function familyStartKey(prefix: string, family: FamilyDef, sinceMs: number): Buffer | undefined {
  return family.startSuffix ? Buffer.from(familyPrefix(prefix, family) + family.startSuffix(sinceMs)) : undefined;
}

/** Sorted by key, the order etcd returns them (patched maps may not be). */
function inKeyOrder(kvs: Iterable<SnapshotKv>): SnapshotKv[] {
  const list = Array.isArray(kvs) ? (kvs as SnapshotKv[]) : [...kvs];
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1].key > list[i].key) return [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  return list;
}

/** The skip record of a kv that did not parse. */
export function skippedKey(
  kv: SnapshotKv,
  family: FamilyName,
  outcome: { reason: SkippedKey["reason"]; detail: string; target?: string },
): SkippedKey {
  const skipped: SkippedKey = {
    key: kv.key,
    family,
    reason: outcome.reason,
    detail: outcome.detail,
    modRevision: kv.modRevision,
  };
  if (outcome.target !== undefined) skipped.target = outcome.target;
  return skipped;
}

/** A snapshot with no records (every list empty). */
function emptySnapshot(
  prefix: string,
  revision: number,
  meta: { readAtMs?: number; stats?: SnapshotReadStats } = {},
): FleetSnapshot {
  return {
    prefix,
    revision,
    readAtMs: meta.readAtMs ?? 0,
    leader: null,
    leaderToken: null,
    demandEvents: [],
    demandTables: [],
    executors: [],
    assignments: [],
    policies: [],
    queue: [],
    running: [],
    tasks: [],
    cooldowns: [],
    mergeFailures: [],
    targetLocks: [],
    mergeExecutions: [],
    mergeProgress: [],
    mergeWork: [],
    claims: [],
    mergeClaims: [],
    catchupActive: [],
    compactPreparations: [],
    compactCommitReady: [],
    skipped: [],
    stats: meta.stats ?? noStats(),
  };
}

/** One list family's kvs (in key order) into its snapshot list. */
function fillList<F extends ListField>(
  snapshot: FleetSnapshot,
  family: ListFamilyDef<F>,
  kvs: readonly SnapshotKv[],
): void {
  const lists: FamilyLists = snapshot;
  const list: EntryOf[F][] = lists[family.field];
  for (let i = 0; i < kvs.length; i++) {
    const outcome = parseFamilyKv(snapshot.prefix, family, kvs[i]);
    if (outcome === null) continue;
    if (outcome.ok) list.push(outcome.entry);
    else snapshot.skipped.push(skippedKey(kvs[i], family.name, outcome));
  }
}

export function buildSnapshot(
  prefix: string,
  revision: number,
  kvsByFamily: KvsByFamily,
  meta: { readAtMs?: number; stats?: SnapshotReadStats } = {},
): FleetSnapshot {
  const snapshot = emptySnapshot(prefix, revision, meta);
  for (const family of FAMILIES) {
    const kvs = kvsByFamily.get(family.name);
    if (!kvs) continue;
    const ordered = inKeyOrder(kvs);
    if (family.field !== null) {
      fillList(snapshot, family, ordered);
      continue;
    }
    for (const kv of ordered) {
      const outcome = parseFamilyKv(prefix, family, kv);
      if (outcome === null) continue;
      if (!outcome.ok) snapshot.skipped.push(skippedKey(kv, family.name, outcome));
      else if (outcome.entry.kind === "token") snapshot.leaderToken = outcome.entry.token;
      else snapshot.leader = outcome.entry.leader;
    }
  }
  return snapshot;
}

/** Raw kvs of any families (tests, tools) grouped by family; keys the console does not read are dropped. */
export function groupByFamily(prefix: string, kvs: Iterable<SnapshotKv>): Map<FamilyName, SnapshotKv[]> {
  const out = new Map<FamilyName, SnapshotKv[]>();
  for (const kv of kvs) {
    const family = familyOfKey(prefix, kv.key);
    if (family === null) continue;
    let list = out.get(family.name);
    if (!list) out.set(family.name, (list = []));
    list.push(kv);
  }
  return out;
}

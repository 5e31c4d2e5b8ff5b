// FleetSnapshot from raw kvs, pure (no etcd): readFleet uses it after a read, and the
// watch-fed cache (lib/live) rebuilds from its patched kv maps without re-reading etcd.
// Parse results are memoized per kv object, so a rebuild after a one-key change parses
// one record. Entries are shared between snapshots built from the same kv objects:
// treat them as read-only.
import { KV_MEMO } from "@/lib/etcd/range-codec";
import { FAMILIES, parseFamilyKv, type EntryOutcome, type FamilyDef } from "./families";
import type { FamilyName, FleetSnapshot, LeaderEntry, SkippedKey, SnapshotKv, SnapshotReadStats } from "./types";

// The parse outcome is remembered on the kv object itself (a WeakMap of ~27,000 entries
// costs measurably more in GC); a patched kv is a new object and is parsed afresh. Kvs
// decoded by lib/etcd already carry the (empty) slot.
const PARSED = KV_MEMO;
type Memo = SnapshotKv & { [PARSED]?: EntryOutcome | null };

/** Parse (or recall) one kv of `family`. */
export function parseKvOnce(prefix: string, family: FamilyDef, kv: SnapshotKv): EntryOutcome | null {
  const memo = kv as Memo;
  let outcome = memo[PARSED];
  if (outcome === undefined) {
    outcome = parseFamilyKv(prefix, family, kv);
    memo[PARSED] = outcome;
  }
  return outcome;
}

export type KvsByFamily = ReadonlyMap<FamilyName, Iterable<SnapshotKv>>;

const noStats = (): SnapshotReadStats => ({ pages: 0, shrinks: 0, bytes: 0, keys: 0, durationMs: 0 });

/** Sorted by key, the order etcd returns them (patched maps may not be). */
function inKeyOrder(kvs: Iterable<SnapshotKv>): SnapshotKv[] {
  const list = Array.isArray(kvs) ? (kvs as SnapshotKv[]) : [...kvs];
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1].key > list[i].key) return [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  return list;
}

export function buildSnapshot(
  prefix: string,
  revision: number,
  kvsByFamily: KvsByFamily,
  meta: { readAtMs?: number; stats?: SnapshotReadStats } = {},
): FleetSnapshot {
  const snapshot: FleetSnapshot = {
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
  for (const family of FAMILIES) {
    const kvs = kvsByFamily.get(family.name);
    if (!kvs) continue;
    const list = family.field ? (snapshot[family.field] as object[]) : null;
    const ordered = inKeyOrder(kvs);
    for (let i = 0; i < ordered.length; i++) {
      const kv = ordered[i];
      const outcome = parseKvOnce(prefix, family, kv);
      if (outcome === null) continue;
      if (!outcome.ok) {
        const skipped: SkippedKey = { key: kv.key, family: family.name, reason: outcome.reason, detail: outcome.detail };
        if (outcome.target !== undefined) skipped.target = outcome.target;
        snapshot.skipped.push(skipped);
      } else if (list) {
        list.push(outcome.entry);
      } else if ("token" in outcome.entry) {
        snapshot.leaderToken = (outcome.entry as { token: string }).token;
      } else {
        snapshot.leader = outcome.entry as LeaderEntry;
      }
    }
  }
  return snapshot;
}

/** How far back `tasks/` is read by default (console-api.md Additions "Fairness is live"). */
export const TASKS_WINDOW_MS = 24 * 3600_000;

/** Where a family read from a moment on starts (undefined: the whole prefix). */
export function familyStartKey(prefix: string, family: FamilyDef, sinceMs: number): Buffer | undefined {
  return family.startSuffix ? Buffer.from(familyPrefix(prefix, family) + family.startSuffix(sinceMs)) : undefined;
}

/** Full read prefix of a family under `P`. */
export function familyPrefix(prefix: string, family: FamilyDef): string {
  return `${prefix}/${family.relPrefix}`;
}

/** Which family a full key belongs to (for watch events), or null. */
export function familyOfKey(prefix: string, key: string): FamilyDef | null {
  if (!key.startsWith(`${prefix}/`)) return null;
  const rel = key.slice(prefix.length + 1);
  for (const family of FAMILIES) {
    if (!rel.startsWith(family.relPrefix)) continue;
    if (family.name === "leader" && rel !== "leader" && rel !== "leader-token") continue;
    return family;
  }
  return null;
}

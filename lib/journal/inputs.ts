// What a table's verdict reads, marked so that two moments can be compared without etcd
// (issue 23 "History from the journal": each transition says what moved its inputs). Pure.
//
// * The table's own keys (`ownKeys`), by family (its demand, its policies, its write turn):
//   a family's mark at revision R is [the newest mod_revision among its keys (0: none), how
//   many there are]. For a < b, the marks at a and b differ exactly when the family's set of
//   (key, mod_revision) differs: a pair present at b and not at a was written in (a, b], so
//   its mod_revision exceeds a ≥ every mod_revision at a, and the newest moves; otherwise
//   the set at b is a strict subset of the set at a, and the count falls. So comparing marks
//   answers what comparing every key's mod_revision answers.
// * The executors' capacity: slots, bytes, draining and kinds of each heartbeat the console
//   parses (its time and load left out), by executor.
//
// The elected sampler marks each entry it journals and each evaluation (lib/snapshot/inputs.ts,
// from the live view); history reads the same marks from etcd where the journal has none
// (lib/time/history-moved-by.ts). Both compare them here.
import type { Heartbeat } from "@/lib/schema/executors";
import { TASK_KINDS } from "@/lib/schema/kinds";
import { KEY_DIRS, keyDirOf, keys, policyKeys } from "@/lib/schema/keys";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";

export type InputFamily = "demand" | "policy" | "write_turn";
export const INPUT_FAMILIES: readonly InputFamily[] = ["demand", "policy", "write_turn"];

/** [newest mod_revision (0: no key), keys] for each family, in INPUT_FAMILIES order. */
export type InputMarks = readonly [number, number, number, number, number, number];

/** executor id → its capacity as a comparable string */
export type Capacities = ReadonlyMap<string, string>;

/** The table's own keys: single keys, and prefixes whose every key is the table's. */
export function ownKeys(prefix: string, target: string): { single: string[]; prefixes: string[] } {
  return {
    single: [
      keys.demandTable(prefix, target),
      policyKeys.policy(prefix, DEFAULT_POLICY_TARGET),
      policyKeys.tablePolicy(prefix, target),
      keys.targetLock(prefix, target),
      keys.mergeExecution(prefix, target),
      keys.mergeClaim(prefix, target),
      keys.catchupActive(prefix, target),
      keys.compactPreparation(prefix, target),
      keys.compactCommitReady(prefix, target),
      ...TASK_KINDS.filter((k) => k !== "merge_wal").map((k) => keys.cooldown(prefix, k, target)),
    ],
    prefixes: [
      keys.demandEventsOf(prefix, target),
      keys.mergeFailuresOf(prefix, target),
      keys.assignmentsOf(prefix, target),
    ],
  };
}

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

/** The family of one of the table's own keys, as its index in INPUT_FAMILIES. */
function familyIndex(prefix: string, key: string): number {
  const dir = keyDirOf(prefix, key);
  if (dir === KEY_DIRS.policies) return 1;
  return WRITE_TURN_DIRS.has(dir) ? 2 : 0;
}

/** The marks of the table's own keys present at one revision, `kvs` (any order). */
export function marksOf(prefix: string, kvs: Iterable<{ key: string; modRevision: number }>): InputMarks {
  const m = [0, 0, 0, 0, 0, 0];
  for (const kv of kvs) {
    const i = 2 * familyIndex(prefix, kv.key);
    if (kv.modRevision > m[i]) m[i] = kv.modRevision;
    m[i + 1]++;
  }
  return m as unknown as InputMarks;
}

/** The families whose keys changed between two marks. */
export function familiesMoved(a: InputMarks, b: InputMarks): Set<InputFamily> {
  const out = new Set<InputFamily>();
  INPUT_FAMILIES.forEach((f, i) => {
    if (a[2 * i] !== b[2 * i] || a[2 * i + 1] !== b[2 * i + 1]) out.add(f);
  });
  return out;
}

/** Marks as stored (null when the value is not one: read as not marked). */
export function readMarks(v: unknown): InputMarks | null {
  return Array.isArray(v) && v.length === 6 && v.every((n) => Number.isSafeInteger(n) && n >= 0)
    ? (v as unknown as InputMarks)
    : null;
}

/** A parsed heartbeat's capacity as a comparable string. */
export const capacityOf = (h: Heartbeat): string => JSON.stringify([h.slots_total, h.bytes_total, h.draining, h.kinds]);

/** Executors whose capacity differs between two moments (came, went or changed), sorted. */
export function executorsMoved(a: Capacities, b: Capacities): string[] {
  const out: string[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) if (a.get(id) !== b.get(id)) out.push(id);
  return out.sort();
}

export function sameCapacities(a: Capacities, b: Capacities): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [id, c] of a) if (b.get(id) !== c) return false;
  return true;
}

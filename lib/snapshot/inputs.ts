// The inputs a table's verdict reads, marked from a fleet snapshot (lib/journal/inputs.ts):
// the elected sampler marks each journal entry with its table's marks and each evaluation
// with the executors' capacities, so that history need not read etcd at every point to
// say what moved. The marks are of every key under the table's own keys that the snapshot
// holds, parsed or skipped (a skipped key is still a key that moved), exactly as a read of
// those keys at the snapshot's revision gives them. Pure.
import { capacityOf, marksOf, ownKeys, type Capacities, type InputMarks } from "@/lib/journal/inputs";
import { FAMILY_BY_NAME, familyOfKey, parseFamilyKv, type ListFamilyDef } from "./families";
import { entriesAt, keyedListOf, type KeyedList } from "./patched-list";
import type { FleetSnapshot } from "./types";

export interface SnapshotInputs {
  marks(target: string): InputMarks;
  capacities: Capacities;
}

export function snapshotInputs(s: FleetSnapshot): SnapshotInputs {
  const prefix = s.prefix;
  let capacities: Map<string, string> | null = null;
  let skipped: { key: string; modRevision: number }[] | null = null;
  const skippedSorted = () =>
    (skipped ??= s.skipped
      .map((k) => ({ key: k.key, modRevision: k.modRevision ?? 0 }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
  const found: { key: string; modRevision: number }[] = [];
  const collect = (list: KeyedList<{ key: string; modRevision: number }>, key: string, whole: boolean) =>
    entriesAt(list, key, whole, found);
  const listOf = (key: string) => {
    const family = familyOfKey(prefix, key);
    return family?.field ? keyedListOf(s, family.field) : [];
  };
  return {
    marks(target) {
      found.length = 0;
      const own = ownKeys(prefix, target);
      const sk = skippedSorted();
      for (const key of own.single) {
        collect(listOf(key), key, false);
        if (sk.length > 0) collect(sk, key, false);
      }
      for (const key of own.prefixes) {
        collect(listOf(key), key, true);
        if (sk.length > 0) collect(sk, key, true);
      }
      return marksOf(prefix, found);
    },
    get capacities() {
      if (capacities === null) {
        capacities = new Map();
        for (const e of s.executors) capacities.set(e.id, capacityOf(e.heartbeat));
      }
      return capacities;
    },
  };
}

const EXECUTORS = FAMILY_BY_NAME.get("executors") as ListFamilyDef<"executors">;

/** The capacities of executor heartbeats read from etcd, parsed as a fleet read parses them (one that does not parse is not there). */
export function capacitiesOfKvs(
  prefix: string,
  kvs: Iterable<{ key: string; value: string; modRevision: number }>,
): Capacities {
  const out = new Map<string, string>();
  for (const kv of kvs) {
    const parsed = parseFamilyKv(prefix, EXECUTORS, {
      key: kv.key,
      value: Buffer.from(kv.value, "utf8"),
      modRevision: kv.modRevision,
      lease: "0",
    });
    if (parsed?.ok) out.set(parsed.entry.id, capacityOf(parsed.entry.heartbeat));
  }
  return out;
}

// Planner-side fold of every kv under `P/demand-events/` at one revision (§3.6), counting
// skips exactly like the master (T18): bad key, bad JSON/schema and unknown version are
// skipped; a table is created BEFORE folding, so a table whose only event has an unknown
// version exists with zero shards; NotNewer is not counted.
import { emptyTableDemand, normalizePrefix, parseDemandEventKv, type SkipReason, type TableDemand } from "@/lib/schema";
import { foldEvent } from "./fold";

export interface EtcdKv {
  key: string;
  value: string;
  modRevision: number;
}

export interface SkippedKv {
  key: string;
  reason: SkipReason;
  detail: string;
}

export interface FoldedDemand {
  tables: Map<string, TableDemand>;
  skipped: SkippedKv[];
  /** kvs seen (the `planner_events` gauge) */
  events: number;
}

export function foldEvents(kvs: Iterable<EtcdKv>, prefix: string, now: number): FoldedDemand {
  const eventsPrefix = `${normalizePrefix(prefix)}/demand-events/`;
  const tables = new Map<string, TableDemand>();
  const skipped: SkippedKv[] = [];
  let events = 0;
  // a table's events are contiguous in key order: remember the last table looked up
  let lastTarget: string | undefined;
  let lastTable: TableDemand | undefined;
  for (const kv of kvs) {
    events++;
    if (!kv.key.startsWith(eventsPrefix)) {
      skipped.push({ key: kv.key, reason: "bad_key", detail: `not under ${eventsPrefix}` });
      continue;
    }
    const parsed = parseDemandEventKv(kv.key.slice(eventsPrefix.length), kv.value);
    const target = parsed.target;
    if (target === undefined) {
      if (!parsed.ok) skipped.push({ key: kv.key, reason: parsed.reason, detail: parsed.detail });
      continue;
    }
    let table = target === lastTarget ? lastTable : tables.get(target);
    if (table === undefined) {
      table = emptyTableDemand();
      tables.set(target, table);
    }
    lastTarget = target;
    lastTable = table;
    if (!parsed.ok) {
      skipped.push({ key: kv.key, reason: parsed.reason, detail: parsed.detail }); // unknown version
      continue;
    }
    // the parsed event is ours alone: its time map may be adopted by a new shard
    foldEvent(table, parsed.event, kv.modRevision, now, true);
  }
  return { tables, skipped, events };
}

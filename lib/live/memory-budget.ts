// The memory budget (console-api.md "Additions (fourth version)", Overload and memory):
// CONSOLE_MEMORY_MIB bounds what the console keeps besides the live view and its plan. The
// live view, the live plan and Next.js itself are the process's base (about 380 MiB at the
// production fleet, docs/operations.md "Sizing"); of the budget, the pinned views get an
// eighth, the pinned views the exact plans hold (lib/live/plan.ts) another eighth and the
// change log a 64th. A pinned view larger than its share is served but not
// kept. Pure: the cache (./cache.ts) asks it what to keep. The other shares are taken where
// the caches live: the encoded answers a 16th (lib/http/encoded-response.ts), the journal's
// chunk skeletons and the decoded forecast chunks a 32nd each (lib/journal/reader.ts,
// lib/scheduler/forecast-ledger.ts), the server's gzip of answers and the stream's deflated
// segments a 64th each (scripts/byte-cache.mjs).
import type { FleetSnapshot, ListField } from "@/lib/snapshot/types";

/**
 * Bytes of memory per byte of etcd record a decoded view takes: its parsed entries and the
 * folded tables. Measured on the production fleet (13,405 tables × 2 shards, 26,810 keys,
 * 22.0 MB as read): each full read kept grew heapUsed by 46.6 MB after a full GC (2.1×) and
 * the resident set by 38–71 MB (1.7–3.2×, the heap's own slack); 3 is taken.
 */
export const HEAP_PER_ENCODED_BYTE = 3;

/**
 * What one list entry of a view put back from the live one costs of its own: the slot in its
 * lists and maps (the entries themselves are the live view's, shared).
 */
const SHARED_ENTRY_BYTES = 48;

/** The floor of a pinned view's estimate (the tables map, the view record). */
const VIEW_FLOOR_BYTES = 64 * 1024;

export interface MemoryShares {
  /** the pinned views' estimated bytes at most (least recently used dropped first) */
  pinnedViews: number;
  /** the pinned views held by the exact plans at most (lib/live/plan.ts) */
  heldViews: number;
  /** the change log's values at most (./change-log.ts) */
  changeLog: number;
}

/** What each bounded holder of memory may keep of `budgetBytes` (CONSOLE_MEMORY_MIB). */
export function memoryShares(budgetBytes: number): MemoryShares {
  const eighth = Math.floor(budgetBytes / 8);
  return { pinnedViews: eighth, heldViews: eighth, changeLog: Math.floor(budgetBytes / 64) };
}

const entries = (s: FleetSnapshot) =>
  (Object.keys(s) as (keyof FleetSnapshot)[]).reduce(
    (n, k) => n + (Array.isArray(s[k]) && k !== "skipped" ? (s[k as ListField] as unknown[]).length : 0),
    0,
  );

/**
 * A pinned view's estimated bytes. Read in full: the encoded bytes of its records as read
 * (`stats.bytes`, what etcd sent) × HEAP_PER_ENCODED_BYTE. Put back from the live view
 * (`stats.bytes` 0, lib/live/rewind.ts): its own lists and maps, one slot per entry, plus
 * the values it put back (`ownBytes`, encoded) × HEAP_PER_ENCODED_BYTE; its other entries
 * are the live view's and cost nothing more.
 */
export function viewBytes(snapshot: FleetSnapshot, ownBytes = 0): number {
  const own =
    snapshot.stats.bytes > 0
      ? snapshot.stats.bytes * HEAP_PER_ENCODED_BYTE
      : entries(snapshot) * SHARED_ENTRY_BYTES + ownBytes * HEAP_PER_ENCODED_BYTE;
  return Math.max(VIEW_FLOOR_BYTES, Math.round(own));
}

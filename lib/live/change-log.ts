// The last changes the live view applied (one per changed key of a family the console
// reads), oldest first, each with the key's value before it, as the watch delivered them
// (etcd's prev_kv). A pinned read near the live view is put back from it with these
// (lib/live/rewind.ts): the value a key had at an earlier revision R is the value
// before its first change after R. Bounded by the bytes of the values it holds; what it
// dropped, or a change whose previous value etcd did not send, moves `since` on: nothing
// before it can be put back. Pure.
import type { RawKv } from "@/lib/etcd/paged-read";

/** the values kept: ~12,000 changes of the production fleet's demand events */
const CHANGE_LOG_BYTES = 16 * 1024 * 1024;
/**
 * What one change costs besides its keys and value: the change and its previous-value
 * records, the value's Buffer and ArrayBuffer objects and its backing store's header, the
 * keys' string headers. Measured: 100,000 changes of 300-byte values under 62-character
 * demand keys took 784 bytes each of heap and external memory after a full GC (352 + keys +
 * value is 776; it counted 96 + keys + value, 520, before).
 */
const OVERHEAD_BYTES = 352;

interface Change {
  revision: number;
  key: string;
  /** null: the key did not exist before this change */
  before: RawKv | null;
  bytes: number;
}

/**
 * A value in a buffer of its own: one decoded from a watch response is a view of the whole
 * response, and a small `Buffer.from` copy shares an 8 KiB pool slab with other allocations;
 * either would keep far more than the value alive.
 */
function ownCopy(value: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(value.length);
  value.copy(copy);
  return copy;
}

export class ChangeLog {
  /** from `head` on, the changes kept; the slots before it are emptied (null) as they are dropped */
  private changes: (Change | null)[] = [];
  private head = 0;
  private bytes = 0;

  /** `since`: the revision the view was read at (nothing before it is known) */
  constructor(
    public since: number,
    private readonly maxBytes = CHANGE_LOG_BYTES,
  ) {}

  /**
   * One applied change at `revision` (never below the last one recorded); `before`
   * undefined: its previous value is not known, so no earlier revision can be put back.
   */
  record(revision: number, key: string, before: RawKv | null | undefined): void {
    if (before === undefined) {
      this.changes = [];
      this.head = 0;
      this.bytes = 0;
      this.since = Math.max(this.since, revision);
      return;
    }
    const bytes = OVERHEAD_BYTES + key.length + (before ? before.value.length + before.key.length : 0);
    const kept = before && { ...before, value: ownCopy(before.value) };
    this.changes.push({ revision, key, before: kept, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.head < this.changes.length) {
      // emptied at once: a dropped change left in its slot until the array is compacted kept
      // its value alive, up to as many again as the bound (the soak's heap snapshots)
      const dropped = this.changes[this.head]!;
      this.changes[this.head++] = null;
      this.bytes -= dropped.bytes;
      // the changes at `dropped.revision` and before are gone: revisions from it on still put back
      this.since = Math.max(this.since, dropped.revision);
    }
    if (this.head > 1024 && this.head * 2 > this.changes.length) {
      this.changes = this.changes.slice(this.head);
      this.head = 0;
    }
  }

  /** Forgets every change kept: only the newest revision recorded can still be put back (tests measure the heap without them). */
  forget(): void {
    const newest = this.changes.at(-1)?.revision;
    this.changes = [];
    this.head = 0;
    this.bytes = 0;
    if (newest !== undefined) this.since = Math.max(this.since, newest);
  }

  /**
   * Every key changed after `revision`, with its value at `revision` (null: it did not
   * exist then), in the order of their first change; null when not all are known.
   */
  valuesAt(revision: number): { key: string; value: RawKv | null }[] | null {
    if (revision < this.since) return null;
    const seen = new Map<string, RawKv | null>();
    for (let i = this.firstAfter(revision); i < this.changes.length; i++) {
      const c = this.changes[i]!;
      if (!seen.has(c.key)) seen.set(c.key, c.before);
    }
    return [...seen].map(([key, value]) => ({ key, value }));
  }

  /** the place of the first change after `revision` (binary search: revisions only grow) */
  private firstAfter(revision: number): number {
    let lo = this.head;
    let hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.changes[mid]!.revision > revision) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

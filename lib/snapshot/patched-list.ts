// A list of the live snapshot that differs from the one handed out before it only in some
// entries' values: the same keys at the same places. Copying a fleet-sized list for every
// watch batch (26,810 demand events at the production shape, for one changed event) was
// most of the cost of a plan step that nobody reads the whole list in: a step re-folds the
// tables that moved, which looks up their few events by key. So the store hands out the
// list it last copied (`base`) with the places and entries written since, and the list is
// made (copied once, then kept) only when something reads all of it. Pure.
import { lowerBoundByKey } from "./key-order";
import type { AnyEntry, EntryOf, FamilyLists, FleetSnapshot, ListField } from "./types";

export interface KeyedEntry {
  key: string;
}

/** A list sorted by key: an array, or a base array with the entries written since at their places. */
export type KeyedList<E extends KeyedEntry> = readonly E[] | PatchedList<E>;

export class PatchedList<E extends KeyedEntry> {
  private made: E[] | null = null;

  /**
   * `places[k]` got `entries[k]`, for k < `count`, later over earlier. The two arrays only
   * grow (the store appends to them for the lists it hands out next), so the first `count`
   * stay this list's own.
   */
  constructor(
    private readonly base: readonly E[],
    private readonly places: readonly number[],
    private readonly entries: readonly E[],
    private readonly count: number,
  ) {}

  get length(): number {
    return this.base.length;
  }

  /** Whether the whole list was made (a later list may start from it). */
  get isMade(): boolean {
    return this.made !== null;
  }

  /** The entry at place `i`. */
  at(i: number): E {
    if (this.made) return this.made[i];
    for (let k = this.count - 1; k >= 0; k--) if (this.places[k] === i) return this.entries[k];
    return this.base[i];
  }

  /** The keys, in the base's entries: a patch never moves a key. */
  get keys(): readonly KeyedEntry[] {
    return this.base;
  }

  /** The whole list, made once. */
  array(): E[] {
    if (this.made === null) {
      const out = this.base.slice();
      for (let k = 0; k < this.count; k++) out[this.places[k]] = this.entries[k];
      this.made = out;
    }
    return this.made;
  }
}

function isPatched<E extends KeyedEntry>(list: KeyedList<E>): list is PatchedList<E> {
  return !Array.isArray(list);
}

/**
 * The entries whose key is `key`, or starts with it (`under`), in key order, appended to
 * `out`: one run of the sorted list.
 */
export function entriesAt<E extends KeyedEntry>(list: KeyedList<E>, key: string, under: boolean, out: E[] = []): E[] {
  const patched = isPatched(list) ? list : null;
  const array = list as readonly E[];
  for (let i = lowerBoundByKey(patched ? patched.keys : array, key); i < list.length; i++) {
    const e = patched ? patched.at(i) : array[i];
    if (under ? !e.key.startsWith(key) : e.key !== key) break;
    out.push(e);
  }
  return out;
}

/** Where a snapshot keeps the lists it has not made yet. */
const PATCHED = Symbol("patched-lists");

type Patched = Partial<Record<ListField, PatchedList<AnyEntry>>>;

/**
 * Sets `snapshot[field]` to `list`, made when first read: a getter (the same array every
 * time), so that every reader of the snapshot sees a plain list.
 */
export function setPatchedList<F extends ListField>(
  snapshot: FleetSnapshot,
  field: F,
  list: PatchedList<EntryOf[F]>,
): void {
  const holder = snapshot as unknown as { [PATCHED]?: Patched };
  if (!Object.prototype.hasOwnProperty.call(holder, PATCHED))
    Object.defineProperty(holder, PATCHED, { value: {}, enumerable: false });
  (holder[PATCHED] as Patched)[field] = list as unknown as PatchedList<AnyEntry>;
  Object.defineProperty(snapshot, field, { get: () => list.array(), enumerable: true, configurable: true });
}

/** `snapshot[field]` without making it: the patched list while it is not made, else the array. */
export function keyedListOf<F extends ListField>(snapshot: FleetSnapshot, field: F): KeyedList<EntryOf[F]> {
  const pending = (snapshot as unknown as { [PATCHED]?: Patched })[PATCHED]?.[field] as
    PatchedList<EntryOf[F]> | undefined;
  // the one-field view of the record (TypeScript writes `T[F]` of a generic field as an intersection)
  return pending && !pending.isMade ? pending : (snapshot as FamilyLists as Record<F, EntryOf[F][]>)[field];
}

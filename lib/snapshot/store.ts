import "server-only";
// The live snapshot's state: every parsed entry of every family, keyed by etcd key, at one
// revision. A watch batch re-parses only the keys it touched (with the fleet read's own
// parsers, lib/snapshot/families.ts); `snapshot()` hands out an immutable FleetSnapshot,
// rebuilding only the family lists that changed (an update of an existing key is a
// copy-and-replace, not a re-sort).
import type { WatchBatch } from "@/lib/etcd/watch";
import { keys, splitDemandEventKey } from "@/lib/schema/keys";
import { familyStartKey, skippedKey } from "@/lib/snapshot/build";
import {
  FAMILIES,
  LIST_FAMILIES,
  familyOfKey,
  parseFamilyKv,
  type LeaderFamilyDef,
  type ListFamilyDef,
} from "@/lib/snapshot/families";
import { lowerBoundByKey } from "@/lib/snapshot/key-order";
import { PatchedList, setPatchedList } from "@/lib/snapshot/patched-list";
import type { EntryOf, FamilyLists, FamilyName, FleetSnapshot, ListField, SkippedKey } from "@/lib/snapshot/types";

type Change = WatchBatch["changes"][number];

interface ListState<E extends { key: string }> {
  byKey: Map<string, E>;
  /** the list last made whole (sorted by key) */
  array: E[];
  /** the places and entries updated since `array` (./patched-list.ts: the lists handed out share them) */
  places: number[];
  entries: E[];
  /** the list last handed out: `array`, or `array` with the updates since */
  published: E[] | PatchedList<E>;
  updated: Set<string>;
  membershipChanged: boolean;
}

/**
 * Updates a handed-out list may carry before the next one is made whole: a reader's look-up
 * scans them (a few µs), and one copy of the list then pays for this many batches.
 */
const MAX_PATCHES = 128;
type ListStates = { [F in ListField]: ListState<EntryOf[F]> };

export interface ApplyResult {
  changedKeys: number;
  /** demand tables whose events changed (each costs one re-fold in the next plan) */
  changedTargets: Set<string>;
  families: Set<FamilyName>;
}

/** Sees each applied change of a family the console reads. */
export type OnChange = (family: FamilyName, change: Change) => void;

/** a family's place in the registry: a read lists skipped keys family by family in this order */
const FAMILY_RANK = new Map<FamilyName, number>(FAMILIES.map((f, i) => [f.name, i]));

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function stateOf<E extends { key: string }>(array: E[]): ListState<E> {
  return {
    byKey: new Map(array.map((e) => [e.key, e])),
    array,
    places: [],
    entries: [],
    published: array,
    updated: new Set(),
    membershipChanged: false,
  };
}

export class LiveStore {
  revision: number;
  /** bumped by every batch that changed a key the console reads (not by other keys under P) */
  contentVersion = 0;
  readonly readAtMs: number;
  private lists = {} as ListStates; // every field set in the constructor
  private leader: FleetSnapshot["leader"];
  private leaderToken: string | null;
  private readonly leaderKey: string;
  private readonly demandEventsPrefix: string;
  private skipped = new Map<string, SkippedKey>();
  private skippedChanged = false;
  private skippedArray: SkippedKey[];
  private built: FleetSnapshot | null = null;

  /** `readAtMs`: when its data was read (default: the base's), for a store made from a held view */
  constructor(
    private readonly base: FleetSnapshot,
    readAtMs = base.readAtMs,
  ) {
    this.revision = base.revision;
    this.readAtMs = readAtMs;
    this.leader = base.leader;
    this.leaderToken = base.leaderToken;
    this.leaderKey = keys.leader(base.prefix);
    this.demandEventsPrefix = keys.demandEvents(base.prefix);
    for (const family of LIST_FAMILIES) this.adopt(base, family.field);
    for (const s of base.skipped) this.skipped.set(s.key, s);
    this.skippedArray = base.skipped;
    this.built = base;
  }

  private adopt<F extends ListField>(base: FamilyLists, field: F): void {
    // TypeScript writes `T[F]` of a generic field as the intersection of every field's
    // type, so the write goes through the one-field view of the record
    (this.lists as Record<F, ListState<EntryOf[F]>>)[field] = stateOf(base[field]);
  }

  get prefix(): string {
    return this.base.prefix;
  }

  /** Target of a `demand-events/` key (null when the key does not decode). */
  demandTargetOf(key: string): string | null {
    return splitDemandEventKey(key.slice(this.demandEventsPrefix.length))?.target ?? null;
  }

  /** The current entry of `key` in list `field` (undefined when absent or skipped). */
  entry<F extends ListField>(field: F, key: string): EntryOf[F] | undefined {
    const states: ListStates = this.lists;
    return states[field].byKey.get(key);
  }

  /** Applies one watch response; keys outside the console's families only advance the revision. */
  apply(batch: { revision: number; changes: readonly Change[] }, onChange?: OnChange): ApplyResult {
    const result: ApplyResult = { changedKeys: 0, changedTargets: new Set(), families: new Set() };
    for (const change of batch.changes) {
      const family = familyOfKey(this.base.prefix, change.kv.key);
      if (family === null) continue;
      result.changedKeys += 1;
      result.families.add(family.name);
      if (this.skipped.delete(change.kv.key)) this.skippedChanged = true;
      if (family.field === null) this.applyLeader(family, change);
      else this.applyList(family, change, result);
      if (family.field === "demandEvents") {
        const target = this.demandTargetOf(change.kv.key);
        if (target !== null) result.changedTargets.add(target);
      }
      onChange?.(family.name, change);
    }
    if (batch.revision > this.revision) this.revision = batch.revision;
    if (result.changedKeys > 0) this.contentVersion += 1;
    if (result.changedKeys > 0 || (this.built && this.built.revision !== this.revision)) this.built = null;
    return result;
  }

  /**
   * Puts the store back to an earlier `revision`: `changes` set every key changed since to
   * its value then (a delete: the key did not exist then). The same parsers as a read.
   */
  rewindTo(revision: number, changes: readonly Change[]): ApplyResult {
    const result = this.apply({ revision, changes });
    this.revision = revision;
    this.built = null;
    return result;
  }

  private applyList<F extends ListField>(family: ListFamilyDef<F>, change: Change, result: ApplyResult): void {
    const states: ListStates = this.lists;
    const state = states[family.field];
    const key = change.kv.key;
    const outcome = change.type === "delete" ? null : parseFamilyKv(this.base.prefix, family, change.kv);
    if (outcome === null || !outcome.ok) {
      if (state.byKey.delete(key)) state.membershipChanged = true;
      if (outcome) {
        this.skipped.set(key, skippedKey(change.kv, family.name, outcome));
        this.skippedChanged = true;
        if (outcome.target !== undefined) result.changedTargets.add(outcome.target);
      }
      return;
    }
    // after a build byKey holds exactly the list's keys, so an existing key is an in-place update
    const existed = state.byKey.has(key);
    state.byKey.set(key, outcome.entry);
    if (existed && !state.membershipChanged) state.updated.add(key);
    else state.membershipChanged = true;
  }

  private applyLeader(family: LeaderFamilyDef, change: Change): void {
    const isRecord = change.kv.key === this.leaderKey;
    const outcome = change.type === "delete" ? null : parseFamilyKv(this.base.prefix, family, change.kv);
    if (outcome === null || !outcome.ok) {
      if (isRecord) this.leader = null;
      else this.leaderToken = null;
      if (outcome) {
        this.skipped.set(change.kv.key, skippedKey(change.kv, family.name, outcome));
        this.skippedChanged = true;
      }
    } else if (outcome.entry.kind === "token") this.leaderToken = outcome.entry.token;
    else this.leader = outcome.entry.leader;
  }

  /**
   * Drops the entries of families read from a moment on (`tasks/` from now − 24 h) that
   * fell out of that window since: a full read never holds them, and a watch only adds
   * (task records are never deleted, §1.2). Returns how many were dropped.
   */
  trimWindows(sinceMs: number): number {
    const states: ListStates = this.lists;
    let dropped = 0;
    for (const family of LIST_FAMILIES) {
      const start = familyStartKey(this.base.prefix, family, sinceMs);
      if (!start) continue;
      const cut = start.toString("utf8");
      const state = states[family.field];
      const before = dropped;
      for (const key of state.byKey.keys()) {
        if (key < cut) {
          state.byKey.delete(key);
          dropped++;
        }
      }
      // a record of the family that did not parse is outside the window as well
      for (const [key, skipped] of this.skipped) {
        if (skipped.family === family.name && key < cut) {
          this.skipped.delete(key);
          this.skippedChanged = true;
          dropped++;
        }
      }
      if (dropped > before) state.membershipChanged = true;
    }
    if (dropped > 0) {
      this.contentVersion += 1;
      this.built = null;
    }
    return dropped;
  }

  /** The fleet at the current revision (same object until the next change). */
  snapshot(): FleetSnapshot {
    if (this.built) return this.built;
    if (this.skippedChanged) {
      // the order a read lists them in (lib/snapshot/build.ts): by family as registered, then by key
      this.skippedArray = [...this.skipped.values()].sort(
        (a, b) => FAMILY_RANK.get(a.family)! - FAMILY_RANK.get(b.family)! || byKey(a, b),
      );
      this.skippedChanged = false;
    }
    const built: FleetSnapshot = {
      ...this.base,
      readAtMs: this.readAtMs,
      revision: this.revision,
      leader: this.leader,
      leaderToken: this.leaderToken,
      skipped: this.skippedArray,
      stats: { pages: 0, shrinks: 0, bytes: 0, keys: 0, durationMs: 0 },
    };
    for (const family of LIST_FAMILIES) this.publish(built, family.field);
    this.built = built;
    return built;
  }

  private publish<F extends ListField>(out: FleetSnapshot, field: F): void {
    const states: ListStates = this.lists;
    const list = listOf(states[field]);
    if (Array.isArray(list))
      (out as FamilyLists as Record<F, EntryOf[F][]>)[field] = list; // one-field view, as in adopt
    else setPatchedList(out, field, list as PatchedList<EntryOf[F]>);
  }
}

function listOf<E extends { key: string }>(state: ListState<E>): E[] | PatchedList<E> {
  if (state.membershipChanged) {
    state.array = [...state.byKey.values()].sort(byKey);
    restart(state);
  } else if (state.updated.size > 0) {
    // same keys, new values: the places where the updated keys sit, over the last whole list
    const last = state.published;
    if (!Array.isArray(last) && (last as PatchedList<E>).isMade) {
      state.array = (last as PatchedList<E>).array(); // a reader made it whole: start from there
      restart(state);
    }
    for (const key of state.updated) {
      state.places.push(positionOf(state.array, key));
      state.entries.push(state.byKey.get(key)!);
    }
    state.published = new PatchedList(state.array, state.places, state.entries, state.places.length);
    if (state.places.length > MAX_PATCHES) {
      state.array = (state.published as PatchedList<E>).array();
      restart(state);
    }
  }
  state.membershipChanged = false;
  state.updated.clear();
  return state.published;
}

/** `state.array` is the whole list: no updates since (new arrays: the lists handed out keep theirs). */
function restart<E extends { key: string }>(state: ListState<E>): void {
  state.places = [];
  state.entries = [];
  state.published = state.array;
}

/**
 * Where `key` sits in `entries` (which holds it): a binary search in string order (the
 * order lib/snapshot hands lists out in), with a scan as the fallback should a list ever
 * arrive in etcd's byte order, which differs for characters past U+FFFF.
 */
function positionOf(entries: readonly { key: string }[], key: string): number {
  const lo = lowerBoundByKey(entries, key);
  return lo < entries.length && entries[lo].key === key ? lo : entries.findIndex((e) => e.key === key);
}

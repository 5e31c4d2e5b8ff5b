import "server-only";
// The live snapshot's state: every parsed entry of every family, keyed by etcd key, at one
// revision. A watch batch re-parses only the keys it touched; `snapshot()` hands out an
// immutable FleetSnapshot, rebuilding only the family arrays that changed (an update of an
// existing key is a copy-and-replace, not a re-sort).
import type { FamilyName, FleetSnapshot, SkippedKey } from "@/lib/snapshot/types";
import type { WatchBatch } from "@/lib/etcd/watch";
import type { RawKv } from "@/lib/etcd/paged-read";
import { FAMILY_FIELD, LIST_FAMILIES, familyOfKey, type ListFamily } from "./families";
import { lowerBoundByKey } from "./key-order";

type Entry = { key: string; modRevision: number };

/** What one kv parses to: the entry for its family's array, or a skip. */
export type ParsedKv =
  | { kind: "entry"; entry: Entry }
  | { kind: "leader"; leader: FleetSnapshot["leader"] }
  | { kind: "leader-token"; token: string }
  | { kind: "skipped"; skipped: SkippedKey };

/** Parses one kv of a family (lib/live/parse-kv.ts adapts lib/snapshot). */
export type ParseKv = (family: FamilyName, kv: RawKv, revision: number) => ParsedKv | null;

interface FamilyState {
  byKey: Map<string, Entry>;
  /** the array last handed out (sorted by key) */
  array: Entry[];
  updated: Set<string>;
  membershipChanged: boolean;
}

export interface ApplyResult {
  changedKeys: number;
  /** demand tables whose events changed (each costs one re-fold in the next plan) */
  changedTargets: Set<string>;
  families: Set<FamilyName>;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export class LiveStore {
  revision: number;
  /** bumped by every batch that changed a key the console reads (not by other keys under P) */
  contentVersion = 0;
  readonly readAtMs: number;
  private families = new Map<ListFamily, FamilyState>();
  private leader: FleetSnapshot["leader"];
  private leaderToken: string | null;
  private leaderKey: string;
  private skipped = new Map<string, SkippedKey>();
  private skippedChanged = false;
  private skippedArray: SkippedKey[];
  private built: FleetSnapshot | null = null;

  constructor(private readonly base: FleetSnapshot) {
    this.revision = base.revision;
    this.readAtMs = base.readAtMs;
    this.leader = base.leader;
    this.leaderToken = base.leaderToken;
    this.leaderKey = `${base.prefix}/leader`;
    for (const family of LIST_FAMILIES) {
      const array = base[FAMILY_FIELD[family]] as Entry[];
      this.families.set(family, { byKey: new Map(array.map((e) => [e.key, e])), array, updated: new Set(), membershipChanged: false });
    }
    for (const s of base.skipped) this.skipped.set(s.key, s);
    this.skippedArray = base.skipped;
    this.built = base;
  }

  /** Target of a `demand-events/` key (null when the key does not decode). */
  demandTargetOf(key: string): string | null {
    return demandTargetOfKey(this.base.prefix, key);
  }

  get prefix(): string {
    return this.base.prefix;
  }

  /** Applies one watch response; keys outside the console's families only advance the revision. */
  apply(batch: WatchBatch, parse: ParseKv, onChange?: (family: FamilyName, key: string, parsed: ParsedKv | null) => void): ApplyResult {
    const result: ApplyResult = { changedKeys: 0, changedTargets: new Set(), families: new Set() };
    for (const change of batch.changes) {
      const family = familyOfKey(this.base.prefix, change.kv.key);
      if (family === null) continue;
      result.changedKeys += 1;
      result.families.add(family);
      const parsed = change.type === "delete" ? null : parse(family, change.kv, change.kv.modRevision);
      if (change.type === "delete") this.forget(family, change.kv.key);
      else this.remember(family, parsed, change.kv.key, result);
      onChange?.(family, change.kv.key, parsed);
      if (family === "demand-events") {
        const target = demandTargetOfKey(this.base.prefix, change.kv.key);
        if (target !== null) result.changedTargets.add(target);
      }
    }
    if (batch.revision > this.revision) this.revision = batch.revision;
    if (result.changedKeys > 0) this.contentVersion += 1;
    if (result.changedKeys > 0 || (this.built && this.built.revision !== this.revision)) this.built = null;
    return result;
  }

  private forget(family: FamilyName, key: string): void {
    if (this.skipped.delete(key)) this.skippedChanged = true;
    if (family === "leader") {
      if (key === this.leaderKey) this.leader = null;
      else this.leaderToken = null;
      return;
    }
    const state = this.families.get(family)!;
    if (state.byKey.delete(key)) state.membershipChanged = true;
  }

  private remember(family: FamilyName, parsed: ParsedKv | null, key: string, result: ApplyResult): void {
    if (this.skipped.delete(key)) this.skippedChanged = true;
    if (parsed === null) return this.forget(family, key);
    switch (parsed.kind) {
      case "skipped":
        if (family !== "leader" && this.families.get(family)!.byKey.delete(key)) this.families.get(family)!.membershipChanged = true;
        if (family === "leader") this.forget(family, key);
        this.skipped.set(key, parsed.skipped);
        this.skippedChanged = true;
        if (parsed.skipped.target !== undefined) result.changedTargets.add(parsed.skipped.target);
        return;
      case "leader":
        this.leader = parsed.leader;
        return;
      case "leader-token":
        this.leaderToken = parsed.token;
        return;
      case "entry": {
        const state = this.families.get(family as ListFamily)!;
        // after a build byKey holds exactly the array's keys, so an existing key is an in-place update
        const existed = state.byKey.has(key);
        state.byKey.set(key, parsed.entry);
        if (existed && !state.membershipChanged) state.updated.add(key);
        else state.membershipChanged = true;
      }
    }
  }

  /** The fleet at the current revision (same object until the next change). */
  snapshot(): FleetSnapshot {
    if (this.built) return this.built;
    const lists = {} as Record<string, Entry[]>;
    for (const family of LIST_FAMILIES) lists[FAMILY_FIELD[family]] = this.familyArray(this.families.get(family)!);
    if (this.skippedChanged) {
      this.skippedArray = [...this.skipped.values()].sort((a, b) => (a.family < b.family ? -1 : a.family > b.family ? 1 : byKey(a, b)));
      this.skippedChanged = false;
    }
    this.built = {
      ...this.base,
      ...(lists as unknown as Partial<FleetSnapshot>),
      revision: this.revision,
      leader: this.leader,
      leaderToken: this.leaderToken,
      skipped: this.skippedArray,
      stats: { pages: 0, shrinks: 0, bytes: 0, keys: 0, durationMs: 0 },
    };
    return this.built;
  }

  private familyArray(state: FamilyState): Entry[] {
    if (state.membershipChanged) {
      state.array = [...state.byKey.values()].sort(byKey);
    } else if (state.updated.size > 0) {
      // same keys, new values: patch a copy where each updated key sits (no index to build)
      const next = state.array.slice();
      for (const key of state.updated) next[positionOf(next, key)] = state.byKey.get(key)!;
      state.array = next;
    }
    state.membershipChanged = false;
    state.updated.clear();
    return state.array;
  }
}

/**
 * Where `key` sits in `entries` (which holds it): a binary search in string order (the
 * order lib/snapshot hands arrays out in), with a scan as the fallback should an array
 * ever arrive in etcd's byte order, which differs for characters past U+FFFF.
 */
function positionOf(entries: readonly Entry[], key: string): number {
  const lo = lowerBoundByKey(entries, key);
  return lo < entries.length && entries[lo].key === key ? lo : entries.findIndex((e) => e.key === key);
}

/** `P/demand-events/<hex(target)>/<shard>` → target (null when the key does not decode). */
function demandTargetOfKey(prefix: string, key: string): string | null {
  const rest = key.slice(prefix.length + "/demand-events/".length);
  const slash = rest.indexOf("/");
  if (slash < 0) return null;
  const h = rest.slice(0, slash);
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(h, "hex"));
  } catch {
    return null;
  }
}

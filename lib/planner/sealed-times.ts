// The per-shard flush-time map `sealed_times` (§3.2 step 6, §3.3). Keys are canonical
// decimal generation strings (lib/schema canonicalises them); they are compared
// numerically, never lexically (§12).
import { SEALED_TIMES_CAP } from "@/lib/schema";

export type SealedTimes = Record<string, number>;

/**
 * Keep the minimum time per generation; says whether the map gained or lowered an entry.
 * A numeric generation is used as the key directly (`times[1001]` ≡ `times["1001"]`),
 * which skips a number→string conversion on the hot path.
 */
export function recordTime(times: SealedTimes, generation: string | number, ms: number): "added" | "lowered" | "same" {
  const current = times[generation];
  if (current === undefined) {
    times[generation] = ms;
    return "added";
  }
  if (ms < current) {
    times[generation] = ms;
    return "lowered";
  }
  return "same";
}

/** Union `from` into `into` (min per generation). */
export function mergeTimes(into: SealedTimes, from: SealedTimes): { changed: boolean; added: boolean } {
  let changed = false;
  let added = false;
  const generations = Object.keys(from);
  for (let i = 0; i < generations.length; i++) {
    const k = generations[i];
    const t = from[k];
    const current = into[k];
    if (current === undefined) {
      into[k] = t;
      changed = added = true;
    } else if (t < current) {
      into[k] = t;
      changed = true;
    }
  }
  return { changed, added };
}

/**
 * §3.3: more than 64 entries → keep the 63 lowest generations plus the single highest.
 * Pruning is by cap only (entries at or below `merged` stay), so the kept set is
 * "lowest 63 of the union ∪ {max}" whatever the arrival order. Mutates; returns `times`.
 */
export function pruneTimes(times: SealedTimes, knownCount?: number): SealedTimes {
  if (knownCount !== undefined && knownCount <= SEALED_TIMES_CAP) return times;
  const keys = Object.keys(times);
  if (keys.length <= SEALED_TIMES_CAP) return times;
  const generations = keys.map(Number).sort((a, b) => a - b);
  // indices 0..62 (lowest 63) and n-1 (highest) stay
  for (let i = SEALED_TIMES_CAP - 1; i < generations.length - 1; i++) {
    delete times[String(generations[i])];
  }
  return times;
}

export function sameTimes(a: SealedTimes, b: SealedTimes): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

/** An index past any fast-elements growth, used only to start a map in dictionary mode. */
const FAR_INDEX = 4_000_000_000;

/**
 * A fresh empty map for generation keys. Generations are array-index keys to V8, and
 * writing index ~1000 into `{}` grows a ~1,500-slot holey array per map (GC heavy at 27k
 * shards); starting in dictionary mode, as JSON.parse does for such keys, is ~3× cheaper.
 * Semantics are those of a plain object.
 */
export function newTimes(): SealedTimes {
  const out: SealedTimes = {};
  out[FAR_INDEX] = 0;
  delete out[FAR_INDEX];
  return out;
}

export function copyTimes(times: SealedTimes | undefined): SealedTimes {
  const out = newTimes();
  if (times === undefined) return out;
  const generations = Object.keys(times);
  for (let i = 0; i < generations.length; i++) out[generations[i]] = times[generations[i]];
  return out;
}

import "server-only";
// `observed_days` of the takeover gate (console-api.md "The takeover gate and the canary
// evidence"): the days of shadow observations of the table in the decision journal — the
// covered time while the table was in the plan the elected sampler evaluated, gaps left out
// (lib/journal/observed.ts). For `_default` (the fleet) the journal's coverage, from the
// chunk keys alone; for a table, its chunks are folded (the journal is bounded by its
// retention and byte cap, CONSOLE_JOURNAL_RETENTION_HOURS / CONSOLE_JOURNAL_MAX_MIB), once:
// the fold is kept per table, and a later check folds only the chunks written since.
import { isCheckpoint, type ChunkMeta } from "@/lib/journal/codec";
import { journalMetas, readChunks } from "@/lib/journal/reader";
import { emptyFold, foldObserved, observedIn, type Observed, type ObservedFold } from "@/lib/journal/observed";
import { formatTime } from "@/lib/schema/format";
import { DEFAULT_POLICY_TARGET } from "@/lib/schema/policy";
import { BoundedMap } from "@/lib/util/bounded-map";

const DAY_MS = 86_400_000;

export interface ObservedTime extends Observed {
  days: number;
}

/** a table's fold so far, by target: a later gate check reads only the chunks written since */
interface CachedFold {
  firstKey: string;
  lastKey: string;
  fold: ObservedFold;
}
const CACHED_TARGETS = 64;
const CACHED_FOLDS = new BoundedMap<string, CachedFold>({ evict: "least-recently-set", maxEntries: CACHED_TARGETS });

async function tableObserved(
  firstKey: string,
  metas: readonly ChunkMeta[],
  target: string,
  nowMs: number,
): Promise<Observed> {
  const cache = CACHED_FOLDS;
  const hit = cache.get(target);
  // the journal's start moved (trimmed): fold again from it
  const resume = hit && hit.firstKey === firstKey && metas.some((m) => m.key === hit.lastKey) ? hit : null;
  const chunks = await readChunks([{ fromKey: resume ? `${resume.lastKey}\u0000` : firstKey, toKey: null }]);
  if (chunks === null) return observedIn([], null, nowMs); // an unreadable chunk: nothing counts as observed (the gate refuses)
  const settled = chunks.filter((c) => c.chunk.to_ms <= nowMs); // what a later check sees the same
  const fold = foldObserved(
    resume ? structuredClone(resume.fold) : emptyFold(),
    settled.map((c) => c.chunk),
    target,
    nowMs,
  );
  const lastKey = settled.at(-1)?.key ?? resume?.lastKey;
  if (lastKey) {
    cache.set(target, { firstKey, lastKey, fold: structuredClone(fold) });
  }
  const rest = chunks.slice(settled.length).map((c) => c.chunk);
  return rest.length ? foldObserved(fold, rest, target, nowMs).observed : fold.observed;
}

export async function observedTime(target: string, nowMs: number): Promise<ObservedTime> {
  const metas = await journalMetas();
  const first = metas.find((m) => isCheckpoint(m.kind));
  let observed: Observed;
  if (!first) observed = observedIn([], null, nowMs);
  else if (target === DEFAULT_POLICY_TARGET) {
    // the fleet: covered whenever a checkpoint's writer was evaluating; the keys say when
    const fromKeys = metas.map((m) => ({
      kind: m.kind,
      from_ms: m.from_ms,
      to_ms: m.to_ms,
      evaluations: isCheckpoint(m.kind) ? [{ revision: 0, now_ms: m.from_ms, changed: new Map(), removed: [] }] : [],
    }));
    observed = observedIn(fromKeys, null, nowMs);
  } else observed = await tableObserved(first.key, metas, target, nowMs);
  return { ...observed, days: observed.ms / DAY_MS };
}

const hoursOrDays = (ms: number) =>
  ms >= DAY_MS ? `${Math.floor((ms / DAY_MS) * 10) / 10} days` : `${Math.floor(ms / 3_600_000)} hours`;

/** The gate's detail in words: until the journal has `minDays`, how many it has. */
export function observedDaysDetail(target: string, o: ObservedTime, minDays: number, retentionMs: number): string {
  const whose = target === DEFAULT_POLICY_TARGET ? "the fleet" : target;
  const keeps =
    retentionMs < minDays * DAY_MS
      ? ` The journal keeps only ${hoursOrDays(retentionMs)} (CONSOLE_JOURNAL_RETENTION_HOURS): it can never hold ${minDays} days.`
      : "";
  if (o.since_ms === null)
    return `No shadow observations of ${whose} in the decision journal yet; ${minDays} days are needed.${keeps}`;
  const days = Math.floor(o.days * 10) / 10;
  // under a day, the tenths alone hide how far along it is
  const hours = Math.floor(o.ms / 3_600_000);
  const minutes = Math.floor(o.ms / 60_000);
  const soFar =
    o.ms >= DAY_MS
      ? ""
      : hours >= 1
        ? ` (${hours} ${hours === 1 ? "hour" : "hours"} so far)`
        : ` (${minutes} ${minutes === 1 ? "minute" : "minutes"} so far)`;
  const gaps = o.gaps === 0 ? "" : `; ${o.gaps === 1 ? "1 gap" : `${o.gaps} gaps`} in the journal not counted`;
  return `${days} of ${minDays} days${soFar} of shadow observations of ${whose} in the decision journal (since ${formatTime(o.since_ms)}${gaps}).${keeps}`;
}

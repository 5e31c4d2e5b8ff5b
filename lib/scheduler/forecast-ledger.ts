import "server-only";
// The forecast journal as the answers read it (console-api.md "Forecasts …"): the chunks
// stored at a revision, folded into a ForecastLedger (lib/journal/forecasts/ledger.ts) —
// the calibration the one-table answer sets its intervals from, and each table's forecasts
// still waiting for their outcome. A function of the chunk keys at the revision: the fold
// starts CALIBRATION_WINDOW_MS + one rollup period before the newest chunk's end, so every
// forecast that calibrates is read with all its outcomes. Kept per process by the keys'
// version (count and newest mod_revision), fed forward when chunks were only added, folded
// afresh when any went (a trim, an hourly rollup); decoded chunks are kept by key and
// mod_revision (a key at one mod_revision holds one value).
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readChunkKeys, readChunkValues } from "@/lib/etcd/forecast-store";
import { journalKeysVersion } from "@/lib/etcd/journal-store";
import { decodeForecastChunk, ForecastDecodeError } from "@/lib/journal/forecasts/codec";
import { CALIBRATION_WINDOW_MS, ForecastLedger } from "@/lib/journal/forecasts/ledger";
import type { ForecastChunk } from "@/lib/journal/forecasts/records";
import { FORECAST_ROLLUP_MS, forecastCount } from "@/lib/journal/forecasts/records";
import { metrics } from "@/lib/metrics";
import { consoleEnv } from "@/lib/config/env";
import { classifyError } from "@/lib/schema/api/errors";
import { etcdAway } from "@/lib/live/revision-clock";
import { BoundedMap } from "@/lib/util/bounded-map";
import {
  forecastPrefix,
  forecastTimeKey,
  parseForecastChunkKey,
  type ForecastChunkMeta,
} from "@/lib/schema/forecast-keys";
import type { JournalKv } from "@/lib/etcd/journal-store";

/**
 * Heap bytes a decoded chunk takes per forecast (with its share of the outcomes). Measured: an
 * hour of chunks at 600 forecasts and 200 outcomes a minute (300 tables sampled in both worlds,
 * lib/journal/forecasts/sampler.ts) decoded to 223 bytes a forecast after a full collection.
 */
const DECODED_BYTES_PER_FORECAST = 224;

/**
 * Decoded chunks by key and mod_revision, in a 32nd of CONSOLE_MEMORY_MIB (32 MiB at the
 * default: ~150,000 forecasts, 4 h at the sampler's most), least recently used dropped first; a
 * fold that needs a dropped one reads it again. Bounded at 600,000 forecasts, they had filled
 * for 17 h to ~130 MB.
 */
let decodedChunks: BoundedMap<string, ForecastChunk> | null = null;
const decoded = () =>
  (decodedChunks ??= new BoundedMap<string, ForecastChunk>({
    evict: "least-recently-used",
    weigh: (c) => (1 + forecastCount(c)) * DECODED_BYTES_PER_FORECAST,
    maxWeight: Math.floor(consoleEnv().memoryBudgetBytes / 32),
  }));

export interface StoredChunkKey extends ForecastChunkMeta {
  modRevision: number;
}

/** The chunk keys at `revision` (in key = time order), parsed; keys that are not a chunk's are left out. */
export async function forecastChunkKeys(revision: number, fromMs = 0): Promise<StoredChunkKey[]> {
  const prefix = etcdPrefix();
  const kvs = await readChunkKeys(etcdClient(), forecastPrefix(prefix), forecastTimeKey(prefix, fromMs), revision);
  return kvs.flatMap((kv) => {
    const meta = parseForecastChunkKey(prefix, kv.key);
    return meta ? [{ ...meta, modRevision: kv.modRevision }] : [];
  });
}

/** The chunks of `keys` (consecutive, key order) decoded; one that does not decode is counted and left out. */
export async function forecastChunks(keys: readonly StoredChunkKey[], revision: number): Promise<ForecastChunk[]> {
  const id = (k: { key: string; modRevision: number }) => `${k.key}\u0000${k.modRevision}`;
  const missing = keys.filter((k) => !decoded().has(id(k)));
  if (missing.length > 0) {
    const kvs: JournalKv[] = await readChunkValues(
      etcdClient(),
      missing[0].key,
      missing[missing.length - 1].key,
      revision,
    );
    for (const kv of kvs) {
      try {
        decoded().set(id(kv), decodeForecastChunk(kv.value));
      } catch (e) {
        if (!(e instanceof ForecastDecodeError)) throw e;
        metrics().forecastChunksUnreadable.inc();
      }
    }
  }
  return keys.flatMap((k) => decoded().get(id(k)) ?? []);
}

/** Where a fold for the calibration at the newest chunk's end starts. */
const foldStart = (keys: readonly StoredChunkKey[]) =>
  keys.length === 0 ? 0 : keys[keys.length - 1].to_ms - CALIBRATION_WINDOW_MS - FORECAST_ROLLUP_MS;

interface Held {
  version: string;
  keys: StoredChunkKey[];
  ledger: ForecastLedger;
}

let newest: Held | null = null;
const pinned = new BoundedMap<string, Held>({ evict: "least-recently-used", maxEntries: 4 });

async function fold(revision: number, version: string, before: Held | null): Promise<Held> {
  const all = await forecastChunkKeys(revision);
  const start = foldStart(all);
  const keys = all.filter((k) => k.to_ms >= start);
  // chunks only added since `before` (none it read in this fold's range went): feed the new ones forward
  const present = new Set(all.map((k) => k.key));
  const last = before?.keys.at(-1)?.key;
  if (last !== undefined && present.has(last) && before!.keys.every((k) => k.to_ms < start || present.has(k.key))) {
    const added = all.filter((k) => k.key > last);
    for (const c of await forecastChunks(added, revision)) before!.ledger.add(c);
    return { version, keys: [...before!.keys.filter((k) => k.to_ms >= start), ...added], ledger: before!.ledger };
  }
  const ledger = new ForecastLedger();
  for (const c of await forecastChunks(keys, revision)) ledger.add(c);
  return { version, keys, ledger };
}

/**
 * The ledger of the forecast chunks stored at `revision` and its keys' version. On an etcd
 * failure the last ledger read answers (the last good data), else an empty one (version
 * `unavailable`: every interval then says it is not calibrated), so a table's answer served
 * from the held view while etcd is away does not fail for its forecasts.
 */
export async function forecastLedgerAt(revision: number): Promise<{ ledger: ForecastLedger; version: string }> {
  try {
    const version = await journalKeysVersion(etcdClient(), forecastPrefix(etcdPrefix()), revision);
    return await held(version, () => folding.then(() => foldOnce(revision, version)));
  } catch (e) {
    // etcd away (or this revision compacted): the last good ledger, else none
    if (!etcdAway(e) && classifyError(e)?.status !== 410) throw e;
    return newest ?? { ledger: new ForecastLedger(), version: "unavailable" };
  }
}

/** The ledger of `version` when held, else the fold `make` (folds run one at a time: a carried ledger is fed once). */
async function held(version: string, make: () => Promise<Held>): Promise<Held> {
  if (newest?.version === version) return newest;
  const kept = pinned.get(version);
  if (kept) return kept;
  const made = make();
  folding = made.catch(() => undefined);
  return made;
}

/** the fold in progress (the next waits for it) */
let folding: Promise<unknown> = Promise.resolve();

async function foldOnce(revision: number, version: string): Promise<Held> {
  // a fold that ran while this one waited may have made it
  if (newest?.version === version) return newest;
  const kept = pinned.get(version);
  if (kept) return kept;
  const made = await fold(revision, version, newest);
  const last = (h: Held) => h.keys.at(-1)?.key ?? "";
  if (newest === null || last(made) >= last(newest)) newest = made;
  else pinned.set(version, made);
  return made;
}

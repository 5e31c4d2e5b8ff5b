// Key codecs of scheduler-model.md §1. `hex(s)` = lowercase two-digit hex of every UTF-8
// byte of `s` (the task store's `encode_segment` is the same). A `generic:` target keeps its
// prefix inside the hex.
import { kindFromLabel, kindLabel, type TaskKind } from "./kinds";
import { DEFAULT_POLICY_TARGET } from "./policy";

const HEX_DIGITS = "0123456789abcdef";
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

export function hex(s: string): string {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  let out = "";
  if (ascii) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      out += HEX_DIGITS[c >> 4] + HEX_DIGITS[c & 15];
    }
    return out;
  }
  for (const b of encoder.encode(s)) out += HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15];
  return out;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F (accepted on read, never written)
  return -1;
}

/** Inverse of `hex`: odd length, a non-hex digit or invalid UTF-8 → null (T19). */
export function unhex(h: string): string | null {
  if (h.length % 2 !== 0) return null;
  const n = h.length / 2;
  let ascii = "";
  let bytes: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const hi = nibble(h.charCodeAt(2 * i));
    const lo = nibble(h.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return null;
    const b = (hi << 4) | lo;
    if (bytes === null) {
      if (b < 0x80) {
        ascii += String.fromCharCode(b);
        continue;
      }
      bytes = new Uint8Array(n);
      for (let j = 0; j < i; j++) bytes[j] = ascii.charCodeAt(j);
    }
    bytes[i] = b;
  }
  if (bytes === null) return ascii;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** `<hex(target)>/<rest>` split at the FIRST `/` (§1.1). Missing `/` or bad hex → null. */
export function splitHexKey(suffix: string): { target: string; rest: string } | null {
  const slash = suffix.indexOf("/");
  if (slash < 0) return null;
  const target = unhex(suffix.slice(0, slash));
  if (target === null) return null;
  return { target, rest: suffix.slice(slash + 1) };
}

// A table's events are adjacent in key order (~27,000 keys per production read, 1–20 per
// table): the last `<hex(target)>` decoded is remembered and reused for the next key.
let lastTargetHex = "";
let lastTarget: string | null = null;

/**
 * `demand-events/<hex(target)>/<shard>` (suffix after `P/demand-events/`), split at the
 * FIRST `/` (§1.1): the shard is raw (a UUID string), not hex. Missing `/` or bad hex → null.
 * The one decoder of these keys: the fleet read, the watch and the record parser use it.
 */
export function splitDemandEventKey(suffix: string): { target: string; shard: string } | null {
  const slash = suffix.indexOf("/");
  if (slash < 0) return null;
  let target: string | null = lastTarget;
  if (target === null || slash !== lastTargetHex.length || !suffix.startsWith(lastTargetHex)) {
    const targetHex = suffix.slice(0, slash);
    target = unhex(targetHex);
    if (target === null) return null;
    lastTargetHex = targetHex;
    lastTarget = target;
  }
  return { target, shard: suffix.slice(slash + 1) };
}

/** Legacy `<kind-label>/<hex(target)>` keys (`dedupe/`, `cooldown/`). */
export function splitKindKey(suffix: string): { kind: TaskKind; target: string } | null {
  const slash = suffix.indexOf("/");
  if (slash < 0) return null;
  const kind = kindFromLabel(suffix.slice(0, slash));
  if (kind === null) return null;
  const target = unhex(suffix.slice(slash + 1));
  return target === null ? null : { kind, target };
}

/** `merge-failures/<hex(target)>/<hex(endpoint)>`. */
export function splitFailureKey(suffix: string): { target: string; endpoint: string } | null {
  const split = splitHexKey(suffix);
  if (split === null) return null;
  const endpoint = unhex(split.rest);
  return endpoint === null ? null : { target: split.target, endpoint };
}

/** `<hex(target)>` alone (no `/`, not empty, not decoding to "") → the target, else null. */
export function unhexTarget(suffix: string): string | null {
  if (suffix === "" || suffix.includes("/")) return null;
  const target = unhex(suffix);
  return target === null || target === "" ? null : target;
}

/**
 * The directories under `P/` (scheduler-model.md §1), each with its trailing `/`; `leader`
 * has none: it names both `P/leader` and `P/leader-token`.
 */
export const KEY_DIRS = {
  demandEvents: "demand-events/",
  demand: "demand/",
  executors: "executors/",
  assignments: "assignments/",
  leader: "leader",
  policies: "policies/",
  queue: "queue/",
  running: "running/",
  tasks: "tasks/",
  cooldown: "cooldown/",
  mergeFailures: "merge-failures/",
  targetLocks: "target-locks/",
  mergeExecutions: "merge-executions/",
  mergeProgress: "merge-progress/",
  mergeWork: "merge-work/",
  claims: "claims/",
  mergeClaims: "merge-claims/",
  catchupActive: "catchup-active/",
  compactPreparations: "compact-preparations/",
  compactCommitReady: "compact-commit-ready/",
} as const;
export type KeyDir = (typeof KEY_DIRS)[keyof typeof KEY_DIRS];

/**
 * The directory of a full key under `P` (`demand-events/`, …; `leader` for `P/leader` and
 * `P/leader-token`), or null for a key outside `P/` or with no directory.
 */
export function keyDirOf(prefix: string, key: string): string | null {
  if (!key.startsWith(prefix) || key.charCodeAt(prefix.length) !== 47 /* / */) return null;
  const rel = key.slice(prefix.length + 1);
  if (rel === "leader" || rel === "leader-token") return KEY_DIRS.leader;
  const slash = rel.indexOf("/");
  return slash <= 0 ? null : rel.slice(0, slash + 1);
}

/** What follows `P/<dir>` in a full key of that directory. */
export const keySuffix = (prefix: string, dir: string, key: string) => key.slice(prefix.length + 1 + dir.length);

// Key builders (P = prefix without trailing `/`).
export const keys = {
  /** the whole of a directory: `P/<dir>` */
  dir: (p: string, dir: KeyDir) => `${p}/${dir}`,
  leader: (p: string) => `${p}/leader`,
  leaderToken: (p: string) => `${p}/leader-token`,
  demandEvents: (p: string) => `${p}/demand-events/`,
  /** one table's demand events: `P/demand-events/<hex(target)>/` */
  demandEventsOf: (p: string, target: string) => `${p}/demand-events/${hex(target)}/`,
  demandEvent: (p: string, target: string, shard: string) => `${p}/demand-events/${hex(target)}/${shard}`,
  demandTables: (p: string) => `${p}/demand/`,
  demandTable: (p: string, target: string) => `${p}/demand/${hex(target)}`,
  executors: (p: string) => `${p}/executors/`,
  executor: (p: string, id: string) => `${p}/executors/${id}`,
  assignments: (p: string) => `${p}/assignments/`,
  /** one table's assignments: `P/assignments/<hex(target)>/` */
  assignmentsOf: (p: string, target: string) => `${p}/assignments/${hex(target)}/`,
  assignment: (p: string, target: string, unitId: string) => `${p}/assignments/${hex(target)}/${unitId}`,
  dedupe: (p: string, kind: TaskKind, target: string) => `${p}/dedupe/${kindLabel(kind)}/${hex(target)}`,
  cooldown: (p: string, kind: TaskKind, target: string) => `${p}/cooldown/${kindLabel(kind)}/${hex(target)}`,
  /** one table's shard failures: `P/merge-failures/<hex(target)>/` */
  mergeFailuresOf: (p: string, target: string) => `${p}/merge-failures/${hex(target)}/`,
  mergeFailure: (p: string, target: string, endpoint: string) => `${p}/merge-failures/${hex(target)}/${hex(endpoint)}`,
  targetLock: (p: string, target: string) => `${p}/target-locks/${hex(target)}`,
  mergeExecution: (p: string, target: string) => `${p}/merge-executions/${hex(target)}`,
  mergeProgress: (p: string, executionId: string) => `${p}/merge-progress/${executionId}`,
  mergeWork: (p: string, executionId: string) => `${p}/merge-work/${executionId}`,
  /** the task store: `tasks/<id>` (every task), `queue/<id>` (queued), `running/<id>` and its leased `claims/<id>` */
  task: (p: string, id: string) => `${p}/tasks/${id}`,
  queued: (p: string, id: string) => `${p}/queue/${id}`,
  running: (p: string, id: string) => `${p}/running/${id}`,
  claim: (p: string, id: string) => `${p}/claims/${id}`,
  /** the merge fence's per-table keys (bare-string values) */
  mergeClaim: (p: string, target: string) => `${p}/merge-claims/${hex(target)}`,
  catchupActive: (p: string, target: string) => `${p}/catchup-active/${hex(target)}`,
  compactPreparation: (p: string, target: string) => `${p}/compact-preparations/${hex(target)}`,
  compactCommitReady: (p: string, target: string) => `${p}/compact-commit-ready/${hex(target)}`,
} as const;

/** The policy store (console-api.md policies): a table's policy under its hex name, `_default` as is, and the audit log. */
export const policyKeys = {
  policies: (p: string) => `${p}/policies/`,
  policy: (p: string, target: string) =>
    `${p}/policies/${target === DEFAULT_POLICY_TARGET ? DEFAULT_POLICY_TARGET : hex(target)}`,
  /** a table's own policy key, always under its hex name (a table may be called `_default`) */
  tablePolicy: (p: string, target: string) => `${p}/policies/${hex(target)}`,
  audit: (p: string) => `${p}/console/audit/`,
  auditEntry: (p: string, id: string) => `${p}/console/audit/${id}`,
};

/** The id an audit entry's key names (`policyKeys.auditEntry(p, id)` → `id`); the key lies under `policyKeys.audit(p)`. */
export const auditIdOf = (p: string, key: string) => key.slice(policyKeys.audit(p).length);

/**
 * A `policies/` key suffix: `_default` → `{ target: null }` (the fleet's default),
 * `<hex(target)>` → the table, anything else → null.
 */
export function splitPolicyKey(suffix: string): { target: string | null } | null {
  if (suffix === DEFAULT_POLICY_TARGET) return { target: null };
  const target = unhexTarget(suffix);
  return target === null ? null : { target };
}

/** Unix milliseconds as 15 zero-padded digits: key order is time order (the console's own keys). */
export const timeKey = (ms: number) => String(ms).padStart(15, "0");

/** The start of the audit ids written at `ms` or later (an id is `timeKey(ms)-<random hex>`). */
export const auditTimeKey = (ms: number) => timeKey(Math.max(0, Math.floor(ms)));

// The console's own keys under `P/console/` (console-api.md Additions).
/** The single key `currentRevision` ranges on: `P/` (one `/` if `P` ends with one); "\0" without a prefix. */
export const revisionProbeKey = (prefix: string | undefined) =>
  prefix === undefined ? "\0" : prefix.endsWith("/") ? prefix : `${prefix}/`;
/** The compact-revision probe of the console prefix `P` (trailing `/` trimmed): `P/console/compact-probe`. */
export const compactProbeKey = (prefix: string) => `${prefix.replace(/\/+$/, "")}/console/compact-probe`;
/** The shadow sampler's election. */
export const samplerElectionKey = (prefix: string) => `${prefix}/console/sampler`;
/** Shadow-history samples `P/console/shadow-history/<timeKey(at_ms)>`. */
export const historyPrefix = (prefix: string) => `${prefix}/console/shadow-history/`;
export const historyKey = (prefix: string, atMs: number) => `${historyPrefix(prefix)}${timeKey(atMs)}`;
/** Revision-clock samples `P/console/revision-clock/<timeKey(at_ms)>`. */
export const clockPrefix = (prefix: string) => `${prefix}/console/revision-clock/`;
export const clockKey = (prefix: string, atMs: number) => `${clockPrefix(prefix)}${timeKey(atMs)}`;
/** The first key after every clock sample (the range end of `clockPrefix`). */
export const clockPrefixEnd = (prefix: string) => `${prefix}/console/revision-clock0`;

// The decision journal (console-api.md "The decision journal"): one chunk per key under
// `P/console/journal/`, its key naming its span, kind, entry count and size, so coverage,
// gaps and trimming are answered from a keys-only read.

/**
 * `restated`: a periodic checkpoint, continuing the journal without a gap, whose evaluation
 * the delta before it holds too (so a reader folding from an earlier checkpoint skips it);
 * `checkpoint`: a periodic one an older writer wrote, whose evaluation only it holds (read);
 * `after_no_sampler` / `after_etcd_unavailable`: a writer (re)starting, with a gap from the
 * previous chunk's end.
 */
export type ChunkKind = "delta" | "restated" | "checkpoint" | "after_no_sampler" | "after_etcd_unavailable";

/** A chunk kind's one letter, in its key and in its stored value. */
export const CHUNK_KIND_LETTER: Readonly<Record<ChunkKind, string>> = {
  delta: "d",
  checkpoint: "c",
  restated: "b", // sorts before "d": a restatement at T comes before a delta starting at T
  after_no_sampler: "n",
  after_etcd_unavailable: "u",
};
export const CHUNK_LETTER_KIND: ReadonlyMap<string, ChunkKind> = new Map(
  Object.entries(CHUNK_KIND_LETTER).map(([k, l]) => [l, k as ChunkKind]),
);

/** What a chunk's key says about it. */
export interface ChunkMeta {
  key: string;
  kind: ChunkKind;
  from_ms: number;
  to_ms: number;
  entries: number;
  bytes: number;
}

export const journalPrefix = (prefix: string) => `${prefix}/console/journal/`;
/** the oldest moment still journalled after a byte-cap trim (outside the chunk prefix, so chunk reads never see it) */
export const trimmedKey = (prefix: string) => `${prefix}/console/journal-trimmed`;

/**
 * `<from>-<to>-<revision>-<kind>-<entries>-<bytes>-<writer>`: key order is time order
 * (15-digit times). The live plan keeps its clock for a few seconds across revisions, so
 * chunks flushed in that time share `from` and `to`: the revision of their first evaluation
 * (0 for a chunk of none, which holds nothing to fold) orders them as they were written.
 * Keys written before it (`<from>-<to>-<kind>-…`) are read too.
 */
export function journalChunkKey(
  prefix: string,
  chunk: Omit<ChunkMeta, "key">,
  writer: string,
  firstRevision: number,
): string {
  return `${journalPrefix(prefix)}${timeKey(chunk.from_ms)}-${timeKey(chunk.to_ms)}-${timeKey(firstRevision)}-${CHUNK_KIND_LETTER[chunk.kind]}-${chunk.entries}-${chunk.bytes}-${writer}`;
}

const CHUNK_KEY_TAIL = /^(\d{15})-(\d{15})-(?:\d{15}-)?([dcbnu])-(\d+)-(\d+)-[A-Za-z0-9]+$/;

/**
 * A chunk key's tail under `base` matched by `tail` (its first two groups the span's ends), with
 * the span; null for a key that is not one or whose span runs backwards. The decision journal's
 * keys and the forecast journal's (./forecast-keys.ts) share it.
 */
export function matchChunkKey(
  base: string,
  key: string,
  tail: RegExp,
): { m: RegExpExecArray; from: number; to: number } | null {
  if (!key.startsWith(base)) return null;
  const m = tail.exec(key.slice(base.length));
  if (!m) return null;
  const from = Number(m[1]);
  const to = Number(m[2]);
  return to < from ? null : { m, from, to };
}

/** A chunk key's fields, or null for a key that is not one. */
export function parseChunkKey(prefix: string, key: string): ChunkMeta | null {
  const matched = matchChunkKey(journalPrefix(prefix), key, CHUNK_KEY_TAIL);
  if (!matched) return null;
  const { m, from, to } = matched;
  return {
    key,
    kind: CHUNK_LETTER_KIND.get(m[3])!,
    from_ms: from,
    to_ms: to,
    entries: Number(m[4]),
    bytes: Number(m[5]),
  };
}

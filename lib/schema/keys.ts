// Key codecs of scheduler-model.md §1. `hex(s)` = lowercase two-digit hex of every UTF-8
// byte of `s` (the task store's `encode_segment` is the same). A `generic:` target keeps its
// prefix inside the hex.
import { kindFromLabel, kindLabel, type TaskKind } from "./kinds";

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

/** Trim the trailing `/` of an etcd prefix (`P` of §1). */
export function normalizePrefix(prefix: string): string {
  return prefix.replace(/\/+$/, "");
}

// Key builders (P = prefix without trailing `/`).
export const keys = {
  leader: (p: string) => `${p}/leader`,
  leaderToken: (p: string) => `${p}/leader-token`,
  demandEvents: (p: string) => `${p}/demand-events/`,
  demandEvent: (p: string, target: string, shard: string) => `${p}/demand-events/${hex(target)}/${shard}`,
  demandTables: (p: string) => `${p}/demand/`,
  demandTable: (p: string, target: string) => `${p}/demand/${hex(target)}`,
  executors: (p: string) => `${p}/executors/`,
  executor: (p: string, id: string) => `${p}/executors/${id}`,
  assignments: (p: string) => `${p}/assignments/`,
  assignment: (p: string, target: string, unitId: string) => `${p}/assignments/${hex(target)}/${unitId}`,
  dedupe: (p: string, kind: TaskKind, target: string) => `${p}/dedupe/${kindLabel(kind)}/${hex(target)}`,
  cooldown: (p: string, kind: TaskKind, target: string) => `${p}/cooldown/${kindLabel(kind)}/${hex(target)}`,
  mergeFailure: (p: string, target: string, endpoint: string) =>
    `${p}/merge-failures/${hex(target)}/${hex(endpoint)}`,
  targetLock: (p: string, target: string) => `${p}/target-locks/${hex(target)}`,
  mergeExecution: (p: string, target: string) => `${p}/merge-executions/${hex(target)}`,
  mergeProgress: (p: string, executionId: string) => `${p}/merge-progress/${executionId}`,
  mergeWork: (p: string, executionId: string) => `${p}/merge-work/${executionId}`,
} as const;

// How each family's keys and values parse (scheduler-model.md §1 keys, §2 records).
// Every parser returns an entry or a skip reason; none throws.
import { KV_MEMO } from "@/lib/etcd/range-codec";
import { parseAssignment } from "@/lib/schema/assignments";
import { parseDemandEventKv, parseTableDemand } from "@/lib/schema/demand";
import { scanDemandEvent } from "@/lib/schema/demand-scan";
import { parseExecution } from "@/lib/schema/executions";
import { parseHeartbeat } from "@/lib/schema/executors";
import { parseShardFailure } from "@/lib/schema/failures";
import {
  KEY_DIRS,
  keyDirOf,
  keys,
  keySuffix,
  splitDemandEventKey,
  splitFailureKey,
  splitHexKey,
  splitKindKey,
  splitPolicyKey,
  unhexTarget,
  type KeyDir,
} from "@/lib/schema/keys";
import { parseLeader } from "@/lib/schema/leader";
import { MAX_VALUE_BYTES, parseJsonObject, skip, type SkipReason } from "@/lib/schema/parse";
import { parseStoredPolicy } from "@/lib/schema/policy";
import { parseMergeProgress, parseMergeWorkReport } from "@/lib/schema/progress";
import { uuidv7Prefix } from "@/lib/schema/task-id";
import { parseTaskCooldown, parseTaskRecord } from "@/lib/schema/tasks";
import type {
  AnyEntry,
  EntryOf,
  FamilyName,
  LeaderEntry,
  ListField,
  SnapshotKv,
  TargetValueEntry,
  TaskEntry,
} from "./types";

type Skip = { ok: false; reason: SkipReason; detail: string; target?: string };
/** One kv parsed: its entry, or why it was skipped. */
export type ParsedKv<E> = { ok: true; entry: E } | Skip;
/** The `leader` family's two keys: `P/leader` (a record) and `P/leader-token` (a bare string). */
export type LeaderParsed = { kind: "leader"; leader: LeaderEntry } | { kind: "token"; token: string };
export type ParsedEntry = ParsedKv<AnyEntry> | ParsedKv<LeaderParsed>;

/** `null` = the key belongs to another family sharing the read prefix (only `leader`). */
type Parser<E> = (suffix: string, value: string, kv: SnapshotKv) => ParsedKv<E> | null;

interface FamilyBase {
  name: FamilyName;
  /** read prefix relative to `P/` */
  relPrefix: KeyDir;
  /**
   * A family read from a moment on rather than whole: the key suffix (after `relPrefix`)
   * the range starts at for records created at or after `sinceMs`.
   */
  startSuffix?: (sinceMs: number) => string;
}

/** A family that fills one FleetSnapshot list. */
export interface ListFamilyDef<F extends ListField> extends FamilyBase {
  field: F;
  parse: Parser<EntryOf[F]>;
  /**
   * Optional fast path over the raw bytes (no UTF-8 decode, no JSON.parse); `undefined`
   * = not handled, use `parse`. Must give exactly what `parse` gives when it answers.
   */
  parseBytes?: (suffix: string, kv: SnapshotKv) => ParsedKv<EntryOf[F]> | undefined;
}

/** `leader` fills two singular fields instead of a list. */
export interface LeaderFamilyDef extends FamilyBase {
  name: "leader";
  field: null;
  parse: Parser<LeaderParsed>;
}

export type ListFamily = { [F in ListField]: ListFamilyDef<F> }[ListField];
export type FamilyDef = ListFamily | LeaderFamilyDef;

const badKey = (suffix: string, shape: string): Skip => skip("bad_key", `not ${shape}: ${JSON.stringify(suffix)}`);

const entry = <E>(e: E): ParsedKv<E> => ({ ok: true, entry: e });

/** `<hex(target)>` keys with a bare-string value (locks, claims and fence helpers). */
const targetValue: Parser<TargetValueEntry> = (suffix, value, kv) => {
  const target = unhexTarget(suffix);
  if (target === null) return badKey(suffix, "<hex(target)>");
  return entry({ key: kv.key, modRevision: kv.modRevision, target, value, lease: kv.lease });
};

const taskEntry: Parser<TaskEntry> = (suffix, value, kv) => {
  if (suffix === "" || suffix.includes("/")) return badKey(suffix, "<task-id>");
  const parsed = parseTaskRecord(value);
  return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, taskId: suffix, task: parsed.value }) : parsed;
};

export const FAMILIES: readonly FamilyDef[] = [
  {
    name: "demand-events",
    relPrefix: KEY_DIRS.demandEvents,
    field: "demandEvents",
    parse: (suffix, value, kv) => {
      const parsed = parseDemandEventKv(suffix, value);
      if (!parsed.ok) return parsed;
      return entry({
        key: kv.key,
        modRevision: kv.modRevision,
        target: parsed.target,
        shard: parsed.shard,
        event: parsed.event,
      });
    },
    // ~27,000 of these per production read: the value scanned from its bytes
    // (lib/schema/demand-scan.ts)
    parseBytes: (suffix, kv) => {
      const split = splitDemandEventKey(suffix);
      if (split === null) return undefined;
      const event = scanDemandEvent(kv.value, split.shard);
      return event === null
        ? undefined
        : entry({ key: kv.key, modRevision: kv.modRevision, target: split.target, shard: split.shard, event });
    },
  },
  {
    name: "demand",
    relPrefix: KEY_DIRS.demand,
    field: "demandTables",
    parse: (suffix, value, kv) => {
      const target = unhexTarget(suffix);
      if (target === null) return badKey(suffix, "<hex(target)>");
      const parsed = parseTableDemand(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, record: parsed.value }) : parsed;
    },
  },
  {
    name: "executors",
    relPrefix: KEY_DIRS.executors,
    field: "executors",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<executor-id>");
      const parsed = parseHeartbeat(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, id: suffix, heartbeat: parsed.value, lease: kv.lease })
        : parsed;
    },
  },
  {
    name: "assignments",
    relPrefix: KEY_DIRS.assignments,
    field: "assignments",
    parse: (suffix, value, kv) => {
      const split = splitHexKey(suffix);
      if (split === null || split.target === "" || split.rest === "") return badKey(suffix, "<hex(target)>/<unit-id>");
      const parsed = parseAssignment(value);
      return parsed.ok
        ? entry({
            key: kv.key,
            modRevision: kv.modRevision,
            target: split.target,
            unitId: split.rest,
            assignment: parsed.value,
          })
        : parsed;
    },
  },
  {
    // reads `P/leader` and `P/leader-token` in one range
    name: "leader",
    relPrefix: KEY_DIRS.leader,
    field: null,
    parse: (suffix, value, kv) => {
      if (suffix === "-token") return entry<LeaderParsed>({ kind: "token", token: value });
      if (suffix !== "") return null;
      const parsed = parseLeader(value);
      return parsed.ok
        ? entry<LeaderParsed>({
            kind: "leader",
            leader: { key: kv.key, modRevision: kv.modRevision, record: parsed.value, lease: kv.lease },
          })
        : parsed;
    },
  },
  {
    name: "policies",
    relPrefix: KEY_DIRS.policies,
    field: "policies",
    parse: (suffix, value, kv) => {
      const split = splitPolicyKey(suffix);
      if (split === null) return badKey(suffix, "_default or <hex(target)>");
      const { target } = split;
      const json = parseJsonObject(value);
      if (!json.ok) return json;
      const parsed = parseStoredPolicy(json.value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, document: parsed.value }) : parsed;
    },
  },
  { name: "queue", relPrefix: KEY_DIRS.queue, field: "queue", parse: taskEntry },
  { name: "running", relPrefix: KEY_DIRS.running, field: "running", parse: taskEntry },
  // the task history, from the UUIDv7 of `tasksSinceMs` on (ids are time-ordered, §2.8)
  { name: "tasks", relPrefix: KEY_DIRS.tasks, field: "tasks", parse: taskEntry, startSuffix: uuidv7Prefix },
  {
    name: "cooldown",
    relPrefix: KEY_DIRS.cooldown,
    field: "cooldowns",
    parse: (suffix, value, kv) => {
      const split = splitKindKey(suffix);
      if (split === null || split.target === "") return badKey(suffix, "<kind-label>/<hex(target)>");
      const parsed = parseTaskCooldown(value);
      return parsed.ok
        ? entry({
            key: kv.key,
            modRevision: kv.modRevision,
            kind: split.kind,
            target: split.target,
            cooldown: parsed.value,
            lease: kv.lease,
          })
        : parsed;
    },
  },
  {
    name: "merge-failures",
    relPrefix: KEY_DIRS.mergeFailures,
    field: "mergeFailures",
    parse: (suffix, value, kv) => {
      const split = splitFailureKey(suffix);
      if (split === null || split.target === "") return badKey(suffix, "<hex(target)>/<hex(endpoint)>");
      const parsed = parseShardFailure(value);
      return parsed.ok
        ? entry({
            key: kv.key,
            modRevision: kv.modRevision,
            target: split.target,
            endpoint: split.endpoint,
            failure: parsed.value,
          })
        : parsed;
    },
  },
  { name: "target-locks", relPrefix: KEY_DIRS.targetLocks, field: "targetLocks", parse: targetValue },
  {
    name: "merge-executions",
    relPrefix: KEY_DIRS.mergeExecutions,
    field: "mergeExecutions",
    parse: (suffix, value, kv) => {
      const target = unhexTarget(suffix);
      if (target === null) return badKey(suffix, "<hex(target)>");
      const parsed = parseExecution(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, execution: parsed.value }) : parsed;
    },
  },
  {
    name: "merge-progress",
    relPrefix: KEY_DIRS.mergeProgress,
    field: "mergeProgress",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<execution-id>");
      const parsed = parseMergeProgress(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, executionId: suffix, progress: parsed.value })
        : parsed;
    },
  },
  {
    name: "merge-work",
    relPrefix: KEY_DIRS.mergeWork,
    field: "mergeWork",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<execution-id>");
      const parsed = parseMergeWorkReport(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, executionId: suffix, report: parsed.value })
        : parsed;
    },
  },
  {
    name: "claims",
    relPrefix: KEY_DIRS.claims,
    field: "claims",
    parse: (suffix, value, kv) => {
      if (suffix === "" || suffix.includes("/")) return badKey(suffix, "<task-id>");
      return entry({ key: kv.key, modRevision: kv.modRevision, taskId: suffix, token: value, lease: kv.lease });
    },
  },
  { name: "merge-claims", relPrefix: KEY_DIRS.mergeClaims, field: "mergeClaims", parse: targetValue },
  { name: "catchup-active", relPrefix: KEY_DIRS.catchupActive, field: "catchupActive", parse: targetValue },
  {
    name: "compact-preparations",
    relPrefix: KEY_DIRS.compactPreparations,
    field: "compactPreparations",
    parse: targetValue,
  },
  {
    name: "compact-commit-ready",
    relPrefix: KEY_DIRS.compactCommitReady,
    field: "compactCommitReady",
    parse: targetValue,
  },
];

export const FAMILY_BY_NAME: ReadonlyMap<FamilyName, FamilyDef> = new Map(FAMILIES.map((f) => [f.name, f]));
/** The families that fill a list (all but `leader`). */
export const LIST_FAMILIES: readonly ListFamily[] = FAMILIES.filter((f): f is ListFamily => f.field !== null);
const FAMILY_BY_DIR: ReadonlyMap<string, FamilyDef> = new Map(LIST_FAMILIES.map((f) => [f.relPrefix, f]));

/** Full read prefix of a family under `P` (no trailing `/`). */
export function familyPrefix(prefix: string, family: FamilyDef): string {
  return keys.dir(prefix, family.relPrefix);
}

/**
 * The family a full key under `prefix` belongs to (scheduler-model.md §1: `P/<family>/...`,
 * `P/leader`, `P/leader-token`), or null for keys the console does not read.
 */
export function familyOfKey(prefix: string, key: string): FamilyDef | null {
  const dir = keyDirOf(prefix, key);
  if (dir === KEY_DIRS.leader) return FAMILY_BY_NAME.get("leader")!;
  return dir === null ? null : (FAMILY_BY_DIR.get(dir) ?? null);
}

const utf8 = new TextDecoder("utf-8");

// The parse outcome is remembered on the kv object itself (a WeakMap of ~27,000 entries
// costs measurably more in GC): a snapshot rebuilt after a one-key change parses one
// record. A patched kv is a new object and is parsed afresh. Entries are shared between
// snapshots built from the same kv objects: treat them as read-only.
type Memo = SnapshotKv & { [KV_MEMO]?: unknown };

/** Parse (or recall) one kv of `family` read under prefix `P`. `null` = not this family's key. */
export function parseFamilyKv<F extends ListField>(
  prefix: string,
  family: ListFamilyDef<F>,
  kv: SnapshotKv,
): ParsedKv<EntryOf[F]> | null;
export function parseFamilyKv(prefix: string, family: LeaderFamilyDef, kv: SnapshotKv): ParsedKv<LeaderParsed> | null;
export function parseFamilyKv(prefix: string, family: FamilyDef, kv: SnapshotKv): ParsedEntry | null;
export function parseFamilyKv(prefix: string, family: FamilyDef, kv: SnapshotKv): ParsedEntry | null {
  const memo = kv as Memo;
  if (memo[KV_MEMO] !== undefined) return memo[KV_MEMO] as ParsedEntry | null; // set below, by this function only
  const outcome = parseUncached(prefix, family, kv);
  memo[KV_MEMO] = outcome;
  return outcome;
}

function parseUncached(prefix: string, family: FamilyDef, kv: SnapshotKv): ParsedEntry | null {
  const suffix = keySuffix(prefix, family.relPrefix, kv.key);
  if (kv.value.length > MAX_VALUE_BYTES) {
    if (family.field === null && suffix !== "" && suffix !== "-token") return null;
    return skip("too_large", `value is ${kv.value.length} bytes (over ${MAX_VALUE_BYTES})`);
  }
  return (
    (family.field !== null ? family.parseBytes?.(suffix, kv) : undefined) ??
    family.parse(suffix, utf8.decode(kv.value), kv)
  );
}

// How each family's keys and values parse (scheduler-model.md §1 keys, §2 records).
// Every parser returns an entry or a skip reason; none throws.
import { parseAssignment } from "@/lib/schema/assignments";
import { parseDemandEventKv, parseTableDemand } from "@/lib/schema/demand";
import { scanDemandEvent } from "@/lib/schema/demand-scan";
import { parseExecution } from "@/lib/schema/executions";
import { parseHeartbeat } from "@/lib/schema/executors";
import { parseShardFailure } from "@/lib/schema/failures";
import { splitFailureKey, splitHexKey, splitKindKey, unhex } from "@/lib/schema/keys";
import { parseLeader } from "@/lib/schema/leader";
import { MAX_VALUE_BYTES, parseJsonObject, skip, type SkipReason } from "@/lib/schema/parse";
import { parseStoredPolicy } from "@/lib/schema/policy";
import { parseMergeProgress, parseMergeWorkReport } from "@/lib/schema/progress";
import { uuidv7Prefix } from "@/lib/schema/task-id";
import { parseTaskCooldown, parseTaskRecord } from "@/lib/schema/tasks";
import type { FamilyName, FleetSnapshot, SnapshotKv } from "./types";

export type EntryOutcome = { ok: true; entry: object } | { ok: false; reason: SkipReason; detail: string; target?: string };

/** `null` = the key belongs to another family sharing the read prefix (only `leader`). */
type Parser = (suffix: string, value: string, kv: SnapshotKv) => EntryOutcome | null;

type ListField = {
  [K in keyof FleetSnapshot]: FleetSnapshot[K] extends unknown[] ? (K extends "skipped" ? never : K) : never;
}[keyof FleetSnapshot];

export interface FamilyDef {
  name: FamilyName;
  /** read prefix relative to `P/` */
  relPrefix: string;
  /** the snapshot list it fills (`leader` fills two singular fields instead) */
  field: ListField | null;
  parse: Parser;
  /**
   * Optional fast path over the raw bytes (no UTF-8 decode, no JSON.parse); `undefined`
   * = not handled, use `parse`. Must give exactly what `parse` gives when it answers.
   */
  parseBytes?: (suffix: string, kv: SnapshotKv) => EntryOutcome | undefined;
  /**
   * A family read from a moment on rather than whole: the key suffix (after `relPrefix`)
   * the range starts at for records created at or after `sinceMs`.
   */
  startSuffix?: (sinceMs: number) => string;
}

const badKey = (suffix: string, shape: string): EntryOutcome => skip("bad_key", `not ${shape}: ${JSON.stringify(suffix)}`);

function hexTarget(suffix: string): string | null {
  if (suffix === "" || suffix.includes("/")) return null;
  const target = unhex(suffix);
  return target === null || target === "" ? null : target;
}

const entry = (e: object): EntryOutcome => ({ ok: true, entry: e });

// A table's events are adjacent in key order: its `<hex(target)>` is decoded once.
let lastTargetHex = "";
let lastTarget: string | null = null;

/** `unhex` of `suffix[0, slash)`, reusing the previous key's answer when the hex is the same. */
function eventTarget(suffix: string, slash: number): string | null {
  if (lastTarget !== null && slash === lastTargetHex.length && suffix.startsWith(lastTargetHex)) return lastTarget;
  const hexPart = suffix.slice(0, slash);
  const target = unhex(hexPart);
  if (target !== null) {
    lastTargetHex = hexPart;
    lastTarget = target;
  }
  return target;
}

/** `<hex(target)>` keys with a bare-string value (locks, claims and fence helpers). */
const targetValue: Parser = (suffix, value, kv) => {
  const target = hexTarget(suffix);
  if (target === null) return badKey(suffix, "<hex(target)>");
  return entry({ key: kv.key, modRevision: kv.modRevision, target, value, lease: kv.lease });
};

const taskEntry: Parser = (suffix, value, kv) => {
  if (suffix === "" || suffix.includes("/")) return badKey(suffix, "<task-id>");
  const parsed = parseTaskRecord(value);
  return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, taskId: suffix, task: parsed.value }) : parsed;
};

export const FAMILIES: readonly FamilyDef[] = [
  {
    name: "demand-events",
    relPrefix: "demand-events/",
    field: "demandEvents",
    parse: (suffix, value, kv) => {
      const parsed = parseDemandEventKv(suffix, value);
      if (!parsed.ok) return parsed;
      return entry({ key: kv.key, modRevision: kv.modRevision, target: parsed.target, shard: parsed.shard, event: parsed.event });
    },
    // ~27,000 of these per production read: the key split as splitDemandEventKey does it,
    // the value scanned from its bytes (lib/schema/demand-scan.ts)
    parseBytes: (suffix, kv) => {
      const slash = suffix.indexOf("/");
      const target = slash < 0 ? null : eventTarget(suffix, slash);
      if (target === null) return undefined;
      const shard = suffix.slice(slash + 1);
      const event = scanDemandEvent(kv.value, shard);
      return event === null ? undefined : entry({ key: kv.key, modRevision: kv.modRevision, target, shard, event });
    },
  },
  {
    name: "demand",
    relPrefix: "demand/",
    field: "demandTables",
    parse: (suffix, value, kv) => {
      const target = hexTarget(suffix);
      if (target === null) return badKey(suffix, "<hex(target)>");
      const parsed = parseTableDemand(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, record: parsed.value }) : parsed;
    },
  },
  {
    name: "executors",
    relPrefix: "executors/",
    field: "executors",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<executor-id>");
      const parsed = parseHeartbeat(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, id: suffix, heartbeat: parsed.value, lease: kv.lease }) : parsed;
    },
  },
  {
    name: "assignments",
    relPrefix: "assignments/",
    field: "assignments",
    parse: (suffix, value, kv) => {
      const split = splitHexKey(suffix);
      if (split === null || split.target === "" || split.rest === "") return badKey(suffix, "<hex(target)>/<unit-id>");
      const parsed = parseAssignment(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, target: split.target, unitId: split.rest, assignment: parsed.value })
        : parsed;
    },
  },
  {
    // reads `P/leader` and `P/leader-token` in one range
    name: "leader",
    relPrefix: "leader",
    field: null,
    parse: (suffix, value, kv) => {
      if (suffix === "-token") return entry({ token: value });
      if (suffix !== "") return null;
      const parsed = parseLeader(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, record: parsed.value, lease: kv.lease }) : parsed;
    },
  },
  {
    name: "policies",
    relPrefix: "policies/",
    field: "policies",
    parse: (suffix, value, kv) => {
      const target = suffix === "_default" ? null : hexTarget(suffix);
      if (suffix !== "_default" && target === null) return badKey(suffix, "_default or <hex(target)>");
      const json = parseJsonObject(value);
      if (!json.ok) return json;
      const parsed = parseStoredPolicy(json.value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, document: parsed.value }) : parsed;
    },
  },
  { name: "queue", relPrefix: "queue/", field: "queue", parse: taskEntry },
  { name: "running", relPrefix: "running/", field: "running", parse: taskEntry },
  // the task history, from the UUIDv7 of `tasksSinceMs` on (ids are time-ordered, §2.8)
  { name: "tasks", relPrefix: "tasks/", field: "tasks", parse: taskEntry, startSuffix: uuidv7Prefix },
  {
    name: "cooldown",
    relPrefix: "cooldown/",
    field: "cooldowns",
    parse: (suffix, value, kv) => {
      const split = splitKindKey(suffix);
      if (split === null || split.target === "") return badKey(suffix, "<kind-label>/<hex(target)>");
      const parsed = parseTaskCooldown(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, kind: split.kind, target: split.target, cooldown: parsed.value, lease: kv.lease })
        : parsed;
    },
  },
  {
    name: "merge-failures",
    relPrefix: "merge-failures/",
    field: "mergeFailures",
    parse: (suffix, value, kv) => {
      const split = splitFailureKey(suffix);
      if (split === null || split.target === "") return badKey(suffix, "<hex(target)>/<hex(endpoint)>");
      const parsed = parseShardFailure(value);
      return parsed.ok
        ? entry({ key: kv.key, modRevision: kv.modRevision, target: split.target, endpoint: split.endpoint, failure: parsed.value })
        : parsed;
    },
  },
  { name: "target-locks", relPrefix: "target-locks/", field: "targetLocks", parse: targetValue },
  {
    name: "merge-executions",
    relPrefix: "merge-executions/",
    field: "mergeExecutions",
    parse: (suffix, value, kv) => {
      const target = hexTarget(suffix);
      if (target === null) return badKey(suffix, "<hex(target)>");
      const parsed = parseExecution(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, target, execution: parsed.value }) : parsed;
    },
  },
  {
    name: "merge-progress",
    relPrefix: "merge-progress/",
    field: "mergeProgress",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<execution-id>");
      const parsed = parseMergeProgress(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, executionId: suffix, progress: parsed.value }) : parsed;
    },
  },
  {
    name: "merge-work",
    relPrefix: "merge-work/",
    field: "mergeWork",
    parse: (suffix, value, kv) => {
      if (suffix === "") return badKey(suffix, "<execution-id>");
      const parsed = parseMergeWorkReport(value);
      return parsed.ok ? entry({ key: kv.key, modRevision: kv.modRevision, executionId: suffix, report: parsed.value }) : parsed;
    },
  },
  {
    name: "claims",
    relPrefix: "claims/",
    field: "claims",
    parse: (suffix, value, kv) => {
      if (suffix === "" || suffix.includes("/")) return badKey(suffix, "<task-id>");
      return entry({ key: kv.key, modRevision: kv.modRevision, taskId: suffix, token: value, lease: kv.lease });
    },
  },
  { name: "merge-claims", relPrefix: "merge-claims/", field: "mergeClaims", parse: targetValue },
  { name: "catchup-active", relPrefix: "catchup-active/", field: "catchupActive", parse: targetValue },
  { name: "compact-preparations", relPrefix: "compact-preparations/", field: "compactPreparations", parse: targetValue },
  { name: "compact-commit-ready", relPrefix: "compact-commit-ready/", field: "compactCommitReady", parse: targetValue },
];

export const FAMILY_BY_NAME: ReadonlyMap<FamilyName, FamilyDef> = new Map(FAMILIES.map((f) => [f.name, f]));

const utf8 = new TextDecoder("utf-8");

/** Parse one kv of `family` read under prefix `P`. `null` = not this family's key. */
export function parseFamilyKv(prefix: string, family: FamilyDef, kv: SnapshotKv): EntryOutcome | null {
  const suffix = kv.key.slice(prefix.length + 1 + family.relPrefix.length);
  if (kv.value.length > MAX_VALUE_BYTES) {
    if (family.name === "leader" && suffix !== "" && suffix !== "-token") return null;
    return skip("too_large", `value is ${kv.value.length} bytes (over ${MAX_VALUE_BYTES})`);
  }
  return family.parseBytes?.(suffix, kv) ?? family.parse(suffix, utf8.decode(kv.value), kv);
}

// FleetSnapshot: every family the console reads, at ONE etcd revision, typed by
// lib/schema, plus every key that did not parse and why (console-api.md "skipped").
import type { Assignment } from "@/lib/schema/assignments";
import type { DemandEvent, TableDemand } from "@/lib/schema/demand";
import type { Execution } from "@/lib/schema/executions";
import type { Heartbeat } from "@/lib/schema/executors";
import type { ShardFailure } from "@/lib/schema/failures";
import type { TaskKind } from "@/lib/schema/kinds";
import type { LeaderRecord } from "@/lib/schema/leader";
import type { SkipReason } from "@/lib/schema/parse";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { MergeProgress, MergeWorkReport } from "@/lib/schema/progress";
import type { TaskCooldown, TaskRecord } from "@/lib/schema/tasks";

export const FAMILY_NAMES = [
  "demand-events",
  "demand",
  "executors",
  "assignments",
  "leader",
  "policies",
  "queue",
  "running",
  "tasks",
  "cooldown",
  "merge-failures",
  "target-locks",
  "merge-executions",
  "merge-progress",
  "merge-work",
  "claims",
  "merge-claims",
  "catchup-active",
  "compact-preparations",
  "compact-commit-ready",
] as const;
export type FamilyName = (typeof FAMILY_NAMES)[number];

/** One stored kv as read (value still raw bytes). */
export interface SnapshotKv {
  key: string;
  value: Buffer;
  modRevision: number;
  /** lease id, "0" when none */
  lease: string;
}

/** Fields every parsed entry carries. */
interface Stored {
  /** full etcd key */
  key: string;
  modRevision: number;
}

export interface DemandEventEntry extends Stored {
  target: string;
  shard: string;
  event: DemandEvent;
}
interface TableDemandEntry extends Stored {
  target: string;
  record: TableDemand;
}
interface ExecutorEntry extends Stored {
  /** executor id = key suffix (raw) */
  id: string;
  heartbeat: Heartbeat;
  lease: string;
}
export interface AssignmentEntry extends Stored {
  target: string;
  unitId: string;
  assignment: Assignment;
}
export interface LeaderEntry extends Stored {
  record: LeaderRecord;
  lease: string;
}
interface PolicyEntry extends Stored {
  /** null for `policies/_default` */
  target: string | null;
  document: PolicyDocument;
}
export interface TaskEntry extends Stored {
  taskId: string;
  task: TaskRecord;
}
interface CooldownEntry extends Stored {
  kind: TaskKind;
  target: string;
  cooldown: TaskCooldown;
  lease: string;
}
interface FailureEntry extends Stored {
  target: string;
  endpoint: string;
  failure: ShardFailure;
}
interface ExecutionEntry extends Stored {
  target: string;
  execution: Execution;
}
interface ProgressEntry extends Stored {
  executionId: string;
  progress: MergeProgress;
}
interface WorkEntry extends Stored {
  executionId: string;
  report: MergeWorkReport;
}
/** Bare-string values keyed by `<hex(target)>` (locks, claims, fences). */
export interface TargetValueEntry extends Stored {
  target: string;
  value: string;
  lease: string;
}
/** `claims/<task-id>` = bare token (leased). */
interface ClaimEntry extends Stored {
  taskId: string;
  token: string;
  lease: string;
}

export interface SkippedKey {
  key: string;
  family: FamilyName;
  reason: SkipReason;
  detail: string;
  /** demand events with an unknown `v` whose key decoded: the fold still creates the table (§3.6) */
  target?: string;
  /** the key's mod_revision (a table's own keys are marked with it, lib/snapshot/inputs.ts) */
  modRevision?: number;
}

export interface SnapshotReadStats {
  /** key ranges the read was made of (a large family is read in parallel parts) */
  ranges?: number;
  pages: number;
  shrinks: number;
  bytes: number;
  keys: number;
  durationMs: number;
  /** 1 when the read was restarted at a fresh revision after a compaction between pages */
  restarts?: number;
}

/** The entry type of each FleetSnapshot list, by field (one per list family). */
export interface EntryOf {
  demandEvents: DemandEventEntry;
  demandTables: TableDemandEntry;
  executors: ExecutorEntry;
  assignments: AssignmentEntry;
  policies: PolicyEntry;
  queue: TaskEntry;
  running: TaskEntry;
  /**
   * `tasks/` records whose UUIDv7 id is at or after the read's `tasksSinceMs` (default: read
   * time − 24 h; console-api.md Additions "Fairness is live"), in id = creation order.
   */
  tasks: TaskEntry;
  cooldowns: CooldownEntry;
  mergeFailures: FailureEntry;
  targetLocks: TargetValueEntry;
  mergeExecutions: ExecutionEntry;
  mergeProgress: ProgressEntry;
  mergeWork: WorkEntry;
  claims: ClaimEntry;
  mergeClaims: TargetValueEntry;
  catchupActive: TargetValueEntry;
  compactPreparations: TargetValueEntry;
  compactCommitReady: TargetValueEntry;
}
export type ListField = keyof EntryOf;
/** Any parsed list entry. */
export type AnyEntry = EntryOf[ListField];
/** Every list of a snapshot, each sorted by key. */
export type FamilyLists = { [F in ListField]: EntryOf[F][] };

export interface FleetSnapshot extends FamilyLists {
  /** the prefix P read (no trailing `/`) */
  prefix: string;
  revision: number;
  readAtMs: number;
  leader: LeaderEntry | null;
  /** `P/leader-token` (bare string) */
  leaderToken: string | null;
  /** every key that did not parse, in family then key order */
  skipped: SkippedKey[];
  /** etcd read figures (zero for a snapshot rebuilt from patched kvs) */
  stats: SnapshotReadStats;
}

// Demand records: DemandEvent (§2.1, value of `P/demand-events/<hex>/<shard>`) and
// TableDemand / ShardDemand / Mark (§2.2, value of `P/demand/<hex>`; DemandEvent itself is in
// ./demand-event.ts). Version rule §2:
// absent v → 1, v 0 → 1, anything else is an unknown version.
import { z } from "zod";
import { I64Schema, U32Schema, U64Schema } from "./numbers";
import { checkVersion, describeIssues, parseJsonObject, skip, type Parsed, type SkipReason } from "./parse";
import { splitDemandEventKey } from "./keys";
import { validateDemandEvent } from "./demand-fast";
import { SealedTimesSchema, type DemandEvent, type DemandEventInput } from "./demand-event";
import { SealedTimes } from "./sealed-times";

export * from "./demand-event";

/** Mark = `{epoch, value}`; ordered by value first, then epoch (§2.2). */
const MarkSchema = z.object({ epoch: U64Schema, value: U64Schema });
export type Mark = z.infer<typeof MarkSchema>;

const ShardDemandSchema = z.object({
  sealed: MarkSchema,
  merged: MarkSchema.nullable().default(null),
  sealed_bytes: U64Schema.default(0),
  sealed_times: SealedTimesSchema.default(() => SealedTimes.empty()),
});
export type ShardDemand = z.infer<typeof ShardDemandSchema>;

const TableDemandSchema = z.object({
  v: U32Schema.default(1),
  shards: z.record(z.string(), ShardDemandSchema).default({}),
  fragment_count: U64Schema.default(0),
  index_stale: z.boolean().default(false),
  uncovered_fragments: U64Schema.default(0),
  missing_fragments: z.boolean().default(false),
  observed_revision: I64Schema.default(0),
  updated_ms: I64Schema.default(0),
});
export type TableDemand = z.infer<typeof TableDemandSchema>;

export function emptyTableDemand(): TableDemand {
  return {
    v: 1,
    shards: {},
    fragment_count: 0,
    index_stale: false,
    uncovered_fragments: 0,
    missing_fragments: false,
    observed_revision: 0,
    updated_ms: 0,
  };
}

export type DemandEventKv =
  | { ok: true; target: string; shard: string; event: DemandEvent }
  | { ok: false; reason: SkipReason; detail: string; target?: string };

/**
 * One `demand-events/` kv (key suffix after `P/demand-events/`). `target` is set on an
 * unknown-version failure whose body is otherwise a valid event: the fold still creates
 * the (empty) table then (§3.6), exactly like the master, whose serde parse succeeds there.
 */
export function parseDemandEventKv(keySuffix: string, value: string): DemandEventKv {
  const key = splitDemandEventKey(keySuffix);
  if (key === null) return skip("bad_key", `not <hex(target)>/<shard>: ${JSON.stringify(keySuffix)}`);
  const json = parseJsonObject(value);
  if (!json.ok) return json;
  const version = checkVersion(json.value, "lenient");
  const event = validateDemandEvent(json.value);
  if (!version.ok) {
    if (version.reason === "unknown_version" && typeof event !== "string") {
      return { ok: false, reason: "unknown_version", detail: version.detail, target: key.target };
    }
    return skip(version.reason, version.detail);
  }
  if (typeof event === "string") return skip("schema", event);
  event.v = 1;
  return { ok: true, target: key.target, shard: key.shard, event };
}

/** A stored DemandEvent value alone (publishers read–join–CAS, §3.5). */
export function parseDemandEvent(value: string): Parsed<DemandEvent> {
  const json = parseJsonObject(value);
  if (!json.ok) return json;
  const version = checkVersion(json.value, "lenient");
  if (!version.ok) return skip(version.reason, version.detail);
  const event = validateDemandEvent(json.value);
  if (typeof event === "string") return skip("schema", event);
  event.v = 1;
  return { ok: true, value: event };
}

/** `P/demand/<hex>` cache row. */
export function parseTableDemand(value: string): Parsed<TableDemand> {
  const json = parseJsonObject(value);
  if (!json.ok) return json;
  const version = checkVersion(json.value, "lenient");
  if (!version.ok) return skip(version.reason, version.detail);
  const result = TableDemandSchema.safeParse(json.value);
  if (!result.success) return skip("schema", describeIssues(result.error));
  result.data.v = 1;
  return { ok: true, value: result.data };
}

/**
 * Wire form of a DemandEvent (T13): `v` always 1; `merged_epoch` omitted when null or equal
 * to `writer_epoch`; `sealed_times` omitted when empty; `merged_through` written (null ok).
 */
export function stringifyDemandEvent(event: DemandEventInput): string {
  const out: Record<string, unknown> = {
    v: 1,
    shard: event.shard,
    sealed_through: event.sealed_through,
    sealed_bytes_through: event.sealed_bytes_through,
    merged_through: event.merged_through,
  };
  if (event.merged_epoch != null && event.merged_epoch !== event.writer_epoch) out.merged_epoch = event.merged_epoch;
  out.flushed_at_ms = event.flushed_at_ms;
  out.writer_epoch = event.writer_epoch;
  out.source = event.source;
  const times = event.sealed_times;
  if (times !== undefined && (times instanceof SealedTimes ? times.size > 0 : Object.keys(times).length > 0))
    out.sealed_times = times;
  return JSON.stringify(out);
}

/** Wire form of a TableDemand (§2.2): every field, shard time maps always serialised. */
export function stringifyTableDemand(table: TableDemand): string {
  return JSON.stringify({
    v: 1,
    shards: table.shards,
    fragment_count: table.fragment_count,
    index_stale: table.index_stale,
    uncovered_fragments: table.uncovered_fragments,
    missing_fragments: table.missing_fragments,
    observed_revision: table.observed_revision,
    updated_ms: table.updated_ms,
  });
}

// DemandEvent (§2.1, the value of `P/demand-events/<hex>/<shard>`) and its `sealed_times`
// map. Apart from lib/schema/demand.ts so that the hand validator (./demand-fast.ts) can
// name the type without an import cycle.
import { z } from "zod";
import { I64Schema, U32Schema, U64Schema } from "./numbers";
import { SealedTimes, type SealedTimesRecord } from "./sealed-times";

const DEMAND_SOURCES = ["writer", "executor", "scan"] as const;
const DemandSourceSchema = z.enum(DEMAND_SOURCES);
export type DemandSource = z.infer<typeof DemandSourceSchema>;

const DECIMAL = /^[0-9]+$/;

/**
 * `sealed_times`: JSON object, generation (decimal string) → flush ms, read into the
 * compact `SealedTimes` (generations as numbers, so `"007"` and `"7"` are one generation,
 * keeping the lower time).
 */
export const SealedTimesSchema = z
  .record(z.string().regex(DECIMAL, { message: "generation keys must be decimal strings" }), I64Schema)
  .transform((times) => SealedTimes.fromRecord(times));

export const DemandEventSchema = z.object({
  v: U32Schema.default(1),
  shard: z.string(),
  sealed_through: U64Schema,
  sealed_bytes_through: U64Schema.default(0),
  merged_through: U64Schema.nullable().default(null),
  merged_epoch: U64Schema.nullable().optional(),
  flushed_at_ms: I64Schema,
  writer_epoch: U64Schema,
  source: DemandSourceSchema,
  sealed_times: SealedTimesSchema.optional(),
});
export type DemandEvent = z.infer<typeof DemandEventSchema>;

/** What a publisher writes: a DemandEvent whose time map may still be the wire object. */
export type DemandEventInput = Omit<DemandEvent, "sealed_times"> & { sealed_times?: SealedTimes | SealedTimesRecord };

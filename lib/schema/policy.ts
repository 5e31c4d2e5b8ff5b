// The per-table policy document, scheduler-model.md §7.3 ([DESIGN]; defaults [PROPOSAL]).
// Stored at `P/policies/_default` and `P/policies/<hex(target)>`. A stored/PUT document is
// sparse: every field is optional, and `null` means "inherit" (from `_default`, then the
// built-in defaults). The effective policy (after the merge in lib/planner/policy) is
// complete. Unknown keys are rejected at every level so a typo never silently inherits.
import { z } from "zod";
import { skip } from "./parse";
import type { Parsed } from "./parse";

export const POLICY_VERSION = 1;
/** The fleet default's target name: `P/policies/_default` (scheduler-model.md §7.3). */
export const DEFAULT_POLICY_TARGET = "_default";

export const POLICY_MODES = ["legacy", "planner", "active", "drain", "frozen"] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];
export const POLICY_EXECUTOR_KINDS = ["resident", "worker", "catchup_job"] as const;
export const POLICY_UNIT_KINDS = ["MergeWal", "Compact", "IndexId", "Repair", "Retire"] as const;
/** Keys of the per-kind fairness maps: the snake_case TaskKind of the wire (§2.5) plus retire. */
export const POLICY_TURN_KINDS = ["merge_wal", "compact", "index_id", "repair", "retire"] as const;
export const INDEX_TYPES = ["btree", "zonemap"] as const;
export const BACKPRESSURE_MODES = ["off", "metric", "delay_admission"] as const;
export type PolicyExecutorKind = (typeof POLICY_EXECUTOR_KINDS)[number];
export type PolicyUnitKind = (typeof POLICY_UNIT_KINDS)[number];
type PolicyTurnKind = (typeof POLICY_TURN_KINDS)[number];

/** A field of a stored document: absent or null = inherit. */
const inherit = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
/** The largest whole number a policy field takes: zod 4's `z.int()` is bounded to safe integers. */
const POLICY_INT_MAX = Number.MAX_SAFE_INTEGER;
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
/** A bound in words, the way every message states it: "a whole number between 1 and 9,007,199,254,740,991". */
export const intBoundWords = (min: number) => `a whole number between ${grouped(min)} and ${grouped(POLICY_INT_MAX)}`;
/** Safe integer ≥ min; every refusal states both bounds (console-api.md third version: plain errors). */
const count = (min: number) =>
  z.int({ error: `must be ${intBoundWords(min)}` }).min(min, { error: `must be ${intBoundWords(min)}` });

/** A non-empty list of distinct values from `values` (arrays replace wholesale on merge). */
function allowList<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .array(z.enum(values))
    .min(1, { message: "must list at least one value" })
    .refine((list) => new Set(list).size === list.length, { message: "values must be distinct" });
}

/** Per-kind map: each present kind maps to a number (or null = inherit that kind). */
function perKind(min: number) {
  return z.strictObject(
    Object.fromEntries(POLICY_TURN_KINDS.map((k) => [k, inherit(count(min))])) as Record<
      PolicyTurnKind,
      z.ZodOptional<z.ZodNullable<z.ZodInt>>
    >,
  );
}

const MergeSectionSchema = z.strictObject({
  min_generations: inherit(count(1)),
  min_bytes: inherit(count(0)),
  max_age_secs: inherit(count(1)),
  critical_generations: inherit(count(1)),
  continuous: inherit(z.boolean()),
});

const CompactSectionSchema = z.strictObject({
  min_fragments: inherit(count(1)),
  max_source_fragments: inherit(count(1)),
});

const IndexSectionSchema = z.strictObject({ type: inherit(z.enum(INDEX_TYPES)) });

/** [PROPOSAL] backlog_class thresholds (scheduler-model.md §4.2); ok < warn ≤ … < critical. */
const BacklogSectionSchema = z.strictObject({
  warn_generations: inherit(count(1)),
  critical_generations: inherit(count(1)),
});

/** A stored or PUT policy document. Cross-field rules that involve inherited values are
 * checked on the effective document by `validatePolicy` (lib/planner/policy). */
export const PolicyDocumentSchema = z
  .strictObject({
    v: inherit(z.literal(POLICY_VERSION)),
    mode: inherit(z.enum(POLICY_MODES)),
    executors_allowed: inherit(allowList(POLICY_EXECUTOR_KINDS)),
    kinds_allowed: inherit(allowList(POLICY_UNIT_KINDS)),
    merge: inherit(MergeSectionSchema),
    compact: inherit(CompactSectionSchema),
    index: inherit(IndexSectionSchema),
    max_consecutive_turns: inherit(perKind(1)),
    max_turn_wait_secs: inherit(perKind(0)),
    backpressure: inherit(z.enum(BACKPRESSURE_MODES)),
    backlog: inherit(BacklogSectionSchema),
  })
  .superRefine((doc, ctx) => {
    const m = doc.merge;
    if (m?.min_generations != null && m.critical_generations != null && m.critical_generations < m.min_generations) {
      ctx.addIssue({
        code: "custom",
        path: ["merge", "critical_generations"],
        message: `must be at least merge.min_generations (${m.min_generations})`,
      });
    }
    const b = doc.backlog;
    if (b?.warn_generations != null && b.critical_generations != null && b.critical_generations < b.warn_generations) {
      ctx.addIssue({
        code: "custom",
        path: ["backlog", "critical_generations"],
        message: `must be at least backlog.warn_generations (${b.warn_generations})`,
      });
    }
  });

export type PolicyDocument = z.infer<typeof PolicyDocumentSchema>;

/** The complete effective policy (every field present, no nulls). */
export const EffectivePolicySchema = z.strictObject({
  v: z.literal(POLICY_VERSION),
  mode: z.enum(POLICY_MODES),
  executors_allowed: z.array(z.enum(POLICY_EXECUTOR_KINDS)),
  kinds_allowed: z.array(z.enum(POLICY_UNIT_KINDS)),
  merge: z.strictObject({
    min_generations: z.int(),
    min_bytes: z.int(),
    max_age_secs: z.int(),
    critical_generations: z.int(),
    continuous: z.boolean(),
  }),
  compact: z.strictObject({ min_fragments: z.int(), max_source_fragments: z.int() }),
  index: z.strictObject({ type: z.enum(INDEX_TYPES) }),
  max_consecutive_turns: z.partialRecord(z.enum(POLICY_TURN_KINDS), z.int()),
  max_turn_wait_secs: z.partialRecord(z.enum(POLICY_TURN_KINDS), z.int()),
  backpressure: z.enum(BACKPRESSURE_MODES),
  backlog: z.strictObject({ warn_generations: z.int(), critical_generations: z.int() }),
});

export type EffectivePolicy = z.infer<typeof EffectivePolicySchema>;

/** Built-in defaults, scheduler-model.md §7.3 [PROPOSAL] (code defaults where they exist:
 * §4.1 MergePolicy, §4.2 MIN_FRAGMENTS, §4.2 backlog thresholds of the read path). */
export const BUILTIN_POLICY: EffectivePolicy = Object.freeze({
  v: 1,
  mode: "legacy",
  executors_allowed: ["resident", "worker", "catchup_job"],
  kinds_allowed: ["MergeWal", "Compact", "IndexId", "Repair", "Retire"],
  merge: { min_generations: 8, min_bytes: 0, max_age_secs: 3600, critical_generations: 256, continuous: false },
  compact: { min_fragments: 16, max_source_fragments: 32 },
  index: { type: "zonemap" },
  max_consecutive_turns: { merge_wal: 2 },
  max_turn_wait_secs: { merge_wal: 3600, compact: 900, index_id: 900 },
  backpressure: "metric",
  backlog: { warn_generations: 256, critical_generations: 4096 },
}) as EffectivePolicy;

/**
 * The one version rule of §7.3: a document whose `v` is present, not null and not 1 was
 * written by another (newer) console. Readers skip it; writers never overwrite or delete
 * it. Returns that foreign `v`, or undefined for a document of this version.
 */
export function foreignPolicyVersion(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const v = (value as { v?: unknown }).v;
  return v === undefined || v === null || v === POLICY_VERSION ? undefined : v;
}

/** Parse a stored policy value (already JSON-decoded). Never throws. A document with a
 * `v` other than 1 is `unknown_version` (see `foreignPolicyVersion`). */
export function parseStoredPolicy(value: unknown): Parsed<PolicyDocument> {
  const foreign = foreignPolicyVersion(value);
  if (foreign !== undefined) return skip("unknown_version", `unsupported version ${JSON.stringify(foreign)}`);
  const parsed = PolicyDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return skip("schema", `${first.path.join(".") || "(document)"}: ${first.message}`);
  }
  return { ok: true, value: parsed.data };
}

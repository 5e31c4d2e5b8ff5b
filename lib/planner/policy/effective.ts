// The effective policy, scheduler-model.md §7.3 [PROPOSAL] merge rule:
// built-in defaults ← `_default` ← per-table document, a recursive object merge where a
// present key overrides, an absent or `null` key inherits, and arrays replace wholesale.
import type { EffectivePolicy, PolicyDocument } from "@/lib/schema/policy";

type PolicySource = "builtin" | "default" | "table";

/** console-api.md `sources`: which layers exist, plus the origin of every leaf path
 * (`merge.min_generations`, `executors_allowed`, `max_turn_wait_secs.compact`, …). */
export interface PolicySources {
  builtin: true;
  default: boolean;
  table: boolean;
  fields: Record<string, PolicySource>;
}

export interface EffectivePolicyResult {
  effective: EffectivePolicy;
  sources: PolicySources;
}

type Plain = Record<string, unknown>;

function isPlainObject(value: unknown): value is Plain {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Overlay `layer` onto `base` (both plain objects), recording the origin of each leaf. */
function overlay(
  base: Plain,
  layer: Plain,
  source: PolicySource,
  origins: Record<string, PolicySource>,
  prefix: string,
): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value === null || value === undefined) continue; // null / absent = inherit
    const path = prefix ? `${prefix}.${key}` : key;
    const current = out[key];
    if (isPlainObject(value)) {
      out[key] = overlay(isPlainObject(current) ? current : {}, value, source, origins, path);
    } else {
      out[key] = Array.isArray(value) ? [...value] : value;
      origins[path] = source;
    }
  }
  return out;
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
  return value;
}

function seedOrigins(value: Plain, prefix: string, origins: Record<string, PolicySource>): void {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(v)) seedOrigins(v, path, origins);
    else origins[path] = "builtin";
  }
}

/** Merge built-in ← default ← table. Inputs are parsed documents (or null when absent);
 * nothing is mutated. `v` of the effective policy is always the built-in version. */
export function effectivePolicy(
  builtin: EffectivePolicy,
  defaultDoc: PolicyDocument | null,
  tableDoc: PolicyDocument | null,
): EffectivePolicyResult {
  const fields: Record<string, PolicySource> = {};
  seedOrigins(builtin as unknown as Plain, "", fields);
  let merged = clone(builtin) as Plain;
  if (defaultDoc) merged = overlay(merged, defaultDoc as Plain, "default", fields, "");
  if (tableDoc) merged = overlay(merged, tableDoc as Plain, "table", fields, "");
  merged.v = builtin.v;
  fields.v = "builtin";
  return {
    effective: merged as unknown as EffectivePolicy,
    sources: { builtin: true, default: defaultDoc != null, table: tableDoc != null, fields },
  };
}

// The editable leaves of a policy document (scheduler-model.md §7.3) and helpers shared by
// the form, the diffs and the audit page. Pure: no React, no I/O.
import {
  BACKPRESSURE_MODES,
  INDEX_TYPES,
  POLICY_EXECUTOR_KINDS,
  POLICY_MODES,
  POLICY_TURN_KINDS,
  POLICY_UNIT_KINDS,
  type PolicyDocument,
} from "@/lib/schema/policy";

export type FieldKind = "int" | "bool" | "enum" | "list";

export interface PolicyField {
  /** dot path inside the document, e.g. `merge.min_generations` */
  path: string;
  kind: FieldKind;
  options?: readonly string[];
  help: string;
}

const turnFields = (section: "max_consecutive_turns" | "max_turn_wait_secs", help: string): PolicyField[] =>
  POLICY_TURN_KINDS.map((k) => ({ path: `${section}.${k}`, kind: "int" as const, help: `${help} (${k})` }));

export const POLICY_FIELDS: readonly PolicyField[] = [
  { path: "mode", kind: "enum", options: POLICY_MODES, help: "who schedules this table" },
  { path: "executors_allowed", kind: "list", options: POLICY_EXECUTOR_KINDS, help: "executor kinds that may run its work" },
  { path: "kinds_allowed", kind: "list", options: POLICY_UNIT_KINDS, help: "unit kinds the planner may place" },
  { path: "merge.min_generations", kind: "int", help: "pending generations before a merge is due (≥ 1)" },
  { path: "merge.min_bytes", kind: "int", help: "pending bytes before a merge is due" },
  { path: "merge.max_age_secs", kind: "int", help: "age that promotes a merge (≥ 1)" },
  { path: "merge.critical_generations", kind: "int", help: "pending generations that make a table critical (≥ min_generations)" },
  { path: "merge.continuous", kind: "bool", help: "merge continuously" },
  { path: "compact.min_fragments", kind: "int", help: "fragments before compaction is due" },
  { path: "compact.max_source_fragments", kind: "int", help: "fragments one compaction reads at most" },
  { path: "index.type", kind: "enum", options: INDEX_TYPES, help: "id index type" },
  ...turnFields("max_consecutive_turns", "write turns in a row"),
  ...turnFields("max_turn_wait_secs", "seconds a kind may wait for its turn"),
  { path: "backpressure", kind: "enum", options: BACKPRESSURE_MODES, help: "what backlog does to writers" },
  { path: "backlog.warn_generations", kind: "int", help: "pending generations that warn" },
  { path: "backlog.critical_generations", kind: "int", help: "pending generations that are critical (≥ warn)" },
];

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => v !== null && typeof v === "object" && !Array.isArray(v);

/** The value at a dot path, or undefined. */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split(".")) {
    if (!isPlain(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** Every leaf of a document as `path → value` (arrays are leaves; null/absent leaves omitted). */
export function flattenDoc(doc: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isPlain(doc)) return out;
  for (const [key, value] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value === null || value === undefined) continue;
    if (isPlain(value)) for (const [p, v] of flattenDoc(value, path)) out.set(p, v);
    else out.set(path, value);
  }
  return out;
}

/** A sparse document: null leaves and empty sections dropped (null and absent both inherit). */
export function cleanDoc(doc: unknown): PolicyDocument {
  const out: Plain = {};
  for (const [path, value] of flattenDoc(doc)) {
    const parts = path.split(".");
    let cur = out;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Plain;
    cur[parts[parts.length - 1]] = value;
  }
  return out as PolicyDocument;
}

/** A full form value: every section present, every leaf null unless the document sets it. */
export function formValues(doc: unknown): PolicyDocument {
  const out: Plain = {};
  for (const field of POLICY_FIELDS) {
    const parts = field.path.split(".");
    let cur = out;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Plain;
    const value = getPath(doc, field.path);
    cur[parts[parts.length - 1]] = value === undefined ? null : value;
  }
  const v = getPath(doc, "v");
  if (v !== undefined && v !== null) out.v = v;
  return out as PolicyDocument;
}

export interface LeafChange {
  path: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Leaves that differ between two documents (absent = inherit), in path order. */
export function diffDocs(before: unknown, after: unknown): LeafChange[] {
  const a = flattenDoc(before);
  const b = flattenDoc(after);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths.filter((p) => !same(a.get(p), b.get(p))).map((p) => ({ path: p, before: a.get(p), after: b.get(p) }));
}

/** How a leaf value reads in the UI. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "inherit";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/**
 * Three-way redo after a conflict: start from what is stored now (`theirs`) and re-apply
 * every leaf the editor changed relative to what they started from (`base` → `mine`).
 */
export function rebaseEdit(base: unknown, theirs: unknown, mine: unknown): PolicyDocument {
  const out = flattenDoc(theirs);
  for (const change of diffDocs(base, mine)) {
    if (change.after === undefined) out.delete(change.path);
    else out.set(change.path, change.after);
  }
  return cleanDoc(unflatten(out));
}

function unflatten(leaves: Map<string, unknown>): Plain {
  const out: Plain = {};
  for (const [path, value] of leaves) {
    const parts = path.split(".");
    let cur = out;
    for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Plain;
    cur[parts[parts.length - 1]] = value;
  }
  return out;
}

/** A document without its version marker, for diffs that should show only policy changes. */
export function withoutVersion(doc: unknown): unknown {
  if (!isPlain(doc)) return doc;
  const { v: _v, ...rest } = doc;
  return rest;
}

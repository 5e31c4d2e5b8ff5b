// The editable leaves of a policy document (scheduler-model.md §7.3) and helpers shared by
// the form, the diffs and the audit page. Pure: no React, no I/O.
import {
  BACKPRESSURE_MODES,
  INDEX_TYPES,
  POLICY_EXECUTOR_KINDS,
  POLICY_MODES,
  POLICY_TURN_KINDS,
  POLICY_UNIT_KINDS,
  intBoundWords,
  type PolicyDocument,
} from "@/lib/schema/policy";
import { formatCount } from "@/lib/words/format";

type FieldKind = "int" | "bool" | "enum" | "list";

export interface PolicyField {
  /** dot path inside the document, e.g. `merge.min_generations` */
  path: string;
  /** what the field is, in words */
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  /** smallest allowed value of an integer field (§7.3 validation) */
  min?: number;
  /** unit of an integer field, plural ("generations", "seconds") */
  unit?: string;
  help: string;
}

const KIND_WORDS: Record<string, string> = {
  merge_wal: "WAL merge",
  compact: "compaction",
  index_id: "id index",
  repair: "repair",
  retire: "retire",
};

const turnFields = (section: "max_consecutive_turns" | "max_turn_wait_secs"): PolicyField[] =>
  POLICY_TURN_KINDS.map((k) =>
    section === "max_consecutive_turns"
      ? {
          path: `${section}.${k}`,
          label: `Write turns in a row (${KIND_WORDS[k]})`,
          kind: "int" as const,
          min: 1,
          unit: "turns",
          help: `how many write turns ${KIND_WORDS[k]} may take in a row before another kind goes first`,
        }
      : {
          path: `${section}.${k}`,
          label: `Longest wait for a turn (${KIND_WORDS[k]})`,
          kind: "int" as const,
          min: 0,
          unit: "seconds",
          help: `after this long waiting, a ${KIND_WORDS[k]} unit is promoted to critical`,
        },
  );

export const POLICY_FIELDS: readonly PolicyField[] = [
  {
    path: "mode",
    label: "Scheduling mode",
    kind: "enum",
    options: POLICY_MODES,
    help: "who schedules this table: legacy (the master's task queue, P1) or planner (P2)",
  },
  {
    path: "executors_allowed",
    label: "Executors allowed",
    kind: "list",
    options: POLICY_EXECUTOR_KINDS,
    help: "executor kinds that may run its work",
  },
  {
    path: "kinds_allowed",
    label: "Work kinds allowed",
    kind: "list",
    options: POLICY_UNIT_KINDS,
    help: "unit kinds the planner may place",
  },
  {
    path: "merge.min_generations",
    label: "Minimum pending generations",
    kind: "int",
    min: 1,
    unit: "generations",
    help: "pending generations before a merge is due",
  },
  {
    path: "merge.min_bytes",
    label: "Minimum pending bytes",
    kind: "int",
    min: 0,
    unit: "bytes",
    help: "pending bytes before a merge is due (0 = size never makes it due)",
  },
  {
    path: "merge.max_age_secs",
    label: "Age that doubles the score",
    kind: "int",
    min: 1,
    unit: "seconds",
    help: "the oldest pending generation's age adds one to the score multiplier per this many seconds",
  },
  {
    path: "merge.critical_generations",
    label: "Critical pending generations",
    kind: "int",
    min: 1,
    unit: "generations",
    help: "pending generations that make a table critical (at least the minimum)",
  },
  { path: "merge.continuous", label: "Merge continuously", kind: "bool", help: "merge whenever anything is pending" },
  {
    path: "compact.min_fragments",
    label: "Fragments before compaction",
    kind: "int",
    min: 1,
    unit: "fragments",
    help: "fragments before compaction is due",
  },
  {
    path: "compact.max_source_fragments",
    label: "Fragments per compaction",
    kind: "int",
    min: 1,
    unit: "fragments",
    help: "fragments one compaction reads at most",
  },
  {
    path: "index.type",
    label: "Id index type",
    kind: "enum",
    options: INDEX_TYPES,
    help: "the id index built after compaction",
  },
  ...turnFields("max_consecutive_turns"),
  ...turnFields("max_turn_wait_secs"),
  {
    path: "backpressure",
    label: "Backpressure",
    kind: "enum",
    options: BACKPRESSURE_MODES,
    help: "what backlog does to writers",
  },
  {
    path: "backlog.warn_generations",
    label: "Backlog warning",
    kind: "int",
    min: 1,
    unit: "generations",
    help: "pending generations at which the backlog warns",
  },
  {
    path: "backlog.critical_generations",
    label: "Backlog critical",
    kind: "int",
    min: 1,
    unit: "generations",
    help: "pending generations at which the backlog is critical (at least the warning)",
  },
];

const FIELD_BY_PATH: ReadonlyMap<string, PolicyField> = new Map(POLICY_FIELDS.map((f) => [f.path, f]));

/** A field's label, or the path itself for a path no field has. */
export const labelOf = (path: string) => FIELD_BY_PATH.get(path)?.label ?? path;

/** The value as the admin typed it: digits stay digits (never 1e+20), other text is quoted. */
const given = (value: unknown) =>
  value === undefined || value === null || value === ""
    ? "nothing"
    : Array.isArray(value)
      ? value.length === 0
        ? "none"
        : value.join(", ")
      : typeof value === "string" && /^-?\d+$/.test(value.trim())
        ? value.trim()
        : JSON.stringify(value);

/** A cross-field rule's message, as the schema (`must be at least merge.min_generations (10)`) or the effective check says it. */
const LOCAL_RULE = /^must be at least ([\w.]+) \((\d+)\)/;
const EFFECTIVE_RULE =
  /^([\w.]+) \(effective (\d+) generations\) must be at least ([\w.]+) \(effective (\d+) generations\)/;

/**
 * A cross-field rule (§7.3: critical ≥ minimum, inherited values included) in words: the
 * field in error, the other field with its one value, and the value given, each said once.
 */
function crossFieldWords(path: string, value: unknown, detail: string): string | null {
  const local = LOCAL_RULE.exec(detail);
  if (local) {
    const [, other, otherValue] = local;
    const unit = FIELD_BY_PATH.get(other)?.unit ?? "";
    return `${labelOf(path)} must be at least ${labelOf(other)}, which is ${formatCount(Number(otherValue))} ${unit}; you gave ${given(value)}.`;
  }
  const effective = EFFECTIVE_RULE.exec(detail);
  if (!effective) return null;
  const [, high, highValue, low, lowValue] = effective;
  const [relation, other, otherValue] = path === high ? ["at least", low, lowValue] : ["at most", high, highValue];
  return `${labelOf(path)} must be ${relation} ${labelOf(other)}, which is ${formatCount(Number(otherValue))} generations with inherited values; you gave ${given(value)}.`;
}

/**
 * A validation message in plain words: the field, the allowed range, the value given.
 * `detail` is the rule's own message for cross-field rules (they carry the other field's value).
 */
export function describeIssue(path: string, value: unknown, detail: string): string {
  const field = FIELD_BY_PATH.get(path);
  if (!field) return `${path}: ${detail}`;
  const cross = crossFieldWords(path, value, detail);
  if (cross !== null) return cross;
  switch (field.kind) {
    case "int":
      return `${field.label} must be ${intBoundWords(field.min ?? 0)} (${field.unit}); you gave ${given(value)}.`;
    case "enum":
      return `${field.label} must be one of ${field.options?.join(", ")}; you gave ${given(value)}.`;
    case "bool":
      return `${field.label} must be true or false; you gave ${given(value)}.`;
    case "list":
      return `${field.label} must list at least one of ${field.options?.join(", ")}, each once; you gave ${given(value)}.`;
  }
}

export type Plain = Record<string, unknown>;
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

/** Sets the value at a dot path of `out`, creating the sections on the way. */
export function setPath(out: Plain, path: string, value: unknown): void {
  const parts = path.split(".");
  let cur = out;
  for (const part of parts.slice(0, -1)) cur = (cur[part] ??= {}) as Plain;
  cur[parts[parts.length - 1]] = value;
}

/** `path → value` leaves as a document. */
function unflatten(leaves: Map<string, unknown>): Plain {
  const out: Plain = {};
  for (const [path, value] of leaves) setPath(out, path, value);
  return out;
}

/** A sparse document: null leaves and empty sections dropped (null and absent both inherit). */
export function cleanDoc(doc: unknown): PolicyDocument {
  return unflatten(flattenDoc(doc)) as PolicyDocument;
}

/**
 * A full form value: every section present, every leaf null unless the document sets it.
 * `v` is left out: it is the format's version, which the server stamps on every save, not a
 * setting; carrying it made a phantom "v inherit → 1" row after each save and in reverts.
 */
export function formValues(doc: unknown): PolicyDocument {
  const out: Plain = {};
  for (const field of POLICY_FIELDS) setPath(out, field.path, getPath(doc, field.path) ?? null);
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

/** A field both sides changed since the editor read it, to different values. */
export interface BothChanged {
  path: string;
  base: unknown;
  theirs: unknown;
  mine: unknown;
}

/**
 * Three-way merge after a conflict: what is stored now (`theirs`) plus every leaf the
 * editor changed since `base`, except the leaves both sides changed to different values,
 * which are returned for the admin to decide (nothing is overwritten silently). `v` is a
 * version marker, not a change: it is left out of both sides.
 */
export function threeWay(
  base: unknown,
  theirs: unknown,
  mine: unknown,
): { merged: PolicyDocument; conflicts: BothChanged[] } {
  const [b, t, m] = [base, theirs, mine].map(withoutVersion);
  const theirChanges = new Map(diffDocs(b, t).map((c) => [c.path, c]));
  const out = flattenDoc(t);
  const conflicts: BothChanged[] = [];
  for (const change of diffDocs(b, m)) {
    const other = theirChanges.get(change.path);
    if (other && !same(other.after, change.after)) {
      conflicts.push({ path: change.path, base: change.before, theirs: other.after, mine: change.after });
      continue;
    }
    if (change.after === undefined) out.delete(change.path);
    else out.set(change.path, change.after);
  }
  return { merged: cleanDoc(unflatten(out)), conflicts };
}

/** Resolve the conflicts of `threeWay` with the admin's choice for each path. */
export function resolveConflicts(
  merged: PolicyDocument,
  conflicts: BothChanged[],
  choice: Record<string, "theirs" | "mine">,
): PolicyDocument {
  const out = flattenDoc(merged);
  for (const c of conflicts) {
    const value = choice[c.path] === "mine" ? c.mine : c.theirs;
    if (value === undefined) out.delete(c.path);
    else out.set(c.path, value);
  }
  return cleanDoc(unflatten(out));
}

/** A document without its version marker, for diffs that should show only policy changes. */
export function withoutVersion(doc: unknown): unknown {
  if (!isPlain(doc)) return doc;
  const { v: _v, ...rest } = doc;
  return rest;
}

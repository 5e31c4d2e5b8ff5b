// What changed between two moments, in words and ranked by how much changed: the /diff
// drill-down and the command line's `diff` say it the same way (console-api.md "Time",
// GET /scheduler/diff; "The decision journal"). Pure.
import { CLASS_NAMES } from "../schema/codes";
import { classLabel, codeInWords } from "./codes";
import { formatBytes, formatCount } from "./format";
import { stateInWords } from "./time-in-state";

type Verdict = { state: string; code?: string | null } | null;
/** An executor as the diff states it (console-api.md: kind, version, draining, kinds, slots, bytes). */
export interface ExecutorFacts {
  kind?: string;
  version?: string | null;
  draining?: boolean;
  kinds?: string[];
  slots_total?: Record<string, number>;
  bytes_total?: number;
}

export const classInWords = (c: string | null): string => (c === null ? "not in the plan" : classLabel(c));

export const verdictInWords = (v: Verdict): string =>
  v === null ? "not in the plan" : stateInWords(v.state, v.code ?? null);

const classRank = (c: string | null) => {
  const i = (CLASS_NAMES as readonly string[]).indexOf(c ?? "idle");
  return i < 0 ? CLASS_NAMES.length : i;
};

/** How far a table moved between classes (critical → tail is further than critical → normal). */
export const classChangeSize = (before: string | null, after: string | null): number =>
  Math.abs(classRank(before) - classRank(after));

/** A verdict that flips between placed and skipped outweighs one skip reason giving way to another. */
export const verdictChangeSize = (before: Verdict, after: Verdict): number =>
  (before?.state ?? null) !== (after?.state ?? null) ? 2 : (before?.code ?? null) !== (after?.code ?? null) ? 1 : 0;

/** Each fact of an executor that differs, in words: "accepting → draining", "merge wal slots 1 → 2". */
export function executorChanges(before: ExecutorFacts, after: ExecutorFacts): string[] {
  const out: string[] = [];
  if (before.draining !== after.draining)
    out.push(`${before.draining ? "draining" : "accepting"} → ${after.draining ? "draining" : "accepting"}`);
  const kinds = [
    ...new Set([...Object.keys(before.slots_total ?? {}), ...Object.keys(after.slots_total ?? {})]),
  ].sort();
  for (const k of kinds) {
    const a = before.slots_total?.[k] ?? 0;
    const b = after.slots_total?.[k] ?? 0;
    if (a !== b) out.push(`${codeInWords(k)} slots ${formatCount(a)} → ${formatCount(b)}`);
  }
  if ((before.bytes_total ?? 0) !== (after.bytes_total ?? 0))
    out.push(`byte budget ${formatBytes(before.bytes_total ?? 0)} → ${formatBytes(after.bytes_total ?? 0)}`);
  const listed = (ks: string[] | undefined) => (ks ?? []).map(codeInWords).join(", ") || "none";
  if (listed(before.kinds) !== listed(after.kinds)) out.push(`kinds ${listed(before.kinds)} → ${listed(after.kinds)}`);
  if ((before.version ?? null) !== (after.version ?? null))
    out.push(`version ${before.version ?? "unknown"} → ${after.version ?? "unknown"}`);
  if ((before.kind ?? null) !== (after.kind ?? null))
    out.push(`role ${before.kind ?? "unknown"} → ${after.kind ?? "unknown"}`);
  return out;
}

/** `items` with their change size, largest first, then by name (a stable, readable order). */
export function rankByChange<T>(items: readonly T[], size: (t: T) => number, name: (t: T) => string): T[] {
  return items
    .map((item) => ({ item, size: size(item), name: name(item) }))
    .sort((a, b) => b.size - a.size || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((r) => r.item);
}

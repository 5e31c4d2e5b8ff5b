// `scheduler-console why <table>`: the table page's answer in words (verdict, class reason,
// and every why-not entry with its detail; executor filters with their per-reason counts).
import { classReasonInWords } from "../../components/tables/class-reason";
import { formatBytes, formatCount, formatDuration, formatScore, formatTime } from "../../components/ui/format";
import type { DemandOne, Verdict, WhyNot } from "../client/api-types";
import { countOf } from "./text";

/** `*_ms` are times (epoch) or durations, `*_bytes` sizes; the rest as JSON (the table page's rule). */
function detailValue(name: string, value: unknown): string {
  if (typeof value === "number") {
    if (name.endsWith("_ms")) return value > 1e12 ? formatTime(value) : formatDuration(value);
    if (name.endsWith("_bytes")) return formatBytes(value);
    return Number.isInteger(value) ? formatCount(value) : value.toFixed(3);
  }
  if (value === null || value === undefined) return "—";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** `counts` of an executor filter: how many executors failed at each stage. */
function executorCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([stage, n]) => `${n} ${stage.replaceAll("_", " ")}`);
  return parts.length ? parts.join(", ") : "none";
}

export function whyNotLines(entries: readonly WhyNot[]): string[] {
  const lines: string[] = [];
  entries.forEach((w, i) => {
    lines.push(`  ${i + 1}. ${w.code} (${w.retryable ? "retryable" : "needs a change"})`, `     ${w.message}`);
    const detail = (w.detail ?? {}) as Record<string, unknown>;
    const { counts, considered, ...rest } = detail;
    if (counts && typeof counts === "object") {
      lines.push(`     executors: ${typeof considered === "number" ? `${considered} considered; ` : ""}${executorCounts(counts as Record<string, number>)}`);
    }
    for (const [name, value] of Object.entries(rest)) lines.push(`     ${name}: ${detailValue(name, value)}`);
  });
  return lines;
}

export function verdictInWords(v: Verdict): string {
  return v.state === "would_place" ? `would place on ${v.executor}, reserving ${formatBytes(v.reserved_bytes)}` : `would skip: ${v.code} — ${v.message}`;
}

export function whyText(answer: DemandOne): string {
  const t = answer.table;
  const wait = t.wait_ms === null ? "no known wait" : `waiting ${formatDuration(t.wait_ms)}${t.age_bound === "upper" ? " (at most)" : ""}`;
  const lines = [
    `${t.target}  (revision ${answer.revision}, evaluated at ${formatTime(answer.now_ms)})`,
    `Class: ${classReasonInWords(t, t.score_breakdown)}`,
    `Pending: ${formatCount(t.pending_generations)} generations, ${formatBytes(t.pending_bytes)}, ${wait}; score ${formatScore(t.score)}; backlog ${t.backlog_class}; ${countOf(t.shards.length, "shard")}`,
    `Verdict: ${verdictInWords(t.verdict)}`,
  ];
  if (t.why_not.length === 0) lines.push("Why not: nothing holds it back: it would be placed now.");
  else lines.push(`Why not (${t.why_not.length}):`, ...whyNotLines(t.why_not));
  return lines.join("\n");
}

// `scheduler-console why <table>`: the table page's answer in words (verdict, class reason,
// and every why-not entry with its detail; executor filters with their per-reason counts).
import { classReasonInWords } from "../words/class-reason";
import { fieldInWords, formatField } from "../words/fields";
import { formatBytes, formatDuration, formatScore, formatTime, overdueText } from "../words/format";
import { codeInWords, retryMeaningful, verdictLabel } from "../words/codes";
import { NO_HOLDER_WORDS, holderInWords } from "../words/write-turn";
import type { DemandOne, Verdict, WhyNot } from "../client/api-types";
import { countOf } from "./text";
import { forecastLines } from "./forecast-lines";

/** `counts` of an executor filter: how many executors failed at each stage. */
function executorCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts).map(([stage, n]) => `${n} ${stage.replaceAll("_", " ")}`);
  return parts.length ? parts.join(", ") : "none";
}

/** "needs attention [needs_attention], needs someone to act": the code in words, then the code itself. */
export function whyNotHeading(w: WhyNot): string {
  // past its deadline a condition did not clear by itself: it is overdue, never "clears by itself" again
  const meaning = !retryMeaningful(w.code)
    ? ""
    : w.overdue
      ? `, ${overdueText(w.overdue.overdue_ms)}`
      : w.retryable
        ? ", clears by itself"
        : ", needs someone to act";
  return `${codeInWords(w.code)} [${w.code}]${meaning}`;
}

/** A detail value with its unit; objects and lists as compact JSON. */
function detailText(name: string, value: unknown): string {
  if (value === null || value === undefined) return "—";
  return formatField(name, value) ?? (typeof value === "object" ? JSON.stringify(value) : String(value));
}

function whyNotLines(entries: readonly WhyNot[]): string[] {
  const lines: string[] = [];
  entries.forEach((w, i) => {
    lines.push(`  ${i + 1}. ${whyNotHeading(w)}`, `     ${w.message}`);
    const detail = (w.detail ?? {}) as Record<string, unknown>;
    const { counts, considered, ...rest } = detail;
    if (counts && typeof counts === "object") {
      lines.push(
        `     executors: ${typeof considered === "number" ? `${considered} considered; ` : ""}${executorCounts(counts as Record<string, number>)}`,
      );
    }
    for (const [name, value] of Object.entries(rest))
      lines.push(`     ${fieldInWords(name)}: ${detailText(name, value)}`);
  });
  return lines;
}

/** The verdict as the pages' short form says it (lib/words verdictLabel), then what the page adds. */
function verdictInWords(v: Verdict): string {
  return v.state === "would_place"
    ? `${verdictLabel(v)}, reserving ${formatBytes(v.reserved_bytes)}`
    : `${verdictLabel(v)} [${v.code}] — ${v.message}`;
}

export function whyText(answer: DemandOne): string {
  const t = answer.table;
  const wait =
    t.wait_ms === null
      ? "no known wait"
      : t.age_bound === "upper"
        ? `waiting at least ${formatDuration(t.wait_ms)} (a lower bound: the exact flush time was pruned)`
        : `waiting ${formatDuration(t.wait_ms)}`;
  const lines = [
    `${t.target}  (revision ${answer.revision}, evaluated at ${formatTime(answer.now_ms)})`,
    `Class: ${classReasonInWords(t, t.score_breakdown)}`,
    `Pending: ${countOf(t.pending_generations, "generation")}, ${formatBytes(t.pending_bytes)}, ${wait}; score ${formatScore(t.score)}; backlog ${t.backlog_class}; ${countOf(t.shards.length, "shard")}`,
    `Verdict: ${verdictInWords(t.verdict)}`,
    t.write_turn_holder === null ? NO_HOLDER_WORDS : holderInWords(t.write_turn_holder, answer.now_ms),
  ];
  if (t.why_not.length === 0) lines.push("Why not: nothing holds it back: it would be placed now.");
  else lines.push(`Why not (${t.why_not.length}):`, ...whyNotLines(t.why_not));
  if (t.forecasts.length > 0) lines.push(...forecastLines(t.forecasts));
  return lines.join("\n");
}

"use client";
// The reasons view's window reaches past what the decision journal covers (the server's
// `409 journal_not_covering`, which carries the coverage): said in words — what the journal
// covers, why this window is not inside it — with a link to the part of the window it does
// cover (the server answers that one; nothing is counted here).
import Link from "next/link";
import { journalCoverageSchema, type JournalCoverageResponse } from "@/lib/schema/api/journal";
import { ApiError } from "@/lib/client/fetch-json";
import { formatDuration, formatTime } from "@/components/ui/format";

const GAP_WORDS: Record<JournalCoverageResponse["gaps"][number]["reason"], string> = {
  no_sampler: "no sampler was running",
  etcd_unavailable: "etcd was unavailable",
  trimmed: "trimmed by the byte cap",
};

/** The coverage a `journal_not_covering` error carries (null: another error). */
export function coverageOf(error: unknown): JournalCoverageResponse | null {
  if (!(error instanceof ApiError) || error.code !== "journal_not_covering") return null;
  const parsed = journalCoverageSchema.safeParse(error.body?.coverage);
  return parsed.success ? parsed.data : null;
}

/** The covered stretch of [fromMs, toMs] nearest its end: after the last gap, inside the journal's span (null: none). */
function coveredPart(c: JournalCoverageResponse, fromMs: number, toMs: number): { from: number; to: number } | null {
  if (c.from_ms === null || c.to_ms === null) return null;
  const to = Math.min(toMs, c.to_ms);
  let from = Math.max(fromMs, c.from_ms);
  for (const g of c.gaps) if (g.to_ms <= to && g.to_ms > from) from = g.to_ms;
  return from < to ? { from, to } : null;
}

export function NotCovered({
  coverage: c,
  fromMs,
  toMs,
  hrefFor,
}: {
  coverage: JournalCoverageResponse;
  fromMs: number;
  toMs: number;
  /** the page's URL showing [from, to] */
  hrefFor: (from: number, to: number) => string;
}) {
  if (c.from_ms === null || c.to_ms === null)
    return (
      <div className="state state-empty" data-testid="reasons-not-covered">
        The decision journal holds nothing yet. The elected sampler starts it within seconds of a console starting and
        writes it every few seconds; this view reads it, so try again in a moment.
      </div>
    );
  const gaps = c.gaps.filter((g) => g.from_ms < toMs && g.to_ms > fromMs);
  const why: string[] = [];
  if (fromMs < c.from_ms) why.push(`starts ${formatDuration(c.from_ms - fromMs)} before the journal does`);
  for (const g of gaps)
    why.push(`spans a gap from ${formatTime(g.from_ms)} to ${formatTime(g.to_ms)} (${GAP_WORDS[g.reason]})`);
  if (why.length === 0) why.push(`ends after the journal's last write, at ${formatTime(c.to_ms)}`);
  const part = coveredPart(c, fromMs, toMs) ?? coveredPart(c, c.from_ms, c.to_ms);
  return (
    <div className="state state-empty" role="status" data-testid="reasons-not-covered">
      <p>
        The decision journal covers {formatTime(c.from_ms)} to {formatTime(c.to_ms)} (
        {formatDuration(c.to_ms - c.from_ms)}
        {c.gaps.length > 0 ? `, with ${c.gaps.length} ${c.gaps.length === 1 ? "gap" : "gaps"}` : ""}). This window,{" "}
        {formatTime(fromMs)} to {formatTime(toMs)}, {why.join("; it ")}: nothing is counted where the journal did not
        record.
      </p>
      {part ? (
        <p>
          <Link href={hrefFor(part.from, part.to)} data-testid="reasons-covered-link">
            Show {formatTime(part.from)} to {formatTime(part.to)}
          </Link>{" "}
          ({formatDuration(part.to - part.from)} the journal covers)
        </p>
      ) : null}
    </div>
  );
}

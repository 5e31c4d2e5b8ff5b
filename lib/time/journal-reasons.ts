import "server-only";
// GET /api/v1/scheduler/reasons (console-api.md "The decision journal"): how many due tables
// held each verdict code at each step, answered from the journal only — the chunk keys
// first (coverage, which chunks to read), then the values of the checkpoint before the
// window and the chunks that overlap it, each row read for its code alone. A window the journal does not cover is
// `409 journal_not_covering` with the coverage, never an answer with holes.
import { journalEnv } from "@/lib/config/env";
import { journalCoverageAt, readCodes } from "@/lib/journal/reader";
import { covers, reasonPoints, stepsOf, targetsAt } from "@/lib/journal/reasons";
import { chunkRuns } from "@/lib/journal/window";
import type { CodeChunk } from "@/lib/journal/verdict-codes";
import {
  DEFAULT_REASONS_WINDOW_MS,
  MAX_REASONS_POINTS,
  type ReasonTargetsQuery,
  type ReasonTargetsResponse,
  type ReasonsQuery,
  type ReasonsResponse,
} from "@/lib/schema/api/reasons";
import { ApiError } from "@/lib/schema/api/errors";

/** console-api.md "Additions (third version)": a to_ms up to 5 minutes ahead reads as now */
const AHEAD_TOLERANCE_MS = 5 * 60_000;

function badQuery(path: string, message: string): ApiError {
  return new ApiError(400, "invalid_query", message, { issues: [{ path: [path], code: "custom", message }] });
}

/** The window and step asked for, with the defaults: the last hour, about 60 points. */
export function reasonsWindow(q: ReasonsQuery, nowMs: number): { from: number; to: number; step: number } {
  if (q.to_ms !== undefined && q.to_ms > nowMs + AHEAD_TOLERANCE_MS)
    throw badQuery("to_ms", `to_ms ${q.to_ms} is more than 5 minutes ahead (server clock ${nowMs})`);
  const to = Math.min(q.to_ms ?? nowMs, nowMs);
  const from = q.from_ms ?? to - DEFAULT_REASONS_WINDOW_MS;
  if (from >= to) throw badQuery("from_ms", "from_ms must be before to_ms (a to_ms ahead reads as now)");
  const step = q.step_ms ?? Math.max(1000, Math.ceil((to - from) / 60 / 1000) * 1000);
  if ((to - from) / step + 1 > MAX_REASONS_POINTS)
    throw badQuery(
      "step_ms",
      `at most ${MAX_REASONS_POINTS} points: step_ms must be at least ${Math.ceil((to - from) / (MAX_REASONS_POINTS - 1))}`,
    );
  return { from, to, step };
}

/**
 * The chunks [from, to] reads, as the reasons view reads them (lib/journal/verdict-codes.ts),
 * or 409 when the window is not covered: the checkpoint at or before `from` and the chunks
 * after it through the last starting at or before `to`, without the restatements among
 * them (lib/journal/window.ts `chunkRuns`: the deltas before each hold its evaluation).
 */
async function readWindow(from: number, to: number, nowMs: number): Promise<CodeChunk[]> {
  const env = journalEnv();
  const { metas, coverage } = await journalCoverageAt(nowMs);
  // the writer's last evaluation trails now by up to one flush (an idle journal is extended at least every minute)
  const lag = Math.max(60_000, env.flushMs) + env.flushMs;
  const runs = chunkRuns(metas, from, to);
  if (!covers(coverage, from, to, lag) || runs === null) {
    throw new ApiError(409, "journal_not_covering", `the decision journal does not cover ${from}..${to}`, { coverage });
  }
  const chunks = await readCodes(runs);
  if (chunks === null)
    throw new ApiError(
      409,
      "journal_not_covering",
      `the decision journal holds an unreadable chunk in ${from}..${to}`,
      {
        coverage,
      },
    );
  return chunks;
}

export async function schedulerReasons(q: ReasonsQuery, nowMs = Date.now()): Promise<ReasonsResponse> {
  const { from, to, step } = reasonsWindow(q, nowMs);
  const chunks = await readWindow(from, to, nowMs);
  return { from_ms: from, to_ms: to, step_ms: step, points: reasonPoints(chunks, stepsOf(from, to, step)) };
}

/** GET /scheduler/reasons/targets: the due tables holding one code at one step. */
export async function reasonTargets(q: ReasonTargetsQuery, nowMs = Date.now()): Promise<ReasonTargetsResponse> {
  if (q.at_ms > nowMs + AHEAD_TOLERANCE_MS)
    throw badQuery("at_ms", `at_ms ${q.at_ms} is more than 5 minutes ahead (server clock ${nowMs})`);
  const at = Math.min(q.at_ms, nowMs);
  const found = targetsAt(await readWindow(at, at, nowMs), at, q.code);
  if (found === null) throw new ApiError(409, "journal_not_covering", `the decision journal does not cover ${at}`, {});
  return { at_ms: at, code: q.code, ...found };
}

import "server-only";
// CONSOLE_MEMORY_MIB as a soft limit on the garbage the process keeps, as Go's GOMEMLIMIT
// makes its collector work harder near the limit (console-api.md "Additions (fourth
// version)", Overload and memory). V8 lets an old generation grow, after each full
// collection, to a factor of what it kept: 1.5 here (lib/config/server-flags.ts). At 8× the
// production fleet that is ~200 MiB of garbage on the request thread's ~400 MiB of live views
// and plans, and as much again in the offload worker while a far pinned read builds a whole
// fleet there. While the process's resident set is over the budget, the factor is 1.3 (V8
// reads `--heap-growing-percent` at each collection, and the flag is the process's: both
// threads follow it); once it is back under 80 % of the budget, the usual one. It costs
// collections only while over the budget: at 8× a far pinned read's peak fell from
// 1,515–1,770 to 1,355–1,500 MiB and the read took 6.1–7.2 s, not 4.4–5.1 (docs/operations.md
// "Memory budget"; 1.15 gave 1,459–1,644 MiB and 6.8–8.5 s). Health reports it
// (`memory.over_budget`), and the offload pool stops a worker that keeps nothing by it
// (./offload-pool.ts).
import v8 from "node:v8";
import { consoleEnv } from "@/lib/config/env";
import { lastFlagValue } from "@/lib/config/server-flags";
import { lazily } from "@/lib/util/lazily";

/** While over the budget, an old generation grows to this much (%) over what a full collection kept. */
const TIGHT_GROWING_PERCENT = 30;
/** Over the budget until the resident set is under this share of it (so that it does not flap at the edge). */
export const RELAX_BELOW = 0.8;
/** how often the resident set is looked at */
const CHECK_MS = 500;

/**
 * Whether the process counts as over its budget now, from whether it did at the last look
 * and its resident set: over past the budget, and again under only below RELAX_BELOW of it.
 */
export function stillOver(wasOver: boolean, rssBytes: number, budgetBytes: number): boolean {
  if (rssBytes > budgetBytes) return true;
  if (rssBytes < budgetBytes * RELAX_BELOW) return false;
  return wasOver;
}

/**
 * The growth (%) the process was started with: the last `--heap-growing-percent` of
 * NODE_OPTIONS and then its command line (which Node applies after), 0 for none (V8's own
 * rule).
 */
export function usualGrowingPercent(execArgv: readonly string[], nodeOptions: string | undefined): number {
  const value = lastFlagValue([...(nodeOptions ?? "").split(/\s+/), ...execArgv], "--heap-growing-percent");
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : 0;
}

interface Limit {
  over: boolean;
  timer: NodeJS.Timeout | null;
  usual: number;
}

const state = lazily<Limit>(() => ({
  over: false,
  timer: null,
  usual: usualGrowingPercent(process.execArgv, process.env.NODE_OPTIONS),
}));

function look(s: Limit): void {
  const over = stillOver(s.over, process.memoryUsage.rss(), consoleEnv().memoryBudgetBytes);
  if (over === s.over) return;
  s.over = over;
  v8.setFlagsFromString(`--heap-growing-percent=${over ? TIGHT_GROWING_PERCENT : s.usual}`);
}

/** Starts looking at the resident set (once per process; the request thread's background starts it). */
export function startMemoryLimit(): void {
  const s = state();
  if (s.timer) return;
  look(s);
  s.timer = setInterval(() => look(s), CHECK_MS);
  s.timer.unref();
}

/** The process is over its memory budget now, and its heaps keep less garbage. */
export function overMemoryBudget(): boolean {
  return state().over;
}

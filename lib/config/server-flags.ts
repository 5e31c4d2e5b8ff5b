// The console server's V8 flags, given by whatever starts it: `npm start` (scripts/start.mjs,
// which `npm run demo` runs) and the tests' and benchmarks' server (test/support/app.ts).
// docs/operations.md "Live readers and write rates".

/**
 * Young-generation semi-spaces of a 32nd of CONSOLE_MEMORY_MIB, a power of two from V8's
 * default of 16 MiB (on this Node) to 64 MiB: 32 MiB at the default budget of 1024. The young
 * generation (two semi-spaces and the objects being promoted) so stays within about a tenth of
 * the budget.
 * * Larger is cheaper in CPU. While a page follows the live fleet, each plan step makes
 *   fleet-sized arrays that live one step (~28 MB/s at 10 events/s on the production fleet).
 *   Measured side by side in one run of bench/profile-gc.ts (one stream, 10 events/s, 20 s a
 *   stack, two stacks each): 16 MiB 48 scavenges (298–318 ms), console CPU 15.6–19.1 % of a
 *   core; 32 MiB 25–26 (265–308 ms), 16.4–17.2 %; 64 MiB 12–13 (205–233 ms), 14.2–15.1 %.
 * * Smaller is leaner, most of all where the fleet is large. `npm run bench:isolation`, two
 *   pairs of runs in turn (2026-12-07), at the default budget: with 64 MiB, the peak while a
 *   far pinned read of 8× the production fleet ran was 1,497–1,594 and 1,537–1,623 MiB
 *   (over the 1,536); with 32 MiB 1,325–1,425 and 1,350–1,483. At 1× after the quiet
 *   minute 429–437 against 359–389 MiB. The latency figures of the same runs kept their
 *   targets either way: a streaming tab's change → visible beside a heavy client 92.8–98.5 ms
 *   with 64, 75.3–95.7 with 32; 32 clients' p95 55.3–72.5 ms against 63.5–66.4.
 */
export function semiSpaceMib(budgetMib: number): number {
  return Math.min(64, Math.max(16, 2 ** Math.floor(Math.log2(budgetMib / 32))));
}

/**
 * After each full collection the old generation may grow to 1.5× what it kept, not V8's
 * own factor (up to 4× for a large heap): the live plan is re-made every 5 s while the
 * journal's sampler asks for it, each plan lives long enough to reach the old generation,
 * and after a burst of pinned reads V8 let that garbage pile up for minutes. Measured on the
 * production fleet (the console quiet after 10 pinned reads, its RSS every 10 s): without it
 * 786 → 1,065 MiB over the minute, heap in use 466 → 751 MiB and 287 MiB after a forced full
 * GC (garbage, not a leak); with 25 % flat (730 → 715 MiB). 25 % cost CPU under load: the
 * 32-client closed loop of bench/figures.ts after 10 pinned reads, one run each on a machine
 * at load average 15, took 0.73 % of a core per request/s with 25 %, 0.49 without and 0.42
 * with 50 % (p95 1,191 / 898 / 677 ms): 50 % is kept. bench/isolation.ts measures the quiet
 * minute with it. Not a NODE_OPTIONS flag: it is given on the command line, always.
 */
const HEAP_GROWING = "--heap-growing-percent=50";

const flagName = (flag: string) => flag.split("=")[0].replaceAll("_", "-");

/** The value of the last `--name=value` among `args`, in either spelling (`-` or `_`), or undefined. */
export function lastFlagValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const arg of args)
    if (arg.includes("=") && flagName(arg) === flagName(name)) value = arg.slice(arg.indexOf("=") + 1);
  return value;
}

/**
 * The flags to start the server with for a budget of `budgetMib` (CONSOLE_MEMORY_MIB), less
 * any that NODE_OPTIONS already sets (the operator's wins).
 */
export function serverNodeFlags(nodeOptions: string | undefined, budgetMib: number): string[] {
  const set = new Set((nodeOptions ?? "").split(/\s+/).filter(Boolean).map(flagName));
  return [`--max-semi-space-size=${semiSpaceMib(budgetMib)}`, HEAP_GROWING].filter((f) => !set.has(flagName(f)));
}

/**
 * glibc's malloc, as the server's Buffers use it (their bytes are malloc'd, outside V8's heap):
 * a fixed 128 KiB threshold above which a block is its own mmap, returned to the system when
 * freed. By default glibc raises that threshold each time such a block is freed (up to 32
 * MiB), so the console's large and short-lived buffers (range pages, encoded answers, their
 * gzip) then come from the main heap, whose holes it seldom gives back: in a soak the
 * process's resident set outside V8's heap and its buffers grew ~13 MiB every 5 minutes
 * (118 → 158 MiB in 15 minutes, the brk heap 141 MiB). `npm run bench:malloc` churns buffers
 * of mixed sizes through a 100 MiB byte-bounded cache, both ways side by side. Setting the
 * threshold also fixes the trim threshold (top-of-heap memory returned past 128 KiB).
 * An operator's own MALLOC_MMAP_THRESHOLD_ wins.
 */
export const MALLOC_MMAP_THRESHOLD = "131072";

/**
 * glibc's malloc arenas: two, not its default of eight per core. Each thread that allocates
 * (the request thread, the offload worker, V8's and libuv's helpers) may get an arena of its
 * own, and an arena keeps what was freed in it for its next allocations: after the worker
 * had read a whole 8× fleet, the process held ~120 MiB of such heaps. Measured at 8× the
 * production fleet (six far pinned reads each, resident set sampled every 50 ms, two pairs of
 * runs in turn, 2026-12-07): peaks while a read ran of 1,342–1,443 and 1,443–1,502 MiB with
 * two arenas, 1,488–1,587 and 1,459–1,532 MiB with the default; reads no slower (5.0–6.5 s
 * against 5.2–6.8 s). An operator's own MALLOC_ARENA_MAX wins.
 */
const MALLOC_ARENA_MAX = "2";

/** The environment additions for the server process (the operator's own settings win). */
export function serverAllocatorEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  if (env.MALLOC_MMAP_THRESHOLD_ === undefined) out.MALLOC_MMAP_THRESHOLD_ = MALLOC_MMAP_THRESHOLD;
  if (env.MALLOC_ARENA_MAX === undefined) out.MALLOC_ARENA_MAX = MALLOC_ARENA_MAX;
  return out;
}

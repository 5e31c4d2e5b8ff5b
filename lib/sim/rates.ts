// The live world's rates, chosen so that work arrives at the rate the simulated executors
// finish it (a healthy P1 fleet at a steady state); README.md "Rates" says why each is what
// it is. Time is counted in ticks (one a second in the demo).

export interface WorldRates {
  /** a table seeded with at least this many pending generations keeps that backlog (its writers are hot) */
  backloggedPending: number;
  /** flushes per tick of one backlogged table's writers */
  backloggedFlushes: number;
  /** flushes per tick of one other table seeded with pending work */
  activeFlushes: number;
  /** generations one flush seals (inclusive range) */
  flushGenerations: readonly [number, number];
  /** a backlogged table's pass merges what arrived since its last pass plus this fraction of the way back to its seeded backlog */
  keepGain: number;
  /** the most generations one merge pass takes */
  passGenerations: number;
  /** one merge runs this many ticks (inclusive range) */
  mergeTicks: readonly [number, number];
  /** the share of merges that fail (retryable; the next sweep enqueues the table again) */
  failureShare: number;
  /** the legacy merge sweep runs this often (ticks; every tick: a due table is never left unqueued for long) */
  sweepEveryTicks: number;
  /**
   * the sweep enqueues a table at this share of the planner's due point (score 1, or the
   * promotion wait), so a table is queued before the planner calls it due: no discovery miss
   */
  sweepAhead: number;
  /** a running merge reports progress this often (ticks) */
  progressEveryTicks: number;
  /** executors heartbeat this often (ticks): the master's keep-alive period, §5.1 */
  heartbeatEveryTicks: number;
  /** the master's reconcile and shadow pass run this often (ticks): PLANNER_RECONCILE_SECS, §6.1 */
  reconcileEveryTicks: number;
  /** finished `tasks/` records are deleted this long after they finished (ms): the master's task history */
  taskHistoryMs: number;
}

export const WORLD_RATES: Readonly<WorldRates> = Object.freeze({
  backloggedPending: 100,
  backloggedFlushes: 0.009,
  activeFlushes: 0.004,
  flushGenerations: [1, 3] as const,
  keepGain: 4,
  passGenerations: 256,
  mergeTicks: [8, 24] as const,
  failureShare: 0.04,
  sweepEveryTicks: 1,
  sweepAhead: 0.9,
  progressEveryTicks: 5,
  heartbeatEveryTicks: 10,
  reconcileEveryTicks: 30,
  taskHistoryMs: 24 * 3_600_000,
});

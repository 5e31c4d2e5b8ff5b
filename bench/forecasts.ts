// `npm run bench:forecasts`: do the console's forecasts come true? (console-api.md "Forecasts,
// per world, that say how often they come true"; issue "Forecasts that come true", "Done
// when"). The demo world — the `realistic` and `incidents` scenarios and the live simulator
// (lib/sim), in this process, on a real etcd — runs SIMULATED_MIN simulated minutes at
// accelerated time: the simulator's ticks and the console's `now` are one simulated clock
// (a tick is a simulated second; nothing sleeps), and the leader's cycle is written within
// the tick it starts in, dated at a moment within it drawn per cycle (lib/sim/live.ts `cycleWithinTick`; left to run beside the ticks, it
// landed as many simulated seconds late as this machine took to read and plan, and the
// planner's turns came seconds after the cycles its forecasts counted), so every figure
// follows from the simulated timeline, not from how fast this machine is. Every EVAL_EVERY_S simulated seconds the
// console's live view is brought to the simulator's last write and planned at the simulated
// now (lib/live/plan.ts `planOnce`: the pages' exact plan); the forecast journal's own pure
// parts sample, resolve and calibrate as the elected writer does (lib/journal/forecasts:
// sampler, log, stored form, ledger), one chunk a simulated minute. At the end, each world's
// score over the hour (lib/journal/forecasts/report.ts, the calibration endpoint's): made,
// resolved, coverage at the 0.8 level, median interval width and median realised wait,
// → bench/results/forecasts.json.
import "../lib/sim/node-entry";
import { runBench, writeResult } from "./harness";
import { startEtcd } from "../test/support/etcd";
import { createRawEtcdClient } from "../lib/etcd/raw";

const SIMULATED_MIN = Number(process.env.FORECAST_BENCH_MINUTES ?? 60);
/**
 * Simulated minutes before the scored hour (the steady world settles within ten): the seeded world has no task history, so the
 * first minutes' rates rest on a handful of finishes and their intervals on no resolved
 * forecast. The journal keeps them (the calibration learns from them, as a console started on
 * a young fleet would); the score counts the forecasts made after.
 */
const WARMUP_MIN = Number(process.env.FORECAST_BENCH_WARMUP_MINUTES ?? 10);
/** the tick at which every master is policy-aware and the planner canary starts (the demo's: lib/sim/world.ts UPGRADE_AFTER_TICKS) */
const UPGRADE_AFTER_TICKS = 60;
const EVAL_EVERY_S = Number(process.env.FORECAST_BENCH_EVAL_S ?? 5);
/**
 * The evaluations' phase: 2 s after each whole EVAL_EVERY_S, not on it. The leader's cycles
 * start on whole 30 s of the same clock, and an evaluation on the very tick of a cycle runs
 * just before it (the simulator's tick comes after the pause that evaluates): every table
 * about to be placed was sampled at the instant of its placement, a wait of exactly 0 s. The
 * console's journal and the master keep their own clocks, whose phases do not meet to the
 * millisecond; any phase but 0 is one of theirs.
 */
const EVAL_PHASE_S = 2;
const PREFIX = "/lance-context/master";
const round = (n: number | null, d = 3) => (n === null ? null : Math.round(n * 10 ** d) / 10 ** d);

async function main(): Promise<void> {
  const etcd = await startEtcd({ extraArgs: ["--quota-backend-bytes=8589934592"] });
  process.env.ETCD_ENDPOINTS = etcd.endpoints;
  process.env.ETCD_PREFIX = PREFIX;
  process.env.CONSOLE_SHADOW_SAMPLER = "off";
  const client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 60_000 });
  const { seedScenarios } = await import("../lib/sim/seed");
  const { runLive } = await import("../lib/sim/live");
  const { currentRevision } = await import("../lib/etcd/paged-read");
  const { liveCache } = await import("../lib/live/cache");
  const { planOnce } = await import("../lib/live/plan");
  const { legacyLineOf, placementLookup, taskLookup } = await import("../lib/snapshot/forecast-inputs");
  const { ForecastSampler } = await import("../lib/journal/forecasts/sampler");
  const { ForecastLog } = await import("../lib/journal/forecasts/log");
  const { ForecastLedger } = await import("../lib/journal/forecasts/ledger");
  const { encodeForecastChunk, decodeForecastChunk } = await import("../lib/journal/forecasts/codec");
  const { worldScores } = await import("../lib/journal/forecasts/report");
  type Chunk = import("../lib/journal/forecasts/records").ForecastChunk;

  // the simulated clock starts at the minute (the tasks window of the live view counts back from the real clock)
  const t0 = Math.floor(Date.now() / 60_000) * 60_000;
  let now = t0;
  await seedScenarios(client, ["realistic", "incidents"], { prefix: PREFIX, now: t0 });
  const cache = liveCache();
  await cache.current();

  const sampler = new ForecastSampler();
  const log = new ForecastLog();
  const ledger = new ForecastLedger();
  const chunks: Chunk[] = [];
  let bytes = 0;
  let planMs = 0;
  let evaluations = 0;
  const started = performance.now();

  const evaluate = async () => {
    const revision = await currentRevision(client, PREFIX);
    if (!(await cache.awaitRevision(revision, 60_000)))
      throw new Error(`the live view did not reach revision ${revision}`);
    const view = await cache.current();
    const t = performance.now();
    const plan = planOnce(view, now);
    planMs += performance.now() - t;
    evaluations++;
    log.observe(
      sampler.evaluate({
        now,
        plan,
        legacy: legacyLineOf(view.snapshot, now),
        taskById: taskLookup(view.snapshot),
        placedAt: placementLookup(view.snapshot),
        calibration: ledger.calibration(),
      }),
    );
    if ((now - t0 - EVAL_PHASE_S * 1000) % 60_000 === 0) {
      const drained = log.drain();
      if (drained) {
        const value = encodeForecastChunk(drained);
        bytes += value.length;
        const chunk = decodeForecastChunk(value); // as a reader gets it
        ledger.add(chunk);
        chunks.push(chunk);
      }
    }
  };

  const stop = new AbortController();
  const stats = await runLive(client, {
    prefix: PREFIX,
    signal: stop.signal,
    // the fleet is policy-aware after a minute, not five: the planner canary (lib/sim/canary.ts)
    // starts then, so its forecasts are calibrated before the scored hour begins
    upgradeAfterTicks: UPGRADE_AFTER_TICKS,
    clock: () => now,
    // the leader's placements land in the tick of its cycle, whatever this machine's speed
    cycleWithinTick: true,
    pause: async () => {
      now += 1000;
      if ((now - t0 - EVAL_PHASE_S * 1000) % (EVAL_EVERY_S * 1000) === 0) await evaluate();
      if ((now - t0) % 600_000 === 0)
        console.log(
          `simulated ${(now - t0) / 60_000} min: ${evaluations} evaluations, ${Math.round((performance.now() - started) / 1000)} s real`,
        );
      if (now - t0 >= (WARMUP_MIN + SIMULATED_MIN) * 60_000) stop.abort();
    },
  });
  const wallS = (performance.now() - started) / 1000;
  if (process.env.FORECAST_BENCH_DUMP) {
    const { writeFileSync } = await import("node:fs");
    const { fateOf, realisedOf } = await import("../lib/journal/forecasts/fate");
    const dump = new ForecastLedger({ keepFromMs: t0 + WARMUP_MIN * 60_000 });
    for (const c of chunks) dump.add(c);
    writeFileSync(
      process.env.FORECAST_BENCH_DUMP,
      JSON.stringify(
        dump.kept.map((r) => ({ ...r.f, fate: fateOf(r, now), realised: realisedOf(r), withdrawn: r.withdrawn })),
      ),
    );
  }

  // the hour's score, read back from the stored chunks as GET /forecasts/calibration reads them
  const from = t0 + WARMUP_MIN * 60_000;
  const report = new ForecastLedger({ keepFromMs: from });
  for (const c of chunks) report.add(c);
  const scores = worldScores(report.kept, from, now);
  const worlds = Object.fromEntries(
    Object.entries(scores).map(([world, s]) => [
      world,
      {
        made: s.made,
        resolved: s.resolved,
        within: s.within,
        early: s.early,
        late: s.late,
        open: s.open,
        withdrawn: s.withdrawn,
        lost: s.lost,
        calibrated: s.calibrated,
        coverage: round(s.coverage),
        median_width_ms: s.median_width_ms,
        median_wait_ms: s.median_wait_ms,
        median_error_ms: s.median_error_ms,
        width_over_wait:
          s.median_width_ms !== null && s.median_wait_ms ? round(s.median_width_ms / s.median_wait_ms) : null,
        reliability: s.reliability.map((r) => ({ level: r.level, coverage: round(r.coverage), resolved: r.resolved })),
        // made while the other world acted on the table: not in the figures above
        what_if: { ...s.what_if, coverage: round(s.what_if.coverage) },
      },
    ]),
  );
  const result = {
    at: new Date().toISOString(),
    world: "realistic + incidents, the steady live world of the demo (lib/sim/world.ts)",
    simulated_min: SIMULATED_MIN,
    warmup_min: WARMUP_MIN,
    eval_every_s: EVAL_EVERY_S,
    eval_phase_s: EVAL_PHASE_S,
    level: 0.8,
    wall_s: Math.round(wallS),
    evaluations,
    plan_ms_mean: Math.round(planMs / Math.max(1, evaluations)),
    simulator: {
      ticks: stats.ticks,
      flushes: stats.flushes,
      merges: stats.merges,
      pending_end: stats.pending,
      canary_from_tick: UPGRADE_AFTER_TICKS,
    },
    stored: { chunks: chunks.length, bytes, bytes_per_hour: Math.round(bytes / ((WARMUP_MIN + SIMULATED_MIN) / 60)) },
    worlds,
  };
  console.log(
    `${WARMUP_MIN} + ${SIMULATED_MIN} simulated min in ${Math.round(wallS)} s (${evaluations} evaluations, plan ${result.plan_ms_mean} ms each)`,
  );
  for (const [world, s] of Object.entries(worlds))
    console.log(
      `${world.padEnd(8)} made ${s.made}, resolved ${s.resolved} (within ${s.within}, early ${s.early}, late ${s.late}), open ${s.open}, withdrawn ${s.withdrawn}: coverage at 0.8 ${s.coverage}, median width ${s.median_width_ms} ms, median realised wait ${s.median_wait_ms} ms (width ÷ wait ${s.width_over_wait}); what-ifs apart: made ${s.what_if.made}, resolved ${s.what_if.resolved}, withdrawn ${s.what_if.withdrawn}, coverage ${s.what_if.coverage}`,
    );
  console.log(`stored ${chunks.length} chunks, ${bytes} bytes (${result.stored.bytes_per_hour} bytes an hour)`);
  console.log(`→ ${writeResult("forecasts", result)}`);
  await cache.close();
  client.close();
  await etcd.stop();
  process.exit(0);
}

runBench(main);

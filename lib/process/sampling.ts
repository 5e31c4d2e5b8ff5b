import "server-only";
// This replica's elected sampler (lib/live/sampler.ts): the shadow-history counts from the
// live plan, and the revision clock. Configured by lib/config/env.ts (sampler block).
import { SHADOW_OUTCOMES, type ShadowOutcome } from "@/lib/planner/shadow";
import type { OutcomeCounts, ShadowSample } from "@/lib/schema/api/shadow";
import { journalEnv, samplerEnv } from "@/lib/config/env";
import { planStates, type TableState } from "@/lib/journal/entry";
import type { FleetPlan } from "@/lib/planner/plan";
import type { JournalEvaluation } from "@/lib/live/journal";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { liveCache } from "@/lib/live/cache";
import { ShadowSampler } from "@/lib/live/sampler";
import { canaryExtras } from "@/lib/takeover/canary-sample";
import { shadowFor } from "@/lib/live/plan";
import { yieldToEventLoop } from "@/lib/live/plan-entry";
import { snapshotInputs } from "@/lib/snapshot/inputs";
import { placementLookup, taskLookup } from "@/lib/snapshot/forecast-inputs";
import { legacyLineAt } from "@/lib/scheduler/forecasts";
import type { ForecastJournalOptions } from "@/lib/live/forecast-journal";
import { forecastLedgerAt } from "@/lib/scheduler/forecast-ledger";

/** One history sample from the live view (what the sampler records every minute). */
export async function currentShadowSample(): Promise<ShadowSample> {
  const planned = await shadowFor(await liveCache().current(), undefined);
  const { comparison, view } = planned;
  const outcomes = {} as OutcomeCounts;
  for (const o of SHADOW_OUTCOMES) outcomes[o] = comparison.counts[o];
  // the canary's extras ride along in the stored value (lib/takeover/canary-sample.ts); /shadow/history strips them
  return {
    at_ms: Date.now(),
    revision: view.revision,
    outcomes,
    disagreements: comparison.disagreements,
    ...(await canaryExtras(planned)),
  } as ShadowSample;
}

let lastJournalled = "";
/**
 * The entries of the last plan entered: a newer revision that changed nothing the console
 * reads (its own journal and clock writes) is served the very plan at the same clock, so its
 * entries are these; at 8× the tables building and diffing them costs ~0.1 s. A patched plan's
 * entries are made from them (planStates `before`).
 */
let lastEntries: { plan: FleetPlan; now: number; tables: Map<string, TableState> } | null = null;

/**
 * The live plan's entries for the decision journal (console-api.md "The decision journal"),
 * or null when the plan is the one already entered. Exact: the plan of the view at its
 * revision, made at its own `now` — the one-table answer at `?revision=R&now_ms=now`.
 */
export async function journalEvaluation(): Promise<JournalEvaluation | null> {
  const planned = await shadowFor(await liveCache().current(), undefined);
  const revision = planned.view.revision;
  const now = planned.evaluation.now;
  const key = `${revision}:${now}`;
  if (key === lastJournalled) return null;
  lastJournalled = key;
  // each pass over the fleet in its own turn of the event loop (the shadow pass, the entries,
  // then the log's diff): at 100 events/s an evaluation a second is three short holds of the
  // thread instead of one long one that the changes landing meanwhile wait behind
  await yieldToEventLoop();
  let tables: Map<string, TableState>;
  if (lastEntries && lastEntries.plan === planned.plan && lastEntries.now === now) tables = lastEntries.tables;
  else {
    const outcomes = new Map<string, ShadowOutcome>();
    for (const outcome of SHADOW_OUTCOMES)
      for (const t of planned.comparison.targets[outcome]) outcomes.set(t, outcome);
    // the rows the last plan shares keep their entries: a patch's entries cost what it changed
    tables = planStates(planned.plan, outcomes, lastEntries);
    lastEntries = { plan: planned.plan, now, tables };
  }
  await yieldToEventLoop();
  // what the entries' inputs were (history's "what moved", lib/journal/inputs.ts), from the very view planned
  const inputs = snapshotInputs(planned.view.snapshot);
  return {
    revision,
    now_ms: now,
    tables,
    capacities: inputs.capacities,
    marks: (target) => inputs.marks(target),
  };
}

let lastForecast = "";
/**
 * The live moment's forecast inputs for the forecast journal (console-api.md "Forecasts …"),
 * or null when the plan is the one already evaluated: the plan of the view at its revision,
 * made at its own `now`, as the one-table answer at `?revision=R&now_ms=now` makes it.
 */
export async function forecastEvaluation(): ReturnType<ForecastJournalOptions["evaluate"]> {
  const planned = await shadowFor(await liveCache().current(), undefined);
  const now = planned.evaluation.now;
  const key = `${planned.view.revision}:${now}`;
  if (key === lastForecast) return null;
  lastForecast = key;
  const snapshot = planned.view.snapshot;
  return {
    now,
    plan: planned.plan,
    legacy: legacyLineAt(snapshot, now),
    taskById: taskLookup(snapshot),
    placedAt: placementLookup(snapshot),
    // the calibration the one-table answer reads at this revision: the forecasts sampled
    // carry the very interval the answers give
    calibration: (await forecastLedgerAt(planned.view.revision)).ledger.calibration(),
  };
}

let sampler: ShadowSampler | undefined;

/** Starts this replica's sampler once; null when `CONSOLE_SHADOW_SAMPLER=off`. */
export function ensureSampler(): ShadowSampler | null {
  if (sampler !== undefined) return sampler;
  const env = samplerEnv();
  if (!env.enabled) return null; // asked again next time, as before
  sampler = new ShadowSampler({
    client: etcdClient(),
    prefix: etcdPrefix(),
    sample: currentShadowSample,
    intervalMs: env.shadowSampleMs,
    electionTtlSecs: env.electionTtlSecs,
    journal: journalOptions(),
    forecasts: forecastOptions(),
    etcdUnavailableMs: () => liveCache().lastUnavailableMs,
  });
  sampler.start(); // after it is stored: start() may ask for it
  return sampler;
}

function journalOptions() {
  const j = journalEnv();
  if (!j.enabled) return undefined;
  return {
    evaluate: journalEvaluation,
    retentionMs: j.retentionMs,
    maxBytes: j.maxBytes,
    flushMs: j.flushMs,
    evalMs: j.evalMs,
    checkpointMs: j.checkpointMs,
  };
}

function forecastOptions(): ForecastJournalOptions | undefined {
  const j = journalEnv();
  if (!j.enabled) return undefined;
  return { evaluate: forecastEvaluation, retentionMs: j.retentionMs, maxBytes: j.forecastMaxBytes };
}

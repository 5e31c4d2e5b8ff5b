// `npm run bench:plan` (issue 3): the production scenario in memory, as the raw JSON strings
// etcd would hold — 13,405 tables × 2 shards in the §10 T23 shape, plus 354 tables with real
// backlog (a few past 256 and one past 4,096 pending generations), 6 executors, some
// assignments and legacy tasks. Prints the median of N full plans next to the median
// `JSON.parse` of the same records, as a ratio (target ≤ 1×), and writes bench/results/plan.json.
//
// "plan" = everything after parsing, as the console runs it on a parsed snapshot: demand
// fold of the 27k events, derive + score + planner order, headroom, placement, shadow
// comparison, and (when lib/planner/plan exists) `planFleet` with why-not for every table.
// The end-to-end figure (JSON.parse + validation into typed records + plan) is reported beside it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  emptyTableDemand, hex, parseAssignment, parseDemandEventKv, parseHeartbeat, parseTaskRecord,
  type Assignment, type DemandEvent, type Heartbeat, type TableDemand, type TaskRecord,
} from "@/lib/schema";
import { compareShadow, foldEvent, mergeTaskTargets, scoreTables, shadowPass, type EtcdKv } from "@/lib/planner";

const P = "/lance-context/master";
const NOW = 1_700_000_400_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const WARMUP = 2;

// ---------------------------------------------------------------- scenario (raw strings)
function buildScenario() {
  const events: EtcdKv[] = [];
  let rev = 1;
  const put = (target: string, e: DemandEvent) =>
    events.push({ key: `${P}/demand-events/${hex(target)}/${e.shard}`, value: JSON.stringify(e), modRevision: rev++ });
  // T23 shape: pending p = i % 50, sealed 1000+p, merged 1000, 64 MiB, epoch 3, scan, times 1001..1000+p
  for (let i = 0; i < 13_405; i++) {
    const target = `exp-${String(i).padStart(5, "0")}`;
    const p = i % 50;
    for (const s of [1, 2]) {
      const times: Record<string, number> = {};
      for (let g = 1001; g <= 1000 + p; g++) times[g] = 1_700_000_000_000 + g;
      put(target, {
        v: 1, shard: `aaaaaaaa-0000-0000-0000-00000000000${s}`, sealed_through: 1000 + p, sealed_bytes_through: 67_108_864,
        merged_through: 1000, flushed_at_ms: 1_700_000_000_000, writer_epoch: 3, source: "scan",
        ...(p > 0 ? { sealed_times: times } : {}),
      });
    }
  }
  // 354 hot tables: 1–4 writer shards, pending up to ~300 per shard, one table past 4,096
  for (let i = 0; i < 354; i++) {
    const target = `hot-${String(i).padStart(3, "0")}`;
    const shards = 1 + (i % 4);
    for (let s = 0; s < shards; s++) {
      const pending = i === 0 ? 4_200 : 10 + ((i * 37 + s * 11) % 300);
      const merged = 50_000 + i;
      const times: Record<string, number> = {};
      for (let g = merged + 1; g <= merged + Math.min(pending, 64); g++) times[g] = NOW - (pending - (g - merged)) * 2_000;
      put(target, {
        v: 1, shard: `bbbbbbbb-0000-0000-0000-${String(i * 10 + s).padStart(12, "0")}`, sealed_through: merged + pending,
        sealed_bytes_through: pending * 4_000_000, merged_through: merged, flushed_at_ms: NOW - 1000, writer_epoch: 7,
        source: "writer", sealed_times: times,
      });
    }
  }
  const heartbeats: { key: string; value: string }[] = [];
  const execs: [string, Heartbeat["kind"], number, boolean][] = [
    ["master-a", "resident_master", 8 * 2_147_483_648, false],
    ["master-b", "resident_master", 4 * 2_147_483_648, false],
    ["master-c", "resident_master", 0, false],
    ["worker-1", "worker", 0, false],
    ["catchup-1", "catchup_job", 2_147_483_648, false],
    ["legacy-1", "legacy_rpc", 0, true],
  ];
  for (const [id, kind, bytes, draining] of execs) {
    heartbeats.push({
      key: `${P}/executors/${id}`,
      value: JSON.stringify({
        v: 1, kind, instance: id, version: "0.42.0", kinds: ["index_id", "repair", "compact", "merge_wal"],
        slots_total: { index_id: 4, repair: 4, compact: 1, merge_wal: 4 }, bytes_total: bytes, bytes_free_sample: bytes,
        draining, heartbeat_ms: NOW - 3_000,
      }),
    });
  }
  const assignments: { key: string; value: string }[] = [];
  const states: Assignment["state"][] = ["bound", "assigned", "shadow", "shadow", "shadow", "released", "bound", "shadow"];
  states.forEach((state, n) => {
    const target = `hot-${String(n).padStart(3, "0")}`;
    const executor = n === 7 ? "gone-master" : execs[n % 3][0];
    const unit = `01HZ${String(n).padStart(6, "0")}`;
    assignments.push({
      key: `${P}/assignments/${hex(target)}/${unit}`,
      value: JSON.stringify({
        v: 1, unit_id: unit, kind: "merge_wal", target, needs_write_turn: true, executor, planner_token: "tok",
        reserved_slots: { merge_wal: 1 }, reserved_bytes: 2_147_483_648, state, created_ms: NOW - 10_000, bind_deadline_ms: NOW + 20_000,
      }),
    });
  });
  const tasks = (prefix: "queue" | "running", targets: string[], state: TaskRecord["state"]) =>
    targets.map((target, n) => ({
      key: `${P}/${prefix}/01J${prefix}${n}`,
      value: JSON.stringify({ id: `01J${prefix}${n}`, kind: n % 5 === 4 ? "compact" : "merge_wal", target, state, enqueued_at: NOW - 60_000 }),
    }));
  const queued = tasks("queue", [...Array.from({ length: 40 }, (_, n) => `hot-${String(n * 7).padStart(3, "0")}`), "phantom-q"], "queued");
  const running = tasks("running", [...Array.from({ length: 20 }, (_, n) => `exp-${String(n * 601).padStart(5, "0")}`), "phantom-r"], "running");
  return { events, heartbeats, assignments, queued, running };
}

// ---------------------------------------------------------------- the measured steps
type Scenario = ReturnType<typeof buildScenario>;
interface ParsedFleet {
  events: { target: string; event: DemandEvent; timesCount: number; modRevision: number }[];
  heartbeats: { id: string; heartbeat: Heartbeat }[];
  assignments: { key: string; assignment: Assignment }[];
  queued: TaskRecord[];
  running: TaskRecord[];
}

function allValues(s: Scenario): string[] {
  return [...s.events, ...s.heartbeats, ...s.assignments, ...s.queued, ...s.running].map((kv) => kv.value);
}

function jsonParseAll(values: string[]): number {
  let n = 0;
  for (const v of values) if (JSON.parse(v) !== null) n++;
  return n;
}

function parseFleet(s: Scenario): ParsedFleet {
  const eventsPrefix = `${P}/demand-events/`;
  const events: ParsedFleet["events"] = [];
  for (const kv of s.events) {
    const r = parseDemandEventKv(kv.key.slice(eventsPrefix.length), kv.value);
    if (r.ok) events.push({ target: r.target, event: r.event, timesCount: r.timesCount, modRevision: kv.modRevision });
  }
  const heartbeats = s.heartbeats.flatMap((kv) => {
    const r = parseHeartbeat(kv.value);
    return r.ok ? [{ id: kv.key.slice(`${P}/executors/`.length), heartbeat: r.value }] : [];
  });
  const assignments = s.assignments.flatMap((kv) => {
    const r = parseAssignment(kv.value);
    return r.ok ? [{ key: kv.key, assignment: r.value }] : [];
  });
  const tasks = (list: { value: string }[]) => list.flatMap((kv) => {
    const r = parseTaskRecord(kv.value);
    return r.ok ? [r.value] : [];
  });
  return { events, heartbeats, assignments, queued: tasks(s.queued), running: tasks(s.running) };
}

type PlanFleetFn = (fleet: unknown, now: number) => { tables: unknown[] };

/** The §3.6 fold over a parsed snapshot; each parsed event is folded once, so its time map
 * is adopted, not copied (what foldEvents does on raw kvs). */
function foldParsed(fleet: ParsedFleet): Map<string, TableDemand> {
  const tables = new Map<string, TableDemand>();
  for (const parsed of fleet.events) {
    let t = tables.get(parsed.target);
    if (t === undefined) tables.set(parsed.target, (t = emptyTableDemand()));
    foldEvent(t, parsed.event, parsed.modRevision, NOW, parsed);
  }
  return tables;
}

/** Milliseconds per core step, summed over the measured runs (for the breakdown). */
const coreSteps = { score: [] as number[], order_headroom_place: [] as number[], compare: [] as number[] };

function planCore(fleet: ParsedFleet, tables: Map<string, TableDemand>) {
  const [scoreMs, scored] = time(() => scoreTables(tables, NOW));
  // shadowPass = planner order + headroom (without shadow rows) + placement
  const [passMs, pass] = time(() =>
    shadowPass({ scored, heartbeats: fleet.heartbeats, assignments: fleet.assignments, now: NOW, plannerToken: "tok" }),
  );
  const [compareMs, comparison] = time(() =>
    compareShadow(pass.ordered, new Set(pass.placements.map((p) => p.unit.target)), {
      queued: mergeTaskTargets(fleet.queued),
      running: mergeTaskTargets(fleet.running),
    }),
  );
  coreSteps.score.push(scoreMs);
  coreSteps.order_headroom_place.push(passMs);
  coreSteps.compare.push(compareMs);
  return { scored: scored.length, placements: pass.placements.length, unplaceable: pass.unplaceable.length, comparison };
}

function designInput(fleet: ParsedFleet, tables: Map<string, TableDemand>) {
  return {
    tables,
    heartbeats: new Map(fleet.heartbeats.map((h) => [h.id, h.heartbeat])),
    assignments: fleet.assignments.map((a) => a.assignment),
    policies: { default: null, tables: new Map() },
    tasks: { queued: fleet.queued, running: fleet.running },
    cooldowns: [],
    failures: [],
    fences: new Map(),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function time<T>(fn: () => T): [number, T] {
  const t0 = performance.now();
  const r = fn();
  return [performance.now() - t0, r];
}

async function loadPlanFleet(): Promise<PlanFleetFn | null> {
  try {
    const mod = (await import("@/lib/planner/plan")) as { planFleet?: PlanFleetFn };
    return typeof mod.planFleet === "function" ? mod.planFleet : null;
  } catch {
    return null;
  }
}

async function main() {
  const scenario = buildScenario();
  const values = allValues(scenario);
  const bytes = values.reduce((n, v) => n + Buffer.byteLength(v), 0);
  const planFleet = await loadPlanFleet();
  const sample = parseFleet(scenario);
  console.log(
    `scenario: ${scenario.events.length} demand events, ${sample.heartbeats.length} executors, ${sample.assignments.length} assignments, ` +
      `${sample.queued.length + sample.running.length} tasks; ${(bytes / 1_048_576).toFixed(1)} MiB of JSON; ${RUNS} runs`,
  );

  const t = { parse: [] as number[], validate: [] as number[], fold: [] as number[], core: [] as number[], design: [] as number[], plan: [] as number[], e2e: [] as number[] };
  let summary: ReturnType<typeof planCore> | null = null;
  let designTables = 0;
  let tablesFolded = 0;
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const [parseMs] = time(() => jsonParseAll(values));
    // parse + validate every record into typed records (what lib/snapshot does)
    const [validateMs, fleet] = time(() => parseFleet(scenario));
    const [foldMs, tables] = time(() => foldParsed(fleet));
    const [coreMs, core] = time(() => planCore(fleet, tables));
    let designMs = 0;
    if (planFleet !== null) {
      const [ms, plan] = time(() => planFleet(designInput(fleet, tables), NOW));
      designMs = ms;
      designTables = plan.tables.length;
    }
    if (run < WARMUP) continue;
    summary = core;
    tablesFolded = tables.size;
    t.parse.push(parseMs);
    t.validate.push(validateMs);
    t.fold.push(foldMs);
    t.core.push(coreMs);
    t.design.push(designMs);
    t.plan.push(foldMs + coreMs + designMs);
    t.e2e.push(validateMs + foldMs + coreMs + designMs);
  }
  const m = Object.fromEntries(Object.entries(t).map(([k, xs]) => [k, median(xs)])) as Record<keyof typeof t, number>;
  const ratio = m.plan / m.parse;
  const result = {
    ratio: Number(ratio.toFixed(3)),
    target: "plan / JSON.parse ≤ 1",
    ratio_without_plan_fleet: Number(((m.fold + m.core) / m.parse).toFixed(3)),
    plan_ms: Number(m.plan.toFixed(2)),
    json_parse_ms: Number(m.parse.toFixed(2)),
    breakdown_ms: {
      fold: Number(m.fold.toFixed(2)),
      score_order_headroom_place_compare: Number(m.core.toFixed(2)),
      core_steps: Object.fromEntries(Object.entries(coreSteps).map(([k, xs]) => [k, Number(median(xs.slice(WARMUP)).toFixed(2))])),
      plan_fleet_why_not: planFleet === null ? null : Number(m.design.toFixed(2)),
    },
    parse_and_validate_ms: Number(m.validate.toFixed(2)),
    end_to_end_ms: Number(m.e2e.toFixed(2)),
    end_to_end_over_parse: Number((m.e2e / m.parse).toFixed(3)),
    plan_fleet_included: planFleet !== null,
    scenario: {
      demand_events: scenario.events.length,
      tables: tablesFolded,
      scored_tables: summary?.scored ?? 0,
      design_plan_tables: designTables,
      executors: sample.heartbeats.length,
      assignments: sample.assignments.length,
      tasks: sample.queued.length + sample.running.length,
      json_bytes: bytes,
      shadow_placements: summary?.placements ?? 0,
      shadow_unplaceable: summary?.unplaceable ?? 0,
      comparison: summary?.comparison?.counts ?? null,
    },
    runs: RUNS,
    machine: { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? "unknown", loadavg_1m: os.loadavg()[0] },
  };
  console.log(
    `median JSON.parse ${m.parse.toFixed(1)} ms | plan ${m.plan.toFixed(1)} ms (fold ${m.fold.toFixed(1)}, core ${m.core.toFixed(1)}, ` +
      `planFleet ${planFleet === null ? "n/a" : m.design.toFixed(1)}) | ratio ${ratio.toFixed(2)}× (target ≤ 1×) | ` +
      `without planFleet ${((m.fold + m.core) / m.parse).toFixed(2)}× | end-to-end ${m.e2e.toFixed(1)} ms = ${(m.e2e / m.parse).toFixed(2)}× parse`,
  );
  const dir = path.join(__dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "plan.json"), JSON.stringify(result, null, 2) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

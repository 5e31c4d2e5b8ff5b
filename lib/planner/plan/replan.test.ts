import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TableDemand } from "@/lib/schema/demand";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { PlannerFence, PlannerFleet, TurnHistory } from "./input";
import { LayeredMap, LayeredMapWriter } from "../layered-map";
import { copyTablePlan } from "./plan-fleet";
import { planFleet } from "./full-plan";
import { canPatch, replanFleet } from "./replan";
import type { FleetPlan } from "./types";
import { GiB, NOW, assignment, demand, fleet, heartbeat } from "./__fixtures__/fleet";

/**
 * The random choices of a case read from a tape of uniform 32-bit words that fast-check draws
 * (and wraps around), so a failing sequence is shrunk toward simpler choices and replayed
 * from the seed fast-check prints.
 */
function rng(tape: readonly number[]) {
  let at = 0;
  const next = () => tape[at++ % tape.length] / 4294967296;
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)], chance: (p: number) => next() < p };
}
const TAPE = fc.array(fc.noBias(fc.integer({ min: 0, max: 0xffffffff })), { minLength: 1024, maxLength: 1024 });
type Rng = ReturnType<typeof rng>;

// targets in an order unlike their UTF-8 byte order, so the order patches are exercised
const TARGETS = [
  "t",
  "a",
  "z",
  "m",
  "é",
  "b",
  "\u{1F600}",
  "c",
  "y",
  "ab",
  "d",
  "x",
  "e",
  "k",
  "n",
  "q",
  "\uFF41",
  "f",
];
const EXECUTORS = ["e1", "e2", "w1", "c1"];

function randomDemand(r: Rng): TableDemand {
  const pending = r.pick([0, 0, 1, 3, 8, 9, 20, 40, 300]);
  const stale = r.chance(0.2);
  return demand(pending, NOW - r.pick([0, 60, 1800, 3600, 7200, -5]) * 1000 - r.int(3), {
    fragment_count: r.pick([0, 0, 0, 8, 40]),
    index_stale: stale,
    uncovered_fragments: stale ? r.pick([4, 20]) : 0,
    missing_fragments: r.chance(0.05),
  });
}

function randomPolicy(r: Rng): PolicyDocument {
  const doc: Record<string, unknown> = {};
  if (r.chance(0.3)) doc.mode = r.pick(["legacy", "planner", "frozen", "drain"]);
  if (r.chance(0.4))
    doc.executors_allowed = r.pick([["resident"], ["worker"], ["resident", "worker"], ["catchup_job"]]);
  if (r.chance(0.3))
    doc.kinds_allowed = r.pick([["MergeWal"], ["MergeWal", "Compact"], ["Compact", "IndexId", "Repair"]]);
  if (r.chance(0.5)) doc.merge = { min_generations: r.pick([1, 4, 8, 16]) };
  return doc as PolicyDocument;
}

function randomFence(r: Rng): PlannerFence {
  const f: PlannerFence = {};
  if (r.chance(0.3)) f.mergeClaim = "claim";
  if (r.chance(0.3)) f.preparation = r.pick(["p1", "p2"]);
  if (r.chance(0.3)) f.commitReady = "p1";
  if (r.chance(0.3)) f.activeTaskClaimed = true;
  if (r.chance(0.2)) f.targetLock = "token";
  return f;
}

function randomTurns(r: Rng): TurnHistory {
  const kinds = ["merge_wal", "compact"] as const;
  return {
    turns: Array.from({ length: 1 + r.int(4) }, (_, i) => ({
      kind: r.chance(0.7) ? kinds[0] : kinds[1],
      at_ms: NOW - 1000 * (10 - i),
    })),
  };
}

function randomHeartbeats(r: Rng) {
  const out: Record<string, ReturnType<typeof heartbeat>> = {};
  for (const id of EXECUTORS) {
    if (!r.chance(0.7)) continue;
    const slots = r.pick([0, 1, 2, 3]);
    out[id] = heartbeat({
      kind: id.startsWith("w") ? "worker" : id.startsWith("c") ? "catchup_job" : "resident_master",
      slots_total: { merge_wal: slots, compact: r.pick([0, 1, 2]), index_id: slots, repair: 1 },
      bytes_total: r.pick([0, GiB, 3 * GiB, 5 * GiB]),
      draining: r.chance(0.1),
    });
  }
  return new Map(Object.entries(out));
}

function randomHistory(r: Rng): TaskRecord[] {
  return Array.from({ length: r.int(4) }, (_, i) => ({
    id: `h${i}`,
    kind: r.pick(["merge_wal", "compact"] as const),
    target: r.pick(TARGETS),
    state: "done" as const,
    enqueued_at: NOW - 600_000,
    started_at: NOW - 500_000,
    finished_at: NOW - 100_000 * (i + 1),
  })) as TaskRecord[];
}

/** two finished merge/compact turns, for the cases that need a fixed history */
const FIXED_HISTORY = [
  {
    id: "h0",
    kind: "merge_wal",
    target: "t",
    state: "done",
    enqueued_at: NOW - 600_000,
    started_at: NOW - 500_000,
    finished_at: NOW - 100_000,
  },
  {
    id: "h1",
    kind: "compact",
    target: "a",
    state: "done",
    enqueued_at: NOW - 600_000,
    started_at: NOW - 500_000,
    finished_at: NOW - 200_000,
  },
] as TaskRecord[];

// a larger fleet, so patches past the few-change path (one merge pass) and the drafts' folding run too
const MANY_TARGETS = Array.from({ length: 160 }, (_, i) => (i % 7 === 0 ? `é${i}` : `t${(i * 37) % 160}`));

function randomFleet(r: Rng, targets: readonly string[] = TARGETS): PlannerFleet {
  const tables: Record<string, TableDemand> = {};
  for (const t of targets) if (r.chance(0.6)) tables[t] = randomDemand(r);
  const policies: Record<string, PolicyDocument> = {};
  const fences: Record<string, PlannerFence> = {};
  for (const t of targets) {
    if (r.chance(0.15)) policies[t] = randomPolicy(r);
    if (r.chance(0.15)) fences[t] = randomFence(r);
  }
  const recent = Array.from({ length: r.int(5) }, (_, i) =>
    assignment(r.pick(TARGETS), r.pick([...EXECUTORS, "ghost"]), {
      unit_id: `r${i}`,
      state: r.pick(["assigned", "bound", "released"] as const),
      created_ms: NOW - r.int(120_000),
    }),
  );
  const base = fleet({
    tables,
    assignments: recent,
    policies,
    fences,
    defaultPolicy: r.chance(0.3) ? randomPolicy(r) : null,
  });
  const extra: Partial<PlannerFleet> = { heartbeats: randomHeartbeats(r), history: randomHistory(r) };
  if (r.chance(0.3)) extra.turns = new Map(TARGETS.filter(() => r.chance(0.3)).map((t) => [t, randomTurns(r)]));
  if (r.chance(0.5))
    extra.limits = {
      maxPlacementsPerCycle: r.pick([1, 2, 3, null]),
      placementsPerExecutorPerMin: r.pick([1, 2, 6, null]),
    };
  return { ...base, ...extra };
}

/** A copy of `m` with `key` set to `value` (deleted when undefined); other entries keep their objects. */
function withEntry<V>(m: ReadonlyMap<string, V>, key: string, value: V | undefined): Map<string, V> {
  const out = new Map(m);
  if (value === undefined) out.delete(key);
  else out.set(key, value);
  return out;
}

/** How a sequence hands out its tables after an edit: a new Map, or the live cache's layered maps. */
type TablesEdit = (
  tables: ReadonlyMap<string, TableDemand>,
  key: string,
  value: TableDemand | undefined,
) => ReadonlyMap<string, TableDemand>;

/** Edits through one LayeredMapWriter, as the live cache's DemandIndex hands out its tables; compacting every `compactAt` changes. */
function layeredEdits(first: ReadonlyMap<string, TableDemand>, compactAt: number): TablesEdit {
  const writer = new LayeredMapWriter(first, () => compactAt);
  return (_tables, key, value) => {
    if (value === undefined) writer.delete(key);
    else writer.set(key, value);
    return writer.publish();
  };
}

/** One random change: mostly per-table (demand, policy, fence, turns), sometimes fleet-wide. */
function change(
  r: Rng,
  f: PlannerFleet,
  targets: readonly string[],
  fleetWide: boolean,
  edit: TablesEdit = withEntry,
): PlannerFleet {
  const t = r.pick(targets);
  const roll = fleetWide ? r.next() : r.next() * 0.84;
  if (roll < 0.45) return { ...f, tables: edit(f.tables, t, r.chance(0.8) ? randomDemand(r) : undefined) };
  if (roll < 0.5) {
    // same content, new object: a re-fold that changed nothing
    const was = f.tables.get(t);
    return was ? { ...f, tables: edit(f.tables, t, { ...was }) } : f;
  }
  if (roll < 0.6)
    return {
      ...f,
      policies: { ...f.policies, tables: withEntry(f.policies.tables, t, r.chance(0.7) ? randomPolicy(r) : undefined) },
    };
  if (roll < 0.72) return { ...f, fences: withEntry(f.fences, t, r.chance(0.7) ? randomFence(r) : undefined) };
  if (roll < 0.78 && f.turns) return { ...f, turns: withEntry(f.turns, t, r.chance(0.7) ? randomTurns(r) : undefined) };
  if (roll < 0.84) {
    // the same table changed twice in one step
    const once = { ...f, tables: edit(f.tables, t, randomDemand(r)) };
    return { ...once, fences: withEntry(once.fences, t, randomFence(r)) };
  }
  const wide = r.int(8);
  if (wide === 7 && f.heartbeats.size > 0) {
    // one executor starts or stops draining, nothing else moves
    const id = r.pick([...f.heartbeats.keys()]);
    return {
      ...f,
      heartbeats: withEntry(f.heartbeats, id, { ...f.heartbeats.get(id)!, draining: !f.heartbeats.get(id)!.draining }),
    };
  }
  if (wide === 5) {
    // a heartbeat that only moved its clock (plans the same: the patch path)
    return {
      ...f,
      heartbeats: new Map(
        [...f.heartbeats].map(([id, h]) => [
          id,
          { ...h, heartbeat_ms: h.heartbeat_ms + 1000, bytes_free_sample: r.int(9) },
        ]),
      ),
    };
  }
  if (wide === 6) {
    // the master's shadow rows, rewritten (orphan executors included)
    const shadow = Array.from({ length: r.int(3) }, (_, i) =>
      assignment(r.pick(TARGETS), r.pick([...EXECUTORS, "ghost", "gone"]), {
        unit_id: `s${r.int(1e6)}-${i}`,
        state: "shadow",
      }),
    );
    return { ...f, assignments: [...f.assignments.filter((a) => a.state !== "shadow"), ...shadow] };
  }
  if (wide === 0) return { ...f, heartbeats: randomHeartbeats(r) };
  if (wide === 1)
    return {
      ...f,
      assignments: [
        ...f.assignments,
        assignment(t, r.pick(EXECUTORS), { unit_id: `n${r.int(1e6)}`, created_ms: NOW - 1000 }),
      ],
    };
  if (wide === 2) return { ...f, policies: { ...f.policies, default: r.chance(0.5) ? randomPolicy(r) : null } };
  if (wide === 3) return { ...f, limits: { maxPlacementsPerCycle: r.pick([1, 2, 8, null]) } };
  return { ...f, history: randomHistory(r) };
}

/** Every field of the plan, Maps as entry lists in their order, non-finite numbers and undefined spelled out. */
function canonical(plan: FleetPlan): string {
  return JSON.stringify(plan, (_key, value: unknown) => {
    if (value instanceof Map || value instanceof LayeredMap) return { map: [...value.entries()] };
    if (typeof value === "number" && !Number.isFinite(value)) return `number:${value}`;
    if (value === undefined) return "undefined";
    return value;
  });
}

describe("replanFleet: a re-plan equals the full plan after any sequence of changes", () => {
  const sequences = (runs: number, targets: readonly string[], most: number) => {
    let patched = 0;
    let steps = 0;
    let run = 0;
    fc.assert(
      fc.property(TAPE, (tape) => {
        const r = rng(tape);
        run++;
        let f = randomFleet(r, targets);
        // a third of the sequences hand out layered tables (lib/planner/layered-map.ts), some compacting often
        const edit: TablesEdit = run % 3 === 0 ? layeredEdits(f.tables, r.chance(0.5) ? 3 : 1000) : withEntry;
        let now = NOW;
        let plan = replanFleet(null, f, now);
        for (let step = 0; step < 12; step++, steps++) {
          const changes = 1 + r.int(most);
          // now and then one change is fleet-wide (a full plan), else all are per-table
          const wideAt = r.chance(0.3) ? r.int(changes) : -1;
          for (let c = 0; c < changes; c++) f = change(r, f, targets, c === wideAt, edit);
          if (r.chance(0.05)) now += 1000; // another clock: a full plan
          const before = canonical(plan);
          if (canPatch(plan, now, f)) patched++;
          const next = replanFleet(plan, f, now);
          expect(canonical(plan), `step ${step}: the previous plan changed`).toBe(before);
          expect(canonical(next), `step ${step}`).toBe(canonical(planFleet(f, now)));
          plan = next;
        }
      }),
      { numRuns: runs },
    );
    return patched / steps;
  };

  it("is byte-identical to planFleet(next, now), and leaves the previous plan as it was", () => {
    expect(sequences(250, TARGETS, 3)).toBeGreaterThan(0.6); // most steps took the patch path
  }, 120_000);

  it("holds for larger fleets and many changes at once", () => {
    expect(sequences(25, MANY_TARGETS, 70)).toBeGreaterThan(0.6);
  }, 120_000);

  it("copies a row only when its content changes: the rest are the previous plan's objects", () => {
    const tables = new Map<string, TableDemand>();
    for (let i = 0; i < 400; i++)
      tables.set(`t${String(i).padStart(3, "0")}`, demand(8 + (i % 200), NOW - 1_800_000 - i));
    tables.set("idle", demand(0, NOW));
    const first: PlannerFleet = {
      ...fleet(),
      tables,
      heartbeats: new Map([
        ["e1", heartbeat()],
        ["e2", heartbeat()],
      ]),
      history: FIXED_HISTORY,
    };
    const plan = replanFleet(null, first, NOW);
    const cases: [string, TableDemand, number][] = [
      ["idle", demand(0, NOW), 1], // nothing else moves
      ["t250", demand(60, NOW - 1_800_000 - 250), 40], // passes a few candidates: their ranks and ETAs move
    ];
    for (const [target, changed, most] of cases) {
      const next: PlannerFleet = { ...first, tables: withEntry(tables, target, changed) };
      const patched = replanFleet(plan, next, NOW);
      expect(canonical(patched)).toBe(canonical(planFleet(next, NOW)));
      const copied: string[] = [];
      for (const [t, row] of patched.byTarget) {
        const was = plan.byTarget.get(t)!;
        if (row !== was) copied.push(t);
        else expect(t).not.toBe(target);
        if (t !== target) expect(row === was, t).toBe(JSON.stringify(row) === JSON.stringify(was));
      }
      expect(copied).toContain(target);
      expect(copied.length).toBeLessThanOrEqual(most);
    }
  });

  it("a copied row has every field of the row, in its order", () => {
    fc.assert(
      fc.property(TAPE, (tape) => {
        const plan = planFleet(randomFleet(rng(tape)), NOW);
        for (const row of plan.tables) expect(JSON.stringify(copyTablePlan(row))).toBe(JSON.stringify(row));
      }),
      { numRuns: 50 },
    );
  });
});

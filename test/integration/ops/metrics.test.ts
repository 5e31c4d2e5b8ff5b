// GET /api/metrics of a real `next start` over a real etcd seeded like the demo
// (`realistic`: 13,405 tables, and `incidents`): the exposition passes `promtool check metrics`, every name is `console_…`,
// no label carries a table, the fleet gauges equal the API's own answers from the same
// live plan, and every query of the Grafana dashboard reads a metric the console exports.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { z } from "zod";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { INCIDENT, seedScenarios } from "@/lib/sim";
import { BUILTIN_POLICY } from "@/lib/schema/policy";
import { demandDetailSchema, demandListSchema, type DemandList, type TableSummary } from "@/lib/schema/api/demand";
import { executorsResponseSchema, type ExecutorsResponse } from "@/lib/schema/api/executors";
import { failuresResponseSchema, type FailuresResponse } from "@/lib/schema/api/failures";
import { shadowResponseSchema, type ShadowResponse } from "@/lib/schema/api/shadow";
import { api, clientFor, okBody } from "../api/helpers";
import { put } from "../answer/records";
import { writeClockSample } from "../../support/clock-samples";
import { keys } from "@/lib/schema/keys";
import { metricNamesOf, parseExposition, promtool, sampleValue, type Sample } from "./exposition";
import { until } from "../../support/observe";

let client: Etcd3;
let app: RunningApp;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  const prefix = testPrefix("ops-metrics");
  const now = Date.now();
  // revision-clock samples around the seed date it 20 to 30 minutes back: incident/stalled-merge
  // started then and never reported progress (longer than its 600 s idle timeout: stalled) ...
  await writeClockSample(client, prefix, now - 30 * 60_000);
  await seedScenarios(client, ["realistic", "incidents"], { prefix, now, leaseTtlSec: 3600 });
  await writeClockSample(client, prefix, now - 20 * 60_000);
  // ... while incident/merging's sequence increases now (advancing: held)
  await writeClockSample(client, prefix, Date.now());
  await put(client, keys.mergeProgress(prefix, INCIDENT.mergingExecutionId), { sequence: 13 });
  await writeClockSample(client, prefix, Date.now());
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

/** The code of a table's skip verdict, null when it would place. */
const skipCode = (t: TableSummary) => (t.verdict.state === "would_skip" ? t.verdict.code : null);

async function exposition(): Promise<string> {
  const res = await fetch(`${app.url}/api/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** Every table of a listing: the first page live, the rest by its cursor (same revision and now). */
async function allTables(first: DemandList): Promise<TableSummary[]> {
  const tables = [...first.tables];
  for (let cursor = first.next_cursor; cursor !== null;) {
    const page = await okBody(
      app.url,
      `/api/v1/scheduler/demand?cursor=${encodeURIComponent(cursor)}`,
      demandListSchema,
    );
    tables.push(...page.tables);
    cursor = page.next_cursor;
  }
  return tables;
}

/**
 * The metrics and the API answers of one live plan: the demand list's `now_ms` names the
 * plan, so a scrape between two lists with the same `now_ms` came from that plan too.
 */
async function samePlan(): Promise<{
  samples: Sample[];
  demand: DemandList;
  tables: TableSummary[];
  executors: ExecutorsResponse;
  failures: FailuresResponse;
  shadow: ShadowResponse;
}> {
  let result: Awaited<ReturnType<typeof samePlan>> | null = null;
  const list = "/api/v1/scheduler/demand?include_idle=true&limit=2000";
  await until(
    async () =>
      (await (async () => {
        const before = await okBody(app.url, list, demandListSchema);
        const samples = parseExposition(await exposition());
        const [executors, failures, shadow, after] = await Promise.all([
          okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema),
          okBody(app.url, "/api/v1/scheduler/failures", failuresResponseSchema),
          okBody(app.url, "/api/v1/scheduler/shadow", shadowResponseSchema),
          okBody(app.url, list, demandListSchema),
        ]);
        if (before.now_ms !== after.now_ms || shadow.now_ms !== after.now_ms) return false;
        result = { samples, demand: after, tables: await allTables(after), executors, failures, shadow };
        return true;
      })()) || undefined,
    90_000,
    { what: "a scrape and API answers from one live plan" },
  );
  return result!;
}

describe("GET /api/metrics", () => {
  it("passes promtool check metrics, names everything console_, and never labels by table", async () => {
    await api(app.url, "/api/v1/scheduler/demand"); // the first plan
    const text = await exposition();
    const { code, output } = promtool(["check", "metrics"], { input: text });
    expect(output).toBe("");
    expect(code).toBe(0);
    const samples = parseExposition(text);
    expect(samples.length).toBeGreaterThan(100);
    expect(samples.filter((s) => !s.name.startsWith("console_")).map((s) => s.name)).toEqual([]);
    const body = await okBody(app.url, "/api/v1/scheduler/demand?include_idle=true&limit=2000", demandListSchema);
    const targets = new Set<string>((await allTables(body)).map((t) => t.target));
    expect(targets.size).toBe(body.total_tables);
    expect(targets.size).toBeGreaterThan(13_405);
    // bounded: the series do not grow with the fleet (13,414 tables here)
    expect(samples.length).toBeLessThan(600);
    const labelled = samples.filter((s) => Object.values(s.labels).some((v) => targets.has(v)));
    expect(labelled).toEqual([]);
    const labelNames = new Set(samples.flatMap((s) => Object.keys(s.labels)));
    for (const forbidden of ["target", "table", "executor", "instance_id"])
      expect(labelNames.has(forbidden)).toBe(false);
  });

  it("fleet gauges equal the API's answers from the same live plan", async () => {
    const { samples, demand, tables, executors, failures, shadow } = await samePlan();
    const v = (name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels);
    expect(tables).toHaveLength(demand.total_tables);
    for (const [cls, n] of Object.entries(demand.counts.by_class))
      expect(v("console_tables", { class: cls }), cls).toBe(n);
    for (const [b, n] of Object.entries(demand.counts.by_backlog))
      expect(v("console_tables_backlog", { backlog: b }), b).toBe(n);
    expect(v("console_tables_with_pending")).toBe(demand.tables_with_pending);
    for (const cls of Object.keys(demand.counts.by_class)) {
      const waits = tables.flatMap((t) => (t.class === cls && t.wait_ms !== null ? [t.wait_ms / 1000] : []));
      expect(v("console_longest_wait_seconds", { class: cls }), cls).toBe(waits.length ? Math.max(...waits) : 0);
    }
    expect(v("console_tables_would_place")).toBe(tables.filter((t) => t.verdict.state === "would_place").length);
    const skipCodes = new Set(tables.map(skipCode).filter((c) => c !== null));
    for (const code of skipCodes)
      expect(v("console_tables_would_skip", { code }), code).toBe(tables.filter((t) => skipCode(t) === code).length);
    expect(skipCodes.size).toBeGreaterThan(1);
    for (const [state, code] of [
      ["held", "write_turn_held"],
      ["stalled", "write_turn_stalled"],
    ]) {
      expect(v("console_write_turns", { state })).toBe(tables.filter((t) => skipCode(t) === code).length);
    }
    // starving: a unit waited at least its kind's max_turn_wait_secs (§4.2), per the table's own answer
    // A table's wait is its offered unit's: another unit may have waited longer only when the
    // offered one is not a merge (commit_ready, recovery, maintenance) or has no known wait.
    // Those, and the ones that waited at least the shortest limit, are asked for their units.
    const shortestLimitMs =
      1000 * Math.min(...Object.values(BUILTIN_POLICY.max_turn_wait_secs as Record<string, number>));
    const mergeClasses = new Set(["critical", "normal", "tail", "idle"]);
    const candidates = tables.filter(
      (t) => (t.wait_ms === null ? t.class !== "idle" : t.wait_ms >= shortestLimitMs) || !mergeClasses.has(t.class),
    );
    const details = await Promise.all(
      candidates.map((t) =>
        okBody(
          app.url,
          `/api/v1/scheduler/demand?target=${encodeURIComponent(t.target)}&now_ms=${demand.now_ms}`,
          demandDetailSchema,
        ),
      ),
    );
    const turnWaits = z.object({ max_turn_wait_secs: z.partialRecord(z.string(), z.number()) });
    const starving = details.filter(({ table }) =>
      table.units.some((u) => {
        const limit = turnWaits.parse(table.policy.effective).max_turn_wait_secs[u.kind];
        return limit !== undefined && u.wait_ms !== null && u.wait_ms >= limit * 1000;
      }),
    );
    expect(v("console_tables_starving")).toBe(starving.length);
    expect(starving.length).toBeGreaterThan(0);

    const rows = executors.executors;
    expect(v("console_executors", { state: "live" })).toBe(rows.filter((e) => !e.orphan && !e.draining).length);
    expect(v("console_executors", { state: "draining" })).toBe(executors.totals.draining);
    expect(v("console_executors", { state: "orphan" })).toBe(executors.totals.orphans);
    // `free` as every verdict uses it, the parts' one name (console-api.md "One capacity")
    for (const [kind, h] of Object.entries(executors.totals.slots))
      expect(v("console_executor_free_slots", { kind }), kind).toBe(h.free);
    expect(v("console_executor_free_bytes")).toBe(executors.totals.bytes.free);

    expect(v("console_failures_needing_attention")).toBe(failures.failures.filter((f) => f.needs_attention).length);
    expect(v("console_cooldowns_active")).toBe(failures.cooldowns.filter((c) => c.cooling).length);
    for (const [outcome, n] of Object.entries(shadow.outcomes))
      expect(v("console_shadow_outcome", { outcome }), outcome).toBe(n);
    expect(v("console_shadow_disagreements")).toBe(shadow.disagreements);
    // no table of this fleet has a policy in mode planner: the legacy-mode outcomes are all of them
    for (const outcome of ["discovery_miss", "phantom_task"] as const)
      expect(v("console_shadow_outcome_legacy_mode", { outcome }), outcome).toBe(shadow.outcomes[outcome]);

    expect(v("console_snapshot_live")).toBe(1);
    expect(v("console_snapshot_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(v("console_snapshot_age_seconds")).toBeLessThan(15);
    expect(v("console_fleet_plan_age_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("the incidents fleet gives the alertable gauges something to show", async () => {
    const { samples } = await samePlan();
    const v = (name: string, labels: Record<string, string> = {}) => sampleValue(samples, name, labels);
    expect(v("console_failures_needing_attention")).toBeGreaterThan(0);
    expect(v("console_executors", { state: "live" })).toBeGreaterThan(0);
    expect(v("console_executors", { state: "draining" })).toBeGreaterThan(0);
    expect(v("console_executors", { state: "orphan" })).toBeGreaterThan(0);
    expect(v("console_cooldowns_active")).toBeGreaterThan(0);
    // incident/merging's sequence just increased (held); incident/stalled-merge started 25 minutes
    // ago and never reported progress (stalled)
    expect(v("console_write_turns", { state: "held" })).toBeGreaterThan(0);
    expect(v("console_write_turns", { state: "stalled" })).toBeGreaterThan(0);
    expect(v("console_tables", { class: "critical" })).toBeGreaterThan(0);
    expect(v("console_longest_wait_seconds", { class: "critical" })).toBeGreaterThan(3600);
  });
});

describe("the Grafana dashboard", () => {
  const dashboard = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../ops/grafana/console.json"), "utf8"));

  it("queries only metrics the console exports", async () => {
    const exported = new Set(parseExposition(await exposition()).map((s) => s.name));
    const queries: Array<{ where: string; expr: string }> = [];
    for (const panel of dashboard.panels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const t of panel.targets) queries.push({ where: `${panel.title} ${t.refId}`, expr: t.expr });
    }
    for (const variable of dashboard.templating.list)
      if (variable.type === "query")
        queries.push({
          where: `$${variable.name}`,
          expr: variable.query.query.replace(/^label_values\((\w+),.*$/, "$1"),
        });
    const missing: string[] = [];
    for (const { where, expr } of queries) {
      const names = metricNamesOf(expr);
      expect(names.length, `${where}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) if (!exported.has(name)) missing.push(`${where}: ${name}`);
    }
    expect(missing).toEqual([]);
    const titles = dashboard.panels.map((p: any) => p.title);
    for (const wanted of [
      "Fleet by class",
      "Longest wait by class",
      "Starving tables",
      "Executor headroom: free slots",
      "Shadow outcomes",
      "Request latency (p50, p95, p99)",
    ])
      expect(titles).toContain(wanted);
  });
});

// Other moments answered off the request thread (console-api.md "Additions (fourth version)",
// Overload and memory; lib/live/offload-pool.ts): two real consoles on one etcd, seeded with
// the `incidents` fleet and then changed step by step before either started. One answers
// reads of those revisions and diffs in its offload worker (CONSOLE_OFFLOAD=worker, the
// default), the other on its request thread (CONSOLE_OFFLOAD=thread). Every offloaded route
// gives the same status and the same bytes from both (but what is per process by design),
// the worker's pinned views count in health and its reads in /api/metrics, a cacheable
// answer revalidates to 304, the live view is still answered on the request thread, and a
// history's points on whole fleets are planned in the worker to the same bytes.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { sharedEtcd } from "../../support/shared-etcd";
import { seedScenarios } from "@/lib/sim/seed";
import { healthResponseSchema } from "@/lib/schema/api/health";
import { demandListSchema } from "@/lib/schema/api/demand";
import { demandEventPuts, heartbeatPut } from "../../support/fleet-records";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { clientFor, metricSum, okBody, sameness } from "./helpers";

const P = testPrefix("offload");
let client: Etcd3;
let worker: RunningApp;
let thread: RunningApp;
/** revisions before the consoles started, each a different fleet */
const past: number[] = [];
/** the table the steps move */
const MOVING = "offload/moving";

beforeAll(async () => {
  client = clientFor(sharedEtcd());
  await seedScenarios(client, ["incidents"], { prefix: P, leaseTtlSec: 3600 });
  for (let i = 0; i < 3; i++) {
    // a table that moves at each step: its history has a point at each
    const [moving] = demandEventPuts(P, [MOVING], 1, 10 + i);
    await client.put(moving!.key).value(moving!.value).exec();
    const executor = heartbeatPut(P, `offload-${i}`, 2 + i);
    const put = await client.put(executor.key).value(executor.value).exec();
    past.push(Number(put.header.revision));
  }
  // a malformed record at the last revision: skipped and counted, wherever the answer is made
  const bad = await client.put(`${P}/executors/offload-broken`).value("{not json").exec();
  past.push(Number(bad.header.revision));
  const live = heartbeatPut(P, "offload-live", 1);
  await client.put(live.key).value(live.value).exec();
  const env = { ETCD_ENDPOINTS: sharedEtcd(), ETCD_PREFIX: P, NEXT_TELEMETRY_DISABLED: "1" };
  [worker, thread] = await Promise.all([
    startApp({ ...env, CONSOLE_OFFLOAD: "worker" }),
    startApp({ ...env, CONSOLE_OFFLOAD: "thread" }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([worker?.stop(), thread?.stop()]);
  await client?.delete().prefix(P).exec();
  client?.close();
});

interface Raw {
  status: number;
  text: string;
  etag: string | null;
}

async function raw(app: RunningApp, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await fetch(`${app.url}${path}`, { headers, signal: AbortSignal.timeout(60_000) });
  return { status: res.status, text: await res.text(), etag: res.headers.get("etag") };
}

const offloaded = (app: RunningApp, labels: Record<string, string> = {}) =>
  metricSum(app.url, "console_offloaded_jobs_total", labels);

describe("other moments answered in the offload worker", () => {
  it("give every offloaded route the bytes the request thread gives", async () => {
    const first = await okBody(worker.url, `/api/v1/scheduler/demand?revision=${past[0]}&limit=5`, demandListSchema);
    const target = first.tables[0]!.target;
    const paths: string[] = [];
    for (const r of past) {
      paths.push(
        `/api/v1/scheduler/demand?revision=${r}&limit=5&sort=target`,
        `/api/v1/scheduler/demand?revision=${r}&target=${encodeURIComponent(target)}`,
        `/api/v1/scheduler/demand?revision=${r}&target=no-such-table`,
        `/api/v1/scheduler/executors?revision=${r}`,
        `/api/v1/scheduler/shadow?revision=${r}`,
        `/api/v1/scheduler/assignments?revision=${r}`,
        `/api/v1/scheduler/failures?revision=${r}`,
        `/api/v1/scheduler/skipped?revision=${r}`,
        `/api/v1/scheduler/demand?revision=${r}&limit=5&now_ms=1800000000000`,
      );
    }
    paths.push(
      `/api/v1/scheduler/diff?from=${past[0]}&to=${past.at(-1)}`,
      `/api/v1/scheduler/diff?from=${past[1]}&to=${past[2]}`,
    );
    // the next page of a pinned list continues at its cursor's revision
    const page = JSON.parse((await raw(worker, paths[0]!)).text) as { next_cursor: string | null };
    expect(page.next_cursor).not.toBeNull();
    paths.push(`/api/v1/scheduler/demand?cursor=${page.next_cursor}`);

    const before = { worker: await offloaded(worker), thread: await offloaded(thread) };
    const statuses = new Set<number>();
    for (const path of paths) {
      const [w, t] = await Promise.all([raw(worker, path), raw(thread, path)]);
      statuses.add(w.status);
      expect(sameness(w), path).toEqual(sameness(t));
      // asked again: from the worker's byte cache and held view, the same bytes
      expect(await raw(worker, path), path).toEqual(w);
    }
    // answers and typed errors both travel back from the worker
    expect([...statuses].sort()).toEqual([200, 404]);
    // each of them was the worker's, twice (the first list's page at past[0] before them), none on the other console
    expect(await offloaded(worker)).toBe(before.worker + 2 * paths.length);
    expect(await offloaded(thread)).toBe(before.thread);
  }, 300_000);

  it("keep the worker's views within the budget, counted in health and in the metrics", async () => {
    for (const r of past) expect((await raw(worker, `/api/v1/scheduler/executors?revision=${r}`)).status).toBe(200);
    const health = await okBody(worker.url, "/api/v1/health", healthResponseSchema);
    expect(health.memory.pinned_views).toBeGreaterThan(0);
    // the worker's full reads are in the process's counters, summed with the request thread's
    expect(await metricSum(worker.url, "console_pinned_views_total", { path: "read" })).toBeGreaterThanOrEqual(
      past.length,
    );
    const text = await (await fetch(`${worker.url}/api/metrics`)).text();
    expect(text.match(/^# TYPE console_pinned_views_total counter$/gm)).toHaveLength(1);
  });

  it("revalidate a worker's cacheable answer to 304, and answer the live view on the request thread", async () => {
    const path = `/api/v1/scheduler/demand?revision=${past[2]}&limit=5`;
    const first = await raw(worker, path);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^"[\w-]{32}"$/);
    const again = await raw(worker, path, { "if-none-match": first.etag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const before = await offloaded(worker);
    const live = await raw(worker, "/api/v1/scheduler/demand?limit=5");
    expect(live.status).toBe(200);
    expect(await offloaded(worker)).toBe(before);
  });

  it("plan a history's points on whole fleets in the worker, to the same points", async () => {
    // the last 6 h: the steps were before either console started, so the journal does not
    // cover them and each of their points is re-planned; the window's end is each request's now
    const path = `/api/v1/scheduler/demand/history?target=${encodeURIComponent(MOVING)}`;
    const before = await offloaded(worker, { job: "history_point" });
    const [w, t] = await Promise.all([raw(worker, path), raw(thread, path)]);
    expect(t.status, t.text.slice(0, 300)).toBe(200);
    expect(w.status, w.text.slice(0, 300)).toBe(200);
    const points = (r: Raw) => (JSON.parse(r.text) as { points: { basis: string; revision: number }[] }).points;
    expect(points(w)).toEqual(points(t));
    const planned = points(w).filter((p) => p.basis === "fleet_plan" && p.revision <= past.at(-1)!).length;
    expect(planned).toBe(3);
    // one job per point at least (a revision where the table did not exist yet is a job, not a point)
    expect(await offloaded(worker, { job: "history_point" })).toBeGreaterThanOrEqual(before + planned);
    expect(await offloaded(thread, { job: "history_point" })).toBe(0);
  }, 120_000);

  it("run the worker's thread at a lower CPU priority than the request thread", async () => {
    // a job now: the worker is running (it stops after 30 s idle)
    expect((await raw(worker, `/api/v1/scheduler/executors?revision=${past[0]}`)).status).toBe(200);
    const pid = worker.process.pid!;
    const nice = (tid: string | number) =>
      Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
    const base = nice(pid); // the request thread's (the process's own)
    const lowered = fs.readdirSync(`/proc/${pid}/task`).filter((tid) => nice(tid) === Math.min(19, base + 10));
    expect(lowered).toHaveLength(1);
  });
});

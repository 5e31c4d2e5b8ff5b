// A restart of the only console during a stalled merge flags the stall at once (console-api.md
// fourth version "The same answer from any replica, at any uptime"; issue 45 "Done when").
// An execution holds a table's write turn; its merge-progress sequence climbs while the
// console watches, then stops. The revision clock's samples (written here, as the elected
// sampler writes them; the consoles' own sampler is off) date those increases 25 minutes
// back, past the 10-minute idle timeout. The console flags the stall from etcd's history,
// and a console started afterwards flags it in its very first answer: no field waits for
// the process to have watched anything.
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { z } from "zod";
import { demandDetailSchema, demandListSchema } from "@/lib/schema/api/demand";
import { executorsResponseSchema } from "@/lib/schema/api/executors";
import { keys } from "@/lib/schema/keys";
import { startApp, type RunningApp } from "../../support/app";
import { betweenSamples, writeClockSample } from "../../support/clock-samples";
import { testPrefix } from "../../support/prefix";
import { executionRecord } from "../../support/fleet-records";
import { until } from "../../support/observe";
import { clientFor, okBody, q } from "../api/helpers";
import { demandTable, heartbeat, put } from "../answer/records";

const TARGET = "restart/merging";
const EXECUTION = "exec-restart-1";
const MINUTE = 60_000;

let client: Etcd3;
let prefix: string;
let env: Record<string, string>;
const apps: RunningApp[] = [];
/** when the clock says the progress increases were written (the middle of the two samples around them) */
let progressMs: number;
/** the revision of the last increase (the sequence was re-put unchanged after it), and of that last write */
let lastIncrease: number;
let lastWrite: number;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("restart-stall");
  env = { ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" };
  const now = Date.now();
  const before = now - 30 * MINUTE;
  await writeClockSample(client, prefix, before);
  await put(client, keys.executor(prefix, "worker-1"), heartbeat("worker-1", { heartbeat_ms: now }));
  await demandTable(client, prefix, TARGET, 40, now - 40 * MINUTE);
  await put(
    client,
    keys.mergeExecution(prefix, TARGET),
    executionRecord(EXECUTION, TARGET, { endpoint: "http://worker-1:8080", instance: "worker-1" }),
  );
  await put(client, keys.targetLock(prefix, TARGET), `merge-execution:${EXECUTION}`);
  await put(client, keys.mergeProgress(prefix, EXECUTION), { sequence: 1 });
  apps.push(await startApp(env));
  // the first console watches the sequence climb, then a rewrite that does not increase it
  for (const sequence of [2, 3]) lastIncrease = await put(client, keys.mergeProgress(prefix, EXECUTION), { sequence });
  lastWrite = await put(client, keys.mergeProgress(prefix, EXECUTION), { sequence: 3 });
  const after = now - 20 * MINUTE;
  await writeClockSample(client, prefix, after);
  progressMs = betweenSamples(before, after);
});

afterAll(async () => {
  for (const app of apps) await app.stop();
  client?.close();
});

const turnDetail = z.object({
  progress: z.string(),
  sequence: z.number().nullable(),
  last_progress_ms: z.number().nullable(),
  last_progress_bound: z.string().optional(),
});

/** What a console says of the merge, live (its own clock): the verdict, the list row and the executors page. */
async function liveAnswer(app: RunningApp) {
  const detail = (await okBody(app.url, `/api/v1/scheduler/demand${q({ target: TARGET })}`, demandDetailSchema)).table;
  const row = (await okBody(app.url, `/api/v1/scheduler/demand${q({ q: TARGET })}`, demandListSchema)).tables.find(
    (t) => t.target === TARGET,
  );
  const executors = await okBody(app.url, "/api/v1/scheduler/executors", executorsResponseSchema);
  return {
    written: detail.legacy.progress.sequence_mod_revision,
    code: detail.verdict.state === "would_skip" ? detail.verdict.code : "placed",
    turn: turnDetail.parse(detail.why_not[0]?.detail),
    legacy: {
      progress: detail.legacy.execution?.progress,
      last_progress_revision: detail.legacy.execution?.last_progress_revision,
    },
    row: row?.execution?.progress,
    executor: executors.executors.find((e) => e.id === "worker-1")?.executions.map((e) => e.progress),
  };
}

const stalled = () => ({
  written: lastWrite,
  code: "write_turn_stalled",
  turn: { progress: "stalled", sequence: 3, last_progress_ms: progressMs, last_progress_bound: "exact" },
  legacy: { progress: "stalled", last_progress_revision: lastIncrease },
  row: "stalled",
  executor: ["stalled"],
});

describe("a merge whose progress stopped 25 minutes ago", () => {
  it("the console that watched it climb says stalled, dated from etcd's history", async () => {
    // the first console answers once it holds the last write (its watch brings it)
    const seen = await until(
      async () => {
        // (and its revision clock has read the sample after them, which dates them: within a second)
        const a = await liveAnswer(apps[0]);
        return a.written === lastWrite && a.turn.last_progress_ms === progressMs ? a : undefined;
      },
      15_000,
      { what: "the first console to hold the last progress write" },
    );
    expect(seen.value).toEqual(stalled());
  });

  it("a console started after a restart flags the stall in its first answer", async () => {
    await apps[0].stop();
    apps.push(await startApp(env));
    // no wait: the first answer after the start (readiness is its first read and plan)
    expect(await liveAnswer(apps[1])).toEqual(stalled());
    const message = (await okBody(apps[1].url, `/api/v1/scheduler/demand${q({ target: TARGET })}`, demandDetailSchema))
      .table.why_not[0].message;
    expect(message).toContain(`merge-progress sequence 3, not advanced for`);
    expect(message).toContain("(idle timeout 10m 00s)");
  });
});

// The same answer from any replica, at any uptime (console-api.md fourth version; issue 45
// "Done when"). One console starts and watches a merge advance; a second starts later. At
// the same pinned revision and `now_ms` every read endpoint answers byte for byte the same
// on both (and the live ones too, once both hold the same head revision), except the fields
// that are per process by design: `read_at_ms`, `snapshot.age_ms`, listing names, cursors.
// A preview served by one replica is saved on the other: it lands after a table's own motion
// and is refused (409, with what changed) after a material change, as on the replica that
// served it.
//
// The revision clock is fixed by samples written here (as the elected sampler writes them;
// the consoles' own sampler is off), so every revision compared lies between two samples and
// both consoles date it alike (console-api.md "Time").
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { keys } from "@/lib/schema/keys";
import { previewResponseSchema, policyErrorBodySchema } from "@/lib/schema/api/policies";
import { startApp, type RunningApp } from "../../support/app";
import { betweenSamples, headRevision, writeClockSample } from "../../support/clock-samples";
import { getJson, until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { executionRecord } from "../../support/fleet-records";
import { clientFor } from "../api/helpers";
import { put } from "../answer/records";
import { EXECUTOR_ID, seedPolicyFleet, seedTables } from "../policies/fleet";
import { call, policyPath, writtenFingerprint } from "../policies/helpers";

const ADMIN = "two-consoles-admin-token-0123456789";
const DUE = "replica/due";
const HOT = "replica/hot";
const MERGING = "replica/merging";
const STALLED = "replica/stalled";
const MERGING_EXECUTION = "exec-two-1";
const STALLED_EXECUTION = "exec-two-2";
const STARVING_DEFAULT = { merge: { min_generations: 100_000, critical_generations: 100_000 } };

let client: Etcd3;
let prefix: string;
let env: Record<string, string>;
let first: RunningApp;
let second: RunningApp;
/** the clock samples: before the fleet was seeded, after the merge advanced, at the pin */
const samples: { atMs: number; revision: number }[] = [];
let pinned: number;
let nowMs: number;

/**
 * The answer without what is per process by design: when it was read, the cache's age,
 * the listing's name and the cursors that carry it (console-api.md fourth version).
 */
function perAnswer(v: unknown, parent = ""): unknown {
  if (Array.isArray(v)) return v.map((x) => perAnswer(x));
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .filter(
          ([k]) =>
            k !== "read_at_ms" &&
            k !== "listing" &&
            k !== "next_cursor" &&
            k !== "cursor" &&
            !(parent === "snapshot" && k === "age_ms"),
        )
        .map(([k, x]) => [k, perAnswer(x, k)]),
    );
  return v;
}

/** Both consoles' answers to `path`, compared as bytes once the per-process fields are left out. */
async function sameOnBoth(path: string): Promise<{ status: number; body: unknown }> {
  const [a, b] = await Promise.all([getJson(`${first.url}${path}`), getJson(`${second.url}${path}`)]);
  expect(a.status, `${path}: ${JSON.stringify(a.body).slice(0, 300)}`).toBe(b.status);
  const [x, y] = [perAnswer(a.body), perAnswer(b.body)];
  expect(y, path).toEqual(x);
  expect(JSON.stringify(y), path).toBe(JSON.stringify(x)); // the same order too: the same bytes
  return { status: a.status, body: a.body };
}

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("two-consoles");
  env = {
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_SESSION_SECRET: "two-consoles-shared-session-secret-0123456789",
    CONSOLE_SHADOW_SAMPLER: "off",
  };
  const putKv = (k: string, v: string) => put(client, k, v);
  const seededAt = Date.now();
  samples.push({ atMs: seededAt - 60_000, revision: await writeClockSample(client, prefix, seededAt - 60_000) });
  await seedPolicyFleet(putKv, prefix, seededAt);
  await seedTables(putKv, prefix, seededAt, { [DUE]: 20, [HOT]: 300, [MERGING]: 40, [STALLED]: 30 });
  // two executions hold write turns: one whose progress climbs, one that never reported any
  for (const [id, target] of [
    [MERGING_EXECUTION, MERGING],
    [STALLED_EXECUTION, STALLED],
  ]) {
    await put(
      client,
      keys.mergeExecution(prefix, target),
      executionRecord(id, target, { endpoint: "http://master-0:8080", instance: EXECUTOR_ID }),
    );
    await put(client, keys.targetLock(prefix, target), `merge-execution:${id}`);
  }
  await put(client, keys.mergeProgress(prefix, MERGING_EXECUTION), { sequence: 1 });
  first = await startApp(env);
  // the first console watches the merge advance
  for (const sequence of [2, 3, 4]) {
    await put(client, keys.mergeProgress(prefix, MERGING_EXECUTION), { sequence });
    await until(
      async () => {
        const r = await getJson<{ table: { execution: { sequence: number | null } | null } }>(
          `${first.url}/api/v1/scheduler/demand?target=${encodeURIComponent(MERGING)}`,
        );
        return r.body.table?.execution?.sequence === sequence || undefined;
      },
      15_000,
      { what: `the first console to see sequence ${sequence}` },
    );
  }
  const advancedAt = Date.now();
  samples.push({ atMs: advancedAt, revision: await writeClockSample(client, prefix, advancedAt) });
  second = await startApp(env);
  pinned = await put(client, `${prefix}/unrelated/pin`, "1");
  const pinnedAt = Date.now();
  samples.push({ atMs: pinnedAt, revision: await writeClockSample(client, prefix, pinnedAt, pinned) });
  nowMs = pinnedAt + 90_000;
  // both consoles date the pin alike once each has read the samples around it
  const expected = betweenSamples(samples[1].atMs, pinnedAt);
  for (const app of [first, second])
    await until(
      async () =>
        (await getJson<{ at_ms: number }>(`${app.url}/api/v1/revisions/time?revision=${pinned}`)).body.at_ms ===
          expected || undefined,
      10_000,
      { what: `${app.url} to date revision ${pinned} from the samples around it` },
    );
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  client?.close();
});

describe("two consoles, one started after the other watched a merge advance", () => {
  it("every read endpoint answers the same at the same pinned revision and now_ms", async () => {
    const at = `revision=${pinned}&now_ms=${nowMs}`;
    const one = (target: string) => `/api/v1/scheduler/demand?target=${encodeURIComponent(target)}&${at}`;
    const paths = [
      `/api/v1/scheduler/demand?limit=2000&include_idle=true&${at}`,
      `/api/v1/scheduler/demand?limit=2&sort=pending&order=desc&${at}`,
      ...[MERGING, STALLED, DUE, HOT].map(one),
      `/api/v1/scheduler/executors?${at}`,
      `/api/v1/scheduler/assignments?${at}`,
      `/api/v1/scheduler/shadow?${at}`,
      `/api/v1/scheduler/failures?${at}`,
      `/api/v1/scheduler/skipped?${at}`,
      `/api/v1/policies?revision=${pinned}`,
      `/api/v1/policies/_default?revision=${pinned}`,
      `/api/v1/audit?revision=${pinned}`,
      `/api/v1/fleet/masters?${at}`,
      `/api/v1/fleet/facts?window_ms=3600000&${at}`,
      `/api/v1/canary?window_ms=3600000&${at}`,
      `/api/v1/revisions/time?revision=${pinned}`,
      `/api/v1/revisions/time?at_ms=${samples[1].atMs}`,
      `/api/v1/revisions/change?scope=tables&revision=${pinned}&direction=back`,
      `/api/v1/revisions/change?scope=table&target=${encodeURIComponent(MERGING)}&revision=${pinned}&direction=back`,
      `/api/v1/scheduler/diff?from=${samples[0].revision + 1}&to=${pinned}`,
      `/api/v1/scheduler/demand/history?target=${encodeURIComponent(MERGING)}&from_ms=${samples[0].atMs}&to_ms=${samples[1].atMs}`,
      `/api/v1/scheduler/demand/history?target=${encodeURIComponent(STALLED)}&from_ms=${samples[0].atMs}&to_ms=${samples[1].atMs}`,
      `/api/v1/scheduler/shadow/history?from_ms=${samples[0].atMs}&to_ms=${samples[2].atMs}`,
      `/api/v1/journal/coverage`,
      `/api/v1/scheduler/reasons?from_ms=${samples[0].atMs}&to_ms=${samples[1].atMs}`,
    ];
    for (const path of paths) await sameOnBoth(path);

    // what the answers agree on is the merge's progress as etcd's history dates it
    const merging = (await sameOnBoth(one(MERGING))).body as {
      table: { why_not: { detail: Record<string, unknown> }[]; legacy: { execution: Record<string, unknown> } };
    };
    const advanced = betweenSamples(samples[0].atMs, samples[1].atMs);
    expect(merging.table.why_not[0].detail).toMatchObject({
      progress: "advancing",
      sequence: 4,
      last_progress_ms: advanced,
      last_progress_bound: "exact",
    });
    const stalled = (await sameOnBoth(one(STALLED))).body as typeof merging;
    // no progress record: counted from when the execution started (its record's creation), not from a process start
    expect(stalled.table.why_not[0].detail).toMatchObject({
      progress: "unknown",
      sequence: null,
      last_progress_ms: advanced,
    });
    const history = (
      await sameOnBoth(
        `/api/v1/scheduler/demand/history?target=${encodeURIComponent(MERGING)}&from_ms=${samples[0].atMs}&to_ms=${samples[1].atMs}`,
      )
    ).body as { verdict_basis: string; points: unknown[] };
    expect(history.verdict_basis).toBe("fleet_plan");
    expect(history.points.length).toBeGreaterThan(0);
  });

  it("the live answers agree once both hold the same head revision", async () => {
    const head = await headRevision(client, prefix);
    for (const app of [first, second])
      await until(
        async () =>
          (await getJson<{ revision: number }>(`${app.url}/api/v1/scheduler/demand?now_ms=${nowMs}`)).body.revision ===
            head || undefined,
        10_000,
        { what: `${app.url} to hold revision ${head}` },
      );
    for (const path of [
      `/api/v1/scheduler/demand?limit=2000&include_idle=true&now_ms=${nowMs}`,
      `/api/v1/scheduler/demand?target=${encodeURIComponent(MERGING)}&now_ms=${nowMs}`,
      `/api/v1/scheduler/demand?target=${encodeURIComponent(STALLED)}&now_ms=${nowMs}`,
      `/api/v1/scheduler/executors?now_ms=${nowMs}`,
      `/api/v1/scheduler/shadow?now_ms=${nowMs}`,
      `/api/v1/scheduler/failures?now_ms=${nowMs}`,
    ])
      await sameOnBoth(path);
  });

  it("a preview served by one console saves on the other after a table's own motion", async () => {
    const reviewed = previewResponseSchema.parse(
      (await call(second.url, "POST", `${policyPath("_default")}/preview`, { token: ADMIN, body: STARVING_DEFAULT }))
        .body,
    );
    expect(reviewed.summary.placements_lost).toBe(2);
    // a new due table appears behind the placed ones: the reviewed rule demotes it too, as reviewed
    await seedTables((k, v) => put(client, k, v), prefix, Date.now(), { "replica/new-due": 15 });
    const saved = await call(first.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: STARVING_DEFAULT,
      ifMatch: 0,
      headers: { "x-preview-digest": reviewed.digest },
    });
    expect(saved.status, JSON.stringify(saved.body).slice(0, 400)).toBe(200);
    const restored = await call(second.url, "PUT", policyPath("_default"), {
      token: ADMIN,
      body: {},
      ifMatch: saved.body.mod_revision,
      reason: "restore the built-in thresholds",
    });
    expect(restored.status).toBe(200);
  });

  it("after a material change the other console refuses the save with the changed sets the serving one names", async () => {
    const stored = (await call(first.url, "GET", policyPath("_default"))).body as { mod_revision: number };
    const reviewed = previewResponseSchema.parse(
      (await call(first.url, "POST", `${policyPath("_default")}/preview`, { token: ADMIN, body: STARVING_DEFAULT }))
        .body,
    );
    expect(reviewed.summary.placements_lost).toBe(2);
    // the executor starts draining: the due tables no longer lose a placement (they have none), though their records stood still
    const heartbeatKey = keys.executor(prefix, EXECUTOR_ID);
    const heartbeat = (await client.get(heartbeatKey).string())!;
    const drained = await put(client, heartbeatKey, JSON.stringify({ ...JSON.parse(heartbeat), draining: true }));
    for (const app of [first, second])
      await until(
        async () =>
          (await getJson<{ revision: number }>(`${app.url}/api/v1/scheduler/executors`)).body.revision >= drained ||
          undefined,
        10_000,
        { what: `${app.url} to see the executor drain` },
      );
    const before = await writtenFingerprint(client, prefix);
    const save = (app: RunningApp) =>
      call(app.url, "PUT", policyPath("_default"), {
        token: ADMIN,
        body: STARVING_DEFAULT,
        ifMatch: stored.mod_revision,
        headers: { "x-preview-digest": reviewed.digest },
      });
    const [elsewhere, there] = [await save(second), await save(first)];
    for (const refused of [elsewhere, there])
      expect(refused.status, JSON.stringify(refused.body).slice(0, 400)).toBe(409);
    const error = policyErrorBodySchema.parse(elsewhere.body).error;
    expect(error.code).toBe("preview_stale");
    expect(error.changed?.placements_lost).toEqual({ added: [], removed: [DUE, HOT] });
    expect(error.changed?.placements_gained).toEqual({ added: [], removed: [] });
    expect(error.reviewed_revision).toBe(reviewed.revision);
    // the same refusal on the replica that served the preview
    expect(perAnswer(elsewhere.body)).toEqual(perAnswer(there.body));
    expect(await writtenFingerprint(client, prefix)).toBe(before);
    await put(client, heartbeatKey, heartbeat);
  });
});

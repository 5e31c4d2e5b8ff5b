// The takeover gate and the canary evidence (console-api.md), against a real etcd and a real
// `next start`: homogeneity from seeded heartbeat versions, exact nearest-rank percentiles
// of seeded task durations, the canary report from seeded shadow-history samples, the gate
// refusing with each failing gate (etcd unchanged), and an override recorded in the audit.
import { randomBytes } from "node:crypto";
import type { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { keys } from "@/lib/schema/keys";
import { startApp, type RunningApp } from "../../support/app";
import { runCli } from "../../support/cli";
import { testPrefix } from "../../support/prefix";
import { until } from "../../support/observe";
import { seedTables } from "../policies/fleet";
import { DEFAULT_REASON, auditRecords, call, policyPath, writtenFingerprint } from "../policies/helpers";
import { formatTime } from "@/lib/schema/format";
import { canarySampleAt, journalChunkKv, journalEvaluation, sampleKv, taskKvs } from "./seed";

const ADMIN = `adm-${randomBytes(12).toString("hex")}`;
const prefix = testPrefix("takeover");
const TARGET = "takeover/orders";
let client: Etcd3;
let app: RunningApp;
let now = 0;
const HOUR = 3_600_000;
const put = async (k: string, v: string | Buffer) => Number((await client.put(k).value(v).exec()).header.revision);

const heartbeat = (instance: string, version: string) =>
  JSON.stringify({
    v: 1,
    kind: "resident_master",
    instance,
    version,
    kinds: ["merge_wal"],
    slots_total: { merge_wal: 2 },
    bytes_total: 0,
    bytes_free_sample: 0,
    draining: false,
    heartbeat_ms: now,
  });

async function setVersion(version: string, homogeneous: boolean): Promise<void> {
  await put(keys.executor(prefix, "master-b"), heartbeat("master-b", version));
  await until(
    async () =>
      (await (await call(app.url, "GET", "/api/v1/fleet/masters")).body.homogeneous) === homogeneous || undefined,
    20_000,
    { what: `homogeneous = ${homogeneous}` },
  );
}

const terminal = (args: string[]) => runCli(app.url, ADMIN, args);

const seedSamples = async (ks: number[]) => {
  for (const k of ks) await put(...sampleKv(prefix, now, k));
};
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = createRawEtcdClient({ endpoints: endpoints.split(","), callTimeoutMs: 10_000 });
  now = Date.now();
  await seedTables(put, prefix, now, { [TARGET]: 20, "takeover/idle": 0 });
  await put(keys.executor(prefix, "master-a"), heartbeat("master-a", "0.43.0"));
  await put(keys.executor(prefix, "master-b"), heartbeat("master-b", "0.42.0"));
  for (const kv of taskKvs(prefix, now, TARGET)) await put(...kv);
  app = await startApp({
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_SHADOW_SAMPLER: "off",
    CONSOLE_POLICY_AWARE_VERSION: "0.43.0",
    CONSOLE_TAKEOVER_MIN_DAYS: "1",
  });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

const planner = (headers: Record<string, string> = {}) =>
  call(app.url, "PUT", policyPath(TARGET), { token: ADMIN, body: { mode: "planner" }, ifMatch: 0, headers });
const gatesOf = (body: { error: { gates: Array<{ gate: string; ok: boolean }> } }) =>
  body.error.gates.map((g) => [g.gate, g.ok]);
const digestNow = async () => (await call(app.url, "GET", "/api/v1/canary?window_ms=86400000")).body.digest as string;

async function refused(headers: Record<string, string>, expected: Array<[string, boolean]>) {
  const before = await writtenFingerprint(client, prefix);
  const res = await planner(headers);
  expect([res.status, res.body?.error?.code]).toEqual([409, "takeover_not_ready"]);
  expect(gatesOf(res.body)).toEqual(expected);
  expect(await writtenFingerprint(client, prefix)).toBe(before);
  return res.body.error.gates as Array<{ gate: string; detail: string }>;
}

describe("the takeover gate and its evidence", () => {
  it("reads homogeneity from the masters' heartbeat versions", async () => {
    const res = await call(app.url, "GET", "/api/v1/fleet/masters");
    expect(res.status).toBe(200);
    expect({ ...res.body, revision: 0, now_ms: 0 }).toEqual({
      revision: 0,
      now_ms: 0,
      policy_aware_version: "0.43.0",
      masters: [
        { instance: "master-a", version: "0.43.0", policy_aware: true },
        { instance: "master-b", version: "0.42.0", policy_aware: false },
      ],
      homogeneous: false,
    });
  });

  it("answers the fleet facts with exact nearest-rank percentiles of the seeded task durations", async () => {
    const res = await call(app.url, "GET", `/api/v1/fleet/facts?window_ms=3600000&now_ms=${now}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.task_seconds).toEqual({
      compact: { count: 3, p50: 60, p90: 90, p99: 90 },
      merge_wal: { count: 25, p50: 8, p90: 18, p99: 20 },
    });
    expect(res.body.task_failure_share).toEqual({ compact: 0, merge_wal: 0.2 });
    expect([res.body.tables, res.body.hot_share]).toEqual([2, 0.5]);
    expect(res.body.generation_bytes).toEqual({ count: 1, p50: 50_000, p90: 50_000, p99: 50_000, max: 50_000 });
    expect(res.body.implies).toEqual({
      critical_generations: 20,
      max_turn_wait_secs: 200,
      expected_bytes: 134_217_728,
    });
    expect((await call(app.url, "GET", "/api/v1/fleet/facts?window_ms=5")).status).toBe(400);
  });

  it("refuses each failing gate and writes nothing; an override is audited with its reason", async () => {
    // no journal, a master behind, no evidence: every gate fails
    const all = await refused({}, [
      ["fleet_homogeneous", false],
      ["observed_days", false],
      ["evidence_read", false],
    ]);
    expect(all.map((g) => g.detail)).toEqual([
      "1 of 2 masters apply policies (0.43.0 or later); master-b runs 0.42.0.",
      "No shadow observations of takeover/orders in the decision journal yet; 1 days are needed.",
      "No X-Evidence-Digest: read the canary report (/canary) first; its digest comes with the save.",
    ]);
    // 20 hours of journal (the table planned throughout), every master upgraded, the report
    // read: only the observed days fail, and the gate says how many there are
    await put(
      ...journalChunkKv(prefix, {
        kind: "after_no_sampler",
        from_ms: now - 20 * HOUR,
        to_ms: now - 1000,
        evaluations: [
          journalEvaluation(100, now - 20 * HOUR, [TARGET, "takeover/idle"]),
          journalEvaluation(101, now - 3 * HOUR, [], ["takeover/idle"]),
        ],
      }),
    );
    await seedSamples(range(0, 312));
    await setVersion("0.43.0", true);
    const observed = await refused({ "x-evidence-digest": await digestNow() }, [
      ["fleet_homogeneous", true],
      ["observed_days", false],
      ["evidence_read", true],
    ]);
    expect(observed[1].detail).toBe(
      `0.8 of 1 days (19 hours so far) of shadow observations of takeover/orders in the decision journal (since ${formatTime(now - 20 * HOUR)}).`,
    );
    // 7 hours more, before a 1 h gap (no sampler); the table entered the plan an hour in:
    // 5 + 20 hours observed, the gap not counted. A master rolled back: only homogeneity fails
    await put(
      ...journalChunkKv(prefix, {
        kind: "after_no_sampler",
        from_ms: now - 27 * HOUR,
        to_ms: now - 21 * HOUR,
        evaluations: [
          journalEvaluation(50, now - 27 * HOUR, ["takeover/idle"]),
          journalEvaluation(51, now - 26 * HOUR, [TARGET]),
        ],
      }),
    );
    await setVersion("0.42.0", false);
    const rolledBack = await refused({ "x-evidence-digest": await digestNow() }, [
      ["fleet_homogeneous", false],
      ["observed_days", true],
      ["evidence_read", true],
    ]);
    expect(rolledBack[1].detail).toBe(
      `1 of 1 days of shadow observations of takeover/orders in the decision journal (since ${formatTime(now - 26 * HOUR)}; 1 gap in the journal not counted).`,
    );
    // per table: the idle table was planned 6 + 17 hours, less than a day; the fleet 6 + 20
    const gate = async (target: string) =>
      (await call(app.url, "GET", `/api/v1/takeover/gates?target=${encodeURIComponent(target)}`)).body.gates[1];
    expect(await gate("takeover/idle")).toEqual({
      gate: "observed_days",
      ok: false,
      detail: `0.9 of 1 days (23 hours so far) of shadow observations of takeover/idle in the decision journal (since ${formatTime(now - 27 * HOUR)}; 1 gap in the journal not counted).`,
    });
    expect(await gate("_default")).toEqual({
      gate: "observed_days",
      ok: true,
      detail: `1 of 1 days of shadow observations of the fleet in the decision journal (since ${formatTime(now - 27 * HOUR)}; 1 gap in the journal not counted).`,
    });
    // homogeneous again; a digest of no report read: only the evidence fails
    await setVersion("0.43.0", true);
    await refused({ "x-evidence-digest": "0".repeat(32) }, [
      ["fleet_homogeneous", true],
      ["observed_days", true],
      ["evidence_read", false],
    ]);
    // an override needs its own reason (422, nothing written) …
    const before = await writtenFingerprint(client, prefix);
    const noReason = await planner({ "x-override-gates": "evidence_read" });
    expect([noReason.status, noReason.body.error.code]).toEqual([422, "invalid_policy"]);
    expect(await writtenFingerprint(client, prefix)).toBe(before);
    // … and with it the save goes through, the audit naming the gate overridden
    const saved = await planner({
      "x-override-gates": "evidence_read",
      "x-override-reason": "incident 42: the report was read on paper",
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const audit = (await auditRecords(client, prefix)).filter((r) => r.target === TARGET);
    expect(audit.map((r) => [r.overridden_gates, r.override_reason])).toEqual([
      [["evidence_read"], "incident 42: the report was read on paper"],
    ]);
    // the audit API says it too
    const listed = (await call(app.url, "GET", `/api/v1/audit?target=${encodeURIComponent(TARGET)}`)).body;
    expect(listed.entries.map((e: Record<string, unknown>) => [e.overridden_gates, e.override_reason])).toEqual([
      [["evidence_read"], "incident 42: the report was read on paper"],
    ]);
    // the audit's `q` and the command line's `audit --search` find it by the override reason alone (the change's
    // own reason does not hold these words), and a text in neither reason finds nothing
    expect(DEFAULT_REASON.toLowerCase()).not.toContain("read on paper");
    const found = async (q: string) =>
      (
        await call(app.url, "GET", `/api/v1/audit?target=${encodeURIComponent(TARGET)}&q=${encodeURIComponent(q)}`)
      ).body.entries.map((e: { id: string }) => e.id);
    const id = listed.entries[0].id as string;
    expect(await found("READ ON PAPER")).toEqual([id]);
    expect(await found("exercising the policy")).toEqual([id]);
    expect(await found("no reason says this")).toEqual([]);
    const cli = await terminal(["audit", "--table", TARGET, "--search", "Read On Paper"]);
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toContain(`changed ${TARGET}`);
    expect(cli.out).toContain("overrode the takeover gates evidence_read: “incident 42: the report was read on paper”");
    const none = await terminal(["audit", "--table", TARGET, "--search", "no reason says this"]);
    expect(none.out).toContain(": 0 entries, newest first");
    expect(none.out).not.toContain(`changed ${TARGET}`);
  });

  it("reports the canary window as observations: levels, trend, agreement, chronic tables", async () => {
    const res = await call(app.url, "GET", "/api/v1/canary?window_ms=3600000");
    expect(res.status).toBe(200);
    const r = res.body;
    expect([r.from_ms, r.to_ms, r.samples, r.enough_data]).toEqual([now - 1000 - 3_600_000, now - 1000, 12, false]);
    // one more miss every 5 minutes: 288 a day (the slope rounded to a millionth: a float)
    expect({
      ...r.outcomes.discovery_miss,
      trend_per_day: Math.round(r.outcomes.discovery_miss.trend_per_day * 1e6) / 1e6,
    }).toEqual({ mean: 234.5, first: 229, last: 240, trend_per_day: 288 });
    expect(r.outcomes.phantom_task).toEqual({ mean: 0, first: 0, last: 0, trend_per_day: 0 });
    expect(r.agreement).toEqual({ placements_agree_share: 0.75, samples: 12 });
    expect(r.chronic).toEqual([
      { target: "t/chronic", outcome: "discovery_miss", share: 1, samples: 12, in_planner_mode: false },
    ]);
    // the seeded samples predate the planner-mode count: every miss is a legacy-mode table's
    expect(r.legacy_mode.discovery_miss).toEqual(r.outcomes.discovery_miss);
    expect(r.rising).toEqual(["discovery_miss"]);
    // now: the one due table, put in mode planner by the override above, is a miss in planner mode
    expect([r.current.outcomes.discovery_miss, r.current.discovery_miss_in_planner_mode]).toEqual([1, 1]);
    expect(r.digest).toMatch(/^[0-9a-f]{32}$/);
    const week = (await call(app.url, "GET", "/api/v1/canary?window_ms=604800000")).body;
    expect([week.samples, week.enough_data]).toEqual([313, true]);
  });
  it("honours the pin: the report at a pinned revision is the one computed at that revision, not the moved fleet's", async () => {
    const windowMs = 3_600_000;
    const live1 = (await call(app.url, "GET", `/api/v1/canary?window_ms=${windowMs}`)).body;
    const r1 = live1.revision as number;
    // the fleet moves: one more due table, and a newer sample
    await seedTables(put, prefix, Date.now(), { "takeover/late": 30 });
    const late = canarySampleAt(Math.max(Date.now(), live1.now_ms + 1) + 1000, 0);
    await put(`${prefix}/console/shadow-history/${String(late.at_ms).padStart(15, "0")}`, JSON.stringify(late));
    const moved = await until(async () => {
      const b = (await call(app.url, "GET", `/api/v1/canary?window_ms=${windowMs}`)).body;
      return b.revision > r1 && b.samples === live1.samples + 1 ? b : undefined;
    }, 20_000);
    expect(moved, "the live report moves").not.toBeNull();
    const live2 = moved!.value;
    expect(live2.digest).not.toBe(live1.digest);
    expect(live2.current.outcomes.discovery_miss).toBe(live1.current.outcomes.discovery_miss + 1);
    const pinned = await call(
      app.url,
      "GET",
      `/api/v1/canary?window_ms=${windowMs}&revision=${r1}&now_ms=${live1.now_ms}`,
    );
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    expect(pinned.body).toEqual(live1);
    // pinned without a clock: the window ends at the revision's own time, before the newer sample
    const atRevision = (await call(app.url, "GET", `/api/v1/canary?window_ms=${windowMs}&revision=${r1}`)).body;
    expect([atRevision.revision, atRevision.current]).toEqual([r1, live1.current]);
    // the revision's time may be estimated up to the newer sample's (a sample's time bounds the
    // revisions before it), but that sample was written after the revision: not in its report
    expect(atRevision.to_ms).toBeLessThanOrEqual(late.at_ms);
    expect(atRevision.samples).toBe(live1.samples);
  });
});

// Replicas: two `next start` processes against one etcd prefix.
// * both serve identical answers for the same `?revision=` (and `now_ms`);
// * policy edits through either are serialised by the compare-and-swap: racing writes
//   with the same If-Match → exactly one wins; read-modify-write loops through both
//   replicas lose no update, and each accepted write has one audit record;
// * exactly one replica samples shadow history (the `P/console/sampler` election), and
//   when it dies the other takes over within one election TTL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { startApp, type RunningApp } from "../../support/app";
import { EtcdHttp } from "../../support/etcd-http";
import { demandEventPuts, heartbeatPut } from "../../support/fleet-records";
import { fetchMetrics, getJson, metricSum, until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";

const P = testPrefix("replicas");
const ADMIN = "replica-admin-token-0123456789";
const NOW = "now_ms=1767225600000";
const TABLES = Array.from({ length: 300 }, (_, i) => `replica/table-${String(i).padStart(3, "0")}`);
const POLICY_TARGET = "replica/table-007";

let http: EtcdHttp;
let apps: RunningApp[] = [];

/** Drops fields that describe when a replica answered, not what it answered. */
function stripTimes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripTimes);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        // when it was read, the cache's age, and the revision clock's estimate of the
        // revision's time (it narrows as samples arrive; console-api.md "Time"), and the
        // name of a listing, which is the answering replica's (lib/http/listing.ts)
        .filter(([k]) => k !== "read_at_ms" && k !== "age_ms" && k !== "revision_time" && k !== "listing")
        .map(([k, x]) => [k, stripTimes(x)]),
    );
  }
  return v;
}

beforeAll(async () => {
  http = new EtcdHttp(sharedEtcd().split(",")[0]);
  await http.putMany([
    ...demandEventPuts(P, TABLES, 2, 80, 0),
    ...demandEventPuts(P, TABLES.slice(0, 60), 2, 120, 30),
    heartbeatPut(P, "exec-1", 2),
    heartbeatPut(P, "exec-2", 3),
  ]);
  // sample every second with a 3 s election lease (production: 60 s and 10 s), so the
  // window and the hand-over fit in a CI run
  const env = {
    ETCD_ENDPOINTS: sharedEtcd(),
    ETCD_PREFIX: P,
    CONSOLE_ADMIN_TOKENS: ADMIN,
    CONSOLE_SESSION_SECRET: "replicas-shared-session-secret-0123456789",
    CONSOLE_SHADOW_SAMPLE_MS: "1000",
    CONSOLE_SAMPLER_TTL_SECS: "3",
  };
  apps = await Promise.all([startApp(env), startApp(env)]);
});

afterAll(async () => {
  // a replica killed by the test has exited already (RunningApp.stop() would wait for an exit event that came)
  await Promise.all(
    apps.filter((a) => a.process.exitCode === null && a.process.signalCode === null).map((a) => a.stop()),
  );
  await http?.deletePrefix(`${P}/`).catch(() => undefined);
});

describe("two replicas against one etcd", () => {
  it("serve identical answers for the same ?revision=", async () => {
    const revision = await http.put(`${P}/unrelated/pin`, "1");
    const paths = [
      `/api/v1/scheduler/demand?limit=2000&include_idle=true`,
      `/api/v1/scheduler/demand?limit=25&sort=pending&order=desc`,
      `/api/v1/scheduler/demand?target=${encodeURIComponent(TABLES[3])}`,
      `/api/v1/scheduler/demand?target=${encodeURIComponent(TABLES[200])}`,
      `/api/v1/scheduler/executors`,
      `/api/v1/scheduler/assignments`,
      `/api/v1/scheduler/shadow`,
      `/api/v1/scheduler/failures`,
      `/api/v1/scheduler/skipped`,
    ];
    for (const p of paths) {
      const url = `${p}${p.includes("?") ? "&" : "?"}revision=${revision}&${NOW}`;
      const [a, b] = await Promise.all(apps.map((app) => getJson(`${app.url}${url}`)));
      expect(a.status, `${url}: ${JSON.stringify(a.body).slice(0, 200)}`).toBe(200);
      expect(b.status, url).toBe(200);
      expect(stripTimes(b.body), url).toEqual(stripTimes(a.body));
    }
    // and the same holds for the live view once both replicas reached one revision
    const last = await http.put(`${P}/unrelated/pin`, "2");
    const live = await Promise.all(
      apps.map((app) =>
        until(async () => {
          const r = await getJson<{ revision: number }>(
            `${app.url}/api/v1/scheduler/demand?limit=2000&include_idle=true&${NOW}`,
          );
          return r.status === 200 && r.body.revision === last ? r.body : undefined;
        }, 10_000),
      ),
    );
    expect(live[0]).not.toBeNull();
    expect(live[1]).not.toBeNull();
    expect(stripTimes(live[1]!.value)).toEqual(stripTimes(live[0]!.value));
  });

  it("policy edits through either replica are serialised by the CAS: no lost update", async () => {
    const path = `/api/v1/policies/${encodeURIComponent(POLICY_TARGET)}`;
    const put = (app: RunningApp, ifMatch: string, minGenerations: number) =>
      fetch(`${app.url}${path}`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${ADMIN}`,
          "content-type": "application/json",
          "if-match": ifMatch,
          "x-change-reason": "replica race",
        },
        body: JSON.stringify({ v: 1, merge: { min_generations: minGenerations } }),
      });

    // eight racing creations (If-Match: 0) through both replicas: exactly one wins
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => put(apps[i % 2], "0", 10 + i)));
    const statuses = racing.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const loser = racing.find((r) => r.status === 412)!;
    const loserBody = (await loser.json()) as {
      error: { code: string; stored: { merge: { min_generations: number } } };
    };
    expect(loserBody.error.code).toBe("precondition_failed");
    const winnerValue = loserBody.error.stored.merge.min_generations;

    // two editors, one per replica, each incrementing min_generations ten times with
    // read → PUT(If-Match) → retry on 412
    let conflicts = 0;
    const editor = async (app: RunningApp) => {
      for (let done = 0; done < 10;) {
        const read = await fetch(`${app.url}${path}`);
        const etag = read.headers.get("etag")!;
        const body = (await read.json()) as { stored: { merge: { min_generations: number } } };
        const res = await put(app, etag, body.stored.merge.min_generations + 1);
        if (res.status === 200) done += 1;
        else if (res.status === 412) conflicts += 1;
        else throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
        await res.body?.cancel().catch(() => undefined);
      }
    };
    await Promise.all([editor(apps[0]), editor(apps[1])]);
    const final = await getJson<{ stored: { merge: { min_generations: number } }; mod_revision: number }>(
      `${apps[1].url}${path}`,
    );
    expect(final.body.stored.merge.min_generations).toBe(winnerValue + 20);
    const audit = await getJson<{ entries: { target: string; mod_revision: number }[] }>(
      `${apps[0].url}/api/v1/audit?target=${encodeURIComponent(POLICY_TARGET)}&limit=100`,
    );
    expect(audit.status).toBe(200);
    expect(audit.body.entries).toHaveLength(21);
    expect(new Set(audit.body.entries.map((e) => e.mod_revision)).size).toBe(21);
    console.log(`[replicas] 20 serialised increments through two replicas, ${conflicts} CAS conflicts retried`);
  });

  it("exactly one replica samples shadow history; the other takes over within one TTL", async () => {
    // both replicas run their sampler from process start; watch until the leader took 3 more samples
    const samplesOf = async () => {
      const m = await Promise.all(apps.map((a) => fetchMetrics(a.url)));
      return {
        flags: m.map((x) => metricSum(x, "console_shadow_sampler_leader")),
        samples: m.map((x) => metricSum(x, "console_shadow_history_samples_total")),
      };
    };
    const start = await until(
      async () => {
        const s = await samplesOf();
        return s.flags[0] + s.flags[1] === 1 && s.samples[0] + s.samples[1] >= 1 ? s : undefined;
      },
      15_000,
      250,
    );
    expect(start, "one sampler leader with a sample within 15 s").not.toBeNull();
    const startLeader = start!.value.flags.indexOf(1);
    const waited = await until(
      async () => {
        const s = await samplesOf();
        return s.samples[startLeader] - start!.value.samples[startLeader] >= 3 ? s : undefined;
      },
      30_000,
      250,
    );
    expect(waited, "the sampler leader took 3 more samples (~1 a second)").not.toBeNull();
    const window = waited!.value;
    const leaderIndex = window.flags.indexOf(1);
    expect(leaderIndex).toBe(startLeader); // no hand-over while both live
    expect(window.flags[1 - leaderIndex]).toBe(0);
    expect(window.samples[1 - leaderIndex]).toBe(0); // the follower never sampled
    expect(window.samples[leaderIndex] - start!.value.samples[leaderIndex]).toBeGreaterThanOrEqual(3); // ~1 a second
    const historyKeys = await http.count(`${P}/console/shadow-history/`);
    expect(historyKeys).toBeGreaterThanOrEqual(window.samples[leaderIndex]);
    expect(historyKeys).toBeLessThanOrEqual(window.samples[leaderIndex] + 1); // one more may land between the two reads
    expect((await http.range(`${P}/console/sampler`)).kvs).toHaveLength(1);

    // the leader dies without revoking its lease: the follower takes over within the TTL (3 s) + one retry (1 s)
    apps[leaderIndex].process.kill("SIGKILL");
    const killedAt = Date.now();
    const keysAtKill = await http.count(`${P}/console/shadow-history/`);
    const follower = apps[1 - leaderIndex];
    const takeover = await until(
      async () => {
        const m = await fetchMetrics(follower.url);
        return metricSum(m, "console_shadow_sampler_leader") === 1 &&
          metricSum(m, "console_shadow_history_samples_total") >= 1
          ? true
          : undefined;
      },
      20_000,
      100,
    );
    expect(takeover, "the follower samples after the leader died").not.toBeNull();
    const handoverMs = Date.now() - killedAt;
    console.log(
      `[replicas] ${window.samples[leaderIndex]} samples by one replica, 0 by the other; hand-over after SIGKILL: ${handoverMs} ms`,
    );
    expect(handoverMs).toBeLessThanOrEqual(5500);
    // the deposed leader writes nothing after: every key since the kill is the follower's, but for one write the
    // killed process may have had in flight (sent before the kill, committed after the count). The follower's
    // counter is read on both sides of the count, until no sample of its own landed in between.
    const counted = await until(async () => {
      const samples = () =>
        fetchMetrics(follower.url).then((m) => metricSum(m, "console_shadow_history_samples_total"));
      const before = await samples();
      const keys = await http.count(`${P}/console/shadow-history/`);
      return before === (await samples()) ? { keys, followerSamples: before } : undefined;
    }, 10_000);
    expect(counted).not.toBeNull();
    expect(counted!.value.keys).toBeGreaterThanOrEqual(keysAtKill + counted!.value.followerSamples);
    expect(counted!.value.keys).toBeLessThanOrEqual(keysAtKill + counted!.value.followerSamples + 1);
  });
});

// etcd cluster faults, against a real 3-member etcd cluster on loopback and a
// real `next start` configured with all three endpoints:
// * a member dies during full paged reads: every read completes at the revision it was
//   pinned to, with the same content; live requests keep answering;
// * each member in turn dies while the live watch runs (so the watch's own member dies
//   once): the watch resumes with no lost or duplicated update: the live answer equals a
//   fresh pinned read of the same revision and shows the last value written;
// * two members die: every request answers (none hangs), as 503 etcd_unavailable;
// * both return: live data again within 10 s, without restarting the console;
// * a pinned, compacted revision answers 410 with the compact revision.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../support/app";
import { startEtcd, type EtcdCluster, type EtcdMember } from "../../support/etcd";
import { EtcdHttp } from "../../support/etcd-http";
import { demandEventPuts, heartbeatPut } from "../../support/fleet-records";
import { fetchMetrics, getJson, metricSum, sleep, until } from "../../support/observe";

const P = "/rel-cluster/lance-context/master";
const TABLES = 3000;
const LIST = "/api/v1/scheduler/demand?limit=2000&include_idle=true&now_ms=1767225600000";

let cluster: EtcdCluster;
let app: RunningApp;

/** A gateway client on a member that is up. */
function http(): EtcdHttp {
  const up = cluster.members.find((m) => m.process !== null) ?? cluster.members[0];
  return new EtcdHttp(up.clientUrl);
}

/** Restarts every member that is down (after a failed test, so the next starts whole). */
async function restoreAll(): Promise<void> {
  for (const m of cluster.members) if (m.process === null) await m.start();
  await Promise.all(cluster.members.map((m) => healthyMember(m)));
}

async function healthyMember(m: EtcdMember): Promise<void> {
  await until(
    async () => (await (await fetch(`${m.clientUrl}/health`, { signal: AbortSignal.timeout(1000) })).ok) || undefined,
    30_000,
    { what: `member ${m.name}` },
  );
}

interface ListBody {
  revision: number;
  total_tables: number;
  tables: { target: string; pending_generations: number; class: string; score: number }[];
  next_cursor: string | null;
  error?: { code: string; message?: string; compact_revision?: number; retry_after_ms?: number };
}

/** Every table of the list endpoint at one revision (walking next_cursor). */
async function allTables(revision?: number): Promise<{ revision: number; total: number; tables: ListBody["tables"] }> {
  const tables: ListBody["tables"] = [];
  let cursor: string | null = null;
  let rev = revision;
  let total = 0;
  do {
    const url: string = `${app.url}${LIST}${rev !== undefined ? `&revision=${rev}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res: Awaited<ReturnType<typeof getJson<ListBody>>> = await getJson<ListBody>(url, { timeoutMs: 30_000 });
    if (res.status !== 200) throw new Error(`list answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    rev ??= res.body.revision;
    expect(res.body.revision).toBe(rev);
    total = res.body.total_tables;
    tables.push(...res.body.tables);
    cursor = res.body.next_cursor;
  } while (cursor);
  return { revision: rev!, total, tables };
}

/** Fires `request` every `everyMs` until stopped; returns each outcome with its time. */
function poller(request: () => Promise<{ status: number; ms: number }>, everyMs = 100) {
  const outcomes: { at: number; status: number; ms: number }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = Date.now();
      const r = await request();
      outcomes.push({ at, status: r.status, ms: r.ms });
      await sleep(everyMs);
    }
  })();
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
      return outcomes;
    },
  };
}

/**
 * A live request while a member is down either succeeds or fails typed (503/504 with the
 * contract's error code); it never hangs (each has a 10 s deadline) or answers 500.
 */
function expectServedOrTyped(outcomes: { status: number }[]): void {
  const untyped = outcomes.filter((o) => o.status !== 200 && o.status !== 503 && o.status !== 504);
  expect(untyped, "live answers other than 200 / 503 / 504").toEqual([]);
}

/** Waits until `live` has answered 200 `n` times after `sinceMs` (the service came back). */
async function servedAgain(
  live: { outcomes: { at: number; status: number }[] },
  sinceMs: number,
  n = 3,
): Promise<void> {
  const ok = await until(
    async () => (live.outcomes.filter((o) => o.at >= sinceMs && o.status === 200).length >= n ? true : undefined),
    60_000,
    100,
  );
  expect(ok, `${n} live answers after the member died`).not.toBeNull();
}

/** Longest stretch (ms) of consecutive non-200 outcomes (printed as a figure). */
function longestFailure(outcomes: { at: number; status: number; ms: number }[]): number {
  let longest = 0;
  let start: number | null = null;
  for (const o of outcomes) {
    if (o.status !== 200) {
      start ??= o.at;
      longest = Math.max(longest, o.at + o.ms - start);
    } else start = null;
  }
  return longest;
}

/** the revision of the seed: long behind every plan (and view) the console still holds */
let seeded: number;
/**
 * ten distinct revisions of the same fleet from before the console's first read (writes that
 * touch no table): a pinned request at each is a full read (one after the read would be
 * put back from the live view, lib/live/cache.ts, with no read of etcd)
 */
const beforeRead: number[] = [];

beforeAll(async () => {
  // loopback members: a fast election, so a killed leader fails over well inside the ping deadline
  cluster = await startEtcd({ size: 3, extraArgs: ["--heartbeat-interval=50", "--election-timeout=500"] });
  const names = Array.from({ length: TABLES }, (_, i) => `cluster/table-${String(i).padStart(5, "0")}`);
  seeded = await http().putMany([
    ...demandEventPuts(P, names, 2, 40, 0),
    ...demandEventPuts(P, names.slice(0, 300), 2, 60, 12),
    heartbeatPut(P, "exec-a"),
    heartbeatPut(P, "exec-b"),
  ]);
  for (let i = 0; i < 10; i++) beforeRead.push(await http().put(`${P}/unrelated/bump-${i}`, String(i)));
  app = await startApp({ ETCD_ENDPOINTS: cluster.endpoints, ETCD_PREFIX: P });
  // first request: the initial full read and the watch
  const first = await getJson<ListBody>(`${app.url}${LIST}`, { timeoutMs: 60_000 });
  expect(first.status).toBe(200);
});

afterEach(async () => {
  await restoreAll();
});

afterAll(async () => {
  await app?.stop();
  await cluster?.stop();
});

describe("etcd cluster faults", () => {
  it("a member killed during full paged reads: each read completes at its pinned revision, unchanged", async () => {
    const reference = await allTables();
    const revisions = beforeRead; // each pinned request is a fresh full read
    const live = poller(() => getJson(`${app.url}/api/v1/scheduler/demand?limit=10`, { timeoutMs: 10_000 }));
    const victim = cluster.members[1];
    const pagesBefore = metricSum(await fetchMetrics(app.url), "console_etcd_pages_total");
    const reads = revisions.map((rev) => getJson<ListBody>(`${app.url}${LIST}&revision=${rev}`, { timeoutMs: 60_000 }));
    // kill the member once the pinned full reads are under way (pages are being read)
    const underway = await until(
      async () => (metricSum(await fetchMetrics(app.url), "console_etcd_pages_total") > pagesBefore ? true : undefined),
      30_000,
      20,
    );
    expect(underway, "the pinned reads started").not.toBeNull();
    await victim.kill();
    const killedAt = Date.now();
    const answers = await Promise.all(reads);
    await servedAgain(live, killedAt);
    const outcomes = await live.stop();
    await victim.start();
    await healthyMember(victim);

    answers.forEach((a, i) => {
      expect(a.status, `${JSON.stringify(a.body).slice(0, 300)} (request ${i}, ${a.ms.toFixed(0)} ms)`).toBe(200);
      expect(a.body.revision).toBe(revisions[i]);
      expect(a.body.total_tables).toBe(reference.total);
      expect(a.body.tables.map((t) => `${t.target}:${t.pending_generations}`)).toEqual(
        reference.tables.slice(0, 2000).map((t) => `${t.target}:${t.pending_generations}`),
      );
    });
    const failedMs = longestFailure(outcomes);
    console.log(
      `[cluster] member killed during reads: ${outcomes.length} live requests, longest failure ${failedMs} ms, max latency ${Math.max(...outcomes.map((o) => o.ms)).toFixed(0)} ms`,
    );
    // the client retries UNAVAILABLE on another member: live requests keep being served
    expectServedOrTyped(outcomes);
  });

  it("the live watch survives each member dying in turn: no lost or duplicated update", async () => {
    const target = "cluster/watched-table";
    let sealed = 100;
    let lastRevision = 0;
    const write = async () => {
      sealed += 1;
      lastRevision = await http().putMany(demandEventPuts(P, [target], 1, sealed, sealed - 100));
    };
    const live = poller(() => getJson(`${app.url}/api/v1/scheduler/demand?limit=10`, { timeoutMs: 10_000 }));
    const served = async (revision: number) =>
      until(
        async () => {
          const r = await getJson<{ revision: number }>(`${app.url}/api/v1/scheduler/demand?limit=1`, {
            timeoutMs: 10_000,
          });
          return r.status === 200 && r.body.revision >= revision ? true : undefined;
        },
        60_000,
        50,
      );
    for (const victim of cluster.members) {
      await victim.kill();
      // five updates while the member is down, each one seen live before the next
      for (let i = 0; i < 5; i++) {
        await write();
        expect(await served(lastRevision), `update ${i} with ${victim.name} down is served`).not.toBeNull();
      }
      await victim.start();
      await healthyMember(victim);
      await write();
    }
    // the cache catches up with the last write
    const caughtUp = await until(async () => {
      const r = await getJson<{ revision: number; table: { pending_generations: number } }>(
        `${app.url}/api/v1/scheduler/demand?target=${encodeURIComponent(target)}&now_ms=1767225600000`,
      );
      return r.status === 200 && r.body.revision >= lastRevision ? r.body : undefined;
    }, 10_000);
    const outcomes = await live.stop();
    expect(caughtUp, "live data reached the last written revision within 10 s").not.toBeNull();
    expect(caughtUp!.value.table.pending_generations).toBe(sealed - 100);

    // the live answer equals a fresh full read pinned to the same revision
    const liveTables = await allTables();
    const pinned = await allTables(liveTables.revision);
    expect(liveTables.total).toBe(pinned.total);
    expect(liveTables.tables).toEqual(pinned.tables);
    expect(liveTables.tables.filter((t) => t.target === target)).toHaveLength(1);
    console.log(
      `[cluster] watch across 3 member deaths: caught up in ${caughtUp!.ms} ms; ${outcomes.length} live requests, longest failure ${longestFailure(outcomes)} ms`,
    );
    expectServedOrTyped(outcomes);
  });

  it("two members dead: requests answer 503 etcd_unavailable, none hangs; restored: live data within 10 s", async () => {
    const [a, b, alone] = [cluster.members[0], cluster.members[2], cluster.members[1]];
    await Promise.all([a.kill(), b.kill()]);
    const killedAt = Date.now();
    // the member left alone still answers its status, but has no leader once its election
    // times out: health then says etcd is down, and that member confirms nothing
    type Health = { status: string; endpoints: { url: string; ok: boolean; error?: string; no_leader?: boolean }[] };
    const down = await until(
      async () => {
        const r = await getJson<Health>(`${app.url}/api/v1/health`, { timeoutMs: 5000 });
        return r.status === 503 && r.body.status === "down" ? r : undefined;
      },
      15_000,
      250,
    );
    expect(down, "health says down within 15 s of losing quorum").not.toBeNull();
    const aloneProbe = down!.value.body.endpoints.find((e) => e.url === alone.clientUrl);
    expect(aloneProbe?.ok).toBe(false);
    expect(aloneProbe?.error).toMatch(/no leader/);
    expect(aloneProbe?.no_leader).toBe(true);
    // the dead members are refused, not leaderless
    expect(down!.value.body.endpoints.filter((e) => e.no_leader).map((e) => e.url)).toEqual([alone.clientUrl]);
    // the live answers agree with health at once: the next one asks etcd first (it may have
    // kept answering from its watch until then, lib/live TRUST_WATCH_MS = 10 s) and fails fast
    const unavailable = await getJson<ListBody>(`${app.url}/api/v1/scheduler/demand?limit=10`, { timeoutMs: 5000 });
    expect(unavailable.status, "the live list right after health said down").toBe(503);
    expect(unavailable.body.error?.code).toBe("etcd_unavailable");
    expect(unavailable.body.error?.retry_after_ms).toBeGreaterThan(0);
    expect(unavailable.ms).toBeLessThan(3000);
    const sinceKill = Date.now() - killedAt;

    // live and pinned reads, a history and a revision's time: each fails on the ping (1.5 s),
    // none waits out a call's 3 s deadline first (a pinned read did: its time, then its ping)
    const paths = [
      "/api/v1/scheduler/demand?limit=10",
      "/api/v1/scheduler/executors",
      "/api/v1/scheduler/demand?limit=10&revision=5",
      `/api/v1/scheduler/demand/history?target=${encodeURIComponent("cluster/table-00001")}&since=1h`,
      "/api/v1/revisions/time?revision=5",
    ];
    const checks = await Promise.all(paths.map((p) => getJson<ListBody>(`${app.url}${p}`, { timeoutMs: 5000 })));
    checks.forEach((c, i) => {
      expect(c.status, `${paths[i]} answered ${c.status} after ${c.ms.toFixed(0)} ms`).toBe(503);
      expect(c.body.error?.code).toBe("etcd_unavailable");
      expect(c.body.error?.retry_after_ms).toBeGreaterThan(0);
      expect(c.ms, `${paths[i]} answered after ${c.ms.toFixed(0)} ms: ${c.body.error?.message}`).toBeLessThan(3000);
    });
    console.log(
      `[cluster] without quorum: health down after ${down!.ms} ms of polling, then the live list's 503 in ${unavailable.ms.toFixed(0)} ms; checks ${checks.map((c) => c.ms.toFixed(0)).join(", ")} ms`,
    );

    await Promise.all([a.start(), b.start()]);
    const restoredAt = Date.now();
    await Promise.all([healthyMember(a), healthyMember(b)]);
    const rev = await http().putMany(demandEventPuts(P, ["cluster/after-restore"], 1, 30, 30));
    const back = await until(
      async () => {
        const r = await getJson<{ revision: number; table: { pending_generations: number } }>(
          `${app.url}/api/v1/scheduler/demand?target=${encodeURIComponent("cluster/after-restore")}&now_ms=1767225600000`,
          { timeoutMs: 5000 },
        );
        return r.status === 200 && r.body.revision >= rev ? r.body : undefined;
      },
      10_000,
      200,
    );
    expect(back, "live data within 10 s of the members' return").not.toBeNull();
    expect(back!.value.table.pending_generations).toBe(30);
    console.log(
      `[cluster] quorum lost: 503 after ${sinceKill} ms; restored: live data ${Date.now() - restoredAt} ms after restart (${back!.ms} ms after the write)`,
    );
  });

  it("without quorum, a request's 503 makes the live answers ask etcd first: an API client alone sees no 'live' list beside it", async () => {
    // a console that knows only the member left alone: its watch stays there, connected,
    // and nothing polls its health, so only the 503 below can tell its live view to doubt
    const alone = cluster.members[1];
    const solo = await startApp({ ETCD_ENDPOINTS: alone.clientUrl, ETCD_PREFIX: P });
    try {
      const before = await getJson<ListBody>(`${solo.url}/api/v1/scheduler/demand?limit=10`, { timeoutMs: 5000 });
      expect(before.status).toBe(200);
      await Promise.all([cluster.members[0].kill(), cluster.members[2].kill()]);
      const killedAt = Date.now();
      // the member's own word that it has no leader (etcd's gateway, not the console)
      await until(
        async () => {
          const res = await fetch(`${alone.clientUrl}/v3/maintenance/status`, { method: "POST", body: "{}" });
          const status = (await res.json()) as { errors?: string[] };
          return status.errors?.some((e) => /no leader/.test(e)) || undefined;
        },
        15_000,
        { what: "the lone member to lose its leader", everyMs: 100 },
      );
      const pinned = await getJson<ListBody>(`${solo.url}/api/v1/scheduler/demand?limit=10&revision=5`, {
        timeoutMs: 5000,
      });
      expect(pinned.status).toBe(503);
      expect(pinned.body.error?.code).toBe("etcd_unavailable");
      // well inside the 10 s the live view trusts its watch: without the doubt, this was a 200 "live"
      const live = await getJson<ListBody>(`${solo.url}/api/v1/scheduler/demand?limit=10`, { timeoutMs: 5000 });
      const sinceKill = Date.now() - killedAt;
      expect(sinceKill).toBeLessThan(10_000);
      expect(live.status, `the live list ${sinceKill} ms after the kill`).toBe(503);
      expect(live.body.error?.code).toBe("etcd_unavailable");
      console.log(
        `[cluster] one endpoint, no health poll: pinned 503 in ${pinned.ms.toFixed(0)} ms, then the live list's 503 in ${live.ms.toFixed(0)} ms (${sinceKill} ms after the kill)`,
      );
    } finally {
      await solo.stop();
    }
  });

  it("a pinned revision that was compacted answers 410 with the compact revision", async () => {
    // a revision the console has no plan or view of any more (one it still held would answer
    // from memory without asking etcd), then compacted away
    const old = seeded;
    const compactAt = await http().put(`${P}/unrelated/compaction-point`, "y");
    await http().compact(compactAt);
    // the members were restarted by the test before: while one still settles, a read may get the
    // console's fast 503 (its circuit breaker), which is not what this test is about
    const { value: res } = await until(
      async () => {
        const r = await getJson<ListBody>(`${app.url}/api/v1/scheduler/demand?limit=10&revision=${old}`);
        return r.status === 503 ? undefined : r;
      },
      15_000,
      { what: "an answer other than etcd_unavailable for the compacted revision", everyMs: 250 },
    );
    expect(res.status).toBe(410);
    expect(res.body.error?.code).toBe("revision_compacted");
    expect(res.body.error?.compact_revision).toBe(compactAt);
    // and the server keeps serving live data
    const live = await getJson<ListBody>(`${app.url}/api/v1/scheduler/demand?limit=10`);
    expect(live.status).toBe(200);
  });
});

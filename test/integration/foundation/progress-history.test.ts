// Where a running merge last progressed, from etcd's history (lib/live/progress-history.ts;
// console-api.md fourth version "The same answer from any replica, at any uptime"). Over a
// random history on a real etcd — a progress sequence that climbs, is re-put unchanged, falls,
// is malformed, deleted and re-created; an execution record rewritten with the same id and
// replaced by a new execution — the progress at every revision is the same three ways: as a
// console that watched it all says (its watch's previous values, its views held or put back),
// as a console started afterwards says (pinned reads in full, walked from scratch), and as
// this test's own log of the writes says. After a compaction both say `at_most` the
// compaction where the increase is gone from etcd's history, and `exact` where the version
// created the key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { LiveCache, type FleetView } from "@/lib/live/cache";
import { RevisionClock } from "@/lib/live/revision-clock";
import { createRawEtcdClient } from "@/lib/etcd/raw";
import { rng } from "@/lib/sim/seed-kv";
import { keys } from "@/lib/schema/keys";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { writeClockSample } from "../../support/clock-samples";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { executionRecord } from "../../support/fleet-records";

let etcd: EtcdCluster;
let client: Etcd3;
const P = testPrefix("progress-history");
const CLIMBING = "progress/climbing";
const RESTARTED = "progress/restarted";
const CLIMBING_ID = "exec-climbing";

/** One write of the history as the test made it: the revision, and what it left at the key. */
interface Version {
  revision: number;
  /** the sequence (progress key) or the execution id (execution key); null: malformed or deleted */
  mark: number | string | null;
  deleted: boolean;
}
const progressLog: Version[] = [];
const executionLog: Version[] = [];
/** every revision the history wrote */
const written: number[] = [];
let watching: LiveCache;
let clock: RevisionClock;

const revisionOf = (res: { header: { revision: string } }) => Number(res.header.revision);

const execution = (id: string, target: string, phase: string) =>
  executionRecord(id, target, { endpoint: "http://w:8080", instance: "w" }, { phase });

/** The current life of a key at `revision` (versions since its last creation), newest last; [] when absent. */
function lifeAt(log: readonly Version[], revision: number): Version[] {
  const upto = log.filter((v) => v.revision <= revision);
  if (upto.length === 0 || upto.at(-1)!.deleted) return [];
  let start = upto.length - 1;
  while (start > 0 && !upto[start - 1].deleted) start--;
  return upto.slice(start);
}

/**
 * What the test's own log says of an execution's last progress at `revision`: the newest
 * version of the progress key that increased the sequence (its creation counts), or, without a
 * readable progress record, the first version of the execution record naming the execution.
 */
function expected(revision: number): Map<string, number> {
  const out = new Map<string, number>();
  const progress = lifeAt(progressLog, revision);
  if (progress.length > 0 && typeof progress.at(-1)!.mark === "number") {
    for (let i = progress.length - 1; i >= 0; i--) {
      const [v, before] = [progress[i].mark, i > 0 ? progress[i - 1].mark : null];
      if (i === 0 || (typeof v === "number" && (typeof before !== "number" || v > before))) {
        out.set(CLIMBING_ID, progress[i].revision);
        break;
      }
    }
  } else out.set(CLIMBING_ID, firstNaming(lifeAt(climbingExecution, revision), CLIMBING_ID));
  const record = lifeAt(executionLog, revision);
  const id = record.at(-1)!.mark as string;
  out.set(id, firstNaming(record, id));
  return out;
}

/** The revision of the first version, in the run at the end of `life`, that names `id`. */
function firstNaming(life: readonly Version[], id: string): number {
  let i = life.length - 1;
  while (i > 0 && life[i - 1].mark === id) i--;
  return life[i].revision;
}

/** the climbing table's execution record: written once, never replaced */
const climbingExecution: Version[] = [];

const progressOf = (view: FleetView) =>
  new Map([...view.progress].map(([id, p]) => [id, [p.last_progress_revision, p.last_progress_bound]] as const));

beforeAll(async () => {
  etcd = await startEtcd();
  client = createRawEtcdClient({ endpoints: etcd.endpoints.split(","), callTimeoutMs: 30_000 });
  await writeClockSample(client, P, Date.now() - 60_000);
  climbingExecution.push({
    revision: revisionOf(
      await client.put(keys.mergeExecution(P, CLIMBING)).value(execution(CLIMBING_ID, CLIMBING, "running")),
    ),
    mark: CLIMBING_ID,
    deleted: false,
  });
  executionLog.push({
    revision: revisionOf(
      await client.put(keys.mergeExecution(P, RESTARTED)).value(execution("exec-r-0", RESTARTED, "running")),
    ),
    mark: "exec-r-0",
    deleted: false,
  });
  clock = new RevisionClock(client, P);
  watching = new LiveCache(client, P, { clock });
  await watching.current();

  const random = rng(20261207); // seeded: a failure names a history that replays
  const progressKey = keys.mergeProgress(P, CLIMBING_ID);
  let sequence = 0;
  let restarts = 0;
  for (let step = 0; step < 48; step++) {
    const pick = random();
    const exists = progressLog.length > 0 && !progressLog.at(-1)!.deleted;
    let revision: number;
    if (pick < 0.35) {
      sequence += 1;
      revision = revisionOf(await client.put(progressKey).value(JSON.stringify({ sequence })));
      progressLog.push({ revision, mark: sequence, deleted: false });
    } else if (pick < 0.5 && exists) {
      revision = revisionOf(await client.put(progressKey).value(JSON.stringify({ sequence }))); // re-put, unchanged
      progressLog.push({ revision, mark: sequence, deleted: false });
    } else if (pick < 0.57 && exists) {
      sequence = Math.max(0, sequence - 1); // a lower sequence is no progress
      revision = revisionOf(await client.put(progressKey).value(JSON.stringify({ sequence })));
      progressLog.push({ revision, mark: sequence, deleted: false });
    } else if (pick < 0.63 && exists) {
      revision = revisionOf(await client.put(progressKey).value("{ not json"));
      progressLog.push({ revision, mark: null, deleted: false });
    } else if (pick < 0.68 && exists) {
      revision = revisionOf(await client.delete().key(progressKey));
      progressLog.push({ revision, mark: null, deleted: true });
    } else if (pick < 0.82) {
      // the other execution record: the same execution rewritten, or a new one in its place
      const same = random() < 0.6;
      const id = same ? (executionLog.at(-1)!.mark as string) : `exec-r-${++restarts}`;
      const phase = random() < 0.5 ? "running" : "recovering";
      revision = revisionOf(await client.put(keys.mergeExecution(P, RESTARTED)).value(execution(id, RESTARTED, phase)));
      executionLog.push({ revision, mark: id, deleted: false });
    } else revision = revisionOf(await client.put(`${P}/console/unread-${step}`).value(String(step)));
    written.push(revision);
  }
  await writeClockSample(client, P, Date.now());
  expect(await watching.awaitRevision(written.at(-1)!, 10_000)).toBe(true);
  // the watching console's clock has read the sample that closes the history's dates
  const last = written.at(-1)!;
  await until(async () => ((await clock.timeOfReadable(last)) && clock.isSettled(last)) || undefined, 10_000, {
    what: "the watching console's clock to read the last sample",
  });
});

afterAll(async () => {
  await watching?.close();
  client?.close();
  await etcd?.stop();
});

describe("the last progress of a running merge, from etcd's history", () => {
  it("is the same watched, held or put back, read in full by a console started later, and as the writes say", async () => {
    const fresh = new LiveCache(client, P);
    try {
      for (const revision of written) {
        const want = [...expected(revision)].map(([id, r]) => [id, [r, "exact"]] as const);
        const watched = await watching.at(revision, { keep: false });
        const later = await fresh.at(revision, { keep: false });
        expect([...progressOf(watched)].sort(), `watched @${revision}`).toEqual(want.sort());
        expect([...later.progress], `read in full @${revision}`).toEqual([...watched.progress]);
      }
      // the live view (held in memory) and a later console's live view say the same
      const [live, started] = [await watching.current(), await fresh.current()];
      expect(live.revision).toBe(started.revision);
      expect([...started.progress]).toEqual([...live.progress]);
      // every date is the revision clock's (the samples around the history close every interval)
      for (const p of live.progress.values()) expect(p.last_progress_ms).not.toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it("after a compaction: at_most the compaction where the increase is gone, exact where the version created the key; the same watched or not", async () => {
    // the climbing sequence increases by a put that is not the key's creation; the other
    // table's execution record is deleted and created again for a new execution
    const progressKey = keys.mergeProgress(P, CLIMBING_ID);
    const current = await client.get(progressKey).string();
    const before = current === null || !/^\{"sequence"/.test(current) ? 0 : JSON.parse(current).sequence;
    await client.put(progressKey).value(JSON.stringify({ sequence: before }));
    const increased = revisionOf(await client.put(progressKey).value(JSON.stringify({ sequence: before + 1 })));
    await client.delete().key(keys.mergeExecution(P, RESTARTED));
    const created = revisionOf(
      await client.put(keys.mergeExecution(P, RESTARTED)).value(execution("exec-r-new", RESTARTED, "running")),
    );
    const head = revisionOf(await client.put(`${P}/console/unread-head`).value("x"));
    expect(await watching.awaitRevision(head, 10_000)).toBe(true);
    // a sample after them all: both consoles date them alike (closed intervals)
    await writeClockSample(client, P, Date.now(), head);
    await until(async () => ((await clock.timeOfReadable(head)) && clock.isSettled(head)) || undefined, 10_000, {
      what: "the watching console's clock to read the sample after the head",
    });
    // before the compaction both answers are exact, watched
    expect(progressOf(await watching.current())).toEqual(
      new Map([
        [CLIMBING_ID, [increased, "exact"]],
        ["exec-r-new", [created, "exact"]],
      ]),
    );
    await client.kv.compact({ revision: String(head), physical: true });
    const fresh = new LiveCache(client, P);
    try {
      const want = new Map([
        [CLIMBING_ID, [head, "at_most"]],
        ["exec-r-new", [created, "exact"]],
      ]);
      const started = await fresh.current();
      expect(progressOf(started)).toEqual(want);
      // the console that watched the increase says the same once it checks compaction again (at most a second later)
      const watched = await until(
        async () => {
          const v = await watching.current();
          return v.progress.get(CLIMBING_ID)?.last_progress_bound === "at_most" ? v : undefined;
        },
        10_000,
        { what: "the watching console to say at_most" },
      );
      expect(progressOf(watched.value)).toEqual(want);
      expect([...watched.value.progress]).toEqual([...started.progress]);
    } finally {
      await fresh.close();
    }
  });
});

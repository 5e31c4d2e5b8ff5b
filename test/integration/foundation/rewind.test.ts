// A pinned read near the live view is put back from it (lib/live/rewind.ts: the keys
// changed since, with their values then, from the live watch's change log) instead of read in full. It must
// be the read: at every revision of a random history (puts, deletes, malformed values, leased
// keys whose lease is revoked, multi-key transactions, task records in and out of the 24 h
// window, keys the console does not read) the rewound snapshot and tables equal a full read at
// that revision with the same task window, on a real etcd.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { LiveCache, type FleetView } from "@/lib/live/cache";
import { metrics } from "@/lib/metrics";
import { seedScenarios } from "@/lib/sim";
import { rng } from "@/lib/sim/seed-kv";
import { keys } from "@/lib/schema/keys";
import { uuidv7 } from "@/lib/schema/task-id";
import type { FleetRead } from "@/lib/snapshot/read";
import { testPrefix } from "../../support/prefix";
import { readerFor, suiteClient } from "./helpers";

const client: Etcd3 = suiteClient();
const H = 3600_000;

/** A snapshot as compared: the moment it was read and its read statistics are not the fleet. */
function content(view: Pick<FleetView, "snapshot" | "tables" | "revision">) {
  const { readAtMs: _at, stats: _stats, ...snapshot } = view.snapshot;
  const tables = [...view.tables].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { revision: view.revision, snapshot: { ...snapshot }, tables };
}

/** How the cache made a pinned view (console_pinned_views_total: calls here are one at a time). */
async function pinnedAt(cache: LiveCache, revision: number, tasksSinceMs: number) {
  const rewound = async () =>
    (await metrics().pinnedViews.get()).values.find((v) => v.labels.path === "rewound")?.value ?? 0;
  const before = await rewound();
  const view = await cache.at(revision, { tasksSinceMs, keep: false });
  return { view, path: (await rewound()) > before ? "rewound" : "read" };
}

const revisionOf = (res: { header: { revision: string } }) => Number(res.header.revision);

/** Bumps the first number of a JSON record (or breaks it), so its parse changes. */
function edited(value: string, pick: number): string {
  if (pick < 0.15) return "{ not json";
  return value.replace(/(\d+)/, (d) => String(Number(d) + 1));
}

let P = "";
let cache: LiveCache;
const written: number[] = [];
const nowMs = Date.now();

beforeAll(async () => {
  P = testPrefix("rewind");
  await seedScenarios(client, ["incidents"], { prefix: P });
  // task records before the live window (read at a pinned revision whose window starts earlier)
  for (let k = 0; k < 3; k++) {
    const id = uuidv7(nowMs - 25 * H - k * 60_000, 0xe000 + k);
    await client
      .put(keys.task(P, id))
      .value(JSON.stringify({ id, kind: "merge_wal", target: "t", state: "done", enqueued_at: nowMs - 25 * H }));
  }
  cache = new LiveCache(client, P);
  await cache.current();

  const random = rng(20261206); // seeded: a failure names a history that replays
  const seeded = (await client.getAll().prefix(`${P}/`).strings()) as Record<string, string>;
  const existing = Object.keys(seeded).filter((k) => !k.includes("/claims/"));
  for (let step = 0; step < 36; step++) {
    const pick = random();
    const key = existing[Math.floor(random() * existing.length)];
    if (pick < 0.35) written.push(revisionOf(await client.put(key).value(edited(seeded[key], random()))));
    else if (pick < 0.5) written.push(revisionOf(await client.delete().key(key)));
    else if (pick < 0.62) {
      // one transaction, three keys: one revision
      const three = [...new Set([0, 1, 2, 3, 4].map(() => existing[Math.floor(random() * existing.length)]))].slice(
        0,
        3,
      );
      const res = await client
        .if(`${P}/nothing`, "Version", "==", 0)
        .then(...three.map((k, i) => client.put(k).value(edited(seeded[k], i === 0 ? 0.5 : random()))))
        .commit();
      written.push(revisionOf(res));
    } else if (pick < 0.72) {
      // a record under a lease, then the lease revoked: its key is deleted by etcd
      const lease = client.lease(60, { autoKeepAlive: false });
      const target = `leased-${step}`;
      written.push(
        revisionOf(
          await lease
            .put(keys.demandEvent(P, target, "s1"))
            .value(
              JSON.stringify({
                shard: "s1",
                sealed_through: step + 3,
                merged_through: 1,
                flushed_at_ms: nowMs,
                writer_epoch: 1,
                source: "writer",
              }),
            )
            .exec(),
        ),
      );
      if (random() < 0.5) {
        await lease.revoke();
        written.push(revisionOf(await client.put(`${P}/console/unread-${step}`).value("x")));
      }
    } else if (pick < 0.84) {
      // a task record now, or one older than the live window
      const at = random() < 0.5 ? nowMs - random() * H : nowMs - 24.5 * H;
      const id = uuidv7(at, 0xf000 + step);
      const record = { id, kind: "merge_wal", target: `tasked-${step}`, state: "queued", enqueued_at: Math.round(at) };
      written.push(revisionOf(await client.put(keys.task(P, id)).value(JSON.stringify(record))));
    } else if (pick < 0.92) {
      // a new table's first event
      written.push(
        revisionOf(
          await client.put(keys.demandEvent(P, `new-${step}`, "s1")).value(
            JSON.stringify({
              shard: "s1",
              sealed_through: 9,
              merged_through: null,
              flushed_at_ms: nowMs,
              writer_epoch: 1,
              source: "writer",
            }),
          ),
        ),
      );
    } else written.push(revisionOf(await client.put(`${P}/console/unread-${step}`).value(String(step))));
  }
  expect(await cache.awaitRevision(written.at(-1)!, 10_000)).toBe(true);
});

afterAll(async () => {
  await cache?.close();
  client.close();
});

describe("a pinned read near the live view, put back from it", () => {
  const windows = [
    ["the 24 h before now", () => nowMs - 24 * H],
    ["a window starting before the live view's (its start read at the revision)", () => nowMs - 26 * H],
    ["a window starting later than the live view's", () => nowMs - 2 * H],
  ] as const;

  for (const [name, since] of windows)
    it(`equals a full read at every revision of a random history: ${name}`, async () => {
      const reader = readerFor(client, P);
      // every revision written but the live one (a revision the cache holds is served as held)
      const revisions = written.slice(0, -1);
      let rewound = 0;
      for (const revision of revisions) {
        const tasksSinceMs = since();
        const { view, path } = await pinnedAt(cache, revision, tasksSinceMs);
        if (path === "rewound") rewound++;
        const read: FleetRead = await reader.readFleetWithKvs({ revision, tasksSinceMs });
        expect(content(view), `revision ${revision}`).toEqual(
          content({ snapshot: read.snapshot, tables: read.tables, revision }),
        );
      }
      // every one was put back from the live view, none read in full
      expect(rewound).toBe(revisions.length);
    });

  it("more keys changed than the bound, or a revision before the live view's read, is read in full (and still equal)", async () => {
    const small = new LiveCache(client, P, { rewindMaxKeys: 2 });
    try {
      const live = await small.current();
      const put = async (shard: string) => revisionOf(await client.put(keys.demandEvent(P, "bound", shard)).value("{"));
      const first = await put("s1");
      const second = await put("s2");
      await put("s3");
      const last = await put("s4");
      expect(await small.awaitRevision(last, 10_000)).toBe(true);
      const tasksSinceMs = nowMs - 24 * H;
      const reader = readerFor(client, P);
      for (const [revision, path] of [
        [second, "rewound"], // two keys changed after it: within the bound
        [first, "read"], // three
        [live.revision - 1, "read"], // before this cache's own read
      ] as const) {
        const made = await pinnedAt(small, revision, tasksSinceMs);
        expect(made.path, `revision ${revision}`).toBe(path);
        const view = made.view;
        const read = await reader.readFleetWithKvs({ revision, tasksSinceMs });
        expect(content(view)).toEqual(content({ snapshot: read.snapshot, tables: read.tables, revision }));
      }
    } finally {
      await small.close();
    }
  });
});

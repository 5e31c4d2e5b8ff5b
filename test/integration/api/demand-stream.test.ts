// GET /scheduler/demand/stream against a real etcd and `next start` (issue 24): one plan
// step, one change-set, the same bytes on every open stream; a reconnect (Last-Event-ID)
// catches up from the listing it holds; the frames applied to the first load equal a fresh
// read of the same plan; a pinned or paged query is a 400; steps are counted once, not per
// stream.
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { withChanges } from "@/lib/client/resources/demand";
import { writerEvent } from "@/lib/planner/join";
import { seedScenarios } from "@/lib/sim";
import { publishDemandEvent } from "@/lib/sim/publish";
import { demandChangesSchema, demandListSchema, type DemandChanges, type DemandList } from "@/lib/schema/api/demand";
import { shadowResponseSchema } from "@/lib/schema/api/shadow";
import { startApp, type RunningApp } from "../../support/app";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { clientFor, errorOf, metricSum, okBody, q } from "./helpers";

let client: Etcd3;
let app: RunningApp;
let prefix: string;

interface Frame {
  id: string;
  raw: string;
  body: DemandChanges;
}

/**
 * An open stream: every `changes` event as it came (its raw text too), until closed. With
 * `accept-encoding: gzip` the body is gunzipped as it comes (each event leaves flushed).
 */
function openStream(path: string, headers: Record<string, string> = {}) {
  const frames: Frame[] = [];
  let buffered = "";
  let status = 0;
  let encoding: string | undefined;
  const req = http.request(`${app.url}${path}`, { headers: { accept: "text/event-stream", ...headers }, agent: false });
  const opened = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      status = res.statusCode ?? 0;
      encoding = res.headers["content-encoding"];
      const body = encoding === "gzip" ? res.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : res;
      body.setEncoding("utf8");
      body.on("error", reject);
      body.on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const raw = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          const field = (name: string) =>
            raw
              .split("\n")
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          if (field("event") === "changes")
            frames.push({ id: field("id")!, raw, body: demandChangesSchema.parse(JSON.parse(field("data")!)) });
        }
      });
      resolve(status);
    });
    req.on("error", reject);
  });
  req.end();
  return { frames, opened, encoding: () => encoding, close: () => req.destroy() };
}

async function fleet(): Promise<DemandList> {
  const first = await okBody(
    app.url,
    `/api/v1/scheduler/demand${q({ include_idle: true, limit: 2000 })}`,
    demandListSchema,
  );
  const tables = [...first.tables];
  for (let cursor = first.next_cursor; cursor;) {
    const page = await okBody(app.url, `/api/v1/scheduler/demand${q({ cursor, limit: 2000 })}`, demandListSchema);
    tables.push(...page.tables);
    cursor = page.next_cursor;
  }
  return { ...first, tables, next_cursor: null };
}

async function freshRead(at: { revision: number; now_ms: number }): Promise<DemandList> {
  const first = await okBody(
    app.url,
    `/api/v1/scheduler/demand${q({ include_idle: true, limit: 2000, revision: at.revision, now_ms: at.now_ms })}`,
    demandListSchema,
  );
  expect(first.next_cursor).toBeNull();
  return first;
}

function applied(base: DemandList, frames: readonly Frame[]): DemandList | null {
  let held: DemandList | null = base;
  for (const f of frames) {
    if (held === null || held.listing === f.body.listing) continue;
    held = withChanges(held, f.body);
  }
  return held;
}

const grow = async (target: string, sealed: number) => {
  const event = writerEvent({ shard: "s1", sealed, bytes: sealed * 1000, epoch: 1, flushedAtMs: Date.now() });
  expect(await publishDemandEvent(client, prefix, target, event)).toBe(true);
};

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("api-demand-stream");
  await seedScenarios(client, ["incidents"], { prefix, now: Date.now(), leaseTtlSec: 3600 });
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SHADOW_SAMPLER: "off" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

describe("GET /scheduler/demand/stream", () => {
  it("is live only: a pinned, paged or one-table query is a 400 naming the parameter", async () => {
    for (const [param, value] of [
      ["revision", "5"],
      ["cursor", "abc"],
      ["limit", "10"],
      ["now_ms", "1"],
      ["target", "a/b"],
    ]) {
      const e = await errorOf(app.url, `/api/v1/scheduler/demand/stream${q({ [param]: value })}`);
      expect([e.status, e.error.code], param).toEqual([400, "invalid_query"]);
    }
  });

  it("pushes each step once, the same bytes to every stream, and the frames rebuild a fresh read", async () => {
    const base = await fleet();
    const path = `/api/v1/scheduler/demand/stream${q({ include_idle: true, since: base.listing })}`;
    // two of them gzipped (scripts/stream-gzip.mjs: each event deflated once for every stream)
    const gzip = { "accept-encoding": "gzip" };
    const streams = [openStream(path), openStream(path, gzip), openStream(path, gzip)];
    expect(await Promise.all(streams.map((s) => s.opened))).toEqual([200, 200, 200]);
    expect(streams.map((s) => s.encoding())).toEqual([undefined, "gzip", "gzip"]);
    const stepsBefore = await metricSum(app.url, "console_demand_stream_steps_total");
    await grow("stream/one", 4);
    await grow("stream/two", 6);
    const last = await client.getAll().prefix(`${prefix}/`).exec();
    const end = Number(last.header.revision);
    await until(async () => streams.every((s) => (s.frames.at(-1)?.body.revision ?? 0) >= end), 30_000, {
      what: `every stream has a step at revision ${end}`,
    });
    // the same steps, byte for byte, on every stream (one change-set per step, not per stream), gzipped or not
    const [a, b, c] = streams.map((s) => s.frames.map((f) => f.raw));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const steps = (await metricSum(app.url, "console_demand_stream_steps_total")) - stepsBefore;
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(steps).toBeLessThanOrEqual(a.length);
    for (const f of streams[0].frames) expect(f.id).toBe(f.body.listing);
    // the frames applied to the first load: exactly a fresh read of the last step's plan
    const held = applied(base, streams[0].frames);
    const final = streams[0].frames.at(-1)!.body;
    const fresh = await freshRead({ revision: final.revision, now_ms: final.now_ms });
    expect(held?.tables).toEqual(fresh.tables);
    expect(fresh.tables.map((t) => t.target)).toEqual(expect.arrayContaining(["stream/one", "stream/two"]));

    // a reconnect from the first step's listing (Last-Event-ID) catches up to the same listing
    const firstStep = streams[0].frames[0];
    const again = openStream(path, { "last-event-id": firstStep.id });
    expect(await again.opened).toBe(200);
    if (firstStep.body.listing !== final.listing) {
      await until(async () => again.frames.at(-1)?.body.listing === final.listing, 10_000, {
        what: "the reconnect caught up",
      });
      const caughtUp = applied(applied(base, [firstStep])!, again.frames);
      expect(caughtUp?.tables).toEqual(fresh.tables);
    }
    // a stream holding a listing the server does not know is told to read again
    const stranger = openStream(
      `/api/v1/scheduler/demand/stream${q({ include_idle: true, since: "nobody.knows.this" })}`,
    );
    await until(async () => stranger.frames.length > 0, 10_000, { what: "a frame for the unknown listing" });
    expect(stranger.frames[0].body.changes).toBeNull();
    for (const s of [...streams, again, stranger]) s.close();
  });

  it("follows each content change by a patch, whichever part of the server made the live plan", async () => {
    // the routes and the background work (the journal evaluates the live plan, here every
    // 50 ms) are bundled in different chunks, each with its own module state: a plan one of
    // them made must be patchable by another (lib/planner/plan/replan.ts, lib/snapshot/planner-input.ts)
    const sampled = await startApp({
      ETCD_ENDPOINTS: sharedEtcd(),
      ETCD_PREFIX: prefix,
      CONSOLE_JOURNAL_EVAL_MS: "50",
    });
    try {
      const read = async (n: number, revision: number) => {
        const list = await okBody(
          sampled.url,
          `/api/v1/scheduler/demand${q({ limit: 10, min_revision: revision })}`,
          demandListSchema,
        );
        const shadow = await okBody(
          sampled.url,
          `/api/v1/scheduler/shadow${q({ min_revision: revision })}`,
          shadowResponseSchema,
        );
        expect(
          [list.revision, shadow.revision].every((r) => r >= revision),
          `step ${n}`,
        ).toBe(true);
        return [list.now_ms, shadow.now_ms];
      };
      // the journal runs once this replica leads the sampler
      await until(async () => (await metricSum(sampled.url, "console_shadow_sampler_leader")) === 1, 30_000, {
        what: "the sampler leads",
      });
      const start = await client.getAll().prefix(`${prefix}/`).exec();
      await read(0, Number(start.header.revision));
      const plansBefore = await metricSum(sampled.url, "console_plans_total");
      const clocks = new Set<number>();
      for (let n = 1; n <= 8; n++) {
        await grow(`patch/t${n % 3}`, 10 + n);
        const last = await client.getAll().prefix(`${prefix}/`).exec();
        for (const now of await read(n, Number(last.header.revision))) clocks.add(now);
      }
      // a patch keeps the plan's own now; only the clock's own plan (every 5 s) makes another
      const plans = (await metricSum(sampled.url, "console_plans_total")) - plansBefore;
      expect(plans).toBeLessThanOrEqual(clocks.size);
      expect(clocks.size).toBeLessThan(4);
    } finally {
      await sampled.stop();
    }
  });
});

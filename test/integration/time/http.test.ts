// The time endpoints over HTTP (a real `next start` on a world dated two hours ago): every
// bad input is a JSON error with a code and a reason, in time, and the good answers parse
// with their response schemas.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { testPrefix } from "../../support/prefix";
import { api } from "../api/helpers";
import { INCIDENT } from "@/lib/sim";
import { hex } from "@/lib/schema/keys";
import { errorBodySchema } from "@/lib/schema/api/common";
import { demandDetailSchema } from "@/lib/schema/api/demand";
import { diffResponseSchema } from "@/lib/schema/api/diff";
import { historyResponseSchema } from "@/lib/schema/api/history";
import { revisionTimeSchema } from "@/lib/schema/api/revisions";
import { clientFor, HOUR_MS, seedDatedWorld } from "./world";
import { until } from "../../support/observe";

let client: Etcd3;
let app: RunningApp;
let seeded: number;
let t0: number;
let prefix: string;

beforeAll(async () => {
  const endpoints = sharedEtcd();
  prefix = testPrefix("time-http");
  client = clientFor(endpoints);
  t0 = Date.now() - 2 * HOUR_MS;
  seeded = await seedDatedWorld(client, prefix, t0);
  app = await startApp({ ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: prefix, CONSOLE_SAMPLER_TTL_SECS: "5" });
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

async function refused(path: string, status: number, code: string, reason: RegExp) {
  const res = await api(app.url, path, 10_000);
  expect(res.status, path).toBe(status);
  const body = errorBodySchema.parse(res.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(reason);
  return body;
}

describe("bad input answers with a reason", () => {
  it("revisions/time: garbled, both or neither, future revision, future time, before history", async () => {
    await refused("/api/v1/revisions/time?at_ms=03:10", 400, "invalid_query", /at_ms: must be Unix milliseconds/);
    await refused("/api/v1/revisions/time", 400, "invalid_query", /exactly one of revision and at_ms/);
    await refused(
      "/api/v1/revisions/time?revision=1&at_ms=1",
      400,
      "invalid_query",
      /exactly one of revision and at_ms/,
    );
    await refused(`/api/v1/revisions/time?revision=${seeded + 1_000_000}`, 400, "invalid_query", /future revision/);
    await refused(`/api/v1/revisions/time?at_ms=${Date.now() + 86_400_000}`, 400, "invalid_query", /in the future/);
    // up to 5 minutes ahead reads as now (console-api.md third version)
    const ahead = await api(app.url, `/api/v1/revisions/time?at_ms=${Date.now() + 60_000}`);
    expect(ahead.status).toBe(200);
    expect(revisionTimeSchema.parse(ahead.body).revision).toBeGreaterThanOrEqual(seeded);
    const before = await refused(
      `/api/v1/revisions/time?at_ms=${t0 - 48 * HOUR_MS}`,
      404,
      "not_found",
      /is before etcd's history, which starts at revision [\d,]+/,
    );
    // the suite's etcd may have been compacted by another file: the oldest readable revision answers
    const oldest = Number(before.error.oldest_revision);
    expect(oldest).toBeGreaterThanOrEqual(1);
    expect((await api(app.url, `/api/v1/revisions/time?revision=${oldest}`)).status).toBe(200);
  });

  it("history, diff and change name the bad parameter", async () => {
    await refused("/api/v1/scheduler/demand/history", 400, "invalid_query", /target/);
    await refused(
      `/api/v1/scheduler/demand/history?target=x&to_ms=${Date.now() + 86_400_000}`,
      400,
      "invalid_query",
      /to_ms: \d+ is more than 5 minutes in the future/,
    );
    await refused(
      "/api/v1/scheduler/demand/history?target=x&from_ms=9&to_ms=3",
      400,
      "invalid_query",
      /from_ms must be before to_ms/,
    );
    await refused("/api/v1/scheduler/diff", 400, "invalid_query", /exactly one of from and from_ms/);
    await refused("/api/v1/scheduler/diff?from=9&to=3", 400, "invalid_query", /from must not be after to/);
    await refused(
      "/api/v1/revisions/change?scope=table&revision=5&direction=back",
      400,
      "invalid_query",
      /needs a target/,
    );
    await refused("/api/v1/scheduler/demand?revision=abc", 400, "invalid_query", /revision/);
    await refused("/api/v1/scheduler/demand?revision=5&now=tomorrow", 400, "invalid_query", /now/);
  });
});

describe("good answers", () => {
  it("a pinned table page is as of its revision's time; now=server is today", async () => {
    const t = revisionTimeSchema.parse((await api(app.url, `/api/v1/revisions/time?revision=${seeded}`)).body);
    expect(t).toMatchObject({ basis: "record_timestamps", at_ms: t0 + 15_000, error_ms: 15_000 });
    const target = encodeURIComponent(INCIDENT.mergingTarget);
    const then = demandDetailSchema.parse(
      (await api(app.url, `/api/v1/scheduler/demand?target=${target}&revision=${seeded}`)).body,
    );
    expect(then).toMatchObject({ now_basis: "revision_time", now_ms: t.at_ms, revision_time: t });
    const today = demandDetailSchema.parse(
      (await api(app.url, `/api/v1/scheduler/demand?target=${target}&revision=${seeded}&now=server`)).body,
    );
    expect(today.now_basis).toBe("server_clock");
    expect(today.table.wait_ms! - then.table.wait_ms!).toBeGreaterThan(2 * HOUR_MS - 60_000);
    const live = demandDetailSchema.parse((await api(app.url, `/api/v1/scheduler/demand?target=${target}`)).body);
    expect(live).toMatchObject({ now_basis: "server_clock", revision_time: null });
  });

  it("the console clock dates revisions once the sampler runs; history and diff parse", async () => {
    const written = Number(
      (
        await client
          .put(`${testPrefix("unused")}/x`)
          .value("1")
          .exec()
      ).header.revision,
    );
    const dated = await until(
      async () => {
        const x = await revisionTimeSchema.parse(
          (await api(app.url, `/api/v1/revisions/time?revision=${written}`)).body,
        );
        return x.basis === "console_clock" && x.error_ms! <= 5000 ? x : undefined;
      },
      30_000,
      { what: "a console-clock answer" },
    ).then((r) => r.value);
    expect(Math.abs(dated.at_ms! - Date.now())).toBeLessThan(30_000);
    const history = historyResponseSchema.parse(
      (
        await api(
          app.url,
          `/api/v1/scheduler/demand/history?target=${encodeURIComponent(INCIDENT.mergingTarget)}&from_ms=${t0 - HOUR_MS}`,
        )
      ).body,
    );
    expect(history.points.length).toBeGreaterThan(0);
    const diff = diffResponseSchema.parse((await api(app.url, `/api/v1/scheduler/diff?from=${seeded}`)).body);
    expect(diff.from).toMatchObject({ revision: seeded, at_ms: t0 + 15_000 });
    // step by change on the tables page: the seed was one txn, so nothing before it; a flush after it
    await refused(
      `/api/v1/revisions/change?scope=tables&revision=${seeded}&direction=back`,
      404,
      "not_found",
      /nothing on this page changed before/,
    );
    const flushed = Number(
      (
        await client
          .put(`${prefix}/demand-events/${hex("time/later")}/s1`)
          .value(
            JSON.stringify({
              shard: "s1",
              sealed_through: 4,
              flushed_at_ms: Date.now(),
              writer_epoch: 1,
              source: "writer",
            }),
          )
          .exec()
      ).header.revision,
    );
    const forward = revisionTimeSchema.parse(
      (await api(app.url, `/api/v1/revisions/change?scope=tables&revision=${seeded}&direction=forward`)).body,
    );
    expect(forward.revision).toBe(flushed);
    const back = revisionTimeSchema.parse(
      (await api(app.url, `/api/v1/revisions/change?scope=tables&revision=${flushed}&direction=back`)).body,
    );
    expect(back.revision).toBe(seeded);
    // a deletion is a change too (it leaves no mod_revision to find): both ways, also past
    // unrelated writes. Here a shard of a seeded table goes away.
    const seededShard = (await client.getAll().prefix(`${prefix}/demand-events/`).keys()).find(
      (k) => !k.includes(hex("time/later")),
    )!;
    const gone = Number((await client.delete().key(seededShard).exec()).header.revision);
    const later = Number(
      (
        await client
          .put(`${testPrefix("unused")}/x`)
          .value("2")
          .exec()
      ).header.revision,
    );
    const toDeletion = revisionTimeSchema.parse(
      (await api(app.url, `/api/v1/revisions/change?scope=tables&revision=${flushed}&direction=forward`)).body,
    );
    expect(toDeletion.revision).toBe(gone);
    const backToDeletion = revisionTimeSchema.parse(
      (await api(app.url, `/api/v1/revisions/change?scope=tables&revision=${later}&direction=back`)).body,
    );
    expect(backToDeletion.revision).toBe(gone);
    const backFromDeletion = revisionTimeSchema.parse(
      (await api(app.url, `/api/v1/revisions/change?scope=tables&revision=${gone}&direction=back`)).body,
    );
    expect(backFromDeletion.revision).toBe(flushed);
    // the console's own writes (clock samples) are never a change: nothing after the deletion
    await refused(
      `/api/v1/revisions/change?scope=tables&revision=${gone}&direction=forward`,
      404,
      "not_found",
      /nothing on this page changed after/,
    );
  });
});

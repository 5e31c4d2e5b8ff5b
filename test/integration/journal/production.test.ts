// The decision journal at the production shape (issue 23 "Done when": "an integration test
// against real etcd at 13,405 tables with contention"): the §10 T23 fleet (13,405 tables,
// 13,136 of them pending) behind one worker whose merge slots the test turns (1 → 2 → 1),
// plus the contended four, with the elected sampler journalling it. Every entry the journal
// holds — the first checkpoint's 13,409 and each step's changes — equals that table's row in
// the whole fleet's list pinned at the entry's `?revision=R&now_ms=<its now_ms>`; and one
// busy table's history from the journal equals its pinned one-table answers point by point.
// Its own etcd; the sampler and the API modules run in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Etcd3 } from "etcd3";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { seedScenarios } from "@/lib/sim";
import { PRODUCTION_TABLES } from "@/lib/sim/scenarios/production";
import { journalPrefix } from "@/lib/schema/keys";
import { demandListSchema, demandQuerySchema, type TableSummary } from "@/lib/schema/api/demand";
import { historyResponseSchema } from "@/lib/schema/api/history";
import { journalCoverageSchema } from "@/lib/schema/api/journal";
import { readJournalValues } from "@/lib/etcd/journal-store";
import { decodeChunk } from "@/lib/journal/codec";
import { foldChunks } from "@/lib/journal/fold";
import type { ShadowSampler } from "@/lib/live/sampler";
import { clientFor, useConsoleEnv } from "../time/world";
import { contendedFleet } from "./contention";

let etcd: EtcdCluster;
let client: Etcd3;
let prefix: string;
let sampler: ShadowSampler | null = null;
const fleet = contendedFleet(
  () => client,
  () => prefix,
  "prod-journal",
  "prod-worker",
);

async function evaluations() {
  const base = journalPrefix(prefix);
  const kvs = await readJournalValues(client, base, base, null);
  return [...foldChunks(kvs.map((kv) => decodeChunk(kv.value)))];
}

/** The whole fleet's list pinned at (revision, now_ms), every page, by target. */
async function pinnedFleet(revision: number, nowMs: number): Promise<Map<string, TableSummary>> {
  const { demandList: list } = await import("@/lib/scheduler/demand");
  const rows = new Map<string, TableSummary>();
  let cursor: string | undefined;
  do {
    const page = demandListSchema.parse(
      await list(
        demandQuerySchema.parse(
          cursor
            ? { cursor, limit: "2000" }
            : { include_idle: "true", limit: "2000", revision: String(revision), now_ms: String(nowMs) },
        ),
      ),
    );
    for (const t of page.tables) rows.set(t.target, t);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return rows;
}

const projection = (t: Pick<TableSummary, "class" | "verdict">) => ({
  class: t.class,
  state: t.verdict.state,
  code: t.verdict.state === "would_skip" ? t.verdict.code : null,
  executor: t.verdict.state === "would_place" ? t.verdict.executor : null,
});

beforeAll(async () => {
  etcd = await startEtcd();
  prefix = testPrefix("journal-production");
  useConsoleEnv(etcd.endpoints, prefix);
  client = clientFor(etcd.endpoints);
  await seedScenarios(client, ["production"], { prefix });
  await fleet.seed();
}, 120_000);

afterAll(async () => {
  await sampler?.stop().catch(() => undefined);
  client?.close();
  await etcd?.stop();
});

describe("the decision journal at 13,405 tables", () => {
  it("every entry, the first checkpoint's and each contended step's, equals the whole fleet pinned at its revision and now_ms", async () => {
    const seeded = await fleet.publishStep(0);
    sampler = await fleet.sampler();
    sampler.start();
    const caughtUp = async (revision: number) =>
      until(async () => ((await evaluations()).some((e) => e.revision >= revision) ? true : undefined), 60_000, {
        what: `the journal reaches revision ${revision}`,
      });
    await caughtUp(seeded);
    for (let step = 1; step <= 3; step++) {
      await fleet.publishStep(step);
      await caughtUp(await fleet.setSlots(step % 2 === 1 ? 2 : 1));
    }
    const evs = await evaluations();
    const first = evs[0];
    // the first evaluation is a checkpoint: every table of the fleet
    expect(first.changed.size).toBe(PRODUCTION_TABLES + fleet.tables.length);
    let compared = 0;
    const codes = new Set<string>();
    for (const ev of evs) {
      if (ev.changed.size === 0) continue;
      const pinned = await pinnedFleet(ev.revision, ev.now_ms);
      for (const [target, entry] of ev.changed) {
        const row = pinned.get(target);
        expect(row, `${target} @${ev.revision}`).toBeDefined();
        expect({ class: entry.class, ...entry.verdict }, `${target} @${ev.revision} now ${ev.now_ms}`).toEqual(
          projection(row!),
        );
        codes.add(entry.verdict.state === "would_place" ? "placed" : entry.verdict.code!);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(PRODUCTION_TABLES + 3);
    // contention: one worker places one or two tables; the rest wait, for more than one reason
    expect(codes.has("placed")).toBe(true);
    expect(codes.size).toBeGreaterThan(2);

    // one contended table's history, from the journal, point by point against its pinned answer
    const { demandHistory } = await import("@/lib/time/history");
    const { journalCoverage } = await import("@/lib/time/journal-coverage");
    const { demandDetail } = await import("@/lib/scheduler/demand-detail");
    const cov = journalCoverageSchema.parse(await journalCoverage());
    const target = fleet.tables[1];
    const h = historyResponseSchema.parse(await demandHistory({ target, from_ms: cov.from_ms!, to_ms: cov.to_ms! }));
    expect(h.verdict_basis).toBe("journal");
    expect(h.points.length).toBeGreaterThan(1);
    for (const p of h.points) {
      const page = await demandDetail({
        ...demandQuerySchema.parse({ target, revision: String(p.revision), now_ms: String(p.now_ms) }),
        target,
      });
      expect(
        { class: p.class, state: p.verdict!.state, code: p.verdict!.code, executor: p.executor, wait_ms: p.wait_ms },
        `${target} @${p.revision}`,
      ).toEqual({ ...projection(page.table), wait_ms: page.table.wait_ms });
    }
  }, 240_000);
});

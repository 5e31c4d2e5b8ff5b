// `scheduler-console` (bin/scheduler-console.mjs, run as a fresh clone runs it: through tsx,
// no build) against a real `next start` over a real etcd seeded with the `incidents`
// scenario plus one live worker with a single merge slot and two due tables, so one table
// is placed and others show the executor filters with their per-executor counts. Every answer is checked
// against the API's own answer to the same question, with a viewer token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import type { Etcd3 } from "etcd3";
import { startApp, type RunningApp } from "../../support/app";
import { runCli, type CliRun } from "../../support/cli";
import { freePort } from "../../support/ports";
import { testPrefix } from "../../support/prefix";
import { INCIDENT, seedScenarios } from "@/lib/sim";
import { keys } from "@/lib/schema/keys";
import { heartbeatValue, type SimExecutor } from "@/lib/sim/scenarios/fleet";
import { formatBytes, formatTime } from "@/lib/words/format";
import { classLabel, codeInWords, positionLabel, verdictLabel } from "@/lib/words/codes";
import { forecastLines } from "@/lib/cli/forecast-lines";
import { NO_HOLDER_WORDS, holderInWords } from "@/lib/words/write-turn";
import { OUTCOME_MEANING } from "@/lib/words/outcomes";
import { clientFor } from "../api/helpers";
import { whyNotHeading } from "@/lib/cli/why";
import { demandTable } from "../answer/records";

const TOKEN = "ops-cli-viewer-token";
/** the revision clock and the diff (console-api.md Additions "Time") */

let client: Etcd3;
let app: RunningApp;
let prefix: string;
let NOW: number;
/** the revision every exact comparison pins (the console's samplers keep writing under P/console/) */
let R: number;
/** `--revision R --now-ms NOW` and its query string */
const pin = () => ["--revision", String(R), "--now-ms", String(NOW)];
const pinQ = () => `revision=${R}&now_ms=${NOW}`;

type Run = CliRun;

const cli = (args: string[], env: Record<string, string> = {}): Promise<Run> => runCli(app.url, TOKEN, args, env);

async function apiJson(pathAndQuery: string, token: string | null = TOKEN): Promise<{ status: number; body: any }> {
  const res = await fetch(`${app.url}${pathAndQuery}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: await res.json() };
}

const countOf = (n: number, word: string) => `${n.toLocaleString("en-US")} ${n === 1 ? word : `${word}s`}`;

/**
 * What differs between two reads of one revision: when it was read, the cache's age, and
 * the revision clock's estimate of its time (it narrows as samples arrive; console-api.md "Time").
 */
const sameAnswer = (body: any) => ({
  ...body,
  read_at_ms: expect.any(Number),
  snapshot: { ...body.snapshot, age_ms: expect.any(Number) },
  ...(body.revision_time
    ? { revision_time: { ...body.revision_time, at_ms: expect.any(Number), error_ms: expect.any(Number) } }
    : {}),
});

beforeAll(async () => {
  const endpoints = sharedEtcd();
  client = clientFor(endpoints);
  prefix = testPrefix("ops-cli");
  NOW = Date.now();
  await seedScenarios(client, ["incidents"], { prefix, now: NOW, leaseTtlSec: 3600 });
  const worker: SimExecutor = {
    id: "ops-cli-worker",
    kind: "worker",
    kinds: ["merge_wal"],
    slots_total: { merge_wal: 1 },
    bytes_total: 64 * 1024 ** 3,
    draining: false,
  };
  await client.put(keys.executor(prefix, worker.id)).value(heartbeatValue(worker, NOW));
  // two due tables for its one slot: one is placed, the other finds no free slot
  await demandTable(client, prefix, "ops-cli/due-1", 40, NOW - 600_000);
  await demandTable(client, prefix, "ops-cli/due-2", 30, NOW - 600_000);
  app = await startApp({
    ETCD_ENDPOINTS: endpoints,
    ETCD_PREFIX: prefix,
    CONSOLE_VIEWER_TOKENS: TOKEN,
    CONSOLE_SHADOW_SAMPLE_MS: "1000",
    CONSOLE_SAMPLER_TTL_SECS: "5",
  });
  R = (await apiJson("/api/v1/scheduler/executors")).body.revision;
});

afterAll(async () => {
  await app?.stop();
  client?.close();
});

describe("why <table>", () => {
  it("prints the verdict and every why-not entry in words, with the per-executor counts", async () => {
    const list = await apiJson(`/api/v1/scheduler/demand?${pinQ()}&limit=2000&include_idle=true`);
    // a table held back by executor filters (per-executor counts in detail.counts), one that
    // would be placed, and one that needs attention
    const all = await Promise.all(
      list.body.tables.map((t: any) =>
        apiJson(`/api/v1/scheduler/demand?target=${encodeURIComponent(t.target)}&${pinQ()}`).then((r) => r.body),
      ),
    );
    const answers = [
      all.find((a: any) => a.table.why_not.some((w: any) => w.detail?.counts)),
      all.find((a: any) => a.table.verdict.state === "would_place"),
      all.find((a: any) => a.table.target === INCIDENT.brokenStore),
    ];
    expect(answers.map((a) => a?.table.target ?? null)).not.toContain(null);

    for (const answer of answers) {
      const t = answer.table;
      const run = await cli(["why", t.target, ...pin()]);
      expect(run.err).toBe("");
      expect(run.code).toBe(0);
      const lines = run.out.trimEnd().split("\n");
      expect(lines[0]).toBe(`${t.target}  (revision ${answer.revision}, evaluated at ${formatTime(NOW)})`);
      // the pages' short form (lib/words verdictLabel), then what the table page adds
      const verdict =
        t.verdict.state === "would_place"
          ? `place → ${t.verdict.executor}, reserving ${formatBytes(t.verdict.reserved_bytes)}`
          : `skip: ${codeInWords(t.verdict.code)} [${t.verdict.code}] — ${t.verdict.message}`;
      expect(lines).toContain(`Verdict: ${verdict}`);
      // each world's place and ETA, as the table page says them (lib/cli/forecast-lines.ts); the write-turn holder, as every surface names it
      for (const line of forecastLines(t.forecasts)) expect(lines).toContain(line);
      expect(lines).toContain(
        t.write_turn_holder === null ? NO_HOLDER_WORDS : holderInWords(t.write_turn_holder, answer.now_ms),
      );
      if (t.why_not.length === 0) expect(lines).toContain("Why not: nothing holds it back: it would be placed now.");
      else expect(lines).toContain(`Why not (${t.why_not.length}):`);
      t.why_not.forEach((w: any, i: number) => {
        const at = lines.indexOf(`  ${i + 1}. ${whyNotHeading(w)}`);
        expect(at, w.code).toBeGreaterThan(0);
        expect(lines[at]).toContain(`[${w.code}]`);
        expect(lines[at + 1]).toBe(`     ${w.message}`);
        if (w.detail?.counts) {
          const counts = Object.entries(w.detail.counts)
            .map(([stage, n]) => `${n} ${stage.replaceAll("_", " ")}`)
            .join(", ");
          expect(lines).toContain(`     executors: ${w.detail.considered} considered; ${counts}`);
        }
      });
    }
  });

  it("--json prints the API's answer", async () => {
    const target = INCIDENT.stalledTarget;
    const run = await cli(["why", target, ...pin(), "--json"]);
    expect(run.code).toBe(0);
    const api = await apiJson(`/api/v1/scheduler/demand?target=${encodeURIComponent(target)}&${pinQ()}`);
    expect(JSON.parse(run.out)).toEqual(sameAnswer(api.body));
  });

  it("an unknown table is the API's 404, exit 1 with its code and message", async () => {
    const api = await apiJson(`/api/v1/scheduler/demand?target=no-such-table&${pinQ()}`);
    expect(api.status).toBe(404);
    const run = await cli(["why", "no-such-table", ...pin()]);
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toBe(`error: ${api.body.error.code}: ${api.body.error.message} (HTTP 404)\n`);
  });
});

describe("tables, executors, shadow", () => {
  it("tables --class --backlog --limit lists the API's rows in its order", async () => {
    const all = await apiJson(`/api/v1/scheduler/demand?class=critical&class=commit_ready&backlog=ok&${pinQ()}`);
    const limit = all.body.matched - 1; // one short, so the listing says more follow
    expect(limit).toBeGreaterThan(3);
    const api = await apiJson(
      `/api/v1/scheduler/demand?class=critical&class=commit_ready&backlog=ok&limit=${limit}&${pinQ()}`,
    );
    const run = await cli([
      "tables",
      "--class",
      "critical,commit_ready",
      "--backlog",
      "ok",
      "--limit",
      String(limit),
      ...pin(),
    ]);
    expect(run.code).toBe(0);
    const lines = run.out.trimEnd().split("\n");
    const b = api.body;
    expect(b.tables).toHaveLength(limit);
    expect(lines[0]).toBe(
      `${limit} of ${b.matched} matching tables (revision ${R}; ${b.total_tables} tables, ${b.tables_with_pending} with pending)`,
    );
    // the /tables page's columns and words (lib/words/columns.ts, lib/words/codes.ts)
    expect(lines[1].split(/\s{2,}/)).toEqual([
      "TARGET",
      "CLASS",
      "IN LINE",
      "PENDING",
      "TO MERGE",
      "WAIT",
      "SCORE",
      "BACKLOG",
      "VERDICT",
    ]);
    const rows = lines.slice(2, 2 + limit).map((l) => l.trim().split(/\s{2,}/));
    expect(rows.map((r) => r[0])).toEqual(b.tables.map((t: any) => t.target));
    expect(rows.map((r) => r[1])).toEqual(b.tables.map((t: any) => classLabel(t.class)));
    expect(rows.map((r) => r[2])).toEqual(b.tables.map((t: any) => positionLabel(t.position)));
    expect(rows.map((r) => r[3])).toEqual(b.tables.map((t: any) => t.pending_generations.toLocaleString("en-US")));
    expect(rows.map((r) => r.at(-1))).toEqual(b.tables.map((t: any) => verdictLabel(t.verdict)));
    // a listed wait that is a lower bound (incident/catching-up's) is explained once, under the rows
    const notes = b.tables.some((t: any) => t.age_bound === "upper")
      ? ["A wait marked ≥ is a lower bound: the exact flush time was pruned."]
      : [];
    expect(lines.slice(2 + limit)).toEqual([...notes, "More tables follow: raise --limit (up to 2000)."]);
    const json = await cli([
      "tables",
      "--class",
      "critical",
      "--class",
      "commit_ready",
      "--backlog",
      "ok",
      "--limit",
      String(limit),
      ...pin(),
      "--json",
    ]);
    expect(JSON.parse(json.out)).toEqual(sameAnswer(b));
  });

  it("--revision pins the answer", async () => {
    const live = await apiJson(`/api/v1/scheduler/demand?limit=3&now_ms=${NOW}`);
    const revision = live.body.revision;
    await client
      .put(keys.demandEvent(prefix, "ops-cli/new-table", "s1"))
      .value(
        JSON.stringify({ shard: "s1", sealed_through: 40, flushed_at_ms: NOW, writer_epoch: 1, source: "writer" }),
      );
    const pinned = await apiJson(`/api/v1/scheduler/demand?limit=3&now_ms=${NOW}&revision=${revision}`);
    const run = await cli([
      "tables",
      "--limit",
      "3",
      "--revision",
      String(revision),
      "--now-ms",
      String(NOW),
      "--json",
    ]);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.out);
    expect(body.revision).toBe(revision);
    expect(body).toEqual(sameAnswer(pinned.body));
  });

  it("executors lists every executor with its state and headroom", async () => {
    const api = await apiJson(`/api/v1/scheduler/executors?${pinQ()}`);
    const run = await cli(["executors", ...pin()]);
    expect(run.code).toBe(0);
    const lines = run.out.trimEnd().split("\n");
    const t = api.body.totals;
    expect(lines[0]).toContain(
      `${countOf(t.executors, "executor")} (${t.draining} draining), ${countOf(t.orphans, "orphan")}`,
    );
    expect(lines.slice(2, 2 + api.body.executors.length).map((l) => l.split(/\s+/).slice(0, 3))).toEqual(
      api.body.executors.map((e: any) => [e.id, e.kind, e.orphan ? "orphan" : e.draining ? "draining" : "live"]),
    );
    // free as the verdicts use it, with its parts: the fleet's and each executor's, kind by kind
    for (const [kind, h] of Object.entries(t.slots) as [string, any][])
      expect(
        lines.find((l) => l.startsWith("all accepting") && l.split(/\s{2,}/)[1] === kind)?.split(/\s{2,}/),
      ).toEqual(["all accepting", kind, ...[h.free, h.total, h.reserved, h.shadow, h.legacy_running].map(String)]);
    for (const e of api.body.executors)
      for (const [kind, h] of Object.entries(e.slots) as [string, any][])
        expect(lines.find((l) => l.startsWith(`${e.id} `) && l.split(/\s{2,}/)[1] === kind)?.split(/\s{2,}/)).toEqual([
          e.id,
          kind,
          ...[h.free, h.total, h.reserved, h.shadow, h.legacy_running].map(String),
        ]);
    expect(t.orphans + t.draining).toBeGreaterThan(0);
    const json = await cli(["executors", ...pin(), "--json"]);
    expect(JSON.parse(json.out)).toEqual(sameAnswer(api.body));
  });

  it("shadow prints the outcome counts and placement agreement", async () => {
    const api = await apiJson(`/api/v1/scheduler/shadow?${pinQ()}`);
    const run = await cli(["shadow", ...pin()]);
    expect(run.code).toBe(0);
    const lines = run.out.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `Shadow comparison at revision ${api.body.revision}: ${countOf(api.body.disagreements, "disagreement")} (discovery_miss + phantom_task)`,
    );
    for (const [outcome, n] of Object.entries(api.body.outcomes)) {
      const label = OUTCOME_MEANING[outcome as keyof typeof OUTCOME_MEANING].label;
      expect(lines.find((l) => l.startsWith(`${label} `))?.split(/\s{2,}/)[1], outcome).toBe(
        (n as number).toLocaleString("en-US"),
      );
    }
    // the discovery misses by name
    const misses: string[] = api.body.tables.discovery_miss;
    if (misses.length > 0)
      expect(lines).toContain(
        `Discovery misses (${misses.length.toLocaleString("en-US")}), with the write-turn holder their table page names:`,
      );
    for (const target of misses.slice(0, 50))
      expect(
        lines.some((l) => l.startsWith(`  ${target}`)),
        target,
      ).toBe(true);
    expect(
      lines.some((l) =>
        l.startsWith(
          `Placements by the master's shadow rule: the console and the master ${api.body.placements.agree ? "agree" : "differ"}`,
        ),
      ),
    ).toBe(true);
    const json = await cli(["shadow", ...pin(), "--json"]);
    expect(JSON.parse(json.out)).toEqual(sameAnswer(api.body));
  });
});

describe("tokens and exit codes", () => {
  it("takes the token from --token or SCHEDULER_CONSOLE_TOKEN; without one the API's 401 is exit 1", async () => {
    const refused = await apiJson("/api/v1/scheduler/executors", null);
    expect(refused.status).toBe(401);
    const none = await cli(["executors"], { SCHEDULER_CONSOLE_TOKEN: "" });
    expect(none.code).toBe(1);
    expect(none.err).toBe(`error: ${refused.body.error.code}: ${refused.body.error.message} (HTTP 401)\n`);
    const flag = await cli(["executors", "--token", TOKEN], { SCHEDULER_CONSOLE_TOKEN: "" });
    expect(flag.code).toBe(0);
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Commands:");
    expect(help.out).not.toContain(TOKEN); // the token is never echoed as a default
  });

  it("usage errors exit 2 and call no API", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    for (const args of [
      [],
      ["frobnicate"],
      ["tables", "--limit", "2001"],
      ["why", "t", "--at", "2026-12-01T03:10:00Z", "--revision", "5"],
      ["diff", "--from", "5", "--to", "soon"],
    ]) {
      const run = await cli([...args, "--url", closed]);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.out + run.err, args.join(" ")).not.toContain("did not answer");
    }
  });

  it("an unreachable console is exit 1 with code unreachable", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await cli(["executors", "--url", closed]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(new RegExp(`^error: unreachable: ${closed.replaceAll(".", "\\.")} did not answer: `));
  });
});

// These two need the revision clock's routes (GET /api/v1/revisions/time and
// GET /api/v1/scheduler/diff); they run wherever those routes exist.
/**
 * The clock may refine a recent revision's time as new samples land, so an answer is
 * checked against the API's answers just before and just after the command.
 */
async function bracketed(
  ask: () => Promise<any>,
  command: () => Promise<Run>,
): Promise<{ run: Run; before: any; after: any }> {
  const before = await ask();
  const run = await command();
  const after = await ask();
  return { run, before, after };
}

describe("--at <time>", () => {
  it("resolves the time through GET /api/v1/revisions/time and answers at that revision", async () => {
    // a time the clock has samples on both sides of, so its revision is settled: after the
    // newest sample the answer is an estimate that narrows as samples arrive (console-api.md "Time")
    const samplesAt = async () =>
      Object.values(await client.getAll().prefix(`${prefix}/console/revision-clock/`).strings())
        .map((v) => (JSON.parse(v) as { at_ms: number }).at_ms)
        .sort((a, b) => a - b);
    let times = await samplesAt();
    const deadline = Date.now() + 30_000;
    while (times.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      times = await samplesAt();
    }
    expect(times.length, "two revision-clock samples").toBeGreaterThanOrEqual(2);
    const at = times[times.length - 2];
    const clock = () => apiJson(`/api/v1/revisions/time?at_ms=${at}`).then((r) => (expect(r.status).toBe(200), r.body));
    const text = await bracketed(clock, () =>
      cli(["tables", "--limit", "2", "--at", new Date(at).toISOString(), "--now-ms", String(NOW)]),
    );
    expect(text.run.err).toBe("");
    expect(text.run.code).toBe(0);
    const first = text.run.out.split("\n")[0];
    expect(
      [text.before.revision, text.after.revision].map((r) =>
        first.startsWith(`At ${formatTime(at)}: revision ${r}, written `),
      ),
    ).toContain(true);
    const json = await bracketed(clock, () =>
      cli(["tables", "--limit", "2", "--at", String(at), "--now-ms", String(NOW), "--json"]),
    );
    const body = JSON.parse(json.run.out);
    expect([json.before.revision, json.after.revision]).toContain(body.revision);
    const pinned = await apiJson(`/api/v1/scheduler/demand?limit=2&now_ms=${NOW}&revision=${body.revision}`);
    expect(body).toEqual(sameAnswer(pinned.body));
  });
});

describe("diff --from --to", () => {
  it("prints GET /api/v1/scheduler/diff in words, and as JSON", async () => {
    const from = (await apiJson("/api/v1/scheduler/executors")).body.revision;
    await client.put(keys.demandEvent(prefix, "ops-cli/appeared", "s1")).value(
      JSON.stringify({
        shard: "s1",
        sealed_through: 30,
        flushed_at_ms: Date.now(),
        writer_epoch: 1,
        source: "writer",
      }),
    );
    const to = Number((await client.get(keys.demandEvent(prefix, "ops-cli/appeared", "s1")).exec()).header.revision);
    const diff = () =>
      apiJson(`/api/v1/scheduler/diff?from=${from}&to=${to}`).then((r) => (expect(r.status).toBe(200), r.body));
    const side = (s: any, r: number) => `revision ${r}${s.at_ms === null ? "" : ` (${formatTime(s.at_ms)})`}`;
    // a revision after the clock's newest sample has an estimated time that moves with "now"
    // (console-api.md "Time"); wait until a sample after `to` settles both sides' times. That
    // estimate is rounded to 2 s, so its at_ms alone can repeat while it still moves (a CI run
    // saw it step between the reads around the CLI's); its error_ms grows with every read until
    // a sample closes the interval
    const moment = (s: any) => `${s.at_ms}±${s.error_ms}`;
    let last = await diff();
    const deadline = Date.now() + 30_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const next = await diff();
      if (next.to.at_ms !== null && moment(next.to) === moment(last.to) && moment(next.from) === moment(last.from))
        break;
      expect(Date.now(), "the revision clock settles the diff's times").toBeLessThan(deadline);
      last = next;
    }
    const text = await bracketed(diff, () => cli(["diff", "--from", String(from), "--to", String(to)]));
    expect(text.run.code).toBe(0);
    expect(text.after.tables.appeared).toContain("ops-cli/appeared");
    const lines = text.run.out.trimEnd().split("\n");
    expect([text.before, text.after].map((d) => `From ${side(d.from, from)} to ${side(d.to, to)}`)).toContain(lines[0]);
    expect(lines).toContain(`Appeared (${text.after.tables.appeared.length}):`);
    expect(lines).toContain("  ops-cli/appeared");
    const json = await bracketed(diff, () => cli(["diff", "--from", String(from), "--to", String(to), "--json"]));
    // each side's wall time is the clock's estimate, which narrows as samples arrive
    const changes = (d: any) =>
      JSON.stringify({ ...d, from: { revision: d.from.revision }, to: { revision: d.to.revision } });
    expect([json.before, json.after].map(changes)).toContain(changes(JSON.parse(json.run.out)));
  });
});

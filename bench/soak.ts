// `npm run soak -- --minutes 60`: the demo's world for an hour (or `--minutes`): etcd as
// `npm run demo` runs it (scripts/demo-etcd.flags), the realistic + incidents fleet, the
// live simulator (its own process, as in the demo) and a `next start`, with simulated users
// (bench/soak-users.ts). Every 30 s it samples the tables with pending work, each kind's line
// (the planner's, from the listing's `lines`) and the legacy queue; every 5 minutes it
// records the console's RSS, etcd's DB size, those figures averaged over the 5 minutes, the
// 5xx so far, the journal's gaps and the canary. Writes bench/results/soak.json and the chart
// bench/results/soak.png (README.md links it), and prints the "Done when" figures
// (bench/soak-verdicts.ts). A benchmark: it reports, it does not fail on them.
import "../lib/sim/node-entry";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRawEtcdClient } from "../lib/etcd/raw";
import { seedScenarios } from "../lib/sim/seed";
import { REALISTIC_TABLES } from "../lib/sim/scenarios/realistic";
import { CANARY_TABLES } from "../lib/sim/canary";
import { startApp } from "../test/support/app";
import { startEtcd } from "../test/support/etcd";
import { EtcdHttp } from "../test/support/etcd-http";
import { writeHeapSnapshot } from "../test/support/inspector";
import { getJson } from "../test/support/observe";
import { runBench, writeResult } from "./harness";
import { demoEtcdFlags, etcdDbStatus, loadAverage, round, treeRssBytes } from "./stack";
import { launchChromium } from "./tabs";
import {
  apiReader,
  cliUser,
  newTally,
  pageWalker,
  pause,
  policySaver,
  streamingTabs,
  type SoakWorld,
} from "./soak-users";
import { verdicts, type SoakRecord } from "./soak-verdicts";
import { chartSvg, renderPng, type Panel } from "./soak-chart";

const P = "/lance-context/master";
const ROOT = path.resolve(__dirname, "..");
const MINUTES = Number(process.argv.find((a, i) => process.argv[i - 1] === "--minutes") ?? 60);
/** `--heap-snapshots 5,15,30`: the server runs with the inspector and writes a heap snapshot (after a full GC) at those minutes, for bench/heap-diff.ts */
const SNAPSHOT_MINUTES = (process.argv.find((a, i) => process.argv[i - 1] === "--heap-snapshots") ?? "")
  .split(",")
  .filter(Boolean)
  .map(Number);
const WARMUP_MINUTES = 10;
const SAMPLE_MS = 30_000;
const RECORD_EVERY = 10; // samples: 5 minutes
const MIB = 1024 * 1024;
const CANARY = new Set<string>(CANARY_TABLES);
const QUOTA_MIB = Number(/--quota-backend-bytes=(\d+)/.exec(demoEtcdFlags().join(" "))?.[1] ?? 2 ** 31) / MIB;

interface Sample {
  /** the console's resident memory (MiB) */
  rss_mib: number;
  tables_with_pending: number;
  lines: Record<string, number>;
  legacy_queue: number;
  /** the shadow comparison now, and the outcomes that should fall counted outside the `incident/…` tables */
  outcomes: Record<string, number>;
  outside_incidents: { discovery_miss: number; phantom_task: number };
}

/** The live listing's counts: its `lines` come with a `?since=` answer, so each sample names the last listing. */
function listingSampler(url: string, etcd: EtcdHttp, pid: number) {
  let listing: string | null = null;
  return async (): Promise<Sample | null> => {
    const rss = round(treeRssBytes(pid) / MIB);
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await getJson(
        `${url}/api/v1/scheduler/demand?limit=1${listing ? `&since=${encodeURIComponent(listing)}` : ""}`,
      );
      if (res.status !== 200) return null;
      const body = res.body as {
        listing: string;
        tables_with_pending: number;
        changes?: { lines: Record<string, number> } | null;
      };
      listing = body.listing;
      if (!body.changes) continue;
      const shadow = await getJson(`${url}/api/v1/scheduler/shadow`);
      if (shadow.status !== 200) return null;
      const { outcomes, tables } = shadow.body as {
        outcomes: Record<string, number>;
        tables: Record<string, string[]>;
      };
      // the planner canary's tables are in mode planner from the upgrade on: no legacy task by design
      const outside = (o: string) =>
        (tables[o] ?? []).filter((t) => !t.startsWith("incident/") && !CANARY.has(t)).length;
      return {
        rss_mib: rss,
        tables_with_pending: body.tables_with_pending,
        lines: body.changes.lines,
        legacy_queue: await etcd.count(`${P}/queue/`),
        outcomes,
        outside_incidents: { discovery_miss: outside("discovery_miss"), phantom_task: outside("phantom_task") },
      };
    }
    return null;
  };
}

/** Each field's mean over the samples (lines and outcomes by key). */
function average(
  samples: Sample[],
): Pick<SoakRecord, "rss_mib" | "tables_with_pending" | "lines" | "legacy_queue" | "outcomes"> {
  const n = Math.max(1, samples.length);
  const mean = (f: (s: Sample) => number) => round(samples.reduce((a, s) => a + f(s), 0) / n);
  const byKey = (f: (s: Sample) => Record<string, number>) => {
    const keys = [...new Set(samples.flatMap((s) => Object.keys(f(s))))];
    return Object.fromEntries(keys.map((k) => [k, mean((s) => f(s)[k] ?? 0)]));
  };
  return {
    rss_mib: mean((s) => s.rss_mib),
    tables_with_pending: mean((s) => s.tables_with_pending),
    lines: byKey((s) => s.lines),
    legacy_queue: mean((s) => s.legacy_queue),
    outcomes: byKey((s) => s.outcomes),
  };
}

/** The console's live set: V8's heap in use after the last major GC (`console_heap_live_bytes`). */
/** The console's own memory figures from its metrics (prom-client's defaults and the live heap gauge). */
async function memoryOf(url: string): Promise<{ live: number; breakdown: SoakRecord["memory_mib"] }> {
  const text = await (await fetch(`${url}/api/metrics`)).text();
  const mib = (name: string) => round(Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN) / MIB);
  return {
    live: mib("console_heap_live_bytes"),
    breakdown: {
      heap_total: mib("console_nodejs_heap_size_total_bytes"),
      heap_used: mib("console_nodejs_heap_size_used_bytes"),
      external: mib("console_nodejs_external_memory_bytes"),
    },
  };
}

/** The canary report a user reads now (1 h window): its levels and the outcomes it warns rose. */
async function canaryOf(url: string): Promise<SoakRecord["canary"]> {
  const canary = await getJson(`${url}/api/v1/canary?window_ms=3600000`);
  if (canary.status !== 200) return null;
  return canary.body as NonNullable<SoakRecord["canary"]>;
}

function startSimulator(endpoints: string, logFile: string): ChildProcess {
  const out = fs.openSync(logFile, "a");
  return spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/sim/cli.ts", "simulate", "--interval-ms", "1000"],
    { cwd: ROOT, env: { ...process.env, ETCD_ENDPOINTS: endpoints, ETCD_PREFIX: P }, stdio: ["ignore", out, out] },
  );
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(`[soak] ${line}`);
  const started = Date.now();
  const cluster = await startEtcd({ extraArgs: demoEtcdFlags() });
  const etcd = new EtcdHttp(cluster.members[0].clientUrl);
  const client = createRawEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: 30_000 });
  let sim: ChildProcess | null = null;
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  const runDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "soak-"));
  try {
    await seedScenarios(client, ["realistic", "incidents"], { prefix: P, leaseTtlSec: 2_592_000 });
    const seededRevision = await etcd.revision();
    sim = startSimulator(cluster.endpoints, path.join(runDir, "simulator.log"));
    const adminToken = randomBytes(16).toString("hex");
    app = await startApp(
      {
        ETCD_ENDPOINTS: cluster.endpoints,
        ETCD_PREFIX: P,
        NEXT_TELEMETRY_DISABLED: "1",
        CONSOLE_ADMIN_TOKENS: `soak:${adminToken}`,
        CONSOLE_POLICY_AWARE_VERSION: "0.43.0",
      },
      { inspect: SNAPSHOT_MINUTES.length > 0 },
    );
    const readyS = round((Date.now() - started) / 1000);
    log(`ready in ${readyS} s (seeded, simulating, console on ${app.url}); load average ${loadAverage().join(" ")}`);
    const browser = await launchChromium();
    const stop = new AbortController();
    // Ctrl-C ends the run early: what was recorded is written and everything started is stopped
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
    const world: SoakWorld = {
      url: app.url,
      adminToken,
      etcd,
      seededRevision,
      tables: ["ingest/firehose", "orders/table-00010"],
      signal: stop.signal,
      tally: newTally(),
    };
    const users = Promise.all([
      streamingTabs(browser, world, 3),
      pageWalker(browser, world, 10_000),
      apiReader(world, 20_000),
      cliUser(world, 60_000),
      policySaver(world, 600_000),
    ]);
    const sample = listingSampler(app.url, etcd, app.process.pid!);
    const records: SoakRecord[] = [];
    const t0 = Date.now();
    let samples: Sample[] = [];
    /** every sample's outcomes that should fall, outside the incidents, for the canary's own rule (bench/soak-verdicts.ts) */
    const outside: SoakRecord["outside_incidents"] = [];
    for (let i = 1; i <= (MINUTES * 60_000) / SAMPLE_MS; i++) {
      if (!(await pause(stop.signal, Math.max(0, t0 + i * SAMPLE_MS - Date.now())))) break;
      const s = await sample().catch(() => null);
      if (s) {
        samples.push(s);
        outside.push({ at_ms: Date.now(), minute: round((Date.now() - t0) / 60_000), ...s.outside_incidents });
      }
      if (SNAPSHOT_MINUTES.includes((i * SAMPLE_MS) / 60_000) && app.inspectorUrl) {
        const file = path.join(runDir, `console-${(i * SAMPLE_MS) / 60_000}min.heapsnapshot`);
        await writeHeapSnapshot(app.inspectorUrl, file);
        log(`heap snapshot: ${file}`);
      }
      if (i % RECORD_EVERY !== 0) continue;
      const db = etcdDbStatus(cluster.endpoints);
      const coverage = await getJson(`${app.url}/api/v1/journal/coverage`);
      const memory = await memoryOf(app.url);
      const record: SoakRecord = {
        minute: round((Date.now() - t0) / 60_000),
        heap_live_mib: memory.live,
        memory_mib: memory.breakdown,
        etcd_db_mib: round(db.dbSize / MIB),
        etcd_db_in_use_mib: round(db.dbSizeInUse / MIB),
        ...average(samples),
        five_xx: world.tally.five_xx,
        requests: world.tally.requests,
        journal_gaps: (coverage.body as { gaps?: SoakRecord["journal_gaps"] }).gaps ?? [],
        canary: await canaryOf(app.url).catch(() => null),
        outside_incidents: outside.splice(0),
        load_average: loadAverage(),
      };
      samples = [];
      records.push(record);
      log(
        `min ${record.minute}: rss ${record.rss_mib} MiB (heap ${record.memory_mib.heap_used}/${record.memory_mib.heap_total}, live ${record.heap_live_mib}, external ${record.memory_mib.external}), etcd ${record.etcd_db_mib} MiB (${record.etcd_db_in_use_mib} in use), pending tables ${record.tables_with_pending}, lines ${JSON.stringify(record.lines)}, queue ${record.legacy_queue}, 5xx ${record.five_xx}/${record.requests}, gaps ${record.journal_gaps.length}, rising [${record.canary?.rising.join(",") ?? "?"}], load ${record.load_average.join(" ")}`,
      );
    }
    stop.abort();
    await users;
    const result = {
      at: new Date().toISOString(),
      minutes: MINUTES,
      warmup_minutes: WARMUP_MINUTES,
      tables: REALISTIC_TABLES,
      ready_s: readyS,
      verdicts: records.length > 0 ? verdicts(records, WARMUP_MINUTES, QUOTA_MIB) : null,
      by_status: world.tally.by_status,
      errors: world.tally.errors,
      records,
    };
    writeResult("soak", result);
    fs.writeFileSync(path.join(__dirname, "results/soak.png"), await renderPng(browser, chart(records)));
    await browser.close();
    console.log(JSON.stringify(result.verdicts, null, 2));
  } finally {
    sim?.kill("SIGINT");
    await app?.stop();
    client.close();
    await cluster.stop();
    log(`simulator log: ${path.join(runDir, "simulator.log")}`);
  }
}

function chart(records: SoakRecord[]): string {
  const line = (name: string, color: string, y: (r: SoakRecord) => number | null | undefined) => ({
    name,
    color,
    points: records.flatMap((r) => {
      const v = y(r);
      return v === null || v === undefined ? [] : [{ x: r.minute, y: v }];
    }),
  });
  const kinds = [...new Set(records.flatMap((r) => Object.keys(r.lines)))];
  const colors = ["#2563eb", "#16a34a", "#9333ea", "#ea580c"];
  const panels: Panel[] = [
    {
      title: "Tables with pending work",
      unit: "5-min average",
      series: [line("tables", "#2563eb", (r) => r.tables_with_pending)],
    },
    {
      title: "Lines",
      unit: "5-min average",
      series: [
        ...kinds.map((k, i) => line(`planner ${k}`, colors[i % colors.length], (r) => r.lines[k] ?? 0)),
        line("legacy queue", "#dc2626", (r) => r.legacy_queue),
      ],
    },
    {
      title: "Console memory",
      unit: "MiB",
      series: [
        line("RSS (5-min average)", "#9333ea", (r) => r.rss_mib),
        line("live heap after GC", "#2563eb", (r) => r.heap_live_mib),
      ],
    },
    {
      title: "etcd database",
      unit: "MiB",
      series: [line("size", "#ea580c", (r) => r.etcd_db_mib), line("in use", "#16a34a", (r) => r.etcd_db_in_use_mib)],
    },
    {
      title: "5xx answers and journal gaps",
      unit: "count so far",
      series: [line("5xx", "#dc2626", (r) => r.five_xx), line("journal gaps", "#2563eb", (r) => r.journal_gaps.length)],
    },
    {
      title: "Shadow outcomes (the canary's samples)",
      unit: "tables, 5-min average",
      series: ["discovery_miss", "queued_only", "running", "placement_gap", "phantom_task"].map((o, i) =>
        line(o, ["#dc2626", "#2563eb", "#16a34a", "#9333ea", "#ea580c"][i], (r) => r.outcomes[o]),
      ),
    },
  ];
  return chartSvg(
    `npm run soak: ${MINUTES} minutes of the demo's world (warm-up shaded)`,
    panels,
    MINUTES,
    WARMUP_MINUTES,
  );
}

runBench(main);

// Renders bench/results/report.md from bench/results/<name>.json (used by bench/all.ts).
// Each benchmark writes its own JSON shape; figures are found by their key path (flattened
// with dots) and shown next to its target. Every other numeric leaf is
// listed too, so nothing a benchmark measured is hidden.
import fs from "node:fs";
import path from "node:path";

export interface BenchRun {
  name: string;
  ran: boolean;
  exitCode: number | null;
  seconds: number;
  note?: string;
}

/** A row of the performance table (bench/figures.ts writes them as `table`). */
export interface FigureRow {
  figure: string;
  value: string;
  /** the figure as the performance issue gave it, when it did */
  before?: string;
  target: string;
  met: boolean;
}

/** The performance table as markdown. */
export function renderFigures(table: FigureRow[]): string {
  return [
    "| figure | this run | as filed | target | met |",
    "|---|---|---|---|---|",
    ...table.map(
      (r) => `| ${r.figure} | ${r.value} | ${r.before ?? "—"} | ${r.target} | ${r.met ? "yes" : "**no**"} |`,
    ),
  ].join("\n");
}

export interface ScaleReport {
  sizes: (Record<string, number | null> & { multiple: number; tables: number })[];
  /** the first size that failed, if one did (larger ones are not tried) */
  broke?: { multiple: number; tables: number; error: string } | null;
  growth: Record<
    string,
    { per_step: (number | null)[]; per_doubling: number | null; linear_or_better: boolean | null }
  >;
  limits: Record<string, number | null>;
}

/** bench/scale.ts's figures per size, their growth per doubling, and where the limits fall. */
export function renderScale(r: ScaleReport): string {
  const keys = Object.keys(r.growth);
  const head = `| figure | ${r.sizes.map((s) => `${s.multiple}× (${s.tables.toLocaleString("en-US")})`).join(" | ")} | per doubling | worst step | linear or better |`;
  const worst = (k: string) => {
    const steps = r.growth[k].per_step.filter((x): x is number => x !== null);
    return steps.length > 0 ? Math.max(...steps) : "—";
  };
  const rows = keys.map(
    (k) =>
      `| ${k} | ${r.sizes.map((s) => s[k] ?? "—").join(" | ")} | ${r.growth[k].per_doubling ?? "—"} | ${worst(k)} | ${r.growth[k].linear_or_better === null ? "—" : r.growth[k].linear_or_better ? "yes" : "**no**"} |`,
  );
  const limits = Object.entries(r.limits).map(
    ([k, v]) => `* ${k}: ${v === null ? "— (does not grow)" : v.toLocaleString("en-US")}`,
  );
  const broke = r.broke
    ? [`* **broke at ${r.broke.multiple}× (${r.broke.tables.toLocaleString("en-US")} tables)**: ${r.broke.error}`]
    : [];
  const note = `Per doubling: (largest ÷ smallest)^(1 / doublings); worst step: the largest factor between two neighbouring sizes (one step is noisier); linear or better: per doubling ≤ 2.2.`;
  return [
    head,
    `|---|${r.sizes.map(() => "---|").join("")}---|---|---|`,
    ...rows,
    "",
    note,
    "",
    ...broke,
    ...limits,
  ].join("\n");
}

interface MatrixCell {
  tabs: number;
  /** fewer tabs opened than asked (the others did not load) */
  asked_tabs?: number;
  rate: number;
  cpu_pct_of_core: number;
  machine_busy_pct: number;
  writer: { puts_per_s: number } | null;
  events_per_tab: { per_s: number; min: number; max: number } | null;
  bytes_per_event: { frame: number; wire: number | null } | null;
  server: { stream_steps: number | null };
  raw_stream_ms: { p50: number | null; p95: number | null; unseen: number } | null;
  change_to_visible_ms: { p50: number | null; p95: number | null; unseen: number; tabs_sampled: number } | null;
  full_events: number;
  other_api_requests: number;
  stream_reopens: number;
}

export interface MatrixReport {
  config: { window_s: number; sampled_tabs: number };
  cells: MatrixCell[];
  compare: Record<string, Record<string, number | null>>;
  targets: FigureRow[];
  loop: {
    writer_events_per_s: number;
    p95_limit_ms: number;
    steps: { clients: number; requests_per_s: number; p95_ms: number }[];
    last_below: { clients: number; requests_per_s: number; p95_ms: number } | null;
    crossed_at: { clients: number; requests_per_s: number; p95_ms: number } | null;
  } | null;
  tabs_without_events: number[];
  open_failures?: string[];
  server_log_errors: { count: number; first: string[] };
}

const dash = (v: number | null | undefined, unit = "") => (v === null || v === undefined ? "—" : `${v}${unit}`);

/** bench/matrix.ts: write rate × open tabs, the ratios between its cells, and the issue's targets. */
export function renderMatrix(r: MatrixReport, resultsDir: string): string {
  const none = (rate: number) => r.cells.find((c) => c.tabs === 0 && c.rate === rate)?.cpu_pct_of_core;
  const rows = r.cells.map((c) => {
    const base = none(c.rate);
    const added = c.tabs > 0 && base !== undefined ? `${Math.round((c.cpu_pct_of_core - base) * 10) / 10} %` : "—";
    const visible = c.change_to_visible_ms;
    const raw = c.raw_stream_ms;
    const odd = c.full_events + c.other_api_requests + c.stream_reopens;
    return (
      `| ${c.tabs}${c.asked_tabs ? ` (of ${c.asked_tabs} asked)` : ""} | ${c.rate === 0 ? "idle" : c.rate} | ${c.writer ? c.writer.puts_per_s : "—"} | ${c.cpu_pct_of_core} % | ${added} | ${c.machine_busy_pct} % ` +
      `| ${c.events_per_tab ? `${c.events_per_tab.per_s} (${c.events_per_tab.min}–${c.events_per_tab.max})` : "—"} ` +
      `| ${c.bytes_per_event ? `${c.bytes_per_event.frame.toLocaleString("en-US")} / ${c.bytes_per_event.wire?.toLocaleString("en-US") ?? "—"}` : "—"} ` +
      `| ${visible ? `${dash(visible.p50)} / ${dash(visible.p95)}${visible.unseen > 0 ? ` (${visible.unseen} unseen)` : ""}` : "—"} ` +
      `| ${raw ? `${dash(raw.p50)} / ${dash(raw.p95)}${raw.unseen > 0 ? ` (${raw.unseen} unseen)` : ""}` : "—"} ` +
      `| ${dash(c.server.stream_steps)} | ${odd > 0 ? `${c.full_events} / ${c.other_api_requests} / ${c.stream_reopens}` : "0"} |`
    );
  });
  const ratioKeys = [...new Set(Object.values(r.compare).flatMap((row) => Object.keys(row)))];
  const ratios = [
    `| write rate | ${ratioKeys.join(" | ")} |`,
    `|---|${ratioKeys.map(() => "---|").join("")}`,
    ...Object.entries(r.compare).map(
      ([rate, row]) => `| ${rate} | ${ratioKeys.map((k) => dash(row[k])).join(" | ")} |`,
    ),
  ];
  const loop = r.loop
    ? `Closed loop (list, detail, executors, shadow; a writer at ${r.loop.writer_events_per_s} events/s), clients doubled until p95 > ${r.loop.p95_limit_ms} ms: ` +
      r.loop.steps.map((s) => `${s.clients} → ${s.requests_per_s} req/s, p95 ${s.p95_ms} ms`).join("; ") +
      `. **p95 ≤ ${r.loop.p95_limit_ms} ms up to ${r.loop.last_below?.requests_per_s ?? "—"} req/s; crossed at ${r.loop.crossed_at ? `${r.loop.crossed_at.requests_per_s} req/s (${r.loop.crossed_at.clients} clients)` : "— (not within the clients tried)"}.**`
    : "Closed loop: not run (BENCH_MATRIX_LOOP=0).";
  // bench/figures.ts measures the cold pinned read ÷ etcdctl; shown from its JSON, not measured again
  const figuresFile = path.join(resultsDir, "figures.json");
  let pinned = "Cold pinned read ÷ etcdctl floor: `bench/results/figures.json` is missing.";
  if (fs.existsSync(figuresFile)) {
    const f = JSON.parse(fs.readFileSync(figuresFile, "utf8")) as {
      at?: string;
      pinned?: { ratio: number };
      near_pinned?: { by_distance: { changes_back: number; ratio: number; path: { read: number } }[] };
    };
    const near = f.near_pinned?.by_distance
      .map((d) => `${d.ratio}× ${d.changes_back} changes back${d.path.read > 0 ? " (read in full)" : ""}`)
      .join(", ");
    pinned = `Cold pinned read ÷ etcdctl floor: ${f.pinned?.ratio ?? "—"}× far from the live view${near ? `; near it, put back from it: ${near}` : ""} (from \`bench/results/figures.json\`, ${f.at ?? "undated"}; not measured by this run).`;
  }
  const odd = [
    r.open_failures?.length ? `* **tabs that did not open: ${r.open_failures.join("; ")}**` : "",
    r.tabs_without_events.length > 0
      ? `* **tabs that never received an event: ${r.tabs_without_events.join(", ")}**`
      : "",
    r.server_log_errors.count > 0
      ? `* **${r.server_log_errors.count} error lines in the server log**, first: \`${r.server_log_errors.first[0]?.slice(0, 200)}\``
      : "* no error lines in the server log (besides /health's 503s while it started)",
  ].filter(Boolean);
  return [
    renderFigures(r.targets),
    "",
    `Every cell is one ${r.config.window_s} s window of the same run. Console CPU: the server's process tree from /proc, % of one core; added: minus the same write rate with no tab; machine: both cores busy. Events per tab: per second (least–most events of a tab in the window). Bytes per event: the SSE frame / on the wire (gzip, chunking). Change → visible: each put (sent) to the first \`changes\` event at or after its revision, in ${r.config.sampled_tabs} sampled tabs as CDP reports it (p50 / p95 ms); raw: the same for a plain HTTP reader without gzip in the bench process. Odd: null change-sets / other API requests / stream reconnects.`,
    "",
    "| tabs | writer (events/s) | puts/s made | console CPU | added by the tabs | machine | events/s per tab | bytes per event | change → visible p50 / p95 (ms) | raw stream p50 / p95 (ms) | stream steps | odd |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "Measured side by side in this run (CPU in % of a core; ratios of the same write rate):",
    "",
    ...ratios,
    "",
    loop,
    "",
    pinned,
    "",
    ...odd,
  ].join("\n");
}

interface Target {
  /** what the figure is, in words */
  label: string;
  /** matches the flattened key path (first match wins) */
  key: RegExp;
  /** the target, as the report prints it */
  target: string;
  check?: (v: number | boolean | string) => boolean;
}

const num = (v: number | boolean | string) => (typeof v === "number" ? v : Number.NaN);

export interface BenchDef {
  name: string;
  title: string;
  targets: Target[];
  /** arguments bench/all.ts passes (shorter runs than the benchmark's own defaults) */
  args?: string[];
  /** renders the benchmark's own table from its JSON, above the flattened figures */
  render?: (data: unknown) => string;
  /** flattened keys that `render` already shows (not repeated among the other figures) */
  shown?: RegExp;
}

/**
 * The benchmarks `npm run bench` runs, in order. bench/api.ts (cold unpinned first
 * request, in-process refresh) is not among them: figures measures the same things
 * through the HTTP API (pinned read, first request after start, change to visible).
 */
export const BENCHES: BenchDef[] = [
  {
    name: "figures",
    title: "The performance table, from one run on one stack (production fleet, through the HTTP API)",
    targets: [],
    render: (data) => renderFigures((data as { table: FigureRow[] }).table),
  },
  {
    name: "scale",
    title: "Scaling: 1×, 2×, 4×, 8× the production table count in one run",
    targets: [],
    render: (data) => renderScale(data as ScaleReport),
  },
  {
    name: "read",
    title: "Paged fleet read (§8.1): readFleet vs `etcdctl get --prefix`",
    targets: [
      {
        label: "readFleet / etcdctl median ratio",
        key: /(^|\.)ratio$|read.*ratio|ratio.*floor/i,
        target: "≤ 1.5",
        check: (v) => num(v) <= 1.5,
      },
    ],
  },
  {
    name: "plan",
    title: "Full plan vs JSON.parse of the same records",
    targets: [
      {
        label: "plan / JSON.parse median ratio",
        key: /(^|\.)ratio$|plan.*ratio|ratio.*parse/i,
        target: "≤ 1.0",
        check: (v) => num(v) <= 1.0,
      },
    ],
  },
  {
    name: "ui",
    title: "UI in Chromium: navigation to first row of /tables (13,405 tables), scroll frame time",
    targets: [
      {
        label: "navigation → first row (ms)",
        key: /first.?row|navigation|nav_to/i,
        target: "reported (no fixed target)",
      },
      {
        label: "scroll frame time (ms)",
        key: /frame/i,
        target: "reported; ≤ 16.7 ms (60 fps) is smooth",
        check: (v) => num(v) <= 16.7,
      },
    ],
  },
  {
    name: "load",
    title: "Load: 64 clients for 30 s (after 15 s warm-up) on list/detail/executors/shadow with the simulator writing",
    args: ["--seconds=30", "--warmup=15"],
    targets: [
      { label: "errors (non-2xx or network)", key: /(^|\.)errors$/i, target: "0", check: (v) => num(v) === 0 },
      { label: "p50 latency (ms), all requests", key: /^all\.p50_ms$/i, target: "reported" },
      { label: "p95 latency (ms), all requests", key: /^all\.p95_ms$/i, target: "reported" },
      { label: "requests per second, all clients", key: /^all\.requests_per_s$/i, target: "reported" },
      {
        label: "RSS after run / after warm-up (medians of each phase's last 3 s)",
        key: /rss_ratio$/i,
        target: "≤ 1.10",
        check: (v) => num(v) <= 1.1,
      },
      {
        label: "live heap after run / after warm-up (in use after a full GC forced through the inspector)",
        key: /live_ratio$/i,
        target: "reported (the CI smoke bounds it at 1.05)",
      },
      // the watch-fed cache applies a burst incrementally: 0 full reads is the
      // expected figure; more than one per burst would mean requests multiplied reads
      {
        label: "full etcd reads per revision-change burst",
        key: /full_reads_per_burst$/i,
        target: "≤ 1 (0 with the watch-fed cache)",
        check: (v) => num(v) <= 1,
      },
    ],
  },
  {
    name: "matrix",
    title:
      "Live at production write rates (issue 24): 10, 100, 300 events/s × 0, 1 and 10 /tables tabs on one stack (BENCH_MATRIX_TABS=0,1,10,50 adds fifty: more than this 2-core machine holds), and the closed loop's 100 ms knee",
    targets: [],
    render: (data) => renderMatrix(data as MatrixReport, path.join(__dirname, "results")),
    shown: /^(cells|targets|loop\.steps)\[|^compare\.|^server_log_errors\.first/,
  },
];

/** Flattens a JSON value into [dotted.path, leaf] pairs (numbers, booleans, short strings). */
export function flatten(
  value: unknown,
  prefix = "",
  out: [string, number | boolean | string][] = [],
): [string, number | boolean | string][] {
  if (typeof value === "number" || typeof value === "boolean") out.push([prefix, value]);
  else if (typeof value === "string" && value.length <= 80) out.push([prefix, value]);
  else if (Array.isArray(value)) {
    if (value.length <= 20) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

const fmt = (v: number | boolean | string) =>
  typeof v === "number"
    ? Number.isInteger(v)
      ? v.toLocaleString("en-US")
      : v.toLocaleString("en-US", { maximumFractionDigits: 3 })
    : String(v);

function renderBench(bench: BenchDef, run: BenchRun | undefined, resultsDir: string): string {
  const file = path.join(resultsDir, `${bench.name}.json`);
  const lines = [`## ${bench.name}: ${bench.title}`, ""];
  if (run?.ran) lines.push(`Run now: exit ${run.exitCode}, ${run.seconds} s.${run.note ? ` ${run.note}` : ""}`, "");
  else if (run?.note) lines.push(`Not run: ${run.note}.`, "");
  if (!fs.existsSync(file)) {
    lines.push(
      `**No results**: \`bench/results/${bench.name}.json\` is missing (the benchmark was not run or failed before writing it).`,
      "",
    );
    return lines.join("\n");
  }
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    lines.push(`**Unreadable results**: \`bench/results/${bench.name}.json\`: ${(e as Error).message}`, "");
    return lines.join("\n");
  }
  const stat = fs.statSync(file);
  lines.push(`Results from \`bench/results/${bench.name}.json\` (written ${stat.mtime.toISOString()}).`, "");
  if (bench.render) lines.push(bench.render(data), "");
  const leaves = flatten(data);
  if (bench.targets.length > 0) lines.push("| figure | value | target | met |", "|---|---|---|---|");
  const used = new Set<string>();
  for (const t of bench.targets) {
    // a figure, never the target a benchmark wrote beside it (`target_ratio`, …)
    const hit = leaves.find(([k]) => !used.has(k) && !/target/i.test(k) && t.key.test(k));
    if (!hit) {
      lines.push(`| ${t.label} | not found in the JSON | ${t.target} | — |`);
      continue;
    }
    used.add(hit[0]);
    const met = t.check ? (t.check(hit[1]) ? "yes" : "**no**") : "—";
    lines.push(`| ${t.label} (\`${hit[0]}\`) | ${fmt(hit[1])} | ${t.target} | ${met} |`);
  }
  // a benchmark's own table is shown above; its rows are not repeated among the figures
  const rest = leaves.filter(
    ([k]) => !used.has(k) && !(bench.render && k.startsWith("table[")) && !bench.shown?.test(k),
  );
  if (rest.length > 0) {
    lines.push("", "<details><summary>All other figures</summary>", "", "| key | value |", "|---|---|");
    for (const [k, v] of rest.slice(0, 200)) lines.push(`| \`${k}\` | ${fmt(v)} |`);
    if (rest.length > 200) lines.push(`| … | ${rest.length - 200} more |`);
    lines.push("", "</details>");
  }
  lines.push("");
  return lines.join("\n");
}

export function renderReport(runs: BenchRun[], resultsDir: string, now: Date): string {
  const header = [
    "# Benchmark report",
    "",
    `Generated by \`npm run bench\` (bench/all.ts) at ${now.toISOString()}. Benchmarks print ratios and`,
    "figures; absolute times depend on the machine (this one is recorded in each JSON where the",
    'benchmark writes it). "met" compares a figure with its target.',
    "",
  ];
  // bench/results/notes.md: what the figures do not say (profiles, what was tried), kept by hand
  const notesFile = path.join(resultsDir, "notes.md");
  const notes = fs.existsSync(notesFile) ? `\n${fs.readFileSync(notesFile, "utf8")}` : "";
  return (
    header.join("\n") +
    "\n" +
    BENCHES.map((b) =>
      renderBench(
        b,
        runs.find((r) => r.name === b.name),
        resultsDir,
      ),
    ).join("\n") +
    notes
  );
}

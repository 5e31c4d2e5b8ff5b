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
  const rest = leaves.filter(([k]) => !used.has(k) && !(bench.render && k.startsWith("table[")));
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

// Prometheus text exposition and PromQL, read just far enough for the ops tests: samples
// with their labels, and the metric names a query refers to.
import { spawnSync } from "node:child_process";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const PROMTOOL = "/usr/bin/promtool";

/** `promtool <args>` with `input` on stdin: its exit code and everything it printed. */
export function promtool(
  args: string[],
  opts: { input?: string; cwd?: string } = {},
): { code: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { input: opts.input, cwd: opts.cwd, encoding: "utf8", timeout: 60_000 });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!m) throw new Error(`unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The one sample of `name` whose labels include `labels` (throws when there is not exactly one). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name}${JSON.stringify(labels)}`);
  return found[0].value;
}

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "and",
  "or",
  "unless",
  "offset",
  "bool",
  "inf",
  "nan",
]);

/** Metric names a PromQL expression reads: identifiers outside label matchers, groupings and ranges that are not function calls. */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, " ");
  const names = new Set<string>();
  for (const m of stripped.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)) {
    if (m[2] || KEYWORDS.has(m[1].toLowerCase())) continue;
    names.add(m[1]);
  }
  return [...names];
}

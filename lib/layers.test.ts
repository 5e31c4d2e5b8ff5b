// The house rules (.dependency-cruiser.cjs, from ../shared/STYLE.md) hold for the code:
// a violation fails `npm test`, printed one per line. The fixture tree breaks each rule
// once, proving every rule can fail. (A cruise of the whole tree takes seconds: hence the
// longer timeouts.) Beside the rules, folders depend one way: the folder graph (app,
// components, bin, scripts and each lib/<folder>, tests and fixtures left out as the rules
// leave them out) has no cycle. dependency-cruiser's own folder scope cannot leave the tests
// out nor merge lib/schema/api into lib/schema, so the graph is computed here from its JSON.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const CLI = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
/** the roots `npm run depcruise` cruises (package.json), so the script and this test cannot drift */
const ROOTS = (
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { depcruise: string } }
).scripts.depcruise
  .split(/\s+/)
  .slice(3);

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

interface Report {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: Violation[] };
}

function cruise(cwd: string, roots: string[]): Report {
  let out: string;
  try {
    out = execFileSync(process.execPath, [CLI, "--config", CONFIG, "--output-type", "json", ...roots], {
      cwd,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    // depcruise exits non-zero when it finds errors; the JSON report is still on stdout
    const stdout = (e as { stdout?: string }).stdout;
    if (!stdout) throw e;
    out = stdout;
  }
  return JSON.parse(out) as Report;
}

function violations(report: Report): string[] {
  return report.summary.violations
    .map((v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(" → ") : v.to}`)
    .sort();
}

const TESTS = /(\.test\.tsx?$|\/__fixtures__\/)/;
/** the folder a module belongs to: lib/<folder>, or app, components, bin, scripts; null outside the console */
function folderOf(file: string): string | null {
  return /^(lib\/[^/]+|app|components|bin|scripts)\//.exec(file)?.[1] ?? null;
}

/**
 * Each set of folders that import each other in a circle (a strongly connected component of
 * the folder graph with more than one folder), with one import for each folder edge inside it.
 */
function folderCycles(report: Report): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const m of report.modules) {
    const from = folderOf(m.source);
    if (from === null || TESTS.test(m.source)) continue;
    for (const d of m.dependencies) {
      const to = folderOf(d.resolved);
      if (to === null || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${m.source} → ${d.resolved}`);
      edges.set(from, out);
    }
  }
  // Tarjan's strongly connected components
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components
    .map((c) => {
      const inside = c.flatMap((f) => [...(edges.get(f) ?? [])].filter(([to]) => c.includes(to)).map(([, by]) => by));
      return `folder cycle ${c.join(" ⇄ ")}: ${inside.sort().join("; ")}`;
    })
    .sort();
}

describe("layers (dependency-cruiser)", () => {
  it("the console's code breaks no rule", () => {
    expect(ROOTS).toEqual(["app", "components", "lib", "bin", "scripts", "proxy.ts", "instrumentation.ts"]);
    const report = cruise(ROOT, ROOTS);
    const found = [...violations(report), ...folderCycles(report)];
    if (found.length > 0) console.error(`dependency rule violations:\n${found.join("\n")}`);
    expect(found).toEqual([]);
  }, 120_000);

  it("each rule fails on a tree that breaks it", () => {
    const report = cruise(path.join(ROOT, "test/fixtures/layers"), ["app", "components", "lib", "bin", "scripts"]);
    expect(folderCycles(report)).toEqual([
      "folder cycle lib/etcd ⇄ lib/planner ⇄ lib/schema: lib/etcd/writes.ts → lib/planner/score.ts; lib/etcd/writes.ts → lib/schema/record.ts; lib/planner/score.ts → lib/etcd/client.ts; lib/schema/record.ts → lib/planner/score.ts",
      "folder cycle lib/live ⇄ lib/scheduler: lib/live/reader.ts → lib/scheduler/helper.ts; lib/scheduler/back.ts → lib/live/reader.ts",
    ]);
    const found = violations(report);
    expect(found).toEqual([
      "api-handlers-are-thin: app/api/things/route.ts → lib/live/reader.ts",
      "app-reaches-state-through-the-engine: app/(console)/page.tsx → lib/snapshot/state.ts",
      "app-reaches-state-through-the-engine: app/api/things/route.ts → lib/live/reader.ts",
      "app-reaches-state-through-the-engine: app/viewer.ts → lib/http/wrapper.ts",
      "app-reaches-state-through-the-engine: components/panel.ts → lib/etcd/client.ts",
      "cli-never-imports-components: lib/cli/main.ts → components/panel.ts",
      "client-imports-no-server-module: components/panel.ts → lib/etcd/client.ts",
      "entry-points-import-no-page-code: bin/tool.mjs → app/(console)/page.tsx",
      "entry-points-import-no-page-code: scripts/tool.mjs → components/panel.ts",
      "etcd-imports-only-schema-and-config: lib/etcd/writes.ts → lib/planner/score.ts",
      "http-never-imports-etcd: lib/http/wrapper.ts → lib/etcd/client.ts",
      "live-does-not-import-services: lib/live/reader.ts → lib/scheduler/helper.ts",
      "metrics-import-no-upper-layer: lib/metrics/gauges.ts → lib/live/reader.ts",
      "metrics-import-no-upper-layer: lib/metrics/watch.ts → lib/etcd/client.ts",
      "no-cycles: lib/scheduler/helper.ts → lib/scheduler/other.ts → lib/scheduler/helper.ts",
      "only-lib-etcd-imports-etcd3: lib/live/reader.ts → ../../../node_modules/etcd3/lib/index.js",
      "only-lib-etcd-unwraps-the-client: lib/sim/probe.ts → lib/etcd/raw.ts",
      "pages-stay-off-etcd-live-and-snapshot: app/(console)/page.tsx → lib/snapshot/state.ts",
      "pages-stay-off-etcd-live-and-snapshot: components/panel.ts → lib/etcd/client.ts",
      "planner-is-pure: lib/planner/score.ts → lib/etcd/client.ts",
      "schema-is-the-ground-floor: lib/schema/record.ts → lib/planner/score.ts",
      "snapshot-never-imports-live-or-http: lib/snapshot/state.ts → lib/http/wrapper.ts",
      "snapshot-never-imports-live-or-http: lib/snapshot/state.ts → lib/live/reader.ts",
      "the-engine-never-loads-itself: lib/engine/index.ts → ../../../node_modules/@scheduler-console/engine/index.cjs",
      "util-is-generic: lib/util/helper.ts → lib/schema/record.ts",
    ]);
    // and no rule of the file is left without a fixture that breaks it
    const rules = (createRequire(import.meta.url)(CONFIG) as { forbidden: { name: string }[] }).forbidden.map(
      (r) => r.name,
    );
    expect(new Set(found.map((f) => f.slice(0, f.indexOf(":"))))).toEqual(new Set(rules));
  }, 120_000);
});

// The integration files share one etcd and run one after another (test/support/global-etcd.ts):
// a compaction of it lasts, and every later file that reads an old revision fails (the
// journal's history once did, depending on the order the files ran in). Only a file that
// starts its own etcd compacts one.
describe("the integration tests' shared etcd", () => {
  it("is compacted by no file: a file that compacts starts its own etcd", () => {
    const dir = path.join(ROOT, "test/integration");
    const files = execFileSync("grep", ["-rlE", String.raw`\.compact\(|kv\.compact`, dir], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(0);
    const sharing = files
      .filter((f) => !/startEtcd\(/.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(ROOT, f));
    expect(sharing).toEqual([]);
  });
});

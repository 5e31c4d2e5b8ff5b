// The house rules (.dependency-cruiser.cjs, from /work/shared/STYLE.md) hold for the code:
// a violation fails `npm test`, printed one per line. The fixture tree breaks each rule
// once, proving every rule can fail.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const CLI = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

function violations(cwd: string, roots: string[]): string[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [CLI, "--config", CONFIG, "--output-type", "json", ...roots], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    // depcruise exits non-zero when it finds errors; the JSON report is still on stdout
    const stdout = (e as { stdout?: string }).stdout;
    if (!stdout) throw e;
    out = stdout;
  }
  const report = JSON.parse(out) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle ? v.cycle.map((c) => c.name).join(" → ") : v.to}`).sort();
}

describe("layers (dependency-cruiser)", () => {
  it("the console's code breaks no rule", () => {
    const found = violations(ROOT, ["app", "components", "lib", "proxy.ts", "instrumentation.ts"]);
    if (found.length > 0) console.error(`dependency rule violations:\n${found.join("\n")}`);
    expect(found).toEqual([]);
  });

  it("each rule fails on a tree that breaks it", () => {
    const found = violations(path.join(ROOT, "test/fixtures/layers"), ["app", "components", "lib"]);
    expect(found).toEqual([
      "api-handlers-are-thin: app/api/things/route.ts → lib/live/reader.ts",
      "client-imports-no-server-module: components/panel.ts → lib/etcd/client.ts",
      "live-does-not-import-api: lib/live/reader.ts → lib/api/helper.ts",
      "no-cycles: lib/api/helper.ts → lib/api/other.ts → lib/api/helper.ts",
      "only-lib-etcd-imports-etcd3: lib/live/reader.ts → ../../../node_modules/etcd3/lib/index.js",
      "planner-is-pure: lib/planner/score.ts → lib/etcd/client.ts",
    ]);
  });
});

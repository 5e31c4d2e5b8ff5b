// `npm run bench`: runs every benchmark of bench/report.ts's BENCHES in turn (figures: the
// performance table; scale; read, plan, ui, load), each as its own `tsx bench/<name>.ts`
// process, then writes ONE report, bench/results/report.md, with every figure from
// bench/results/<name>.json next to its target, and prints it. A benchmark that fails or
// writes no JSON is reported as such; the others still run. About 15 minutes here.
//
//   npm run bench                 # all of them
//   npm run bench -- --only=api,load
//   npm run bench -- --report-only  # re-render bench/results/report.md from the JSON already there
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BENCHES, renderReport, type BenchRun } from "./report";

const ROOT = path.resolve(__dirname, "..");
const RESULTS = path.join(ROOT, "bench/results");

function parseArgs(argv: string[]): { only: string[]; reportOnly: boolean } {
  const only =
    argv
      .find((a) => a.startsWith("--only="))
      ?.slice("--only=".length)
      .split(",")
      .filter(Boolean) ?? BENCHES.map((b) => b.name);
  return { only, reportOnly: argv.includes("--report-only") };
}

function main(): void {
  const { only, reportOnly } = parseArgs(process.argv.slice(2));
  fs.mkdirSync(RESULTS, { recursive: true });
  const runs: BenchRun[] = [];
  for (const bench of BENCHES) {
    const file = path.join(ROOT, "bench", `${bench.name}.ts`);
    if (reportOnly || !only.includes(bench.name)) {
      runs.push({ name: bench.name, ran: false, exitCode: null, seconds: 0 });
      continue;
    }
    if (!fs.existsSync(file)) {
      console.log(`=== bench ${bench.name}: bench/${bench.name}.ts does not exist, skipped`);
      runs.push({
        name: bench.name,
        ran: false,
        exitCode: null,
        seconds: 0,
        note: `bench/${bench.name}.ts does not exist`,
      });
      continue;
    }
    console.log(`=== bench ${bench.name} ===`);
    const started = Date.now();
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), file, ...(bench.args ?? [])],
      {
        cwd: ROOT,
        stdio: "inherit",
        env: process.env,
        timeout: 45 * 60_000,
      },
    );
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const exitCode = result.status ?? (result.signal ? 128 : 1);
    console.log(`=== bench ${bench.name}: exit ${exitCode} after ${seconds} s`);
    runs.push({
      name: bench.name,
      ran: true,
      exitCode,
      seconds,
      note: result.error ? String(result.error.message) : undefined,
    });
  }
  const report = renderReport(runs, RESULTS, new Date());
  fs.writeFileSync(path.join(RESULTS, "report.md"), report);
  console.log(`\nwrote bench/results/report.md\n`);
  console.log(report);
  if (runs.some((r) => r.ran && r.exitCode !== 0)) process.exitCode = 1;
}

main();

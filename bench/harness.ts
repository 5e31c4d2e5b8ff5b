// What every benchmark process shares with bench/all.ts, which runs each one and renders
// bench/results/report.md: the figures in bench/results/<name>.json, and a failure as exit code 1.
import fs from "node:fs";
import path from "node:path";

/** Writes `result` as bench/results/<name>.json (pretty, trailing newline); returns the path. */
export function writeResult(name: string, result: unknown): string {
  const out = path.join(__dirname, "results", `${name}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  return out;
}

/** Runs a benchmark's main; a failure is printed and exits 1, so bench/all.ts reports it. */
export function runBench(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

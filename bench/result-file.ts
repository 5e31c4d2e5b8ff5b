// Every benchmark leaves its figures in bench/results/<name>.json, which bench/report.ts
// reads to render report.md.
import fs from "node:fs";
import path from "node:path";

/** Writes `result` as bench/results/<name>.json (pretty, trailing newline); returns the path. */
export function writeResult(name: string, result: unknown): string {
  const out = path.join(__dirname, "results", `${name}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  return out;
}

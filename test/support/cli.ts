// `scheduler-console …` run as a fresh clone runs it (bin/scheduler-console.mjs through tsx),
// against a running console, with its output and exit code.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/scheduler-console.mjs");

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

export function runCli(url: string, token: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        SCHEDULER_CONSOLE_URL: url,
        SCHEDULER_CONSOLE_TOKEN: token,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("exit", (code: number | null) => resolve({ code, out, err }));
  });
}

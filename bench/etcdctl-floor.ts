// The physical floor the read benchmarks compare against: one `etcdctl get --prefix` of
// the same prefix (at `revision` when given, as `--rev`), output discarded, timed from
// spawn to exit.
import { spawn } from "node:child_process";
import fs from "node:fs";

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function etcdctlGet(endpoints: string, prefix: string, revision?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const devnull = fs.openSync("/dev/null", "w");
    const started = performance.now();
    // etcdctl gives up after 5 s by default; an 8× fleet on a busy machine takes longer
    const args = [
      "--endpoints",
      endpoints,
      "--command-timeout=300s",
      "get",
      "--prefix",
      prefix,
      ...(revision === undefined ? [] : [`--rev=${revision}`]),
    ];
    const child = spawn("etcdctl", args, {
      stdio: ["ignore", devnull, "pipe"],
      env: { ...process.env, ETCDCTL_API: "3" },
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      fs.closeSync(devnull);
      if (code === 0) resolve(performance.now() - started);
      else reject(new Error(`etcdctl exited ${code}: ${stderr}`));
    });
  });
}

// `npm start` (scripts/start.mjs) refuses a bad environment with one line naming the
// variable and exit code 1, before starting Next.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../..");

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("npm start with a bad environment", () => {
  it.each([
    [
      { ETCD_ENDPOINTS: "not-a-url" },
      'invalid configuration: ETCD_ENDPOINTS must be an http(s)://host:port URL (got "not-a-url")',
    ],
    [{ PORT: "99999" }, 'invalid configuration: PORT must be 1..65535 (got "99999")'],
  ])("%j exits 1 with one line", (env, line) => {
    const run = start(env);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(line);
    expect(run.stdout).toBe("");
  });
});

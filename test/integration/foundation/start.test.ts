// `npm start` (scripts/start.mjs) refuses a bad environment with one line naming the
// variable and exit code 1, before starting Next.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
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

describe("npm start with a bad single sign-on configuration (console-api.md fourth version)", () => {
  it("a rules file with errors exits 1 with one line naming the file and every error", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "start-rbac-"));
    try {
      const file = path.join(dir, "rbac.yaml");
      fs.writeFileSync(file, "rules:\n  - {group: sre, role: root, targets: ['*']}\n  - {role: admin, targets: [x]}\n");
      const run = start({ CONSOLE_RBAC_FILE: file });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(
        `invalid configuration: CONSOLE_RBAC_FILE ${file} has 2 errors: rules[0].role: must be "viewer" or "admin"; ` +
          "rules[1]: needs exactly one of group or actor",
      );
      expect(run.stdout).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("some CONSOLE_OIDC_* but not all exits 1 naming the missing one, never echoing the secret", () => {
    const run = start({
      CONSOLE_OIDC_ISSUER: "https://sso.example.com",
      CONSOLE_OIDC_CLIENT_SECRET: "top-secret-value",
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      "invalid configuration: CONSOLE_OIDC_CLIENT_ID must be set together with CONSOLE_OIDC_ISSUER, CONSOLE_OIDC_CLIENT_SECRET (all four CONSOLE_OIDC_* or none)",
    );
    expect(run.stderr).not.toContain("top-secret-value");
  });
});

describe("npm start with a build whose engine or offload worker is missing or stale", () => {
  /** a build directory with Next's BUILD_ID, and (when stamped) an engine and a worker stamped with theirs */
  function build(engine: string | null, worker: string | null): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "start-bundles-"));
    fs.writeFileSync(path.join(dir, "BUILD_ID"), "build-now");
    fs.mkdirSync(`${dir}-engine`);
    if (engine !== null) {
      fs.writeFileSync(path.join(`${dir}-engine`, "engine.cjs"), "");
      fs.writeFileSync(path.join(`${dir}-engine`, "engine.build-id"), engine);
    }
    if (worker !== null) {
      fs.writeFileSync(path.join(dir, "offload-worker.cjs"), "");
      fs.writeFileSync(path.join(dir, "offload-worker.build-id"), worker);
    }
    return dir;
  }

  it.each([
    [null, "build-now", /^no engine at .*-engine\/engine\.cjs: build the console with `npm run build`$/],
    [
      "build-before",
      "build-now",
      /^the engine at .*-engine\/engine\.cjs was built for another build: build the console with `npm run build`$/,
    ],
    ["build-now", null, /^no offload worker at .*offload-worker\.cjs: build the console with `npm run build`$/],
    [
      "build-now",
      "build-before",
      /^the offload worker at .*offload-worker\.cjs was built for another build: build the console with `npm run build`$/,
    ],
  ])("an engine stamped %j and a worker stamped %j: exits 1 with one line", (engine, worker, line) => {
    const dir = build(engine, worker);
    try {
      const run = start({ NEXT_DIST_DIR: dir });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toMatch(line);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(`${dir}-engine`, { recursive: true, force: true });
    }
  });
});

// The console's real server (scripts/serve.mjs: `next` on the production build, as `npm start` runs it; scripts/test.sh builds it first),
// pointed at a test etcd. Used by API integration tests, e2e and benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { serverAllocatorEnv, serverNodeFlags } from "@/lib/config/server-flags";
import { memoryBudgetMib } from "@/lib/config/env";
import { freePort } from "./ports";
import { until } from "./observe";

export interface RunningApp {
  url: string;
  port: number;
  process: ChildProcess;
  /** everything the server printed so far (stdout + stderr) */
  logs(): string;
  /** the V8 inspector's WebSocket URL (`startApp(…, { inspect: true })`; loopback only) */
  inspectorUrl: string | null;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, "../..");

/**
 * `inspect`: start the server with the V8 inspector on a free loopback port, so a test can
 * force a GC and read the live heap (test/support/inspector.ts). Tests and benchmarks only.
 * Returns once health says `ready` (the first full read and plan are done), or, with
 * `ready: false`, as soon as the server answers at all.
 */
export async function startApp(
  env: Record<string, string>,
  opts: { port?: number; inspect?: boolean; ready?: boolean } = {},
): Promise<RunningApp> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (
    !fs.existsSync(path.join(ROOT, distDir, "BUILD_ID")) ||
    !fs.existsSync(path.join(ROOT, distDir, "offload-worker.cjs")) ||
    !fs.existsSync(path.join(ROOT, `${distDir}-engine`, "engine.cjs"))
  ) {
    throw new Error("no production build: run `npm run build` first (scripts/test.sh does)");
  }
  const port = opts.port ?? (await freePort());
  let output = "";
  const nodeArgs = [
    ...serverNodeFlags(process.env.NODE_OPTIONS, memoryBudgetMib({ ...process.env, ...env })),
    ...(opts.inspect ? ["--inspect=127.0.0.1:0"] : []),
  ];
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(ROOT, "scripts/serve.mjs"), "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: { ...serverAllocatorEnv(process.env), ...process.env, NODE_ENV: "production", PORT: String(port), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await until(
      async () =>
        (await (async () => {
          if (child.exitCode !== null) throw new Error(`the console server exited: ${output}`);
          const res = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
          if (opts.ready === false) return res.status > 0;
          return ((await res.json()) as { ready?: boolean }).ready === true;
        })()) || undefined,
      60_000,
      { what: `the console server on ${url}` },
    );
  } catch (e) {
    child.kill("SIGKILL");
    throw new Error(`${(e as Error).message}\n${output.slice(-3000)}`);
  }
  return {
    url,
    port,
    process: child,
    logs: () => output,
    inspectorUrl: opts.inspect
      ? (/Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(output)?.[1] ?? null)
      : null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      });
    },
  };
}

// The shadow-history sampler's election (issue 4): among three replica processes exactly
// one samples, and when it is SIGKILLed (lease not revoked) another takes over within one
// lease TTL of the old lease running out.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { testPrefix } from "../../support/prefix";
import { readShadowHistory } from "@/lib/live/sampler";
import { clientFor } from "./helpers";

const TTL_SECS = 3;
const ROOT = path.resolve(__dirname, "../../..");
const children: ChildProcess[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

interface Replica {
  i: number;
  child: ChildProcess;
  state: string;
  since: number;
}

it("exactly one replica samples; a killed leader is replaced within one lease TTL", async () => {
  const endpoints = inject("etcdEndpoints");
  const prefix = testPrefix("api-sampler");
  const client = clientFor(endpoints);
  const replicas: Replica[] = [0, 1, 2].map((i) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "sampler-replica.ts"), endpoints, prefix, String(i)], {
      cwd: ROOT,
      env: { ...process.env, TTL_SECS: String(TTL_SECS) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    const r: Replica = { i, child, state: "starting", since: 0 };
    child.stdout!.on("data", (d: Buffer) => {
      for (const line of d.toString().trim().split("\n")) {
        const [state, at] = line.split(" ");
        r.state = state;
        r.since = Number(at);
      }
    });
    return r;
  });
  try {
    const leaders = () => replicas.filter((r) => r.state === "leader" && r.child.exitCode === null && !r.child.killed);
    for (let t = 0; t < 150 && (leaders().length !== 1 || replicas.some((r) => r.state === "starting")); t++) await sleep(100);
    expect(leaders()).toHaveLength(1);
    await sleep(1200);
    expect(leaders()).toHaveLength(1);
    const first = leaders()[0];
    const before = await readShadowHistory(client, prefix, 0, Number.MAX_SAFE_INTEGER);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(new Set(before.map((s) => s.disagreements))).toEqual(new Set([first.i])); // only the leader wrote

    first.child.kill("SIGKILL");
    const died = Date.now();
    let next: Replica | undefined;
    while (!next && Date.now() - died < 2 * TTL_SECS * 1000 + 2000) {
      await sleep(50);
      next = leaders()[0];
    }
    expect(next).toBeDefined();
    // the old lease outlives the process by at most one TTL; the follower retries every 250 ms
    expect(next!.since - died).toBeLessThan(TTL_SECS * 1000 + 1000);
    await sleep(800);
    expect(leaders()).toEqual([next]);
    const after = await readShadowHistory(client, prefix, 0, Number.MAX_SAFE_INTEGER);
    expect(after.some((s) => s.disagreements === next!.i)).toBe(true);
  } finally {
    client.close();
  }
});

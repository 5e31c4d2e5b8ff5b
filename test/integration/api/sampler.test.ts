// The shadow-history sampler's election (console-api.md "shadow/history": one durable
// history across restarts): among three replica processes exactly one samples, and when
// it is SIGKILLed (lease not revoked) another takes over within one lease TTL of the old
// lease running out.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { sharedEtcd } from "../../support/shared-etcd";
import { until } from "../../support/observe";
import { testPrefix } from "../../support/prefix";
import { readShadowHistory } from "@/lib/live/sampler";
import { clientFor } from "./helpers";

const TTL_SECS = 3;
const ROOT = path.resolve(__dirname, "../../..");
const children: ChildProcess[] = [];

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
  const endpoints = sharedEtcd();
  const prefix = testPrefix("api-sampler");
  const client = clientFor(endpoints);
  const replicas: Replica[] = [0, 1, 2].map((i) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "sampler-replica.ts"), endpoints, prefix, String(i)],
      {
        cwd: ROOT,
        env: { ...process.env, TTL_SECS: String(TTL_SECS) },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
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
    const elected = await until(
      async () => (leaders().length === 1 && !replicas.some((r) => r.state === "starting") ? leaders()[0] : undefined),
      15_000,
      50,
    );
    expect(elected, "one leader among three replicas").not.toBeNull();
    const first = elected!.value;
    // the leader samples on its interval: wait for three of its samples
    const sampled = await until(
      async () => {
        const history = await readShadowHistory(client, prefix, 0, Number.MAX_SAFE_INTEGER);
        return history.length >= 3 ? history : undefined;
      },
      15_000,
      100,
    );
    expect(sampled, "three samples").not.toBeNull();
    expect(leaders()).toEqual([first]);
    expect(new Set(sampled!.value.map((s) => s.disagreements))).toEqual(new Set([first.i])); // only the leader wrote

    first.child.kill("SIGKILL");
    const died = Date.now();
    const took = await until(async () => leaders()[0], 30_000, 50);
    expect(took, "a follower took over").not.toBeNull();
    const next = took!.value;
    // the old lease outlives the process by at most one TTL; the follower retries every 250 ms
    expect(next.since - died).toBeLessThan(TTL_SECS * 1000 + 1000);
    const wrote = await until(
      async () => {
        const history = await readShadowHistory(client, prefix, 0, Number.MAX_SAFE_INTEGER);
        return history.some((s) => s.disagreements === next.i) ? true : undefined;
      },
      15_000,
      100,
    );
    expect(wrote, "the new leader samples").not.toBeNull();
    expect(leaders()).toEqual([next]);
  } finally {
    client.close();
  }
});

// An etcd that answers is never declared lost because this process was busy (console-api.md
// "Overload and memory": a slow request is queued or refused, never timed out against an
// etcd that is up). A call's deadline counts the event loop's time, not the wall clock's: an
// answer that arrived while a plan of the fleet held the thread is taken when the thread is
// free. A member that really stops answering (SIGSTOP) still times out, and a stopped one is
// still unavailable at once (./faults.test.ts).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEtcdClient, type EtcdClient } from "@/lib/etcd/client";
import { EtcdTimeout } from "@/lib/etcd/errors";
import { readRange } from "@/lib/etcd/key-history";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { pingEtcd } from "@/lib/live/etcd-ping";
import { startEtcd, type EtcdCluster } from "../../support/etcd";
import { until } from "../../support/observe";

const P = "/busy-loop/lance-context/master";
const CALL_TIMEOUT_MS = 300;
let cluster: EtcdCluster;
let client: EtcdClient;

/** Holds the thread for `ms`, as a plan of a large fleet does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* the thread is held */
  }
}

const settle = (p: Promise<unknown>) =>
  p.then(
    () => "answered",
    (e: unknown) => (e as Error).name,
  );

/** `turns` turns of the event loop: the call is on its way (or its answer is in) before the thread is held. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

beforeAll(async () => {
  cluster = await startEtcd();
  client = createEtcdClient({ endpoints: cluster.endpoints.split(","), callTimeoutMs: CALL_TIMEOUT_MS });
  // connected (a first call on a loaded machine may take longer than this client's deadline)
  for (let i = 0; (await settle(readRange(client, P, { key: `${P}/k` }))) !== "answered" && i < 20; i++);
});
afterAll(async () => {
  client.close();
  await cluster.stop();
});

describe("etcd calls on a busy event loop", () => {
  it("a read whose answer waits behind a held thread (3× its deadline) is answered, and the member is not blocked after", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const call = settle(readRange(client, P, { key: `${P}/k` }));
      await turns(i % 4);
      busy(3 * CALL_TIMEOUT_MS);
      outcomes.push(await call);
    }
    expect(outcomes).toEqual(Array(8).fill("answered"));
    // three "did not answer" in a row would have opened the member's breaker: the next call fails at once then
    expect(await settle(readRange(client, P, { key: `${P}/k` }))).toBe("answered");
  });

  it("so does a paged read of a prefix (the fleet read's own range calls)", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const read = settle(readPrefixPaged(client, `${P}/`));
      await turns(i % 4);
      busy(3 * CALL_TIMEOUT_MS);
      outcomes.push(await read);
    }
    expect(outcomes).toEqual(Array(8).fill("answered"));
  });

  it("the live cache's ping counts the loop's time too: a held thread does not make etcd unavailable", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const ping = settle(pingEtcd(client, P));
      await turns(i % 3);
      busy(2500); // past the ping's 1.5 s
      outcomes.push(await ping);
    }
    expect(outcomes).toEqual(Array(6).fill("answered"));
  });

  it("a member that stops answering still times out, after about the deadline of free loop time", async () => {
    const member = cluster.members[0].process!;
    member.kill("SIGSTOP");
    const state = () => /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${member.pid}/status`, "utf8"))?.[1];
    await until(async () => (state() === "T" ? true : undefined), 5000, { what: "etcd stopped" });
    try {
      const started = performance.now();
      const error = await readRange(client, P, { key: `${P}/k` }).catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      expect(error).toBeInstanceOf(EtcdTimeout);
      expect(elapsed).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS * 0.9);
      expect(elapsed).toBeLessThan(CALL_TIMEOUT_MS + 3000);
    } finally {
      member.kill("SIGCONT");
    }
    // and it answers again once it does
    let answered = "";
    for (let i = 0; i < 50 && answered !== "answered"; i++) {
      answered = await settle(readRange(client, P, { key: `${P}/k` }));
      if (answered !== "answered") await new Promise((r) => setTimeout(r, 200));
    }
    expect(answered).toBe("answered");
  });
});

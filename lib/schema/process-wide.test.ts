import { afterEach, describe, expect, it, vi } from "vitest";
import { twoCopies } from "@/test/support/two-copies";
import { processWide } from "./process-wide";

const forget = (name: string) => delete (globalThis as Record<symbol, unknown>)[Symbol.for(name)];

describe("processWide", () => {
  afterEach(() => {
    forget("scheduler-console.test-slot");
    forget("scheduler-console.test-maybe");
  });

  it("makes the value once and hands every caller the same one", () => {
    const init = vi.fn(() => ({ made: true }));
    const a = processWide("scheduler-console.test-slot", init);
    const b = processWide("scheduler-console.test-slot", init);
    expect(b).toBe(a);
    expect(init).toHaveBeenCalledTimes(1);
  });

  it("keeps no nullish value: the next caller makes it again", () => {
    let ready = false;
    const init = vi.fn(() => (ready ? "made" : null));
    expect(processWide<string | null>("scheduler-console.test-maybe", init)).toBeNull();
    ready = true;
    expect(processWide<string | null>("scheduler-console.test-maybe", init)).toBe("made");
    expect(processWide<string | null>("scheduler-console.test-maybe", init)).toBe("made");
    expect(init).toHaveBeenCalledTimes(2);
  });

  it("two copies of the helper (two route bundles) share the slot", async () => {
    const [a, b] = await twoCopies(() => import("./process-wide"));
    expect(a.processWide).not.toBe(b.processWide);
    const made = a.processWide("scheduler-console.test-slot", () => ({ by: "a" }));
    expect(b.processWide("scheduler-console.test-slot", () => ({ by: "b" }))).toBe(made);
  });

  it("the etcd client is one per process, whichever copy of lib/etcd made it", async () => {
    const [a, b] = await twoCopies(() => import("@/lib/etcd/client"));
    expect(a.etcdClient).not.toBe(b.etcdClient);
    const client = a.etcdClient();
    const own = a.createEtcdClient({ endpoints: ["http://127.0.0.1:1"], callTimeoutMs: 1234 });
    try {
      expect(b.etcdClient()).toBe(client);
      expect(b.callTimeoutOf(own)).toBe(1234);
    } finally {
      client.close();
      own.close();
      forget("scheduler-console.etcd-client");
    }
  });
});

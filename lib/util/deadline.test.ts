// Moved here from the health test of lib/process with the helper; the loop-time deadline is the
// health probe's: a loop blocked by a fleet plan does not turn an answer that is already
// waiting into a spurious "down".
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineExceeded, withDeadline } from "./deadline";

function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* a synchronous plan */
  }
}

const LOOP = { loopStepMs: 100 };

describe("withDeadline", () => {
  afterEach(() => vi.useRealTimers());

  it("no answer: a typed DeadlineExceeded at the deadline, not before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    let outcome: unknown = "pending";
    withDeadline(new Promise<never>(() => undefined), 1500, "etcd ping").catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(1499);
    expect(outcome).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(DeadlineExceeded);
    expect(outcome).toMatchObject({
      code: "deadline_exceeded",
      what: "etcd ping",
      ms: 1500,
      message: "etcd ping: no answer within 1500 ms",
    });
  });

  it("an answer or a refusal in time is passed through as is", async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, "read")).resolves.toBe(7);
    const refused = new Error("connect ECONNREFUSED");
    await expect(withDeadline(Promise.reject(refused), 1000, "read")).rejects.toBe(refused);
    await expect(withDeadline(Promise.reject(refused), 1000, "read", LOOP)).rejects.toBe(refused);
  });

  it("event-loop time: an answer that arrived while the loop was blocked for 2 s still wins", async () => {
    // like a gRPC reply, the answer comes through I/O (handled after timers once the loop is free)
    const answer = readFile("package.json", "utf8").then(() => "status");
    const probe = withDeadline(answer, 1500, "etcd status", LOOP);
    blockLoop(2000); // longer than the deadline: a wall-clock timer would fire first
    await expect(probe).resolves.toBe("status");
  });

  it("event-loop time: no answer at all misses the deadline at 1.5 s of loop time, not before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    let outcome: unknown = "pending";
    withDeadline(new Promise<never>(() => undefined), 1500, "etcd status", LOOP).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(1499);
    expect(outcome).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(DeadlineExceeded);
  });
});

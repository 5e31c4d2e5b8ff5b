// The health probe's deadline counts event-loop time: a loop blocked by a fleet plan does
// not turn an answer that is already waiting into a spurious "down".
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { DeadlineMissed, withinDeadline } from "./health";

function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* a synchronous plan */
  }
}

describe("withinDeadline (1.5 s of event-loop time)", () => {
  it("an answer that arrived while the loop was blocked for 2 s still wins", async () => {
    // like a gRPC reply, the answer comes through I/O (handled after timers once the loop is free)
    const answer = readFile("package.json", "utf8").then(() => "status");
    const probe = withinDeadline(answer, "etcd status");
    blockLoop(2000); // longer than the deadline: a wall-clock timer would fire first
    await expect(probe).resolves.toBe("status");
  });

  it("no answer at all misses the deadline after about 1.5 s", async () => {
    const started = performance.now();
    const probe = withinDeadline(new Promise<never>(() => undefined), "etcd status");
    await expect(probe).rejects.toBeInstanceOf(DeadlineMissed);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(1490);
    expect(took).toBeLessThan(2500);
  });

  it("a refusal is passed through as is", async () => {
    const refused = new Error("connect ECONNREFUSED");
    await expect(withinDeadline(Promise.reject(refused), "etcd status")).rejects.toBe(refused);
  });
});

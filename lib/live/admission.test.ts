// The admission of heavy work (./admission.ts; console-api.md "Overload and memory"): a
// bounded number run at once, the rest wait in a bounded queue served client by client in
// turn, and what cannot wait is refused at once with Overloaded and a retry time.
import { describe, expect, it } from "vitest";
import { Admission, Overloaded } from "./admission";

/** A job the test ends by hand; `started` says when it began. */
function job(log: string[], name: string) {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    end,
  };
}

const refusedWith = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
const tick = () => new Promise((r) => setImmediate(r));

describe("heavy-work admission", () => {
  it("runs at most `concurrency` jobs at once, and the next as soon as one ends", async () => {
    const gate = new Admission({ concurrency: 2, maxQueued: 8, maxWaitMs: 60_000 });
    const log: string[] = [];
    const jobs = ["a", "b", "c"].map((n) => job(log, n));
    const answers = jobs.map((j) => gate.run("one", j.run));
    await tick();
    expect(log).toEqual(["a", "b"]);
    expect(gate.load()).toEqual({ running: 2, waiting: 1, clients: 1 });
    jobs[1].end();
    await tick();
    expect(log).toEqual(["a", "b", "c"]);
    jobs[0].end();
    jobs[2].end();
    expect(await Promise.all(answers)).toEqual(["a", "b", "c"]);
    expect(gate.load()).toEqual({ running: 0, waiting: 0, clients: 0 });
  });

  it("serves waiting clients in turn: one client's backlog delays another by one job, not by all of it", async () => {
    const gate = new Admission({ concurrency: 1, maxQueued: 8, maxWaitMs: 60_000 });
    const log: string[] = [];
    const a = ["a1", "a2", "a3", "a4"].map((n) => job(log, n));
    const b = ["b1", "b2"].map((n) => job(log, n));
    const answers = [...a.map((j) => gate.run("a", j.run)), ...b.map((j) => gate.run("b", j.run))];
    for (const j of [a[0], a[1], b[0], a[2], b[1], a[3]]) {
      await tick();
      j.end();
    }
    await Promise.all(answers);
    expect(log).toEqual(["a1", "a2", "b1", "a3", "b2", "a4"]);
  });

  it("refuses at once, with a retry time, past the queue's bound", async () => {
    const gate = new Admission({ concurrency: 1, maxQueued: 2, maxWaitMs: 60_000 });
    const log: string[] = [];
    const jobs = ["x", "y", "z"].map((n) => job(log, n));
    const answers = jobs.map((j, i) => gate.run(`client-${i}`, j.run));
    const started = performance.now();
    const refused = await refusedWith(gate.run("client-3", job(log, "late").run));
    expect(performance.now() - started).toBeLessThan(50);
    expect(refused).toBeInstanceOf(Overloaded);
    expect((refused as Overloaded).code).toBe("overloaded");
    expect((refused as Overloaded).retryAfterMs).toBeGreaterThanOrEqual(1000);
    for (const j of jobs) {
      await tick();
      j.end();
    }
    expect(await Promise.all(answers)).toEqual(["x", "y", "z"]);
    expect(log).not.toContain("late");
  });

  it("holds each client to its fair share of the queue while others wait", async () => {
    const gate = new Admission({ concurrency: 1, maxQueued: 4, maxWaitMs: 60_000 });
    const log: string[] = [];
    const jobs = ["r", "g0", "g1", "p0"].map((n) => job(log, n));
    // alone, a client may take the whole queue: it runs one and queues two
    const answers = jobs.slice(0, 3).map((j) => gate.run("greedy", j.run));
    // a second client arrives: each now has a share of 4 ÷ 2 = 2, and greedy holds its 2
    answers.push(gate.run("polite", jobs[3].run));
    expect(await refusedWith(gate.run("greedy", job(log, "g2").run))).toBeInstanceOf(Overloaded);
    expect(gate.load()).toEqual({ running: 1, waiting: 3, clients: 2 });
    for (const j of jobs) {
      await tick();
      j.end();
    }
    expect(await Promise.all(answers)).toEqual(["r", "g0", "g1", "p0"]);
    expect(log).toEqual(["r", "g0", "p0", "g1"]);
  });

  it("refuses at once when the wait the queue already promises is longer than maxWaitMs", async () => {
    const gate = new Admission({ concurrency: 1, maxQueued: 100, maxWaitMs: 2_000 });
    const log: string[] = [];
    // a slow job teaches the gate how long jobs take (its moving mean)
    const slow = job(log, "slow");
    const first = gate.run("a", slow.run);
    await new Promise((r) => setTimeout(r, 600));
    slow.end();
    await first;
    const jobs = [job(log, "blocker")];
    const answers = [gate.run("a", jobs[0].run)];
    let refused: unknown = null;
    for (let i = 0; i < 20 && refused === null; i++) {
      const j = job(log, `w${i}`);
      const p = gate.run(`c${i}`, j.run);
      const outcome = await Promise.race([refusedWith(p), tick().then(() => "waiting")]);
      if (outcome instanceof Overloaded) refused = outcome;
      else {
        jobs.push(j);
        answers.push(p);
      }
    }
    expect(refused).toBeInstanceOf(Overloaded);
    // a job takes ≥ 250 ms on the gate's mean here, so at most 2 s ÷ 250 ms = 8 may wait before the promise passes 2 s
    expect(jobs.length - 1).toBeGreaterThan(0);
    expect(jobs.length - 1).toBeLessThanOrEqual(8);
    expect((refused as Overloaded).retryAfterMs).toBeGreaterThan(2_000);
    for (const j of jobs) {
      await tick();
      j.end();
    }
    await Promise.all(answers);
  });
});

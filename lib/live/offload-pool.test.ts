// The offload pool against a real worker thread (a small stand-in for lib/offload/worker.ts
// that speaks its protocol): answers find their requests whatever order they come back in,
// an idle worker is stopped and the next job starts another, a worker with no job left is
// stopped at once while the process is over its memory budget, counters never go back
// across workers, and a worker that dies fails its jobs without failing the next.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyError } from "@/lib/schema/api/errors";
import { OffloadPool, type RouteJob } from "./offload-pool";

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
let jobs = 0;
parentPort.on("message", ({ id, job }) => {
  if (job.route === "die") process.exit(3);
  jobs += 1;
  const body =
    job.route === "hints" ? JSON.stringify(workerData.readHints.map((h) => [h.prefix, h.cuts.map((c) => Buffer.from(c).toString()), h.startLimit]))
    : job.route === "count" || job.route.endsWith("spent") ? String(jobs)
    : job.url;
  const answer = { status: 200, headers: {}, bytes: new TextEncoder().encode(body), etag: null, digest: null, failure: null };
  const gone = { status: 410, body: { error: { code: "revision_compacted", message: "compacted", compact_revision: 9 } } };
  const result = job.route === "fail" ? { ok: false, failure: { mapped: gone, text: "RevisionCompacted" } } : { ok: true, value: answer };
  const reply = () => parentPort.postMessage({
    id,
    result,
    // a "…spent" job (and "hints") leaves the worker keeping nothing; any other, a view per job so far
    memory: { pinned_views: job.route.endsWith("spent") || job.route === "hints" ? 0 : jobs, pinned_bytes: 0, held_views: 0 },
    counters: [{ name: "jobs_total", help: "jobs", type: "counter", aggregator: "sum", values: [{ labels: {}, value: jobs }] }],
  });
  setTimeout(reply, job.route.startsWith("slow") ? 80 : 0);
});
`;

let dir: string;
let file: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "offload-pool-"));
  file = path.join(dir, "worker.cjs");
  fs.writeFileSync(file, WORKER);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const job = (route: string, url: string): RouteJob => ({ route, method: "GET", url, params: {}, requestId: url });
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const jobsTotal = (pool: OffloadPool) =>
  pool
    .counters()
    .flat()
    .reduce((n, m) => n + m.values.reduce((k, v) => k + v.value, 0), 0);

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the offload pool", () => {
  it("matches each answer to its job, whatever order they come back in", async () => {
    const pool = new OffloadPool(file);
    const slow = pool.answer(job("slow", "http://x/slow"));
    const fast = pool.answer(job("fast", "http://x/fast"));
    const first = await Promise.race([slow.then(() => "slow"), fast.then(() => "fast")]);
    expect(first).toBe("fast");
    expect(text((await slow).bytes)).toBe("http://x/slow");
    expect(text((await fast).bytes)).toBe("http://x/fast");
    expect(pool.memory().pinned_views).toBe(2);
    await pool.close();
    expect(pool.memory().pinned_views).toBe(0);
  });

  it("stops an idle worker and starts another for the next job, its counters never going back", async () => {
    const pool = new OffloadPool(file, { idleMs: 50 });
    for (let i = 0; i < 3; i++) await pool.answer(job("fast", `http://x/${i}`));
    expect(jobsTotal(pool)).toBe(3);
    // stopped after 50 ms without a job: what it kept is gone, what it counted stays
    await until(() => pool.memory().pinned_views === 0);
    expect(jobsTotal(pool)).toBe(3);
    await pool.answer(job("fast", "http://x/again"));
    expect(pool.memory().pinned_views).toBe(1); // a new worker: its own first job
    expect(jobsTotal(pool)).toBe(4);
    // many stopped workers are summed into one figure, and still count
    for (let i = 0; i < 10; i++) {
      await pool.answer(job("fast", `http://x/more-${i}`));
      await until(() => pool.memory().pinned_views === 0);
    }
    await until(() => pool.counters().length < 8);
    expect(jobsTotal(pool)).toBe(14);
    await pool.close();
  });

  it("stops a worker with no job left and no view kept before its answer is sent while the process is over its memory budget", async () => {
    let over = false;
    const pool = new OffloadPool(file, { idleMs: 60_000, overBudget: () => over });
    const count = async (route = "count") => Number(text((await pool.answer(job(route, "http://x/c"))).bytes));
    expect(await count("spent")).toBe(1);
    expect(await count("spent")).toBe(2); // under the budget: one worker, kept warm
    over = true;
    expect(await count()).toBe(3); // it keeps a view (within its share): left running
    expect(await count()).toBe(4);
    // two jobs at once, the last to answer keeping nothing: the worker stops once both are answered
    const both = await Promise.all([
      pool.answer(job("fast", "http://x/5")),
      pool.answer(job("slow-spent", "http://x/6")),
    ]);
    expect(both.map((a) => text(a.bytes))).toEqual(["http://x/5", "6"]);
    expect(pool.memory().pinned_views).toBe(0);
    expect(jobsTotal(pool)).toBe(6);
    over = false;
    expect(await count("spent")).toBe(1); // a new worker
    expect(await count("spent")).toBe(2); // under the budget again: kept
    expect(jobsTotal(pool)).toBe(8);
    await pool.close();
  });

  it("starts each worker with the request thread's read hints as they are then", async () => {
    let cut = "/p/k-1";
    const pool = new OffloadPool(file, {
      overBudget: () => true, // each job in a new worker
      readHints: () => [{ prefix: "/p/", cuts: [Buffer.from(cut)], startLimit: 1000 }],
    });
    expect(JSON.parse(text((await pool.answer(job("hints", "http://x/h"))).bytes))).toEqual([
      ["/p/", ["/p/k-1"], 1000],
    ]);
    cut = "/p/k-2";
    expect(JSON.parse(text((await pool.answer(job("hints", "http://x/h"))).bytes))).toEqual([
      ["/p/", ["/p/k-2"], 1000],
    ]);
    await pool.close();
  });

  it("throws a job's failure on this thread as the same contract error", async () => {
    const pool = new OffloadPool(file);
    const failed = await pool.answer(job("fail", "http://x/fail")).catch((e: unknown) => e);
    expect(classifyError(failed)).toEqual({
      status: 410,
      body: { error: { code: "revision_compacted", message: "compacted", compact_revision: 9 } },
      headers: {},
    });
    await pool.close();
  });

  it("fails the jobs of a worker that dies, and answers the next job in a new one", async () => {
    const pool = new OffloadPool(file);
    const slow = pool.answer(job("slow", "http://x/slow"));
    const dying = pool.answer(job("die", "http://x/die"));
    await expect(dying).rejects.toThrow(/the offload worker stopped: exit 3/);
    await expect(slow).rejects.toThrow(/the offload worker stopped/);
    expect(text((await pool.answer(job("fast", "http://x/after"))).bytes)).toBe("http://x/after");
    await pool.close();
  });
});

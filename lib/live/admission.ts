import "server-only";
// The admission of heavy work (console-api.md "Additions (fourth version)", Overload and
// memory): work that reads or plans the whole fleet for a moment other than the live one
// (pinned reads outside the live view, history re-plans, diffs, previews) runs at most
// `concurrency` at a time; the rest waits in a bounded queue, each client in its own line and
// the lines served in turn (the idea of Kubernetes' API Priority and Fairness), so one client
// looping heavy reads delays another by one turn, not by its whole backlog. A request that
// cannot be queued is refused at once with `Overloaded` (`503 overloaded` with Retry-After,
// lib/schema/api/errors.ts): when the queue is full, when its client already holds its fair share of
// it, or when the wait the queue already promises is longer than `maxWaitMs`. Never a timeout
// after seconds of waiting. What runs is the caller's: today on the answering thread, later in
// a worker pool behind the same gate.
import { metrics } from "@/lib/metrics";

/** Refused heavy work: the queue has no room for it now (code `overloaded`). */
export class Overloaded extends Error {
  readonly code = "overloaded";
  constructor(
    message: string,
    /** when a retry may find room (the queue's promised wait) */
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = "Overloaded";
  }
}

export interface AdmissionOptions {
  /** heavy jobs running at once */
  concurrency: number;
  /** jobs waiting at most, all clients together */
  maxQueued: number;
  /** a job is refused when the queue ahead of it already promises a longer wait than this */
  maxWaitMs: number;
}

/**
 * Two at a time (one's etcd read overlaps the other's plan on the one thread), 16 waiting,
 * 10 s of promised wait at most.
 */
export const HEAVY_WORK: Readonly<AdmissionOptions> = Object.freeze({
  concurrency: 2,
  maxQueued: 16,
  maxWaitMs: 10_000,
});

interface Waiter {
  start: () => void;
}

/** a job's duration is remembered as a moving mean with this weight for the newest */
const MEAN_WEIGHT = 0.2;

export class Admission {
  private running = 0;
  /** each client's waiting jobs, oldest first; the map's order is the order clients are served in */
  private readonly lines = new Map<string, Waiter[]>();
  private waiting = 0;
  /** the moving mean of a job's duration (ms), for the wait the queue promises */
  private meanMs = 250;

  constructor(private readonly opts: Readonly<AdmissionOptions> = HEAVY_WORK) {}

  /** `work` once admitted (at once, or in its client's turn), or Overloaded now. */
  run<T>(client: string, work: () => Promise<T>): Promise<T> {
    if (this.running < this.opts.concurrency && this.waiting === 0) return this.execute(work, "run");
    const refusal = this.refusal(client);
    if (refusal) {
      metrics().heavyRequests.inc({ outcome: "refused" });
      return Promise.reject(refusal);
    }
    return new Promise<T>((resolve, reject) => {
      const line = this.lines.get(client) ?? [];
      line.push({ start: () => this.execute(work, "queued").then(resolve, reject) });
      this.lines.set(client, line);
      this.waiting += 1;
      metrics().heavyWaiting.set(this.waiting);
    });
  }

  /** Jobs running and waiting now, and the clients waiting. */
  load(): { running: number; waiting: number; clients: number } {
    return { running: this.running, waiting: this.waiting, clients: this.lines.size };
  }

  /** Why `client` cannot join the queue now, or null. */
  private refusal(client: string): Overloaded | null {
    const { concurrency, maxQueued, maxWaitMs } = this.opts;
    const promisedMs = Math.ceil((this.waiting + 1) / concurrency) * this.meanMs;
    const retry = Math.max(1000, Math.ceil(promisedMs / 1000) * 1000);
    if (this.waiting >= maxQueued)
      return new Overloaded(`the console is busy: ${this.waiting} heavy requests are waiting`, retry);
    const clients = this.lines.has(client) ? this.lines.size : this.lines.size + 1;
    const share = Math.max(1, Math.floor(maxQueued / clients));
    const own = this.lines.get(client)?.length ?? 0;
    if (own >= share)
      return new Overloaded(`the console is busy: this client has ${own} heavy requests waiting, its share`, retry);
    if (promisedMs > maxWaitMs)
      return new Overloaded(
        `the console is busy: a heavy request would wait about ${Math.round(promisedMs / 1000)} s`,
        retry,
      );
    return null;
  }

  private async execute<T>(work: () => Promise<T>, outcome: "run" | "queued"): Promise<T> {
    this.running += 1;
    metrics().heavyRequests.inc({ outcome });
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.meanMs += MEAN_WEIGHT * (performance.now() - started - this.meanMs);
      this.running -= 1;
      this.next();
    }
  }

  /** The next client's oldest job, clients in turn (a client served goes to the back). */
  private next(): void {
    while (this.running < this.opts.concurrency && this.waiting > 0) {
      const [client, line] = this.lines.entries().next().value!;
      const waiter = line.shift()!;
      this.lines.delete(client);
      if (line.length > 0) this.lines.set(client, line);
      this.waiting -= 1;
      metrics().heavyWaiting.set(this.waiting);
      waiter.start();
    }
  }
}

// The one deadline: a promise's answer, or a typed DeadlineExceeded once it has taken too
// long. Timers are unref'd: a pending deadline never keeps the process alive.

/** The awaited work gave no answer in time (code `deadline_exceeded`). */
export class DeadlineExceeded extends Error {
  readonly code = "deadline_exceeded";
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = "DeadlineExceeded";
  }
}

/**
 * The step `loopStepMs` takes where a deadline is about etcd answering, not about this
 * process being free to hear it (etcd calls, the ping, the health probe): a timer that fires
 * later than this was the thread held by other work (a plan of the fleet).
 */
export const LOOP_STEP_MS = 100;

export interface DeadlineOptions {
  /**
   * Count event-loop time, in steps of at most this (ms), instead of wall time: a step that
   * took longer was the loop being blocked (a plan of the fleet), not the work being slow,
   * so an answer already waiting behind the block is not declared lost.
   */
  loopStepMs?: number;
}

/** `work`'s answer or failure, or DeadlineExceeded after `ms` (see DeadlineOptions). */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string, opts: DeadlineOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const step = opts.loopStepMs;
    let budget = ms;
    let last = performance.now();
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const now = performance.now();
      budget = step === undefined ? 0 : budget - Math.min(now - last, step);
      last = now;
      if (budget <= 0) reject(new DeadlineExceeded(what, ms));
      else arm();
    };
    const arm = () => {
      timer = setTimeout(tick, step === undefined ? ms : Math.min(step, budget));
      (timer as { unref?: () => void }).unref?.();
    };
    arm();
    work.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

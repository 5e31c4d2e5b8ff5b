import "server-only";
// Requests waiting for the live view to reach a revision (lib/live/cache.ts `awaitRevision`):
// woken by the watch batch or the full read that brings it there, or let go at their deadline;
// and the demand stream waiting for the next live plan (lib/live/plan.ts counts them). No
// polling loop.

export class RevisionWaiters {
  private waiting = new Set<{ revision: number; wake: () => void }>();

  /** Resolves true when `wake` reaches `revision`, false after `timeoutMs`. */
  wait(revision: number, timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const waiter = {
        revision,
        wake: () => {
          clearTimeout(timer);
          this.waiting.delete(waiter);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.delete(waiter);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.waiting.add(waiter);
    });
  }

  /** Wakes every waiter whose revision `revision` has reached. */
  wake(revision: number): void {
    for (const w of this.waiting) if (w.revision <= revision) w.wake();
  }
}

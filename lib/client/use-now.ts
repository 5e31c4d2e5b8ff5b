"use client";
// A shared ticking clock for countdowns and ages. The server snapshot is 0 so the first
// client render matches the server HTML (no hydration mismatch), then it ticks.
import { useEffect, useState, useSyncExternalStore } from "react";

let now = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Wall-clock ms, updated every second (0 during server render and hydration). */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now || Date.now(),
    () => 0,
  );
}

/**
 * An age that counts on from a known value: `baseMs` as of `seenAt` (this tab's monotonic
 * clock), plus the time since. It re-renders when the age, shown to the nearest second
 * (`formatDuration`), would change: at each half second, not on the shared one-second tick,
 * whose phase is arbitrary (re-based by a poll just after a tick, the shown age would stand
 * still for up to two seconds), nor at each whole second (a render between two of those, a
 * poll's, showed the rounded value early and the next change came 1.5 s later). Null
 * without a base.
 */
export function useCountingAge(baseMs: number | null, seenAt: number | null): number | null {
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (baseMs === null || seenAt === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const age = baseMs + Math.max(0, performance.now() - seenAt);
      timer = setTimeout(
        () => {
          setNow(performance.now());
          arm();
        },
        1000 - ((age + 500) % 1000) + 5,
      );
    };
    arm();
    return () => clearTimeout(timer);
  }, [baseMs, seenAt]);
  if (baseMs === null || seenAt === null) return null;
  return baseMs + Math.max(0, now - seenAt);
}

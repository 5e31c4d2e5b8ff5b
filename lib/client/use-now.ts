"use client";
// A shared ticking clock for countdowns and ages. The server snapshot is 0 so the first
// client render matches the server HTML (no hydration mismatch), then it ticks.
import { useSyncExternalStore } from "react";

let now = 0;
let monotonic = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    monotonic = performance.now();
    timer = setInterval(() => {
      now = Date.now();
      monotonic = performance.now();
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
 * This tab's monotonic clock (performance.now()), ticking with useNow: for an interval
 * measured here (how long since a poll answered), never for a date (0 while hydrating).
 */
export function useMonotonicNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => monotonic || performance.now(),
    () => 0,
  );
}

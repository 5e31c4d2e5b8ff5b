// Marks order by value first, then epoch (scheduler-model.md §2.2). A lower value never
// replaces a higher one, whatever the epoch (§3.1; §11 item 2).
import type { Mark } from "@/lib/schema";

/** `candidate` strictly greater than `stored` by (value, epoch). */
export function isGreaterMark(candidate: Mark, stored: Mark): boolean {
  return candidate.value > stored.value || (candidate.value === stored.value && candidate.epoch > stored.epoch);
}

export function maxMark(a: Mark | null, b: Mark | null): Mark | null {
  if (a === null) return b;
  if (b === null) return a;
  return isGreaterMark(b, a) ? b : a;
}

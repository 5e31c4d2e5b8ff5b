// Task ids are time-ordered UUIDv7 (scheduler-model.md §2.8; console-api.md Additions
// "Fairness is live"): the first 48 bits are the Unix time in ms, written as the first 12
// lowercase hex digits (`tttttttt-tttt-7…`). Ids therefore sort by creation time, and the
// `tasks/` records created at or after a moment start at that moment's id prefix.

const TS_DIGITS = 12;
const MAX_MS = 2 ** 48 - 1;

/** `tttttttt-tttt`: the id prefix shared by every UUIDv7 minted in millisecond `ms`. */
export function uuidv7Prefix(ms: number): string {
  const t = Math.min(MAX_MS, Math.max(0, Math.floor(ms)))
    .toString(16)
    .padStart(TS_DIGITS, "0");
  return `${t.slice(0, 8)}-${t.slice(8)}`;
}

/** The Unix ms of a UUIDv7, or null when `id` is not one (version digit 7, variant 10xx). */
export function uuidv7Ms(id: string): number | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) return null;
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * A valid UUIDv7 of millisecond `ms` whose 74 other bits come from `n` (deterministic, so
 * simulated fleets are reproducible; distinct `n` below 2^32 give distinct ids).
 */
export function uuidv7(ms: number, n: number): string {
  const r = (Math.floor(n) >>> 0).toString(16).padStart(8, "0");
  return `${uuidv7Prefix(ms)}-7${r.slice(0, 3)}-8${r.slice(3, 6)}-0000${r.slice(6)}000000`;
}

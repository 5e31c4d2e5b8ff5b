// Display formatting only (no planner logic): bytes, durations, ages, counts.

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${BYTE_UNITS[unit]}`;
}

/** 0 → "0s", 95_000 → "1m 35s", 7_380_000 → "2h 03m", 90_000_000 → "1d 01h". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  // sub-second negatives (clock skew between server and browser) read as 0s, not -0s
  const negative = ms <= -1000;
  let seconds = Math.floor(Math.abs(ms) / 1000);
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const text =
    days > 0 ? `${days}d ${pad(hours)}h` : hours > 0 ? `${hours}h ${pad(minutes)}m` : minutes > 0 ? `${minutes}m ${pad(seconds)}s` : `${seconds}s`;
  return negative ? `-${text}` : text;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return n.toLocaleString("en-US");
}

/** Scores are numbers, or "infinity" (a repair with missing fragments, console-api.md). */
export function formatScore(score: number | "infinity" | null | undefined): string {
  if (score === "infinity") return "∞";
  if (score === null || score === undefined || !Number.isFinite(score)) return "—";
  return score >= 100 ? score.toFixed(0) : score.toFixed(2);
}

/** An ISO-like UTC timestamp, stable across the server and the browser. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

/** "3m 05s ago" relative to `now`. */
export function formatAgo(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return `${formatDuration(now - ms)} ago`;
}

// The console's one number format: sizes, durations and counts, used by the planner's
// messages (why-not sentences travel in the API) and by every page, so "2.0 GiB" or
// "1m 35s" reads the same wherever it appears. Pure: no locale, no clock.

const BYTE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];

/** Binary units, one decimal above bytes: 512 → "512 B", 2147483648 → "2.0 GiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const sign = bytes < 0 ? "-" : "";
  return unit === 0 ? `${bytes} B` : `${sign}${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** Two units at most, whole seconds rounded: 0 → "0s", 95_000 → "1m 35s", 7_380_000 → "2h 03m", 90_000_000 → "1d 01h". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  // to the nearest second; a negative under half a second (clock skew) reads 0s, not -0s
  let seconds = Math.round(Math.abs(ms) / 1000);
  const negative = ms < 0 && seconds > 0;
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  const text =
    days > 0
      ? `${days}d ${pad(hours)}h`
      : hours > 0
        ? `${hours}h ${pad(minutes)}m`
        : minutes > 0
          ? `${minutes}m ${pad(seconds)}s`
          : `${seconds}s`;
  return negative ? `-${text}` : text;
}

/** Thousands separated by commas, whatever the browser's locale: 13405 → "13,405". */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const sign = n < 0 ? "-" : "";
  const [whole, fraction] = String(Math.abs(n)).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** An ISO-like UTC timestamp to the second, stable across the server and the browser: "2026-12-01 03:10:12Z". */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

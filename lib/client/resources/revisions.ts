// The revision clock from the browser (console-api.md "Time"): what the time picker
// accepts, when a revision was written, and the neighbouring change on a page.
import { revisionTimeSchema, type RevisionTime } from "@/lib/schema/api/revisions";
import { parseAnswer } from "../api-core";
import { fetchJson } from "../fetch-json";
import { formatDuration, formatTime } from "@/lib/schema/format";

export type { RevisionTime };

/** What the picker understood: a revision, a wall time (UTC, as every page shows), or why not. */
export type Pin =
  { kind: "revision"; revision: number } | { kind: "time"; atMs: number } | { kind: "error"; message: string };

const UNIT_MS: Record<string, number> = {
  s: 1000,
  sec: 1000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};
const DAY_MS = 86_400_000;

function unitMs(unit: string): number | undefined {
  const u = unit
    .replace(/s$/, "")
    .replace(/^(hour)$/, "h")
    .replace(/^(minute)$/, "m")
    .replace(/^(second)$/, "s");
  return UNIT_MS[u] ?? UNIT_MS[unit];
}

/** "2h ago", "1h 30m ago", "45 min ago" → ms before now, or null. */
function ago(text: string): number | null {
  const m = /^((?:\d+(?:\.\d+)?\s*[a-z]+\s*)+)ago$/.exec(text);
  if (!m) return null;
  let total = 0;
  for (const part of m[1].matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
    const ms = unitMs(part[2]);
    if (ms === undefined) return null;
    total += Number(part[1]) * ms;
  }
  return total;
}

/**
 * The picker's input: a revision ("21000", "rev 21,000"), a clock time ("03:10",
 * "yesterday 22:00", "today 03:10:12"), a relative time ("2h ago", "now") or a date
 * ("2026-12-01 03:10"). Times are UTC. `liveRevision` rejects revisions that do not exist yet.
 */
export function parsePin(input: string, nowMs: number, liveRevision: number | null): Pin {
  const text = input.trim().toLowerCase().replace(/\s+/g, " ");
  if (text === "") return { kind: "error", message: "type a time (03:10, yesterday 22:00, 2h ago) or a revision" };
  const rev = /^(?:rev(?:ision)?\s*)?#?(\d{1,3}(?:,\d{3})+|\d+)$/.exec(text);
  if (rev) {
    const digits = rev[1].replace(/,/g, "");
    const revision = Number(digits);
    if (digits.length > 16 || !Number.isSafeInteger(revision) || revision < 1)
      return { kind: "error", message: `${rev[1]} is not a revision etcd can have` };
    if (liveRevision !== null && revision > liveRevision)
      return {
        kind: "error",
        message: `revision ${revision.toLocaleString("en-US")} does not exist yet (the newest is ${liveRevision.toLocaleString("en-US")})`,
      };
    return { kind: "revision", revision };
  }
  if (text === "now") return { kind: "time", atMs: nowMs };
  const before = ago(text);
  if (before !== null)
    return before > 400 * DAY_MS
      ? { kind: "error", message: `${input.trim()} is further back than any history` }
      : { kind: "time", atMs: nowMs - before };
  const clock = /^(today |yesterday )?(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (clock) {
    const [h, m, s] = [Number(clock[2]), Number(clock[3]), Number(clock[4] ?? 0)];
    if (h > 23 || m > 59 || s > 59) return { kind: "error", message: `${input.trim()} is not a time of day` };
    const midnight = Math.floor(nowMs / DAY_MS) * DAY_MS;
    let at = midnight + ((h * 60 + m) * 60 + s) * 1000;
    if (clock[1] === "yesterday ") at -= DAY_MS;
    else if (clock[1] === undefined && at > nowMs) at -= DAY_MS; // "22:00" in the morning means last night
    return at > nowMs ? { kind: "error", message: `${input.trim()} is in the future` } : { kind: "time", atMs: at };
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:[ t](\d{1,2}):(\d{2})(?::(\d{2}))?)?z?$/.exec(text);
  if (date) {
    const [y, mo, d, h, mi, s] = date.slice(1).map((x) => Number(x ?? 0));
    const at = Date.UTC(y, mo - 1, d, h, mi, s);
    if (!Number.isFinite(at) || new Date(at).getUTCDate() !== d)
      return { kind: "error", message: `${input.trim()} is not a date` };
    return at > nowMs ? { kind: "error", message: `${input.trim()} is in the future` } : { kind: "time", atMs: at };
  }
  return {
    kind: "error",
    message: `cannot read ${JSON.stringify(input.trim())}: type a time (03:10, yesterday 22:00, 2h ago) or a revision`,
  };
}

/** "±4 s, estimated from heartbeats" */
export function describeRevisionTime(t: RevisionTime): string {
  const basis =
    t.basis === "console_clock"
      ? "from the console's clock"
      : t.basis === "record_timestamps"
        ? "estimated from heartbeats and flush times"
        : "time unknown";
  if (t.error_ms === null) return basis;
  const err =
    t.error_ms < 1000
      ? "< 1 s"
      : t.error_ms < 120_000
        ? `${Math.round(t.error_ms / 1000)} s`
        : formatDuration(t.error_ms);
  return `±${err}, ${basis}`;
}

/** Past this error a midpoint misleads ("19:09 ±12h" for a time asked as 07:09): say the range. */
const RANGE_FROM_ERROR_MS = 10 * 60_000;

/**
 * When a revision was written, as the pinned banner says it: "2026-12-01 03:10:12Z (±4 s,
 * from the console's clock)", or, when the estimate is wide (before the console's own clock
 * samples), the range it stands for instead of its midpoint.
 */
export function revisionTimeText(t: RevisionTime): string {
  if (t.at_ms === null) return "an unknown time";
  if (t.error_ms !== null && t.error_ms > RANGE_FROM_ERROR_MS)
    return `some time between ${formatTime(t.at_ms - t.error_ms)} and ${formatTime(t.at_ms + t.error_ms)} (${
      t.basis === "record_timestamps" ? "estimated from heartbeats and flush times: " : ""
    }the console's own clock samples do not reach back this far)`;
  return `${formatTime(t.at_ms)} (${describeRevisionTime(t)})`;
}

export const revisionKeys = {
  time: (revision: number) => ["revisions", "time", revision] as const,
  at: (atMs: number) => ["revisions", "at", atMs] as const,
  change: (scope: string, target: string | null, revision: number, direction: "back" | "forward") =>
    ["revisions", "change", scope, target ?? "", revision, direction] as const,
};

export function fetchRevisionTime(revision: number, signal?: AbortSignal): Promise<RevisionTime> {
  const path = "/api/v1/revisions/time";
  return fetchJson(path, { revision }, signal).then((body) => parseAnswer(revisionTimeSchema, body, path));
}

export function fetchRevisionAt(atMs: number, signal?: AbortSignal): Promise<RevisionTime> {
  const path = "/api/v1/revisions/time";
  return fetchJson(path, { at_ms: Math.floor(atMs) }, signal).then((body) =>
    parseAnswer(revisionTimeSchema, body, path),
  );
}

/** The neighbouring revision at which something the page shows changed (404: none). */
export function fetchChange(
  scope: string,
  target: string | null,
  revision: number,
  direction: "back" | "forward",
  signal?: AbortSignal,
): Promise<RevisionTime> {
  const path = "/api/v1/revisions/change";
  return fetchJson(path, { scope, target, revision, direction }, signal).then((body) =>
    parseAnswer(revisionTimeSchema, body, path),
  );
}

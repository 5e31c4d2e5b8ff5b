import "server-only";
// A time before etcd's history (console-api.md "Time": "a time before the oldest readable
// revision says so, with that revision and its time"): the revision clock's 404, and the same
// error read back by the history and the diff, which start where the history does instead.
import { formatCount, formatDuration, formatTime } from "@/lib/schema/format";
import type { HistoryStart, RevisionTime } from "@/lib/schema/api/revisions";
import { ApiError } from "@/lib/schema/api/errors";

/**
 * A time before etcd's history says so, with the revision it starts at (the oldest readable
 * one, or the first that can be dated when older ones hold nothing that tells) and its time.
 */
export function beforeHistory(atMs: number, oldestRevision: number, oldest: RevisionTime | null = null): ApiError {
  const when =
    oldest?.at_ms == null
      ? ""
      : `, written about ${formatTime(oldest.at_ms)}${oldest.error_ms ? ` (± ${formatDuration(oldest.error_ms)})` : ""}`;
  return new ApiError(
    404,
    "not_found",
    `${formatTime(atMs)} is before etcd's history, which starts at revision ${formatCount(oldestRevision)}${when}. Pick a later time.`,
    {
      oldest_revision: oldestRevision,
      oldest_at_ms: oldest?.at_ms ?? null,
      oldest_error_ms: oldest?.error_ms ?? null,
    },
  );
}

/**
 * The 404 of a time before etcd's history, read back: the revision the history starts at and
 * its time (null for any other error). History and diff clamp to it and say so.
 */
export function historyStartOf(e: unknown, requestedMs: number): HistoryStart | null {
  if (!(e instanceof ApiError) || e.status !== 404 || typeof e.extra.oldest_revision !== "number") return null;
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  return {
    revision: e.extra.oldest_revision,
    at_ms: num(e.extra.oldest_at_ms),
    error_ms: num(e.extra.oldest_error_ms),
    requested_ms: requestedMs,
  };
}

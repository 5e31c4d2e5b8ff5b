import "server-only";
// Opaque paging cursors (console-api.md: "paging by cursor is stable for one revision"):
// the revision and `now` the first page was planned at, the offset of the next row, and a
// fingerprint of the filters and sort, so a cursor cannot be replayed against another query.
import { createHash } from "node:crypto";
import { ApiError } from "@/lib/schema/api/errors";

export interface Cursor {
  revision: number;
  now: number;
  offset: number;
  /** fingerprint of the filters and sort */
  query: string;
  /** the filters and sort themselves, so a bare `?cursor=` continues the same listing */
  filters: unknown;
}

export function queryFingerprint(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 12);
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([1, c.revision, c.now, c.offset, c.query, c.filters])).toString("base64url");
}

export function decodeCursor(raw: string): Cursor {
  const bad = () =>
    new ApiError(400, "invalid_query", "cursor: not a cursor returned by this endpoint", {
      issues: [{ path: ["cursor"], code: "invalid_cursor", message: "not a cursor returned by this endpoint" }],
    });
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parts) || parts.length !== 6 || parts[0] !== 1) throw bad();
  const [, revision, now, offset, query, filters] = parts as [number, unknown, unknown, unknown, unknown, unknown];
  const ints = [revision, now, offset].every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0);
  if (!ints || typeof query !== "string" || (revision as number) < 1) throw bad();
  if (query !== queryFingerprint(filters)) throw bad();
  return { revision: revision as number, now: now as number, offset: offset as number, query, filters };
}

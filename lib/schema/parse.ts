// Parsing never throws into callers (console-api.md "Conventions"): every family parser
// returns either the record or a skip reason with a short human detail.
import type { z } from "zod";

import type { SkipReason } from "./codes";

export type { SkipReason };

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: SkipReason; detail: string };

/** Larger values are skipped unread as `too_large` (the §8.1 page byte budget, 1 MiB). */
export const MAX_VALUE_BYTES = 1_048_576;

export function skip(reason: SkipReason, detail: string): { ok: false; reason: SkipReason; detail: string } {
  return { ok: false, reason, detail };
}

/** UTF-8 byte length without allocating (surrogate pairs = 4 bytes). */
export function utf8ByteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Size check (cheap first: a string of L UTF-16 units is at most 3L UTF-8 bytes). */
function isTooLarge(value: string): boolean {
  if (value.length * 3 <= MAX_VALUE_BYTES) return false;
  if (value.length > MAX_VALUE_BYTES) return true;
  return utf8ByteLength(value) > MAX_VALUE_BYTES;
}

/** JSON.parse guarded by the size limit; the body must be a JSON object. */
export function parseJsonObject(value: string): Parsed<Record<string, unknown>> {
  if (isTooLarge(value)) return skip("too_large", `value is over ${MAX_VALUE_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(value);
  } catch (e) {
    return skip("bad_json", e instanceof Error ? e.message : "invalid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return skip("schema", "expected a JSON object");
  }
  return { ok: true, value: body as Record<string, unknown> };
}

/** First zod issue as one line: `path: message`. */
export function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "invalid record";
  const path = first.path.length > 0 ? first.path.join(".") : "(root)";
  const more = error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : "";
  return `${path}: ${first.message}${more}`;
}

/**
 * Version rules of scheduler-model.md §2.
 * * `lenient` (demand records): absent → 1, 0 → 1 (pre-versioning), anything else unknown.
 * * `strict` (heartbeats, assignments, leader): only 1. Absent is read as 1 — the master's
 *   structs default `v` the same way serde does for demand (our choice; a `v: 0` heartbeat
 *   is ignored as the spec requires).
 * Returns the normalised version (1) or the raw unknown value.
 */
export function checkVersion(
  body: Record<string, unknown>,
  rule: "lenient" | "strict",
): { ok: true } | { ok: false; reason: "unknown_version" | "schema"; detail: string } {
  const v = body.v;
  if (v === undefined || v === 1) return { ok: true };
  if (v === 0 && rule === "lenient") return { ok: true };
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    return { ok: false, reason: "schema", detail: `v: expected a non-negative integer, got ${JSON.stringify(v)}` };
  }
  return { ok: false, reason: "unknown_version", detail: `unsupported version ${v}` };
}

/** JSON → version rule → zod schema; the parsed record always carries `v: 1` if it has one. */
export function parseVersioned<S extends z.ZodType>(
  schema: S,
  value: string,
  rule: "lenient" | "strict",
): Parsed<z.infer<S>> {
  const json = parseJsonObject(value);
  if (!json.ok) return json;
  const version = checkVersion(json.value, rule);
  if (!version.ok) return skip(version.reason, version.detail);
  return parseWith(schema, json.value);
}

/** JSON → zod schema, for unversioned families (legacy records). */
export function parsePlain<S extends z.ZodType>(schema: S, value: string): Parsed<z.infer<S>> {
  const json = parseJsonObject(value);
  if (!json.ok) return json;
  return parseWith(schema, json.value);
}

function parseWith<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.infer<S>> {
  const result = schema.safeParse(body);
  if (!result.success) return skip("schema", describeIssues(result.error));
  return { ok: true, value: result.data };
}

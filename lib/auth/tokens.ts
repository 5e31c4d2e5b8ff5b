import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";

// console-api.md Security: tokens are compared in constant time and never logged.
// Both sides are hashed first so the compared buffers always have equal length
// (timingSafeEqual requires it) and a token's length leaks nothing either.

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time equality of two secrets (sha256 digests compared with timingSafeEqual). */
export function tokensEqual(candidate: string, expected: string): boolean {
  return timingSafeEqual(digest(candidate), digest(expected));
}

/**
 * The configured token equal to `candidate`, or null. Every configured token is compared
 * (no early exit), so the time taken does not tell which one matched.
 */
export function matchToken(candidate: string, configured: readonly string[]): string | null {
  let found: string | null = null;
  for (const token of configured) {
    if (tokensEqual(candidate, token) && found === null) found = token;
  }
  return found;
}

/** `a,b , c` → ["a","b","c"]; blanks dropped. */
export function parseTokenList(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw.split(",").map((t) => t.trim()).filter((t) => t.length > 0);
}

/** A stable, non-secret name for whoever holds `token`: `admin:<12 hex of sha256>`. */
export function actorFor(role: "admin" | "viewer", token: string): string {
  return `${role}:${digest(token).toString("hex").slice(0, 12)}`;
}

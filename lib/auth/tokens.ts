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

/** One configured token; `name` is who holds it (console-api.md third version: `name:token` items). */
export interface NamedToken {
  name: string | null;
  token: string;
}

/** A name before the first `:` of an item: a person's or a system's name, e.g. `alice`, `deploy-bot`, `ops@example`. */
const TOKEN_NAME = /^[A-Za-z0-9][\w.@+-]{0,63}$/;

/**
 * `alice:s3cret, deploy-bot:t0ken, plain` → named and plain tokens; blanks dropped. An
 * item whose text before its first `:` is a name is `name:token`; any other item is a
 * plain token (so a plain token containing `:` needs a name in front of it).
 */
export function parseNamedTokens(raw: string | undefined): NamedToken[] {
  if (!raw) return [];
  const out: NamedToken[] = [];
  for (const item of raw
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t.length > 0)) {
    const colon = item.indexOf(":");
    const name = colon > 0 ? item.slice(0, colon) : "";
    const token = item.slice(colon + 1);
    if (colon > 0 && TOKEN_NAME.test(name) && token.length > 0) out.push({ name, token });
    else out.push({ name: null, token: item });
  }
  return out;
}

/** The secrets alone: `a,b , c` → ["a","b","c"]; `alice:s3cret` → ["s3cret"]. */
export function parseTokenList(raw: string | undefined): string[] {
  return parseNamedTokens(raw).map((t) => t.token);
}

/**
 * Who holds `token`: its configured name, else a stable, non-secret
 * `admin:<12 hex of sha256>` (or `viewer:…`).
 */
export function actorFor(role: "admin" | "viewer", token: string, name: string | null = null): string {
  return name ?? `${role}:${digest(token).toString("hex").slice(0, 12)}`;
}

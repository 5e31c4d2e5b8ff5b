// console-api.md "Single sign-on and team rights": a rule's targets are globs: `*` covers
// every table and the fleet default; `orders/*` every table whose name starts `orders/`;
// any other glob one table by its exact name. `_default` is covered by `*` alone. Pure, so
// the server's check (lib/auth/rights.ts) and a page's links use the same rule.
import { DEFAULT_POLICY_TARGET } from "./policy";

export const EVERY_TARGET = "*";

/** True when `glob` covers `target` (a table's name, or `_default`). */
export function globCovers(glob: string, target: string): boolean {
  if (glob === EVERY_TARGET) return true;
  if (target === DEFAULT_POLICY_TARGET) return false;
  if (glob.endsWith("*")) return target.startsWith(glob.slice(0, -1));
  return glob === target;
}

/** The first of `globs` that covers `target`, or null. */
export function coveringGlob(globs: readonly string[], target: string): string | null {
  return globs.find((g) => globCovers(g, target)) ?? null;
}

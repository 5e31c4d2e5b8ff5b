import "server-only";
// Read-your-writes on the server (console-api.md "Conventions", `?min_revision=R`): a live
// read asked to include revision R waits, bounded, for the watch to bring the live view to R
// (awaitRevision: woken by the watch batch, no polling), then answers from a plan at R or
// later (lib/live/plan.ts reads the floor of the request it serves). Past the bound it
// answers with what it has, and the caller says so.
import { AsyncLocalStorage } from "node:async_hooks";
import { liveCache } from "./cache";

/** How long a read waits for the live view to reach its `min_revision`. */
const MIN_REVISION_WAIT_MS = 5000;

/** the floor of the request being served (the HTTP wrapper sets it, the plan reads it) */
const FLOORS = new AsyncLocalStorage<number>();

/** The revision the request being served must include, or null (no floor, or it was not reached). */
export function readFloor(): number | null {
  return FLOORS.getStore() ?? null;
}

/**
 * Runs `read` once the live view holds `revision` (true), or after `waitMs` without it
 * (false: `read` runs without a floor and answers with what the process has).
 */
export async function readAtLeast<T>(
  revision: number,
  read: () => Promise<T>,
  waitMs = MIN_REVISION_WAIT_MS,
): Promise<{ reached: boolean; value: T }> {
  const reached = await liveCache().awaitRevision(revision, waitMs);
  const value = reached ? await FLOORS.run(revision, read) : await read();
  return { reached, value };
}
